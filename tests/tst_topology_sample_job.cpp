// SPDX-License-Identifier: MIT
// The sample job's logs joined with gpu-a02's captures through the whole analysis, and the CLI on them.
#include "analysis.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>

using namespace rankscope;

class TestTopologySampleJob : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void rankSevenOnGpu3OverSys()
    {
        AnalysisRequest r;
        r.logPaths << QStringLiteral(RANKSCOPE_TEST_DATA "/sample-job");
        r.topologyPaths << QStringLiteral(RANKSCOPE_TEST_DATA "/topology/nvidia-smi-topo.gpu-a02.txt")
                        << QStringLiteral(RANKSCOPE_TEST_DATA "/topology/nccl-topo-dump.gpu-a02.xml");
        const Analysis an = analyze(r);
        const AttemptAnalysis* a = an.currentAttempt();
        QVERIFY(a);
        QCOMPARE(an.topology.hosts.size(), size_t(1)); // both captures merge into gpu-a02
        bool placed = false;
        for (const RankPlacement& p : a->placement.ranks) {
            if (p.rank != 7)
                continue;
            placed = true;
            QCOMPARE(p.host, QStringLiteral("gpu-a02"));
            QVERIFY(p.hostIndex >= 0 && p.gpu >= 0);
            const HostTopology& host = an.topology.hosts[static_cast<size_t>(p.hostIndex)];
            QCOMPARE(host.gpus[static_cast<size_t>(p.gpu)].index, 3);
            QCOMPARE(p.nics.size(), size_t(1));
            QCOMPARE(p.nics.front().name, QStringLiteral("mlx5_0"));
            QCOMPARE(p.nics.front().path, PathClass::SYS);
            QCOMPARE(p.affinity, RankPlacement::Affinity::OnGpuNuma);
        }
        QVERIFY(placed);
        // The findings reach the diagnosis: SYS path for rank 7, and gpu-a02's missing mlx5_1.
        const QString notes = a->diagnosis.notes.join(QLatin1Char('\n'));
        QVERIFY2(notes.contains(QLatin1String("SYS")) && notes.contains(QLatin1String("mlx5_1")),
            qPrintable(notes));
        // And the fix carries the per-local-rank NIC binding computed from the capture.
        QVERIFY(a->diagnosis.fix.contains(QLatin1String("2|3) export NCCL_IB_HCA=mlx5_1")));
    }

    void diagnoseJsonCarriesTopology()
    {
        QProcess p;
        p.start(QStringLiteral(RANKSCOPE_BINARY),
            { QStringLiteral("diagnose"), QStringLiteral(RANKSCOPE_TEST_DATA "/sample-job"),
                QStringLiteral("--topology"),
                QStringLiteral(RANKSCOPE_TEST_DATA "/topology/nvidia-smi-topo.gpu-a02.txt"),
                QStringLiteral("--format"), QStringLiteral("json") });
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        const QJsonObject root = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
        QCOMPARE(root.value(QStringLiteral("schema")).toString(), QStringLiteral("rankscope.diagnosis/1"));
        const QJsonObject init = root.value(QStringLiteral("initiating")).toObject();
        QCOMPARE(init.value(QStringLiteral("rank")).toInt(), 7);
        QCOMPARE(init.value(QStringLiteral("host")).toString(), QStringLiteral("gpu-a02"));
        QCOMPARE(init.value(QStringLiteral("line")).toInt(), 32);
        QCOMPARE(init.value(QStringLiteral("file")).toString(), QStringLiteral("nccl.gpu-a02.52117.log"));
        QVERIFY(init.value(QStringLiteral("text")).toString().contains(QLatin1String("status=12")));
        QCOMPARE(root.value(QStringLiteral("signature")).toObject().value(QStringLiteral("id")).toString(),
            QStringLiteral("nccl-ib-completion-retry-exceeded"));
        QCOMPARE(root.value(QStringLiteral("confidence")).toString(), QStringLiteral("high"));
        QVERIFY(root.value(QStringLiteral("topology")).isObject());
        QVERIFY(root.value(QStringLiteral("collateral")).toArray().size() >= 1);
        QCOMPARE(root.value(QStringLiteral("inputs")).toObject().value(QStringLiteral("files")).toInt(), 4);
    }

    void diagnoseExitCodes()
    {
        QProcess p;
        p.start(QStringLiteral(RANKSCOPE_BINARY),
            { QStringLiteral("diagnose"), QStringLiteral("/nonexistent/rankscope-logs") });
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 2);
        QVERIFY(p.readAllStandardError().contains("no such file or folder"));
    }

    void topologyCommand()
    {
        QProcess p;
        p.start(QStringLiteral(RANKSCOPE_BINARY),
            { QStringLiteral("topology"),
                QStringLiteral(RANKSCOPE_TEST_DATA "/topology/nvidia-smi-topo.gpu-a02.txt"),
                QStringLiteral("--logs"), QStringLiteral(RANKSCOPE_TEST_DATA "/sample-job") });
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        const QString out = QString::fromUtf8(p.readAllStandardOutput());
        QVERIFY2(
            out.contains(QLatin1String("SYS")) && out.contains(QLatin1String("rank 7")), qPrintable(out));
    }
};

QTEST_GUILESS_MAIN(TestTopologySampleJob)
#include "tst_topology_sample_job.moc"
