// SPDX-License-Identifier: MIT
// The scanner's per-line shortcuts (a repeated NCCL prefix, a repeated glog header, a plain message) must
// never change a result: every input is loaded with and without them and the incidents compared field by
// field. The layouts and the sample job, then generated incidents in every layout with their faults.
#include "incident_compare.h"
#include "incident_generator.h"
#include "ingest.h"
#include "signature_catalog.h"
#include "signature_matcher.h"

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

using namespace rankscope;
using namespace rankscope::testgen;

Q_DECLARE_METATYPE(Layout)
Q_DECLARE_METATYPE(Fault)

class TestScanShortcuts : public QObject
{
    Q_OBJECT
private:
    Catalog m_catalog;
    std::unique_ptr<SignatureMatcher> m_matcher;

    // The fast load, after comparing it with the full one.
    LoadResult compareLoads(const QString& path)
    {
        LoadOptions o;
        o.paths = { path };
        o.catalog = &m_catalog;
        o.matcher = m_matcher.get();
        const LoadResult fast = loadIncidents(o);
        o.shortcuts = false;
        const LoadResult full = loadIncidents(o);
        [&] { // QVERIFY returns from the function it is in
            const QString difference = testing::loadDifference(fast, full);
            QVERIFY2(difference.isEmpty(), qPrintable(difference));
            QVERIFY(!full.incidents.empty());
        }();
        return fast;
    }

    // Writes `log` as the only file of a scratch folder, then compareLoads() on it.
    LoadResult compareLoadsOf(const QString& name, const QByteArray& log)
    {
        QTemporaryDir dir;
        QFile f(dir.filePath(name));
        if (!f.open(QIODevice::WriteOnly) || f.write(log) != log.size()) {
            QTest::qFail("cannot write a scratch file", __FILE__, __LINE__);
            return {};
        }
        f.close();
        return compareLoads(dir.path());
    }

private Q_SLOTS:
    void initTestCase()
    {
        CatalogLoadResult cat = loadCatalogDir(QStringLiteral(RANKSCOPE_SOURCE_DIR "/signatures"));
        QVERIFY(cat.catalog.signatures.size() > 10);
        m_catalog = cat.catalog;
        m_matcher = std::make_unique<SignatureMatcher>(m_catalog);
        QVERIFY(m_matcher->isValid());
    }

    // A failure line a paste hard-wrapped in two (OpenRLHF#265's Ray worker, cut at 150 columns inside
    // "(172.17.0.2" / ", 44737).") is matched whole, and keeps its own line and text; a Markdown backtick
    // before the Ray tag does not hide the writer. A short unmatched line is never joined.
    void hardWrappedFailureLineMatchesWhole()
    {
        const QByteArray first =
            "`(RayWorkerVllm pid=207931, ip=10.0.1.75) [E socket.cpp:922] [c10d] The client socket "
            "has timed out after 1800s while trying to connect to (172.17.0.2";
        const LoadResult r = compareLoadsOf(QStringLiteral("log.txt"),
            first + "\n, 44737).\n(CriticModelRayActor pid=489290) \nERROR: disk quota\nexceeded on /data\n");
        const Incident& inc = r.incidents.front();
        const LogEvent* wrapped = nullptr;
        const LogEvent* shortLine = nullptr;
        for (const LogEvent& e : inc.events) {
            if (e.line == 1)
                wrapped = &e;
            if (e.line == 4)
                shortLine = &e;
        }
        QVERIFY(wrapped && shortLine);
        QCOMPARE(wrapped->text, QString::fromUtf8(first));
        QVERIFY(wrapped->signature >= 0);
        QCOMPARE(m_catalog.signatures[static_cast<size_t>(wrapped->signature)].id,
            QStringLiteral("c10d-store-connect-timeout"));
        bool port = false;
        for (const Capture& c : wrapped->captures)
            port = port || (c.first == QLatin1String("master_port") && c.second == QLatin1String("44737"));
        QVERIFY(port);
        QCOMPARE(wrapped->pid, qint64(207931));
        QCOMPARE(shortLine->signature, -1);
        QVERIFY(inc.files.front().notes.join(QLatin1Char('\n')).contains(QLatin1String("hard-wrapped")));
    }

