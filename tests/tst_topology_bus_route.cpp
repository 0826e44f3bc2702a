// SPDX-License-Identifier: MIT
// From a PCI address in node evidence to a GPU index and a rank, through a real topology capture: the
// DGX-2 hwloc XML of tests/data/topology/real-2 (16 V100, GPU5 at 0000:59:00.0), a dmesg Xid 79 on that
// address, an `nvidia-smi -q -x -i 4,5` capture (tests/data/node-evidence/bus-route/README.md) and the NCCL
// lines of two ranks run with CUDA_VISIBLE_DEVICES=4,5, whose cudaDev is 0 and 1, not the GPU's index.
#include "analysis.h"
#include "node_evidence.h"
#include "topology_loader.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace rankscope;

namespace {

const QString kFixture = QStringLiteral(RANKSCOPE_TEST_DATA "/node-evidence/bus-route");
const QString kDgx2 = QStringLiteral(RANKSCOPE_TEST_DATA "/topology/real-2/hwloc-xml-2.14_nvidiaDGX2.xml");

// The fixture's files in a fresh folder, with the DGX-2 capture named for the host when asked.
bool incidentFolder(const QTemporaryDir& dir, bool withTopology)
{
    const QDir from(kFixture);
    for (const QString& f : from.entryList(QDir::Files)) {
        if (f != QLatin1String("README.md") && !QFile::copy(from.filePath(f), dir.filePath(f)))
            return false;
    }
    return !withTopology || QFile::copy(kDgx2, dir.filePath(QStringLiteral("hwloc-topo.dgx2-n03.xml")));
}

QString findings(const Diagnosis& d)
{
    QStringList out;
    for (const NodeFinding& f : d.nodeFindings)
        out << QStringLiteral("%1 %2 (%3)")
                   .arg(f.confirms ? QStringLiteral("+") : QStringLiteral("-"))
                   .arg(f.text, f.source);
    return out.join(QLatin1Char('\n'));
}

} // namespace

class TestTopologyBusRoute : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void busIdFormsFindTheGpu_data();
    void busIdFormsFindTheGpu();
    void nvidiaSmiQueryXml();
    void xidAndEccOnTheRanksGpu();
    void withoutTopologyTheLogsAlone();
};

void TestTopologyBusRoute::busIdFormsFindTheGpu_data()
{
    QTest::addColumn<QString>("busId");
    QTest::newRow("hwloc, lspci") << "0000:59:00.0";
    QTest::newRow("nvidia-smi -q, 8-digit domain") << "00000000:59:00.0";
    QTest::newRow("Xid PCI:, no function") << "0000:59:00";
    QTest::newRow("NCCL busId") << "59000";
    QTest::newRow("no domain") << "59:00.0";
}

void TestTopologyBusRoute::busIdFormsFindTheGpu()
{
    QFETCH(QString, busId);
    const TopologyParse t = loadTopologyFile(kDgx2);
    QVERIFY2(t.error.isEmpty(), qPrintable(t.error));
    QCOMPARE(t.topo.gpus.size(), size_t(16));
    const int at = t.topo.gpuByBusId(busId);
    QVERIFY2(at >= 0, qPrintable(busId));
    QCOMPARE(t.topo.gpus[static_cast<size_t>(at)].index, 5);
    QCOMPARE(t.topo.gpus[static_cast<size_t>(at)].busId, QStringLiteral("0000:59:00.0"));
    QCOMPARE(t.topo.gpuByBusId(QStringLiteral("0000:5a:00.0")), -1);
}

