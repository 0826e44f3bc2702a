// SPDX-License-Identifier: MIT
// compareWithControl on generated pairs of runs: a failing run (NET/IB retry exceeded on rank 7) against a
// healthy run of the same job, in every file layout, with and without a NET/IB line listing fewer HCAs.
#include "analysis.h"
#include "control_compare.h"
#include "incident_generator.h"

#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

using namespace rankscope;
using namespace rankscope::testgen;

Q_DECLARE_METATYPE(rankscope::testgen::Layout)

namespace {

GenResult gen(const QString& dir, Fault fault, Layout layout, quint32 seed, int ranks = 8)
{
    GenOptions o;
    o.ranks = ranks;
    o.gpusPerNode = 4;
    o.fault = fault;
    o.faultRank = 7;
    o.layout = layout;
    o.seed = seed;
    return generateIncident(o, dir);
}

Analysis load(const QString& dir)
{
    AnalysisRequest r;
    r.logPaths << dir;
    return analyze(r);
}

QStringList lines(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'));
}

bool writeLines(const QString& path, const QStringList& l)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate)
        && f.write(l.join(QLatin1Char('\n')).toUtf8()) >= 0;
}

// 1-based line of the first line of `path` containing all of `needles`, 0 when none.
qint64 firstLineWith(const QString& path, const QStringList& needles)
{
    const QStringList l = lines(path);
    for (qsizetype i = 0; i < l.size(); ++i)
        if (std::all_of(needles.begin(), needles.end(), [&](const QString& n) { return l[i].contains(n); }))
            return i + 1;
    return 0;
}

} // namespace

class TestControlCompare : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void firstDifferenceIsTheLostGdr_data();
    void firstDifferenceIsTheLostGdr();
    void fewerHcasIsTheFirstDifference();
    void alignsByHostAndLocalRank();
    void noCounterpart();
    void noDifferenceAgainstItself();
};

void TestControlCompare::firstDifferenceIsTheLostGdr_data()
{
    QTest::addColumn<Layout>("layout");
    QTest::newRow("per-rank") << Layout::PerRankFiles;
    QTest::newRow("nccl debug files") << Layout::NcclDebugFiles;
    QTest::newRow("torchrun log dir") << Layout::TorchrunLogDir;
    QTest::newRow("combined") << Layout::Combined;
}

// The generator's failing rank lost GPUDirect RDMA on its channels: "via NET/IB/3" where the healthy run
// says "via NET/IB/3/GDRDMA". That is the first line before the WARN that differs once stamps, pids,
// pointers and losses are normalised.
void TestControlCompare::firstDifferenceIsTheLostGdr()
{
    QFETCH(Layout, layout);
    QTemporaryDir tmp;
    const GenResult bad = gen(tmp.filePath(QStringLiteral("bad")), Fault::IbRetryExceeded, layout, 1);
    const GenResult ok = gen(tmp.filePath(QStringLiteral("ok")), Fault::None, layout, 2);
    QVERIFY2(bad.error.isEmpty() && ok.error.isEmpty(), qPrintable(bad.error + ok.error));
    const Analysis a = load(tmp.filePath(QStringLiteral("bad")));
    const Analysis c = load(tmp.filePath(QStringLiteral("ok")));
    QVERIFY(a.currentAttempt() && c.currentAttempt());
    const auto& failing = *a.currentAttempt();
    QVERIFY(failing.diagnosis.failureFound);

    const Divergence d =
        compareWithControl(failing.incident, failing.diagnosis, c.currentAttempt()->incident);
    QCOMPARE(d.rank, 7);
    QCOMPARE(d.alignedBy, QStringLiteral("rank"));
    QCOMPARE(d.controlRank, 7);
    QVERIFY2(d.found, qPrintable(d.note));
    QVERIFY(bad.faultFile.endsWith(d.failingFile));
    QCOMPARE(d.initiatingLine, bad.faultLine);
    const qint64 expected =
        firstLineWith(bad.faultFile, { QStringLiteral("7[3] -> 0[0] [send] via NET/IB/3") });
    QVERIFY(expected > 0);
    QCOMPARE(d.failingLine, expected);
    QVERIFY(d.failingText.endsWith(QLatin1String("via NET/IB/3")));
    QVERIFY(d.controlText.endsWith(QLatin1String("via NET/IB/3/GDRDMA")));
    // Only the two channel lines are new; training steps with other losses and pids are not.
    QCOMPARE(d.onlyInFailingTotal, 2);
    for (const DiffLine& l : d.onlyInFailing) {
        QVERIFY(l.text.contains(QLatin1String("[send] via NET/IB/3")));
        QVERIFY(l.line < bad.faultLine);
    }
    QVERIFY(d.firstRow >= 0 && d.firstRow < static_cast<int>(d.rows.size()));
    QCOMPARE(d.rows[static_cast<size_t>(d.firstRow)].failingLine, expected);

    const QJsonObject j = divergenceToJson(d);
    QCOMPARE(
        j.value(QStringLiteral("failing")).toObject().value(QStringLiteral("line")).toInteger(), expected);
    QCOMPARE(j.value(QStringLiteral("onlyInFailing")).toArray().size(), 2);
    QVERIFY(divergenceToText(d).contains(d.failingText));
}