    // What failed is the line a reader looks for: a traceback's first exception line (modded-nanogpt#61)
    // and std::terminate's what() (pytorch#15592) head their records; the line that opened the record
    // leads its continuation. In a chained traceback the first exception, the cause, heads the record.
    void recordsAreHeadedByWhatFailed()
    {
        const LoadResult r = compareLoadsOf(QStringLiteral("console.log"),
            "Traceback (most recent call last):\n"
            "  File \"/home/schmid/modded-nanogpt/train_gpt.py\", line 402, in <module>\n"
            "    torch.cuda.set_device(local_rank)\n"
            "RuntimeError: CUDA error: invalid device ordinal\n"
            "\n"
            "During handling of the above exception, another exception occurred:\n"
            "\n"
            "Traceback (most recent call last):\n"
            "  File \"train.py\", line 9, in <module>\n"
            "KeyError: 'LOCAL_RANK'\n"
            "terminate called after throwing an instance of 'gloo::IoException'\n"
            "  what():  [/opt/conda/conda-bld/pytorch_1544084119927/work/third_party/gloo/gloo/transport/tcp/"
            "pair.cc:724] connect [127.0.1.1]:3210: Connection refused\n"
            "Aborted (core dumped)\n");
        const Incident& inc = r.incidents.front();
        const LogEvent* traceback = nullptr;
        const LogEvent* terminate = nullptr;
        for (const LogEvent& e : inc.events) {
            if (e.text.startsWith(QLatin1String("RuntimeError")))
                traceback = &e;
            if (e.text.contains(QLatin1String("what():")))
                terminate = &e;
            QVERIFY2(!e.text.startsWith(QLatin1String("Traceback")), qPrintable(e.text));
            QVERIFY2(!e.text.startsWith(QLatin1String("terminate called")), qPrintable(e.text));
        }
        QVERIFY(traceback && terminate);
        QCOMPARE(traceback->line, qint64(4));
        QCOMPARE(traceback->continuation.value(0), QStringLiteral("Traceback (most recent call last):"));
        // The exception raised while handling it is an event of its own, after the cause.
        const auto later = std::find_if(inc.events.begin(), inc.events.end(),
            [](const LogEvent& e) { return e.text == QLatin1String("KeyError: 'LOCAL_RANK'"); });
        QVERIFY(later != inc.events.end() && later->line == 10);
        QCOMPARE(terminate->line, qint64(12));
        QCOMPARE(terminate->continuation.value(0),
            QStringLiteral("terminate called after throwing an instance of 'gloo::IoException'"));
        QVERIFY(terminate->signature >= 0); // the what() line says it: gloo's connect refused
    }

    void fixtures_data()
    {
        QTest::addColumn<QString>("input");
        QTest::newRow("sample job") << "sample-job";
        const QDir layouts(QStringLiteral(RANKSCOPE_TEST_DATA "/layouts"));
        for (const QString& name : layouts.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
            if (name != QLatin1String("pasted")) // only a Markdown file, which a folder walk skips
                QTest::newRow(qPrintable(name)) << QStringLiteral("layouts/") + name;
        }
        // A folder's Markdown is not read as a log; the pasted issue comment is read as the file it is.
        QTest::newRow("pasted file") << "layouts/pasted/issue-comment.md";
    }

    void fixtures()
    {
        QFETCH(QString, input);
        compareLoads(QStringLiteral(RANKSCOPE_TEST_DATA "/") + input);
    }

    void generated_data()
    {
        QTest::addColumn<Layout>("layout");
        QTest::addColumn<Fault>("fault");
        QTest::newRow("combined console, IB") << Layout::Combined << Fault::IbRetryExceeded;
        QTest::newRow("combined console, hang") << Layout::Combined << Fault::Hang;
        QTest::newRow("NCCL_DEBUG_FILE, IB") << Layout::NcclDebugFiles << Fault::IbRetryExceeded;
        QTest::newRow("per-rank files, shm") << Layout::PerRankFiles << Fault::ShmTooSmall;
        QTest::newRow("torchrun --log-dir, none") << Layout::TorchrunLogDir << Fault::None;
    }

    void generated()
    {
        QFETCH(Layout, layout);
        QFETCH(Fault, fault);
        QTemporaryDir dir;
        GenOptions g;
        g.ranks = 32;
        g.layout = layout;
        g.fault = fault;
        g.targetBytes = 3 << 20;
        const GenResult gen = generateIncident(g, dir.path());
        QVERIFY2(gen.error.isEmpty(), qPrintable(gen.error));
        compareLoads(dir.path());
    }

