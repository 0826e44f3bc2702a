// SPDX-License-Identifier: MIT
// Colour codes inside lines: stripTerminalCodes() takes out CSI, OSC and two-byte escapes wherever they
// are, and the scanner reads a coloured console as it reads a plain one (the same event, the same record
// continuation, the same signature), showing the text without the codes.
#include "analysis.h"
#include "line_wrappers.h"
#include "terminal_codes.h"

#include <QtTest>

using namespace rankscope;

class TerminalCodesTest : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void strip_data();
    void strip();
    void plainLineIsLeftAlone();
    void composeAndKubectlPrefixes();
    void colouredConsoleReadsAsPlain_data();
    void colouredConsoleReadsAsPlain();
};

void TerminalCodesTest::strip_data()
{
    QTest::addColumn<QByteArray>("in");
    QTest::addColumn<QByteArray>("out");
    QTest::newRow("sgr around") << QByteArray("\x1b[31mNCCL WARN x\x1b[0m") << QByteArray("NCCL WARN x");
    QTest::newRow("sgr inside") << QByteArray("[E ProcessGroupNCCL.cpp:475] \x1b[1;31mWatchdog\x1b[m caught")
                                << QByteArray("[E ProcessGroupNCCL.cpp:475] Watchdog caught");
    QTest::newRow("erase line") << QByteArray("\x1b[2K\x1b[1G 45%|####") << QByteArray(" 45%|####");
    QTest::newRow("osc title bell") << QByteArray("\x1b]0;title\x07text") << QByteArray("text");
    QTest::newRow("osc st") << QByteArray("\x1b]8;;http://x\x1b\\link") << QByteArray("link");
    QTest::newRow("charset") << QByteArray("\x1b(Bplain") << QByteArray("plain");
    QTest::newRow("cut at end") << QByteArray("text\x1b[3") << QByteArray("text");
    QTest::newRow("lone esc") << QByteArray("text\x1b") << QByteArray("text");
    QTest::newRow("broken csi keeps text") << QByteArray("a\x1b[\x01z") << QByteArray("a\x01z");
    // What a copy leaves for the ESC byte: rsyslog's octal escape, caret notation, U+FFFD, none at all.
    QTest::newRow("rsyslog #033") << QByteArray("python[12]: #033[36m(pid=7)#033[0m boom")
                                  << QByteArray("python[12]: (pid=7) boom");
    QTest::newRow("caret notation") << QByteArray("^[[1;31mERROR^[[0m x") << QByteArray("ERROR x");
    QTest::newRow("replacement char")
        << QByteArray("\xEF\xBF\xBD[33mWARN\xEF\xBF\xBD[0m") << QByteArray("WARN");
    QTest::newRow("ESC lost, Ray wrapper") << QByteArray("[36m(RayWorkerWrapper pid=9)[0m [rank1]: x")
                                           << QByteArray("(RayWorkerWrapper pid=9) [rank1]: x");
}

void TerminalCodesTest::strip()
{
    QFETCH(QByteArray, in);
    QFETCH(QByteArray, out);
    std::string got = "stale";
    QVERIFY(stripTerminalCodes(std::string_view(in.constData(), static_cast<size_t>(in.size())), got));
    QCOMPARE(QByteArray::fromStdString(got), out);
}

void TerminalCodesTest::plainLineIsLeftAlone()
{
    std::string out = "kept";
    QVERIFY(!stripTerminalCodes("host:1:2 [0] NCCL INFO ring", out));
    // Without a reset in the line, "[5m" may be text; "[5m]" is a duration.
    QVERIFY(!stripTerminalCodes("retry in [5m", out));
    QVERIFY(!stripTerminalCodes("waited [5m] then [0m]", out));
    QVERIFY(!stripTerminalCodes("#033 is octal", out));
    QCOMPARE(out, std::string("kept"));
    QVERIFY(!mayHoldTerminalCodes("plain line\nanother [5m] line\n"));
    QVERIFY(mayHoldTerminalCodes("plain\n#033[0mx\n"));
}