void TestControlCompare::fewerHcasIsTheFirstDifference()
{
    QTemporaryDir tmp;
    const GenResult bad =
        gen(tmp.filePath(QStringLiteral("bad")), Fault::IbRetryExceeded, Layout::PerRankFiles, 1);
    const GenResult ok = gen(tmp.filePath(QStringLiteral("ok")), Fault::None, Layout::PerRankFiles, 3);
    QVERIFY(bad.error.isEmpty() && ok.error.isEmpty());
    // The failing run's rank 7 sees one HCA less (mlx5_3 down at init).
    QStringList l = lines(bad.faultFile);
    const qint64 ibLine = firstLineWith(bad.faultFile, { QStringLiteral("NET/IB : Using") });
    QVERIFY(ibLine > 0);
    QString& ib = l[static_cast<qsizetype>(ibLine - 1)];
    QVERIFY(ib.contains(QLatin1String(" [3]mlx5_3:1/IB")));
    ib.remove(QStringLiteral(" [3]mlx5_3:1/IB"));
    QVERIFY(writeLines(bad.faultFile, l));

    const Analysis a = load(tmp.filePath(QStringLiteral("bad")));
    const Analysis c = load(tmp.filePath(QStringLiteral("ok")));
    const auto& failing = *a.currentAttempt();
    const Divergence d =
        compareWithControl(failing.incident, failing.diagnosis, c.currentAttempt()->incident);
    QVERIFY(d.found);
    QCOMPARE(d.failingLine, ibLine);
    QCOMPARE(d.failingText, ib);
    QVERIFY(d.controlText.contains(QLatin1String("[3]mlx5_3:1/IB")));
    QCOMPARE(d.controlLine,
        firstLineWith(
            tmp.filePath(QStringLiteral("ok/rank-0007.log")), { QStringLiteral("NET/IB : Using") }));
    QCOMPARE(d.onlyInFailingTotal, 3);
    QCOMPARE(d.onlyInFailing.front().line, ibLine);
}

// Control of another size: rank 3 of a 4-rank run on the failing rank's host and local rank.
void TestControlCompare::alignsByHostAndLocalRank()
{
    QTemporaryDir tmp;
    const GenResult bad =
        gen(tmp.filePath(QStringLiteral("bad")), Fault::IbRetryExceeded, Layout::PerRankFiles, 1);
    const GenResult ok = gen(tmp.filePath(QStringLiteral("ok")), Fault::None, Layout::PerRankFiles, 2, 4);
    QVERIFY(bad.error.isEmpty() && ok.error.isEmpty());
    QCOMPARE(bad.faultHost, QStringLiteral("gpu-a02"));
    for (int r = 0; r < 4; ++r) {
        const QString path = tmp.filePath(QStringLiteral("ok/rank-%1.log").arg(r, 4, 10, QLatin1Char('0')));
        QStringList l = lines(path);
        for (QString& s : l)
            s.replace(QStringLiteral("gpu-a01"), QStringLiteral("gpu-a02"));
        QVERIFY(writeLines(path, l));
    }
    const Analysis a = load(tmp.filePath(QStringLiteral("bad")));
    const Analysis c = load(tmp.filePath(QStringLiteral("ok")));
    const auto& failing = *a.currentAttempt();
    const Divergence d =
        compareWithControl(failing.incident, failing.diagnosis, c.currentAttempt()->incident);
    QCOMPARE(d.alignedBy, QStringLiteral("host+local rank"));
    QCOMPARE(d.controlRank, 3);
    QCOMPARE(d.controlFile, QStringLiteral("rank-0003.log"));
    QVERIFY(d.found);
}

void TestControlCompare::noCounterpart()
{
    QTemporaryDir tmp;
    gen(tmp.filePath(QStringLiteral("bad")), Fault::IbRetryExceeded, Layout::PerRankFiles, 1);
    gen(tmp.filePath(QStringLiteral("ok")), Fault::None, Layout::PerRankFiles, 2, 4); // gpu-a01 only
    const Analysis a = load(tmp.filePath(QStringLiteral("bad")));
    const Analysis c = load(tmp.filePath(QStringLiteral("ok")));
    const auto& failing = *a.currentAttempt();
    const Divergence d =
        compareWithControl(failing.incident, failing.diagnosis, c.currentAttempt()->incident);
    QVERIFY(!d.found);
    QVERIFY(d.alignedBy.isEmpty());
    QVERIFY(d.note.contains(QLatin1String("gpu-a02")));
    QVERIFY(divergenceToText(d).contains(d.note));
    QVERIFY(!divergenceToJson(d).contains(QStringLiteral("failing")));
}

void TestControlCompare::noDifferenceAgainstItself()
{
    QTemporaryDir tmp;
    gen(tmp.filePath(QStringLiteral("bad")), Fault::IbRetryExceeded, Layout::NcclDebugFiles, 1);
    gen(tmp.filePath(QStringLiteral("again")), Fault::IbRetryExceeded, Layout::NcclDebugFiles, 9);
    const Analysis a = load(tmp.filePath(QStringLiteral("bad")));
    const Analysis c = load(tmp.filePath(QStringLiteral("again")));
    const auto& failing = *a.currentAttempt();
    const Divergence d =
        compareWithControl(failing.incident, failing.diagnosis, c.currentAttempt()->incident);
    QCOMPARE(d.alignedBy, QStringLiteral("rank"));
    QVERIFY2(!d.found, qPrintable(d.failingText + QStringLiteral(" | ") + d.controlText));
    QCOMPARE(d.onlyInFailingTotal, 0);
}

QTEST_GUILESS_MAIN(TestControlCompare)
#include "tst_control_compare.moc"