    // torchrun's agent says it restarts the workers in a glog line whose header repeats an earlier one: the
    // shortcut must leave it to the full parse (the prefilter passes it), and each restart starts an attempt.
    void restartInRepeatedHeader()
    {
        const QByteArray agent =
            "I0314 02:1%1:00.000000 1000 torch/distributed/elastic/agent/server/api.py:685] "
            "[default] Worker group FAILED. %2/3 attempts left; will restart worker group\n";
        QByteArray log;
        for (int attempt = 0; attempt < 3; ++attempt) {
            if (attempt > 0)
                log += QByteArray(agent)
                           .replace("%1", QByteArray::number(attempt))
                           .replace("%2", QByteArray::number(4 - attempt));
            for (int step = 0; step < 60; ++step)
                log += QByteArray("I0314 02:1") + QByteArray::number(attempt) + ":01.000000 1000 "
                    + "torch/distributed/elastic/agent/server/api.py:685] [default] waiting, step "
                    + QByteArray::number(step) + "\n";
        }
        const LoadResult fast = compareLoadsOf(QStringLiteral("agent.log"), log);
        QCOMPARE(fast.incidents.size(), size_t { 3 });
    }

    // A line that repeats the one before but for a few bytes ("opCount b7", "opCount b8") is counted
    // without a parse only when those bytes cannot change what the parse finds: each row's last line
    // differs from the one before in a way that must send it through the full parse.
    void repeatedLines_data()
    {
        QTest::addColumn<QByteArray>("log");
        QTest::addColumn<bool>("lastInEvent"); // the file's last line is an event's, or continues one
        const QByteArray op =
            "gpu-a01:41872:41872 [0] NCCL INFO AllReduce: opCount %1 sendbuff 0x7f3d40000000 "
            "recvbuff 0x7f3d40000000 count 26214400 datatype 7 op 0 root 0 comm 0x55a2c5191870 "
            "[nranks=16] stream 0x55a2c52a0930";
        QByteArray counters;
        for (int k = 0; k < 40; ++k)
            counters += QByteArray(op).replace("%1", QByteArray::number(0xb0 + k, 16)) + '\n';
        const QByteArray prefix = "gpu-a01:41872:41872 [0] NCCL INFO ";
        QTest::newRow("counters only") << counters << false;
        QTest::newRow("the changed bytes spell a signature")
            << counters + prefix + "Gxxxxxxxxxxxxxxxxxxxxxxx for HCA 0 'mlx5_0'\n" + prefix
                + "GPU Direct RDMA Disabled for HCA 0 'mlx5_0'\n"
            << true;
        QTest::newRow("a return trail's arrow") << counters
                + "gpu-a01:41872:41872 [0] transport/net_ib.cc:1696 NCCL WARN NET/IB : Got completion "
                  "from peer 10.10.0.12<45819> with status=12 opcode=0 len=0 vendor err 129 (Recv)\n"
                + prefix + "transport/net.cc:1227 -- 6\n" + prefix
                + "transport/net.cc:1227 -> 6\n" << true;
        QTest::newRow("another thread")
            << counters + "gpu-a01:41872:41873 [0] NCCL WARN Call to ibv_create_qp failed\n"
            << true;
        QTest::newRow("another level") << counters + prefix
                + "xxxx to ibv_modify_qp failed with 110 Connection timed out\n"
                + "gpu-a01:41872:41872 [0] NCCL WARN Call to ibv_modify_qp failed with 110 Connection timed "
                  "out\n" << true;
        QByteArray crlf = counters;
        crlf.replace("\n", "\r\n");
        QTest::newRow("CRLF, then a line one byte longer without CR")
            << crlf + QByteArray(op).replace("%1", "ff") + "x\n" + QByteArray(op).replace("%1", "f0") + "\r\n"
            << false;
        QByteArray mac; // CR line ends in the first read, which decides the separator for the file
        while (mac.size() < (200 << 10))
            mac += QByteArray(counters).replace('\n', '\r');
        QTest::newRow("CR line ends, then a line feed past the first read")
            << mac + QByteArray(op).replace("%1", "d8") + "\n" + QByteArray(op).replace("%1", "d9") + "\r"
            << false;
        QTest::newRow("a line that runs on past the last one's end")
            << counters + QByteArray(op).replace("%1", "d8") + " NCCL WARN unhandled system error\n"
            << true; // "NCCL WARN" anywhere is a failure word
        QTest::newRow("the last line of the file, without a newline")
            << counters + QByteArray(op).replace("%1", "d8") << false;
    }

