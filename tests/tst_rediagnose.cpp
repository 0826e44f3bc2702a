// SPDX-License-Identifier: MIT
// rediagnoseWithTopology(): a capture added to or removed from an analysis re-runs the diagnosis, not the
// scan. The proof is structural, not a timing: the logs are moved away before the re-diagnosis, so a scan
// would find nothing, yet every attempt keeps its incident and gets the diagnosis a fresh analysis with
// the capture gives.
#include "analysis.h"
#include "rediagnose.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace rankscope;

namespace {

const QString kCapture = QStringLiteral(RANKSCOPE_TEST_DATA "/topology/nvidia-smi-topo.gpu-a02.txt");

bool copyFolder(const QString& from, const QString& to)
{
    if (!QDir().mkpath(to))
        return false;
    for (const QString& name : QDir(from).entryList(QDir::Files)) {
        if (!QFile::copy(from + QLatin1Char('/') + name, to + QLatin1Char('/') + name))
            return false;
    }
    return true;
}

} // namespace

class TestRediagnose : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void addAndRemoveACapture()
    {
        QTemporaryDir tmp;
        const QString logs = tmp.filePath(QStringLiteral("job"));
        QVERIFY(copyFolder(QStringLiteral(RANKSCOPE_TEST_DATA "/sample-job"), logs));
        AnalysisRequest r;
        r.logPaths << logs;
        const Analysis scanned = analyze(r);
        r.topologyPaths << kCapture;
        const Analysis fresh = analyze(r); // what the capture gives when everything is read again
        QVERIFY(scanned.currentAttempt() && fresh.currentAttempt());
        QVERIFY(scanned.topologyPaths.isEmpty());
        QCOMPARE(fresh.topologyPaths, QStringList { kCapture });

        // Gone from disk: a scan now reads nothing.
        const QString moved = tmp.filePath(QStringLiteral("moved"));
        QVERIFY(QDir().rename(logs, moved));
        AnalysisRequest gone;
        gone.logPaths << logs;
        QVERIFY(analyze(gone).attempts.empty());

        const Analysis added = rediagnoseWithTopology(scanned, { kCapture });
        QVERIFY(!added.cancelled);
        QCOMPARE(added.attempts.size(), scanned.attempts.size());
        QCOMPARE(added.current, scanned.current);
        QCOMPARE(added.topologyPaths, QStringList { kCapture });
        QCOMPARE(added.topology.hosts.size(), fresh.topology.hosts.size());
        const AttemptAnalysis& a = *added.currentAttempt();
        const AttemptAnalysis& f = *fresh.currentAttempt();
        // The incident is the scanned one, event for event.
        QCOMPARE(a.incident.events.size(), scanned.currentAttempt()->incident.events.size());
        QCOMPARE(a.incident.files.size(), scanned.currentAttempt()->incident.files.size());
        QVERIFY(!a.incident.events.empty());
        // The diagnosis is the one of the fresh analysis with the capture: the placement, the NIC binding
        // in the fix, the topology's findings among the notes.
        QCOMPARE(a.diagnosis.headline, f.diagnosis.headline);
        QCOMPARE(a.diagnosis.signature, f.diagnosis.signature);
        QCOMPARE(a.diagnosis.initiatingEvent, f.diagnosis.initiatingEvent);
        QCOMPARE(a.diagnosis.fix, f.diagnosis.fix);
        QVERIFY(a.diagnosis.fix.contains(QLatin1String("export NCCL_IB_HCA=mlx5_1")));
        QCOMPARE(a.placement.hca.size(), f.placement.hca.size());
        QCOMPARE(a.placement.findings.size(), f.placement.findings.size());
        QVERIFY(!a.placement.findings.empty());
        for (const TopologyFinding& finding : a.placement.findings)
            QVERIFY(a.diagnosis.notes.contains(finding.detail));
        QVERIFY(scanned.currentAttempt()->placement.hca.empty()); // the input is left as it was

        // Removed again: the diagnosis without a topology.
        const Analysis removed = rediagnoseWithTopology(added, {});
        QVERIFY(removed.topology.hosts.empty());
        QVERIFY(removed.topologyPaths.isEmpty());
        const AttemptAnalysis& b = *removed.currentAttempt();
        QCOMPARE(b.incident.events.size(), scanned.currentAttempt()->incident.events.size());
        QVERIFY(b.placement.hca.empty());
        QCOMPARE(b.diagnosis.fix, scanned.currentAttempt()->diagnosis.fix);
        QCOMPARE(b.diagnosis.headline, scanned.currentAttempt()->diagnosis.headline);
    }

    void cancelledBeforeTheFirstAttempt()
    {
        AnalysisRequest r;
        r.logPaths << QStringLiteral(RANKSCOPE_TEST_DATA "/sample-job");
        const Analysis scanned = analyze(r);
        QVERIFY(!scanned.attempts.empty());
        CancelToken token;
        token.cancel();
        const Analysis out = rediagnoseWithTopology(scanned, { kCapture }, {}, &token);
        QVERIFY(out.cancelled);
        QVERIFY(out.attempts.empty());
    }
};

QTEST_GUILESS_MAIN(TestRediagnose)
#include "tst_rediagnose.moc"
