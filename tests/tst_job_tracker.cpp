// SPDX-License-Identifier: MIT
// JobTracker: a superseded job's result never lands, a job whose context is deleted delivers nothing, and
// cancel() reaches the token the work sees.
#include "job_tracker.h"

#include <QSemaphore>
#include <QThreadPool>
#include <QtTest>
#include <atomic>
#include <memory>

using namespace rankscope;

namespace {

constexpr int kWaitMs = 10'000;

// Holds jobs until open() or the end of the test: a check that fails early must not leave a job blocked
// on the pool, which the program would wait for at exit.
class Gate
{
public:
    Gate() = default;
    Gate(const Gate&) = delete;
    Gate& operator=(const Gate&) = delete;
    ~Gate() { open(); }
    void open()
    {
        if (!m_open.exchange(true))
            m_semaphore->release(1000);
    }
    std::shared_ptr<QSemaphore> semaphore() const { return m_semaphore; }

private:
    std::shared_ptr<QSemaphore> m_semaphore = std::make_shared<QSemaphore>();
    std::atomic<bool> m_open = false;
};

// A job that waits until the gate opens, then returns `value`.
auto heldJob(const Gate& gate, int value)
{
    return [semaphore = gate.semaphore(), value](const CancelToken&) {
        semaphore->acquire();
        return value;
    };
}

// Runs the UI thread's queue until the latest job's work has returned and what it posted was handled.
void settle(JobTracker& jobs)
{
    jobs.waitForFinished();
    QCoreApplication::processEvents();
    QTest::qWait(20);
}

} // namespace

class TestJobTracker : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        // Held jobs occupy pool threads; the 2-core CI machine would otherwise run only two at once.
        QThreadPool::globalInstance()->setMaxThreadCount(std::max(4, QThread::idealThreadCount()));
    }

    void resultLandsOnTheUiThread()
    {
        JobTracker jobs;
        QObject context;
        int got = 0;
        Qt::HANDLE thread = nullptr;
        jobs.startJob(
            &context, [](const CancelToken&) { return 42; },
            [&](int v) {
                got = v;
                thread = QThread::currentThreadId();
            });
        QVERIFY(jobs.isRunning());
        QTRY_COMPARE_WITH_TIMEOUT(got, 42, kWaitMs);
        QCOMPARE(thread, QThread::currentThreadId());
        QVERIFY(!jobs.isRunning());
        QVERIFY(!jobs.isCancelled());
    }

    void secondJobSupersedesTheFirst()
    {
        JobTracker jobs;
        QObject context;
        Gate firstGate;
        auto firstSawCancel = std::make_shared<std::atomic<bool>>(false); // outlives a test that fails
        QList<int> landed;
        jobs.startJob(
            &context,
            [semaphore = firstGate.semaphore(), firstSawCancel](const CancelToken& token) {
                semaphore->acquire();
                *firstSawCancel = token.isCancelled();
                return 1;
            },
            [&](int v) { landed << v; });
        jobs.startJob(
            &context, [](const CancelToken&) { return 2; }, [&](int v) { landed << v; });
        QTRY_COMPARE_WITH_TIMEOUT(landed, QList<int>({ 2 }), kWaitMs);
        QVERIFY(!jobs.isRunning());
        // The first job finishes only now: its result is stale and must never land.
        firstGate.open();
        QTRY_VERIFY_WITH_TIMEOUT(firstSawCancel->load(), kWaitMs); // started over: its token was cancelled
        QTest::qWait(100);
        QCOMPARE(landed, QList<int>({ 2 }));
    }

    void staleResultAfterTheNewerOneStillRuns()
    {
        // The newer job is the one still running when the older one returns.
        JobTracker jobs;
        QObject context;
        Gate gate;
        QList<int> landed;
        jobs.startJob(
            &context, [](const CancelToken&) { return 1; }, [&](int v) { landed << v; });
        jobs.startJob(&context, heldJob(gate, 2), [&](int v) { landed << v; });
        QTest::qWait(100); // the first has returned and posted by now
        QVERIFY(landed.isEmpty());
        QVERIFY(jobs.isRunning());
        gate.open();
        QTRY_COMPARE_WITH_TIMEOUT(landed, QList<int>({ 2 }), kWaitMs);
    }

    void deletedContextGetsNothing()
    {
        JobTracker jobs;
        auto* context = new QObject;
        Gate gate;
        bool landed = false;
        jobs.startJob(context, heldJob(gate, 7), [&](int) { landed = true; });
        delete context;
        gate.open();
        settle(jobs);
        QVERIFY(!landed);
        QVERIFY(!jobs.isRunning()); // what came back was the latest job's, and it is over
    }

    void cancelReachesTheWork()
    {
        JobTracker jobs;
        QObject context;
        int result = -1;
        bool cancelledInDone = false;
        jobs.startJob(
            &context,
            [](const CancelToken& token) {
                QElapsedTimer clock;
                clock.start();
                while (!token.isCancelled() && clock.elapsed() < kWaitMs)
                    QThread::msleep(1);
                return token.isCancelled() ? 1 : 0;
            },
            [&](int v) {
                result = v;
                cancelledInDone = jobs.isCancelled();
            });
        QVERIFY(!jobs.isCancelled());
        jobs.cancel();
        QVERIFY(jobs.isCancelled());
        QTRY_COMPARE_WITH_TIMEOUT(result, 1, kWaitMs); // a cancelled job still hands back what it has
        QVERIFY(cancelledInDone);
    }

    void droppedJobGetsNothing()
    {
        JobTracker jobs;
        QObject context;
        Gate gate;
        bool landed = false;
        jobs.startJob(&context, heldJob(gate, 3), [&](int) { landed = true; });
        const quint64 generation = jobs.generation();
        jobs.drop();
        QVERIFY(jobs.isCancelled());
        QVERIFY(!jobs.isRunning());
        QVERIFY(jobs.generation() > generation);
        gate.open();
        settle(jobs);
        QVERIFY(!landed);
    }

    void destroyedTrackerGetsNothing()
    {
        QObject context;
        Gate gate;
        bool landed = false;
        {
            JobTracker jobs;
            jobs.startJob(&context, heldJob(gate, 4), [&](int) { landed = true; });
        }
        gate.open();
        QTest::qWait(200);
        QVERIFY(!landed);
    }

    void progressOfTheLatestJobOnly()
    {
        JobTracker jobs;
        QObject context;
        QList<qint64> seen;
        int result = 0;
        jobs.startJob(
            &context,
            [](const CancelToken&, const ProgressFn& progress) {
                for (qint64 i = 1; i <= 3; ++i)
                    progress(i, 3);
                return 5;
            },
            [&](int v) { result = v; }, [&](qint64 done, qint64 total) { seen << done * 10 + total; });
        QTRY_COMPARE_WITH_TIMEOUT(result, 5, kWaitMs);
        // Reports are posted before the result, and none arrives once the result has landed.
        QCOMPARE(seen, QList<qint64>({ 13, 23, 33 }));
    }
};

QTEST_MAIN(TestJobTracker)
#include "tst_job_tracker.moc"