// The shape of driver 550: SRAM uncorrectable errors split into _parity and _secded next to DRAM's.
void TestTopologyBusRoute::nvidiaSmiQueryXml()
{
    const NodeCapture c = loadNodeCapture(kFixture + QStringLiteral("/nvidia-smi-q-x.dgx2-n03.xml"),
        QStringLiteral("nvidia-smi-q-x.dgx2-n03.xml"));
    QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
    QCOMPARE(c.kind, NodeCaptureKind::NvidiaSmiQueryXml);
    QCOMPARE(c.gpus.size(), size_t(2));
    QCOMPARE(c.gpus[0].busId, QStringLiteral("0000:57:00.0"));
    QCOMPARE(c.gpus[1].busId, QStringLiteral("0000:59:00.0"));
    QCOMPARE(c.gpus[0].volatileUncorrected, qint64(0));
    QCOMPARE(c.gpus[1].volatileUncorrected, qint64(3)); // 0 parity + 2 SEC-DED + 1 DRAM; correctable not
    QCOMPARE(c.gpus[1].retiredDouble, qint64(1));
    QCOMPARE(c.gpus[1].retirementPending, QStringLiteral("Yes"));
    QCOMPARE(c.gpus[0].persistenceMode, QStringLiteral("Enabled"));
    QCOMPARE(c.gpus[1].persistenceMode, QStringLiteral("Disabled"));
    QCOMPARE(c.gpus[1].persistenceLine, qint64(69));
    QCOMPARE(c.gpus[1].fabricState, QStringLiteral("N/A"));
}

void TestTopologyBusRoute::xidAndEccOnTheRanksGpu()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(incidentFolder(dir, true));
    AnalysisRequest r;
    r.logPaths << dir.path();
    const Analysis a = analyze(r);
    const AttemptAnalysis* at = a.currentAttempt();
    QVERIFY(at);
    const Diagnosis& d = at->diagnosis;
    QCOMPARE(at->incident.events[static_cast<size_t>(d.initiatingEvent)].rank, 1);
    const QString all = findings(d);
    // The Xid's address is GPU5 of the DGX-2, the GPU of rank 1 (busId 59000), though rank 1's cudaDev is 1.
    QVERIFY2(all.contains(QLatin1String("+ Xid 79 (fallen off the bus) on GPU 5 (0000:59:00.0), the GPU of "
                                        "rank 1, the initiating rank (dmesg.dgx2-n03.txt:1)")),
        qPrintable(all));
    // nvidia-smi -i 4,5 lists GPU5 second: its index is the topology's, not its place in the capture.
    QVERIFY2(
        all.contains(QLatin1String("- 3 volatile uncorrectable ECC error(s) on GPU 5 (0000:59:00.0), the "
                                   "GPU of rank 1, the initiating rank (nvidia-smi-q-x.dgx2-n03.xml:")),
        qPrintable(all));
    QVERIFY2(all.contains(QLatin1String("retired pages on GPU 5 (0000:59:00.0)")), qPrintable(all));
    QVERIFY2(
        all.contains(QLatin1String("persistence mode is Disabled on GPU 5 of dgx2-n03")), qPrintable(all));
    QVERIFY2(!all.contains(QLatin1String("GPU 1 (")), qPrintable(all));
}

// Without a capture the rank is still found by its NCCL busId; the index is the rank's own cudaDev.
void TestTopologyBusRoute::withoutTopologyTheLogsAlone()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(incidentFolder(dir, false));
    AnalysisRequest r;
    r.logPaths << dir.path();
    const Analysis a = analyze(r);
    const AttemptAnalysis* at = a.currentAttempt();
    QVERIFY(at);
    const QString all = findings(at->diagnosis);
    QVERIFY2(all.contains(
                 QLatin1String("+ Xid 79 (fallen off the bus) on GPU 1 (0000:59:00.0), the GPU of rank 1, "
                               "the initiating rank")),
        qPrintable(all));
    QVERIFY2(all.contains(
                 QLatin1String("3 volatile uncorrectable ECC error(s) on GPU 1 (0000:59:00.0), the GPU of "
                               "rank 1")),
        qPrintable(all));
}

QTEST_GUILESS_MAIN(TestTopologyBusRoute)
#include "tst_topology_bus_route.moc"
