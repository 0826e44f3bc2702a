// SPDX-License-Identifier: MIT
// verifyFix on generated before/after pairs: fixed, fault persisted, fault moved to another rank, another
// cause appeared, and a "before" run without a failure.
#include "analysis.h"
#include "incident_generator.h"
#include "verify_fix.h"

#include <QFile>
#include <QJsonArray>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace rankscope;
using namespace rankscope::testgen;

Q_DECLARE_METATYPE(rankscope::testgen::Fault)

namespace {

QString gen(const QTemporaryDir& tmp, const QString& name, Fault fault, int faultRank, quint32 seed)
{
    GenOptions o;
    o.ranks = 8;
    o.gpusPerNode = 4;
    o.fault = fault;
    o.faultRank = faultRank;
    o.layout = Layout::PerRankFiles;
    o.seed = seed;
    const QString dir = tmp.filePath(name);
    const GenResult r = generateIncident(o, dir);
    return r.error.isEmpty() ? dir : QString();
}

Analysis load(const QString& dir)
{
    AnalysisRequest r;
    r.logPaths << dir;
    return analyze(r);
}

const SignatureOutcome* initiating(const VerifyResult& r)
{
    for (const SignatureOutcome& o : r.outcomes)
        if (o.initiating)
            return &o;
    return nullptr;
}

} // namespace

class TestVerifyFix : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void outcomes_data();
    void outcomes();
    void nothingToVerify();
    void stoppedEarlier();
    void noProgressIsInconclusive();
    void cliExitCodes();
    void verdicts_data();
    void verdicts();

private:
    QTemporaryDir m_tmp;
    QString m_before;
};

void TestVerifyFix::initTestCase()
{
    m_before = gen(m_tmp, QStringLiteral("before"), Fault::IbRetryExceeded, 7, 1);
    QVERIFY(!m_before.isEmpty());
}

void TestVerifyFix::outcomes_data()
{
    QTest::addColumn<Fault>("afterFault");
    QTest::addColumn<int>("afterRank");
    QTest::addColumn<bool>("pass");
    QTest::addColumn<QString>("initiatingOutcome");
    QTest::addColumn<QString>("ranksAfter");
    QTest::newRow("fixed") << Fault::None << 7 << true << QStringLiteral("disappeared") << QString();
    QTest::newRow("persisted") << Fault::IbRetryExceeded << 7 << false << QStringLiteral("persisted")
                               << QStringLiteral("7");
    QTest::newRow("moved to rank 3") << Fault::IbRetryExceeded << 3 << false << QStringLiteral("moved")
                                     << QStringLiteral("3");
    QTest::newRow("other cause appeared")
        << Fault::ShmTooSmall << 5 << false << QStringLiteral("disappeared") << QString();
}

void TestVerifyFix::outcomes()
{
    QFETCH(Fault, afterFault);
    QFETCH(int, afterRank);
    QFETCH(bool, pass);
    QFETCH(QString, initiatingOutcome);
    QFETCH(QString, ranksAfter);
    QTemporaryDir tmp;
    const QString afterDir = gen(tmp, QStringLiteral("after"), afterFault, afterRank, 5);
    QVERIFY(!afterDir.isEmpty());
    const Analysis before = load(m_before);
    const Analysis after = load(afterDir);
    const VerifyResult r = verifyFix(before, after);
    QCOMPARE(r.pass, pass);
    QCOMPARE(r.verdict, pass ? QStringLiteral("PASS") : QStringLiteral("FAIL"));
    const SignatureOutcome* o = initiating(r);
    QVERIFY(o);
    QCOMPARE(o, &r.outcomes.front());
    QVERIFY(o->cause);
    QCOMPARE(outcomeName(o->kind), initiatingOutcome);
    QCOMPARE(o->ranksBefore, std::vector<int> { 7 });
    QCOMPARE(o->ranksAfter.empty() ? QString() : formatRankRanges(o->ranksAfter), ranksAfter);
    QVERIFY(!r.evidence.isEmpty());
    QVERIFY(r.evidence.join(QLatin1Char('\n')).contains(o->id));
    // The failing run stopped at its last logged step; every after-run here gets at least that far.
    QVERIFY(r.stepBefore > 0);
    QVERIFY(r.stepAfter >= r.stepBefore);
    QCOMPARE(r.lastStepBefore, QStringLiteral("step %1").arg(r.stepBefore));
    QVERIFY(r.lastSeqBefore > 0);
    if (afterFault == Fault::ShmTooSmall) {
        const bool appeared = std::any_of(r.outcomes.begin(), r.outcomes.end(),
            [](const SignatureOutcome& x) { return x.kind == SignatureOutcome::Appeared && x.cause; });
        QVERIFY(appeared);
    }
    const QJsonObject j = verifyToJson(r);
    QCOMPARE(j.value(QStringLiteral("verdict")).toString(), r.verdict);
    QCOMPARE(j.value(QStringLiteral("outcomes"))
                 .toArray()
                 .first()
                 .toObject()
                 .value(QStringLiteral("outcome"))
                 .toString(),
        initiatingOutcome);
    QVERIFY(verifyToText(r).startsWith(QStringLiteral("Verdict: ") + r.verdict));
}

