// SPDX-License-Identifier: MIT
// Spaces a copy turned into something else: a web page's U+00A0 and U+202F, rsyslog's "#011" for a TAB.
// replaceSpaceStandIns() gives them back as spaces, and the scanner reads such a copy as the plain log:
// the same initiating line, text and signature.
#include "analyze_bytes.h"
#include "space_stand_ins.h"

#include <QtTest>

using namespace rankscope;

class SpaceStandInsTest : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void replace_data();
    void replace();
    void plainLineIsLeftAlone();
    void webCopyReadsAsPlain_data();
    void webCopyReadsAsPlain();
};

void SpaceStandInsTest::replace_data()
{
    QTest::addColumn<QByteArray>("in");
    QTest::addColumn<QByteArray>("out");
    QTest::newRow("nbsp indentation") << QByteArray("\xC2\xA0 \xC2\xA0 File \"x.py\", line 3, in f")
                                      << QByteArray("    File \"x.py\", line 3, in f");
    QTest::newRow("narrow nbsp") << QByteArray("a\xE2\x80\xAF"
                                               "b")
                                 << QByteArray("a b");
    QTest::newRow("rsyslog tab") << QByteArray("python[1]: #011File \"x.py\"")
                                 << QByteArray("python[1]:  File \"x.py\"");
    QTest::newRow("at the end") << QByteArray("timeout\xC2\xA0") << QByteArray("timeout ");
    QTest::newRow("cut lead byte") << QByteArray("x\xC2") << QByteArray();
}

void SpaceStandInsTest::replace()
{
    QFETCH(QByteArray, in);
    QFETCH(QByteArray, out);
    std::string got = "stale";
    const bool replaced =
        replaceSpaceStandIns(std::string_view(in.constData(), static_cast<size_t>(in.size())), got);
    QCOMPARE(replaced, !out.isEmpty());
    if (replaced)
        QCOMPARE(QByteArray::fromStdString(got), out);
    else
        QCOMPARE(got, std::string("stale"));
    QCOMPARE(
        mayHoldSpaceStandIns(std::string_view(in.constData(), static_cast<size_t>(in.size()))), replaced);
}

void SpaceStandInsTest::plainLineIsLeftAlone()
{
    std::string out = "kept";
    // Other two- and three-byte characters with the same lead bytes, and a '#' that starts no "#011".
    QVERIFY(!replaceSpaceStandIns("temp 80\xC2\xB0"
                                  "C \xE2\x80\x94 issue #110 # failures",
        out));
    QCOMPARE(out, std::string("kept"));
    QVERIFY(!mayHoldSpaceStandIns("host:1:2 [0] NCCL INFO ring 00 : 0 1 \xC2\xB1 #12"));
}

void SpaceStandInsTest::webCopyReadsAsPlain_data()
{
    QTest::addColumn<QByteArray>("from");
    QTest::addColumn<QByteArray>("to");
    QTest::newRow("web page") << QByteArray("  ") << QByteArray("\xC2\xA0 ");
    QTest::newRow("narrow") << QByteArray("  ") << QByteArray(" \xE2\x80\xAF");
    QTest::newRow("rsyslog tabs") << QByteArray("  ") << QByteArray("#011#011");
}

// vllm#6614's shape: PyTorch 2.2+ tags the traceback's lines, the frame's source quotes "NCCL error", and
// the exception after it is the failure.
void SpaceStandInsTest::webCopyReadsAsPlain()
{
    QFETCH(QByteArray, from);
    QFETCH(QByteArray, to);
    const QByteArray plain = "[rank0]: Traceback (most recent call last):\n"
                             "[rank0]:   File \"/x/pynccl_wrapper.py\", line 223, in NCCL_CHECK\n"
                             "[rank0]:     raise RuntimeError(f\"NCCL error: {error_str}\")\n"
                             "[rank0]: RuntimeError: NCCL error: invalid usage (run with NCCL_DEBUG=WARN for "
                             "details)\n";
    QByteArray copied = plain;
    copied.replace(from, to);
    QVERIFY(copied != plain);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const Analysis a = test::analyzeBytes(dir, QStringLiteral("plain.log"), plain);
    const Analysis b = test::analyzeBytes(dir, QStringLiteral("copied.log"), copied);
    QVERIFY(a.currentAttempt() && b.currentAttempt());
    const AttemptAnalysis& pa = *a.currentAttempt();
    const AttemptAnalysis& pb = *b.currentAttempt();
    QVERIFY(pa.diagnosis.initiatingEvent >= 0);
    QVERIFY(pa.diagnosis.signature >= 0);
    QCOMPARE(pb.diagnosis.signature, pa.diagnosis.signature);
    const LogEvent& ea = pa.incident.events[static_cast<size_t>(pa.diagnosis.initiatingEvent)];
    const LogEvent& eb = pb.incident.events[static_cast<size_t>(pb.diagnosis.initiatingEvent)];
    QCOMPARE(eb.line, ea.line);
    QCOMPARE(eb.rank, 0);
    QVERIFY2(eb.text.contains(QLatin1String("RuntimeError: NCCL error: invalid usage")), qPrintable(eb.text));
}

QTEST_GUILESS_MAIN(SpaceStandInsTest)
#include "tst_space_stand_ins.moc"