    void repeatedLines()
    {
        QFETCH(QByteArray, log);
        QFETCH(bool, lastInEvent);
        const LoadResult fast = compareLoadsOf(QStringLiteral("nccl.gpu-a01.41872.log"), log);
        QCOMPARE(fast.incidents.size(), size_t { 1 });
        const Incident& inc = fast.incidents.front();
        const char end = log.left(128 << 10).contains('\n') ? '\n' : '\r';
        const qint64 lines = log.count(end) + (log.endsWith(end) ? 0 : 1);
        QCOMPARE(inc.files.front().lines, lines);
        const QString last = QString::fromUtf8(log.trimmed().split(end).last().trimmed());
        const bool inEvent = std::any_of(inc.events.begin(), inc.events.end(),
            [&last](const LogEvent& e) { return e.text == last || e.continuation.contains(last); });
        QCOMPARE(inEvent, lastInEvent);
    }

    // A console's ranks print the same message in turn: a line whose message repeats the last one the glog
    // shortcut took is counted without a newline search, when its header is a known INFO header. Each
    // row's lines must still come out as the full parse has them.
    void repeatedGlogMessages_data()
    {
        QTest::addColumn<QByteArray>("log");
        QTest::addColumn<int>("events");
        const auto line = [](int rank, char level, int step, const QByteArray& message) -> QByteArray {
            return QByteArray("[default") + QByteArray::number(rank) + "]:[rank" + QByteArray::number(rank)
                + "]:" + level + "0314 02:10:" + QByteArray::number(10 + step) + ".2120"
                + QByteArray::number(rank) + "0 " + QByteArray::number(5300 + rank) + " train.py:212] "
                + message;
        };
        const auto steps = [&](int from, int to) -> QByteArray {
            QByteArray out;
            for (int step = from; step < to; ++step) {
                for (int rank = 0; rank < 8; ++rank)
                    out += line(rank, 'I', step, "step " + QByteArray::number(step) + " | loss 2.36") + '\n';
            }
            return out;
        };
        QTest::newRow("every rank, every step") << steps(0, 20) << 0;
        QTest::newRow("a warning with the last message")
            << steps(0, 10) + line(3, 'W', 9, "step 9 | loss 2.36") + '\n' + steps(10, 12) << 1;
        QTest::newRow("a longer line that starts like the last") << steps(0, 10)
                + line(0, 'I', 9, "step 9 | loss 2.36 NCCL WARN unhandled system error") + '\n'
                + line(1, 'I', 9, "step 9 | loss 2.36") + '\n' << 1; // its "NCCL WARN" makes it an event
        QTest::newRow("a traceback on one rank's channel") << steps(0, 10)
                + "[default2]:Traceback (most recent call last):\n[default2]:  File \"train.py\", line 3\n"
                + line(2, 'I', 9, "step 9 | loss 2.36") + '\n'
                + steps(10, 12) << 1;
        QByteArray crlf = steps(0, 10);
        crlf.replace("\n", "\r\n");
        QTest::newRow("CRLF") << crlf << 0;
        QByteArray doubleCr = steps(0, 10);
        doubleCr.replace("\n", "\r\r\n");
        QTest::newRow("messages that end in CR") << doubleCr << 0;
        QTest::newRow("the agent restarts the workers") << steps(0, 10)
                + "I0314 02:11:00.000000 1000 torch/distributed/elastic/agent/server/api.py:685] [default] "
                  "Worker group FAILED. 3/3 attempts left; will restart worker group\n"
                + steps(10, 20) << 1; // "FAILED" is a failure word
    }

    void repeatedGlogMessages()
    {
        QFETCH(QByteArray, log);
        QFETCH(int, events);
        const LoadResult fast = compareLoadsOf(QStringLiteral("console.log"), log);
        int found = 0;
        qint64 lines = 0;
        for (const Incident& inc : fast.incidents) {
            found += static_cast<int>(inc.events.size());
            lines = std::max(lines, inc.files.front().lines);
        }
        QCOMPARE(found, events);
        QCOMPARE(lines, static_cast<qint64>(log.count('\n')));
    }
};

QTEST_GUILESS_MAIN(TestScanShortcuts)
#include "tst_scan_shortcuts.moc"
