// SPDX-License-Identifier: MIT
// BackgroundRelease frees on another thread, and its destructor waits until everything is freed.
#include "background_release.h"

#include <QtTest>
#include <atomic>
#include <chrono>
#include <memory>
#include <thread>

using namespace rankscope;

namespace {

// Records which thread destroyed it, slowly, so a destructor that did not wait would be caught.
struct SlowToFree
{
    std::atomic<int>* freed;
    std::thread::id* by;
    SlowToFree(std::atomic<int>* f, std::thread::id* b)
        : freed(f)
        , by(b)
    {
    }
    SlowToFree(SlowToFree&& o) noexcept
        : freed(std::exchange(o.freed, nullptr))
        , by(o.by)
    {
    }
    ~SlowToFree()
    {
        if (!freed)
            return; // moved from
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        *by = std::this_thread::get_id();
        ++*freed;
    }
};

} // namespace

class TestBackgroundRelease : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void freesOnAnotherThreadAndWaits()
    {
        std::atomic<int> freed { 0 };
        std::thread::id by[2];
        {
            BackgroundRelease release;
            release.release(SlowToFree(&freed, &by[0]));
            release.release(std::make_unique<SlowToFree>(&freed, &by[1]));
            QCOMPARE(freed.load(), 0); // still being freed elsewhere
        }
        QCOMPARE(freed.load(), 2);
        QVERIFY(by[0] != std::this_thread::get_id());
        QVERIFY(by[1] != std::this_thread::get_id());
    }
};

QTEST_GUILESS_MAIN(TestBackgroundRelease)
#include "tst_background_release.moc"