void TestVerifyFix::nothingToVerify()
{
    QTemporaryDir tmp;
    const QString healthy = gen(tmp, QStringLiteral("healthy"), Fault::None, 7, 2);
    const VerifyResult r = verifyFix(load(healthy), load(healthy));
    QVERIFY(!r.pass);
    QVERIFY(r.inconclusive); // not FAIL: nothing says the fix did not work
    QVERIFY(r.evidence.join(QLatin1Char(' ')).contains(QLatin1String("nothing to verify")));
}

// An "after" run that died earlier: the signature is gone but the job did not get as far.
void TestVerifyFix::stoppedEarlier()
{
    QTemporaryDir tmp;
    const QString afterDir = gen(tmp, QStringLiteral("after"), Fault::None, 7, 4);
    for (int rank = 0; rank < 8; ++rank) {
        QFile f(afterDir + QStringLiteral("/rank-%1.log").arg(rank, 4, 10, QLatin1Char('0')));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QStringList lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'));
        f.close();
        const qsizetype cut = lines.indexOf(QRegularExpression(QStringLiteral(".*\\] step 3 \\|.*")));
        QVERIFY(cut > 0);
        lines = lines.mid(0, cut + 1);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(lines.join(QLatin1Char('\n')).toUtf8());
    }
    const VerifyResult r = verifyFix(load(m_before), load(afterDir));
    QCOMPARE(r.stepAfter, 3);
    QVERIFY(r.stepBefore > 3);
    QVERIFY(!r.pass);
    QVERIFY(r.evidence.join(QLatin1Char(' ')).contains(QLatin1String("stopped earlier")));
}

// An "after" run without the signature that never printed a training step: nothing shows it got past the
// failure, so it is neither PASS nor FAIL. The CLI returns 3 for it.
void TestVerifyFix::noProgressIsInconclusive()
{
    QTemporaryDir tmp;
    const QString afterDir = gen(tmp, QStringLiteral("after"), Fault::None, 7, 4);
    for (int rank = 0; rank < 8; ++rank) {
        QFile f(afterDir + QStringLiteral("/rank-%1.log").arg(rank, 4, 10, QLatin1Char('0')));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QStringList lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'));
        f.close();
        const qsizetype cut = lines.indexOf(QRegularExpression(QStringLiteral(".*\\] step 1 \\|.*")));
        QVERIFY(cut > 0);
        lines = lines.mid(0, cut);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(lines.join(QLatin1Char('\n')).toUtf8());
    }
    const VerifyResult r = verifyFix(load(m_before), load(afterDir));
    QVERIFY(r.stepBefore > 0);
    QCOMPARE(r.stepAfter, -1);
    QVERIFY(!r.pass);
    QVERIFY(r.inconclusive);
    QCOMPARE(r.verdict, QStringLiteral("INCONCLUSIVE"));
    QVERIFY2(r.reason.contains(QLatin1String("no training step")), qPrintable(r.reason));
    QVERIFY(verifyToText(r).contains(QStringLiteral("Why: ") + r.reason));
    QCOMPARE(verifyToJson(r).value(QStringLiteral("inconclusive")).toBool(), true);
    // The initiating signature is gone: that part is still said.
    QCOMPARE(outcomeName(r.outcomes.front().kind), QStringLiteral("disappeared"));
    // Never "-1": unattributed lines are named.
    QCOMPARE(verifyRanksText({ -1, 3, 4, 5 }), QStringLiteral("3-5 and unattributed lines"));
    QCOMPARE(verifyRanksText({ -1 }), QStringLiteral("unattributed lines only"));
    QVERIFY(!verifyToText(r).contains(QLatin1String("-1")));
    QProcess p;
    p.start(QStringLiteral(RANKSCOPE_BINARY),
        { QStringLiteral("verify"), QStringLiteral("--before"), m_before, QStringLiteral("--after"),
            afterDir });
    QVERIFY(p.waitForFinished(120000));
    QCOMPARE(p.exitCode(), 3);
    QVERIFY(p.readAllStandardOutput().startsWith("Verdict: INCONCLUSIVE"));
}

