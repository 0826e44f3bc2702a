// SPDX-License-Identifier: MIT
// The console shortcut isPlainInfoMessage() must never disagree with classifyMessage(): where it says
// "plain INFO", the full rules say so too. Crafted rows, then every message of the sample consoles. And the
// level cues the block search looks for must cover every word classifyMessage() reads: a line without
// one is classified the same unread.
#include "level_cues.h"
#include "line_prefix.h"
#include "severity_rules.h"

#include <QDirIterator>
#include <QFile>
#include <QtTest>

using namespace rankscope;

class TestSeverityRules : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shortcut_data()
    {
        QTest::addColumn<QString>("message");
        QTest::addColumn<bool>("plain"); // what the shortcut says
        QTest::newRow("step") << "step 2790 | loss 2.3674 | grad_norm 0.899" << true;
        QTest::newRow("dotted word") << "trainer.fit done" << false; // 't': could be "terminate called"
        QTest::newRow("module word") << "model.layers.3 loaded" << true;
        QTest::newRow("level word under a glog letter") << "ERROR while saving" << true;
        QTest::newRow("exception") << "RuntimeError: NCCL error" << false;
        QTest::newRow("dotted exception") << "c10.DistBackendError: x" << false;
        QTest::newRow("exception, no text") << "KeyboardInterrupt" << false;
        QTest::newRow("traceback") << "Traceback (most recent call last):" << false;
        QTest::newRow("terminate") << "terminate called after throwing an instance of 'c10::Error'" << false;
        QTest::newRow("segfault") << "Segmentation fault (core dumped)" << false;
        QTest::newRow("fatal python") << "Fatal Python error: Aborted" << false;
        QTest::newRow("empty") << "" << false;
        QTest::newRow("leading space") << " indented" << false;
        QTest::newRow("punctuation") << "[rank3] x" << false;
        QTest::newRow("word of 119") << QString(119, QLatin1Char('a')) + QStringLiteral(" b") << true;
        QTest::newRow("word of 120") << QString(120, QLatin1Char('a')) + QStringLiteral(" b") << false;
    }

    void shortcut()
    {
        QFETCH(QString, message);
        QFETCH(bool, plain);
        const std::string m = message.toStdString();
        QCOMPARE(isPlainInfoMessage(m), plain);
        if (plain) {
            const LineClass c = classifyMessage('I', m);
            QCOMPARE(c.severity, Severity::Info);
            QCOMPARE(c.shape, LineShape::Plain);
        }
    }

    // Every line of the sample job's consoles, as the scanner would see its message.
    void agreesOnSampleConsoles()
    {
        int plain = 0;
        for (const char* name : { "torchrun.gpu-a01.console.log", "torchrun.gpu-a02.console.log" }) {
            QFile f(QStringLiteral(RANKSCOPE_TEST_DATA "/sample-job/") + QLatin1String(name));
            QVERIFY(f.open(QIODevice::ReadOnly));
            while (!f.atEnd()) {
                const QByteArray line = f.readLine().chopped(1);
                const std::string_view text(line.constData(), static_cast<size_t>(line.size()));
                const LinePrefix p = parseLinePrefix(text);
                if (!isPlainInfoMessage(p.message))
                    continue;
                ++plain;
                const LineClass c = classifyMessage('I', p.message);
                QVERIFY2(c.severity == Severity::Info && c.shape == LineShape::Plain, line.constData());
            }
        }
        QVERIFY(plain > 50); // the shortcut does take the ordinary lines
    }

    static bool holdsLevelCue(std::string_view text)
    {
        for (const std::string_view cue : kLevelCues) {
            if (text.find(cue) != std::string_view::npos)
                return true;
        }
        return false;
    }

    // Each word classifyMessage() knows, alone, at the start and inside a line: each is found by a cue.
    void levelCuesCoverTheWords_data()
    {
        QTest::addColumn<QString>("message");
        for (const char* m : { "Traceback (most recent call last):", "terminate called after throwing x",
                 "Segmentation fault (core dumped)", "Fatal Python error: Aborted", "RuntimeError: x",
                 "torch.distributed.DistBackendError: x", "ChildFailedError", "ValueException: y",
                 "KeyboardInterrupt", "x FATAL y", "x CRITICAL y", "x ERROR y", "NVRM: Xid 79", "WARN x",
                 "Out of memory: Killed process 7", "x oom-kill y", "x WARNING y", "[F] x", "[E] x", "[W] x",
                 "[WARN] x",
                 "[E ProcessGroupNCCL.cpp:475] [Rank 3] Watchdog caught collective operation timeout",
                 "[W socket.cpp:601] [c10d] The client socket has failed to connect",
                 "[F ProcessGroupNCCL.cpp:1000] x" })
            QTest::newRow(m) << QString::fromLatin1(m);
    }

    void levelCuesCoverTheWords()
    {
        QFETCH(QString, message);
        const std::string m = message.toStdString();
        const LineClass c = classifyMessage(0, m);
        QVERIFY2(c.severity != Severity::Info || c.shape != LineShape::Plain, "a word the rules read");
        QVERIFY(holdsLevelCue(m));
    }

    // PyTorch 1.x's c10 header without a clock gives the level; a bracket that only looks like it does not.
    void c10HeaderWithoutClock()
    {
        const auto level = [](const char* m) { return classifyMessage(0, m).severity; };
        QCOMPARE(level("[E ProcessGroupNCCL.cpp:475] [Rank 3] Watchdog caught collective operation timeout"),
            Severity::Error);
        QCOMPARE(level("[W socket.cpp:601] [c10d] The client socket has failed to connect"), Severity::Warn);
        QCOMPARE(level("[E ProcessGroupNCCL.cpp] no line number"), Severity::Info);
        QCOMPARE(level("[E 12 items] loaded"), Severity::Info);
    }

    // Every line of every test input: where the line holds no cue, reading its message changes nothing.
    void unreadLinesClassifyTheSame()
    {
        int lines = 0, withoutCue = 0, levelled = 0;
        QDirIterator it(QStringLiteral(RANKSCOPE_TEST_DATA), QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            QFile f(it.next());
            if (f.size() > (8 << 20) || !f.open(QIODevice::ReadOnly))
                continue;
            while (!f.atEnd()) {
                QByteArray line = f.readLine();
                if (line.endsWith('\n'))
                    line.chop(1);
                const std::string_view text(line.constData(), static_cast<size_t>(line.size()));
                const LinePrefix p = parseLinePrefix(text);
                const LineClass read = classifyLine(p, true);
                ++lines;
                levelled += read.severity != Severity::Info || read.shape != LineShape::Plain ? 1 : 0;
                if (holdsLevelCue(text))
                    continue;
                ++withoutCue;
                const LineClass unread = classifyLine(p, false);
                QVERIFY2(read.severity == unread.severity && read.shape == unread.shape, line.constData());
            }
        }
        qInfo("%d lines, %d without a cue, %d with a level of their own", lines, withoutCue, levelled);
        QVERIFY(lines > 5000);
        QVERIFY(withoutCue > lines / 2);
        QVERIFY(levelled > 100);
    }

    // NCCL's return-code trails, the templates of log-formats.md 3.2, against INFO lines that only look
    // a little like them.
    void returnTrail_data()
    {
        QTest::addColumn<QString>("message");
        QTest::addColumn<bool>("trail");
        QTest::newRow("2.29") << "transport/net.cc:1227 -> 6" << true;
        QTest::newRow("syscheck") << "misc/socket.cc:482 -> 2 (Connection refused)" << true;
        QTest::newRow("async") << "init.cc:1601 -> 6 [Async thread]" << true;
        QTest::newRow("progress") << "proxy.cc:1453 -> 3 [Progress Thread]" << true;
        QTest::newRow("2.30 function") << "transport/net_ib.cc:1130 (ncclIbConnect) -> 2" << true;
        QTest::newRow("header file") << "include/alloc.h:124 -> 1" << true;
        QTest::newRow("collective") << "AllReduce: opCount 7be sendbuff 0x7f3a40000000 count 26214400"
                                    << false;
        QTest::newRow("channel") << "Channel 00/0 : 0[0] -> 1[1] via P2P/IPC/read" << false;
        QTest::newRow("tree") << "Trees [0] 1/-1/-1->0->-1 [1] -1/-1/-1->0->1" << false;
        QTest::newRow("no file extension") << "rank:3 -> 4" << false;
        QTest::newRow("no line number") << "transport/net.cc: -> 6" << false;
        QTest::newRow("no return code") << "transport/net.cc:1227 -> x" << false;
        QTest::newRow("arrow not next") << "transport/net.cc:1227 failed -> 6" << false;
        QTest::newRow("function with a space") << "net.cc:12 (a b) -> 6" << false;
        QTest::newRow("cut short") << "transport/net.cc:1227 ->" << false;
        QTest::newRow("empty") << "" << false;
        QTest::newRow("arrow past byte 164") << QStringLiteral("net.cc:12 (") + QString(150, QLatin1Char('f'))
                + QStringLiteral(") -> 6") << false; // the shortcut looks no further
    }

    // Ray's task error heads the remote traceback printed under it (its last line is the exception it
    // names), as "Traceback (most recent call last):" does; an exception named after a call is no header.
    void rayTaskErrorStartsATraceback()
    {
        const LineClass ray = classifyMessage(0, "ray.exceptions.RayTaskError(AcceleratorError):");
        QCOMPARE(ray.shape, LineShape::TracebackStart);
        QCOMPARE(ray.severity, Severity::Error);
        QCOMPARE(classifyMessage(0,
                     "ray.exceptions.RayActorError(ValueError): ray::Worker.run() (pid=1, "
                     "ip=10.0.0.1)")
                     .shape,
            LineShape::TracebackStart);
        QCOMPARE(classifyMessage(0, "RuntimeError(x): y").shape, LineShape::Plain);
        QCOMPARE(classifyMessage(0, "ray.exceptions.RayTaskError(some words): x").shape, LineShape::Plain);
    }

    void returnTrail()
    {
        QFETCH(QString, message);
        QFETCH(bool, trail);
        QCOMPARE(isReturnTrail(message.toStdString()), trail);
        const std::string line = "gpu-a01:1007033:1007120 [0] NCCL INFO " + message.toStdString();
        const LinePrefix p = parseLinePrefix(line);
        QCOMPARE(p.nccl, NcclLevel::Info);
        QCOMPARE(classifyLine(p).shape == LineShape::NcclReturnTrail, trail);
    }
};

QTEST_GUILESS_MAIN(TestSeverityRules)
#include "tst_severity_rules.moc"