void TerminalCodesTest::composeAndKubectlPrefixes()
{
    LineWrappers w;
    QCOMPARE(peelWrappers("trainer-1  | NCCL WARN x", w), std::string_view("NCCL WARN x"));
    QCOMPARE(w.tag, std::string_view("trainer-1"));
    LineWrappers v1;
    QCOMPARE(peelWrappers("worker_12      | [rank3]: boom", v1), std::string_view("[rank3]: boom"));
    QCOMPARE(v1.tag, std::string_view("worker_12"));
    LineWrappers k;
    QCOMPARE(peelWrappers("[pod/job-worker-0/pytorch] Traceback", k), std::string_view("Traceback"));
    QCOMPARE(k.tag, std::string_view("job-worker-0"));
    // Near misses stay in the line: no replica number, no bar, a table cell.
    for (const char* s : { "trainer  | x", "trainer-1 x | y", "loss  | 0.25", "[pod/a b/c] x" }) {
        LineWrappers n;
        QCOMPARE(peelWrappers(s, n), std::string_view(s));
    }
}

void TerminalCodesTest::colouredConsoleReadsAsPlain_data()
{
    QTest::addColumn<QByteArray>("esc");
    QTest::newRow("ESC") << QByteArray("\x1b");
    QTest::newRow("rsyslog #033") << QByteArray("#033");
    QTest::newRow("ESC lost in a copy") << QByteArray();
}

void TerminalCodesTest::colouredConsoleReadsAsPlain()
{
    QFETCH(QByteArray, esc);
    const QByteArray plain = "2024-01-02 03:04:05,000 INFO start\n"
                             "[rank3]:[E102 03:04:06.000000 12 ProcessGroupNCCL.cpp:616] [Rank 3] Watchdog "
                             "caught collective operation timeout: WorkNCCL(SeqNum=7, OpType=ALLREDUCE, "
                             "NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600001 milliseconds before "
                             "timing out.\n"
                             "2024-01-02 03:04:07,000 INFO done\n";
    QByteArray coloured;
    for (const QByteArray& l : plain.split('\n')) {
        if (!l.isEmpty())
            coloured += esc + "[33m" + l.left(20) + esc + "[0m" + esc + "[1m" + l.mid(20) + esc + "[0m\n";
    }
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const auto write = [&](const QString& name, const QByteArray& bytes) {
        QFile f(dir.filePath(name));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(bytes);
    };
    write(QStringLiteral("plain.log"), plain);
    write(QStringLiteral("coloured.log"), coloured);
    AnalysisRequest r;
    r.logPaths = { dir.filePath(QStringLiteral("plain.log")) };
    const Analysis a = analyze(r);
    r.logPaths = { dir.filePath(QStringLiteral("coloured.log")) };
    const Analysis b = analyze(r);
    QVERIFY(a.currentAttempt() && b.currentAttempt());
    const AttemptAnalysis& pa = *a.currentAttempt();
    const AttemptAnalysis& pb = *b.currentAttempt();
    QVERIFY(pa.diagnosis.initiatingEvent >= 0);
    QCOMPARE(pb.diagnosis.initiatingEvent, pa.diagnosis.initiatingEvent);
    QVERIFY(pa.diagnosis.signature >= 0);
    QCOMPARE(pb.diagnosis.signature, pa.diagnosis.signature);
    const LogEvent& ea = pa.incident.events[static_cast<size_t>(pa.diagnosis.initiatingEvent)];
    const LogEvent& eb = pb.incident.events[static_cast<size_t>(pb.diagnosis.initiatingEvent)];
    QCOMPARE(eb.text, ea.text); // shown without the codes
    QCOMPARE(eb.rank, 3);
}

QTEST_GUILESS_MAIN(TerminalCodesTest)
#include "tst_terminal_codes.moc"