void TestVerifyFix::cliExitCodes()
{
    QTemporaryDir tmp;
    const QString fixed = gen(tmp, QStringLiteral("fixed"), Fault::None, 7, 5);
    const QString moved = gen(tmp, QStringLiteral("moved"), Fault::IbRetryExceeded, 3, 5);
    const auto run = [](const QStringList& args) {
        QProcess p;
        p.start(QStringLiteral(RANKSCOPE_BINARY), args);
        p.waitForFinished(120000);
        return p.exitCode();
    };
    const QString v = QStringLiteral("verify");
    QCOMPARE(run({ v, QStringLiteral("--before"), m_before, QStringLiteral("--after"), fixed }), 0);
    QCOMPARE(run({ v, QStringLiteral("--before"), m_before, QStringLiteral("--after"), moved }), 1);
    QCOMPARE(run({ v, QStringLiteral("--before"), m_before, QStringLiteral("--after"),
                 tmp.filePath(QStringLiteral("missing")) }),
        2);
}

// The verdict, and the CLI's exit code, for each kind of before/after pair: PASS (0) only when the
// signature is gone and the job got past the step where it failed; a run after the fix that fails again
// (a watchdog timeout of a hang, too) without getting further is FAIL (1); a run before without a known
// failure leaves nothing to verify: INCONCLUSIVE (3), with that reason.
void TestVerifyFix::verdicts_data()
{
    QTest::addColumn<Fault>("beforeFault");
    QTest::addColumn<Fault>("afterFault");
    QTest::addColumn<QString>("verdict");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("reason");
    QTest::newRow("fixed and past the step") << Fault::IbRetryExceeded << Fault::None << "PASS" << 0 << "";
    QTest::newRow("no known failure before")
        << Fault::None << Fault::None << "INCONCLUSIVE" << 3 << "nothing to verify";
    QTest::newRow("no known failure before, after fails")
        << Fault::None << Fault::IbRetryExceeded << "INCONCLUSIVE" << 3 << "nothing to verify";
    QTest::newRow("hangs after the fix, no further")
        << Fault::IbRetryExceeded << Fault::Hang << "FAIL" << 1 << "failed again";
}

void TestVerifyFix::verdicts()
{
    QFETCH(Fault, beforeFault);
    QFETCH(Fault, afterFault);
    QFETCH(QString, verdict);
    QFETCH(int, exitCode);
    QFETCH(QString, reason);
    QTemporaryDir tmp;
    const QString beforeDir = gen(tmp, QStringLiteral("before"), beforeFault, 7, 1);
    const QString afterDir = gen(tmp, QStringLiteral("after"), afterFault, 7, 1);
    QVERIFY(!beforeDir.isEmpty() && !afterDir.isEmpty());
    const VerifyResult r = verifyFix(load(beforeDir), load(afterDir));
    QVERIFY2(r.verdict == verdict, qPrintable(verifyToText(r)));
    QCOMPARE(r.pass, verdict == QLatin1String("PASS"));
    QCOMPARE(r.inconclusive, verdict == QLatin1String("INCONCLUSIVE"));
    QVERIFY2(r.reason.contains(reason), qPrintable(r.reason));
    if (afterFault == Fault::Hang)
        QVERIFY(r.stepAfter <= r.stepBefore); // it did not get further
    QProcess p;
    p.start(QStringLiteral(RANKSCOPE_BINARY),
        { QStringLiteral("verify"), QStringLiteral("--before"), beforeDir, QStringLiteral("--after"),
            afterDir });
    QVERIFY(p.waitForFinished(120000));
    QCOMPARE(p.exitCode(), exitCode);
    QVERIFY(QString::fromUtf8(p.readAllStandardOutput()).startsWith(QStringLiteral("Verdict: ") + verdict));
}

QTEST_GUILESS_MAIN(TestVerifyFix)
#include "tst_verify_fix.moc"
