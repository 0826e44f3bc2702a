// SPDX-License-Identifier: MIT
// Real topology captures that the project did not write (tests/data/topology/real-2/README.md, and the
// first set, tests/data/topology/SOURCES.md): each loads with what its README says is true of it. Then
// the captures' hosts: a capture is tied to a host of the logs by its content, then its file name, and a
// capture of no host in the logs drives no fix. Then what captures without logs imply on their own.
#include "topology_loader.h"
#include "topology_placement.h"
#include "topology_report.h"

#include <QDir>
#include <QFile>
#include <QStringEncoder>
#include <QTest>
#include <algorithm>
#include <map>

using namespace rankscope;

namespace {

QString real2(const QString& name)
{
    return QStringLiteral(RANKSCOPE_TEST_DATA "/topology/real-2/") + name;
}

QString topo(const QString& name)
{
    return QStringLiteral(RANKSCOPE_TEST_DATA "/topology/") + name;
}

TopologyParse load(const QString& path)
{
    return loadTopologyFile(path);
}

// The class of a GPU pair as nvidia-smi prints it ("NV6", "SYS"), "" when the capture gives none.
QString gpuPair(const HostTopology& t, int a, int b)
{
    const GpuLink* l = t.gpuLink(t.gpuByIndex(a), t.gpuByIndex(b));
    return l ? pathClassName(l->path, l->linkCount) : QString();
}

QString gpuNic(const HostTopology& t, int gpu, const QString& nic)
{
    const GpuNicLink* l = t.nicLink(t.gpuByIndex(gpu), t.nicByName(nic));
    return l ? pathClassName(l->path) : QString();
}

// Every GPU pair's class: how many pairs have each ("NV6" -> 120).
std::map<QString, int> gpuPairClasses(const HostTopology& t)
{
    std::map<QString, int> out;
    for (size_t a = 0; a < t.gpus.size(); ++a)
        for (size_t b = a + 1; b < t.gpus.size(); ++b) {
            const GpuLink* l = t.gpuLink(static_cast<int>(a), static_cast<int>(b));
            ++out[l ? pathClassName(l->path, l->linkCount) : QStringLiteral("(none)")];
        }
    return out;
}

bool anyContains(const QStringList& list, const QString& part)
{
    for (const QString& s : list)
        if (s.contains(part))
            return true;
    return false;
}

#define VERIFY_LISTED(list, part)                                                                            \
    QVERIFY2(anyContains((list), (part)),                                                                    \
        qPrintable(                                                                                          \
            QStringLiteral("no line holds \"%1\" in:\n  ").arg(part) + (list).join(QStringLiteral("\n  "))))

RankInfo rank(int r, const QString& host, int local, const QString& busId = {})
{
    RankInfo i;
    i.rank = r;
    i.host = host;
    i.localRank = i.cudaDev = i.nvmlDev = local;
    i.busId = busId;
    return i;
}

} // namespace

class TestTopologyRealCaptures : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // README, one test per line.
    void hwlocDgx2NvlinkFromDistances();
    void nvsmiDgx2PartialAllNv6();
    void hwlocManagementGraphicsIsNoGpu();
    void hwlocIrregularGroupsEightNuma();
    void hwlocCapturedInsideCpuset_data();
    void hwlocCapturedInsideCpuset();
    void ncclXmlNvswitchLinksSummed_data();
    void ncclXmlNvswitchLinksSummed();
    void ncclXmlSocketNicIsNoRdma();
    void nvsmiNicRowsWithoutColumns();
    void nvsmiRaggedPartial();
    void nvsmiTopoMpPartial();
    void nvsmiMatrixAndP2pFilesMerge();
    void nvsmiIndentedMatrixThenP2pBlock();
    void utf16leWithBomLoadsLikeUtf8();
    void everyReal2CaptureLoads();
    // The first set (tests/data/topology/SOURCES.md) still loads right.
    void firstSetStillRight();
    // Captures belong to hosts.
    void foreignCaptureDrivesNoFix();
    void oneHostOneCapture();
    void boundByBusIds();
    void fileNameAfterContent();
    void fixNeverWithoutHost();
    void attributeRenamesAndMerges();
    // Captures without logs.
    void capturesOnlyBinding();
    void capturesOnlyReport();
};

// DGX-2: 16 V100 behind NVSwitches. The NVLinkBandwidth matrix joins every GPU pair (6 links of 25 GB/s
// to the switch set each): NV6 everywhere, as nvidia-smi topo -m prints it, no SYS pair.
void TestTopologyRealCaptures::hwlocDgx2NvlinkFromDistances()
{
    const TopologyParse p = load(real2(QStringLiteral("hwloc-xml-2.14_nvidiaDGX2.xml")));
    QVERIFY2(p.error.isEmpty(), qPrintable(p.error));
    QCOMPARE(p.format, TopologyFormat::HwlocXml);
    QCOMPARE(p.topo.gpus.size(), size_t(16));
    QCOMPARE(p.topo.numaNodes.size(), size_t(2));
    QVERIFY(p.topo.gpus[0].name.contains(QLatin1String("V100")));
    const std::map<QString, int> classes = gpuPairClasses(p.topo);
    QCOMPARE(classes.size(), size_t(1));
    QCOMPARE(classes.begin()->first, QStringLiteral("NV6"));
    QCOMPARE(classes.begin()->second, 16 * 15 / 2);
    QCOMPARE(gpuPair(p.topo, 0, 15), QStringLiteral("NV6"));
    // Printed by the matrix, not derived from the PCI tree.
    QVERIFY(!p.topo.gpuLink(0, 15)->derived);
    QVERIFY(
        !topologyText(loadTopologyFiles({ p.topo.sources.first() })).contains(QLatin1String("GPU0-GPU8")));
}

// The real DGX-2 nvidia-smi matrix, cut after GPU4's row: every pair it gives is NV6, it has no NUMA column,
// and what it lacks is named.
void TestTopologyRealCaptures::nvsmiDgx2PartialAllNv6()
{
    const TopologyParse p =
        load(real2(QStringLiteral("gh-nvsmi_nccl-tests-78-dgx2-nv6-10nic-no-numa-partial.txt")));
    QVERIFY2(p.error.isEmpty(), qPrintable(p.error));
    QCOMPARE(p.topo.gpus.size(), size_t(16));
    QCOMPARE(p.topo.nics.size(), size_t(10));
    QCOMPARE(p.topo.numaNodes.size(), size_t(0)); // old driver: no NUMA column
    for (const TopoGpu& g : p.topo.gpus)
        QCOMPARE(g.numa, -1);
    std::map<QString, int> classes = gpuPairClasses(p.topo);
    classes.erase(QStringLiteral("(none)"));
    QCOMPARE(classes.size(), size_t(1));
    QCOMPARE(classes.begin()->first, QStringLiteral("NV6"));
    // Rows GPU0-GPU4 give 15 + 14 + 13 + 12 + 11 pairs.
    QCOMPARE(classes.begin()->second, 65);
    QCOMPARE(gpuNic(p.topo, 0, QStringLiteral("mlx5_0")), QStringLiteral("PIX"));
    QCOMPARE(gpuNic(p.topo, 4, QStringLiteral("mlx5_2")), QStringLiteral("PIX"));
    QCOMPARE(gpuNic(p.topo, 4, QStringLiteral("mlx5_9")), QStringLiteral("SYS"));
    QCOMPARE(p.topo.gpus[0].cpuAffinity, QStringLiteral("0-23,48-71"));
    // GPU4's affinity "0-23,4" is where the paste ends: not taken for a value.
    QCOMPARE(p.topo.gpus[4].cpuAffinity, QString());
    VERIFY_LISTED(p.topo.missing, QStringLiteral("rows GPU5-GPU15"));
    VERIFY_LISTED(p.topo.missing, QStringLiteral("row GPU4: its last value \"0-23,4\""));
    VERIFY_LISTED(p.topo.missing, QStringLiteral("55 of 120 GPU pairs have no class"));
}

// Three NVIDIA GPUs (10de:06d2, no OS device); the ATI ES1000 (1002:515e) is server-management graphics.
void TestTopologyRealCaptures::hwlocManagementGraphicsIsNoGpu()
{
    const TopologyParse p = load(real2(QStringLiteral("hwloc-xml-2.14_24em64t-2n6c2t-pci.xml")));
    QVERIFY2(p.error.isEmpty(), qPrintable(p.error));
    QCOMPARE(p.topo.host, QStringLiteral("mirage004"));
    QCOMPARE(p.topo.hostFrom, HostTopology::HostFrom::Content);
    QCOMPARE(p.topo.gpus.size(), size_t(3));
    QCOMPARE(p.topo.gpuByBusId(QStringLiteral("0000:01:03.0")), -1);
    // Indexes in bus order, with nothing in front of them.
    QCOMPARE(p.topo.gpus[static_cast<size_t>(p.topo.gpuByIndex(0))].busId, QStringLiteral("0000:06:00.0"));
    QCOMPARE(p.topo.gpus[static_cast<size_t>(p.topo.gpuByIndex(1))].busId, QStringLiteral("0000:11:00.0"));
    QCOMPARE(p.topo.gpus[static_cast<size_t>(p.topo.gpuByIndex(2))].busId, QStringLiteral("0000:14:00.0"));
    QCOMPARE(p.topo.numaNodes.size(), size_t(2));
    VERIFY_LISTED(p.topo.notes, QStringLiteral("0000:01:03.0 (1002:515e) is server-management graphics"));
    // The Ethernet ports are not RDMA; the ConnectX (mlx4_0) is.
    QVERIFY(!p.topo.nics[static_cast<size_t>(p.topo.nicByName(QStringLiteral("eth0")))].rdma);
    QVERIFY(p.topo.nics[static_cast<size_t>(p.topo.nicByName(QStringLiteral("mlx4_0")))].rdma);
    QVERIFY(isManagementGraphics(0x1a03, 0x2000)); // ASPEED
    QVERIFY(!isGpuFunction(0x0300, 0x102b, 0x0534, true)); // Matrox, even with a compute device
    QVERIFY(!isGpuFunction(0x0300, 0x1002, 0x744c, false)); // a Radeon with no compute device
    QVERIFY(isGpuFunction(0x0300, 0x1002, 0x744c, true));
    QVERIFY(isGpuFunction(0x0380, 0x1002, 0x740c, false)); // MI250X
}

// 8 NUMA nodes, six of them outside the capturing process's cpuset; the two GPUs on NUMA 4 and 7.
void TestTopologyRealCaptures::hwlocIrregularGroupsEightNuma()
{
    const TopologyParse p =
        load(real2(QStringLiteral("hwloc-xml-v1.11_64intel64-3g2n+2n-irregulargroups+pci.xml")));
    QVERIFY2(p.error.isEmpty(), qPrintable(p.error));
    QCOMPARE(p.topo.host, QStringLiteral("condor"));
    QCOMPARE(p.topo.numaNodes.size(), size_t(8));
    QCOMPARE(p.topo.gpus.size(), size_t(2)); // the Matrox G200eR2 is not one
    QList<int> numas { p.topo.gpus[0].numa, p.topo.gpus[1].numa };
    std::sort(numas.begin(), numas.end());
    QCOMPARE(numas, (QList<int> { 4, 7 }));
}

void TestTopologyRealCaptures::hwlocCapturedInsideCpuset_data()
{
    QTest::addColumn<QString>("file");
    QTest::newRow("rankscope capture") << "local_capture-in-cpuset-cpu0.xml";
    QTest::newRow("lstopo --disallowed") << "local_lstopo-in-cpuset-cpu0-disallowed.xml";
}

// Taken inside a cgroup cpuset of CPU 0: the machine has 2 CPUs, and both are in the model.
void TestTopologyRealCaptures::hwlocCapturedInsideCpuset()
{
    QFETCH(QString, file);
    const TopologyParse p = load(real2(file));
    QVERIFY2(p.error.isEmpty(), qPrintable(p.error));
    QCOMPARE(p.topo.host, QStringLiteral("vm"));
    QCOMPARE(p.topo.numaNodes.size(), size_t(1));
    QCOMPARE(p.topo.numaNodes[0].cpus, QStringLiteral("0-1"));
    QCOMPARE(p.topo.machineCpus, QStringLiteral("0-1"));
    QCOMPARE(p.topo.allowedCpus, QStringLiteral("0"));
    VERIFY_LISTED(p.topo.notes, QStringLiteral("captured inside a cpuset (cgroup /rstest)"));
}

void TestTopologyRealCaptures::ncclXmlNvswitchLinksSummed_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("gpus");
    QTest::addColumn<QString>("nv");
    QTest::newRow("ibm-h100") << "gh-nccl_ibm-cloud-h100-vsi-topo.xml" << 8 << "NV18"; // 5+5+4+4
    QTest::newRow("simai-a100") << "simai_topo_4A100_2CX6.xml" << 4 << "NV12"; // 6 switches x 2
}

// NVSwitch links in NCCL topology XML: a GPU's links summed over the switch set, not one switch's count.
void TestTopologyRealCaptures::ncclXmlNvswitchLinksSummed()
{
    QFETCH(QString, file);
    QFETCH(int, gpus);
    QFETCH(QString, nv);
    const TopologyParse p = load(real2(file));
    QVERIFY2(p.error.isEmpty(), qPrintable(p.error));
    QCOMPARE(p.format, TopologyFormat::NcclXml);
    QCOMPARE(static_cast<int>(p.topo.gpus.size()), gpus);
    const std::map<QString, int> classes = gpuPairClasses(p.topo);
    QCOMPARE(classes.size(), size_t(1));
    QCOMPARE(classes.begin()->first, nv);
    QCOMPARE(classes.begin()->second, gpus * (gpus - 1) / 2);
    for (const TopoNic& n : p.topo.nics)
        QVERIFY2(n.rdma, qPrintable(n.name)); // mlx5_N, gdr="1"
}

// <net name="eth0" ... gdr="0">: a socket NIC. No NCCL_IB_HCA advice names it.
void TestTopologyRealCaptures::ncclXmlSocketNicIsNoRdma()
{
    const TopologySet set = loadTopologyFiles({ real2(QStringLiteral("azhpc-images_ncv4-topo.xml")) });
    QVERIFY2(set.errors.isEmpty(), qPrintable(set.errors.join(u'\n')));
    QCOMPARE(set.hosts.size(), size_t(1));
    const HostTopology& h = set.hosts[0];
    QCOMPARE(h.gpus.size(), size_t(4));
    QCOMPARE(h.numaNodes.size(), size_t(4));
    QCOMPARE(h.nics.size(), size_t(1));
    QCOMPARE(h.nics[0].name, QStringLiteral("eth0"));
    QVERIFY(!h.nics[0].rdma);
    VERIFY_LISTED(h.notes, QStringLiteral("eth0 is a socket NIC"));
    const PlacementResult alone = placeCapturesOnly(set);
    QVERIFY(alone.hca.empty());
    QVERIFY(!alone.hcaScripts.join(u' ').contains(QLatin1String("eth0")));
    bool noRdma = false;
    for (const TopologyFinding& f : alone.findings)
        noRdma = noRdma || f.kind == TopologyFinding::NoRdmaNic;
    QVERIFY(noRdma);
    // With logs too: a rank on the host gets no NCCL_IB_HCA=eth0.
    const PlacementResult placed = placeRanks({ rank(0, QStringLiteral("ncv4"), 0) }, set);
    QVERIFY(placed.hca.empty());
    QVERIFY(!placed.hcaScripts.join(u' ').contains(QLatin1String("eth0")));
    QVERIFY(!capturesOnlyText(set, alone).contains(QLatin1String("NCCL_IB_HCA=eth0")));
}

// H800: the GPU x GPU block is complete; the NIC rows come without NIC columns; GPU0's affinity is garbled.
void TestTopologyRealCaptures::nvsmiNicRowsWithoutColumns()
{
    const TopologyParse p =
        load(real2(QStringLiteral("gh-nvsmi_llm-action-h800x8-nic-rows-only-garbled.txt")));
    QVERIFY2(p.error.isEmpty(), qPrintable(p.error));
    QCOMPARE(p.topo.gpus.size(), size_t(8));
    const std::map<QString, int> classes = gpuPairClasses(p.topo);
    QCOMPARE(classes.size(), size_t(1));
    QCOMPARE(classes.begin()->first, QStringLiteral("NV8"));
    QCOMPARE(p.topo.numaNodes.size(), size_t(2));
    QCOMPARE(p.topo.gpus[4].numa, 1);
    // The NIC rows still give the GPU-NIC classes, and the legend their names.
    QCOMPARE(p.topo.nics.size(), size_t(4));
    QCOMPARE(gpuNic(p.topo, 1, QStringLiteral("mlx5_0")), QStringLiteral("PIX"));
    QCOMPARE(gpuNic(p.topo, 3, QStringLiteral("mlx5_1")), QStringLiteral("PIX"));
    QCOMPARE(gpuNic(p.topo, 0, QStringLiteral("mlx5_2")), QStringLiteral("SYS"));
    QCOMPARE(gpuNic(p.topo, 7, QStringLiteral("mlx5_3")), QStringLiteral("PIX"));
    VERIFY_LISTED(p.topo.notes, QStringLiteral("NIC0-NIC3: rows without a column in the header"));
    VERIFY_LISTED(p.topo.missing, QStringLiteral("GPU0: CPU Affinity (unreadable \"-31,64-95\")"));
    QCOMPARE(p.topo.gpus[0].cpuAffinity, QString());
    QCOMPARE(p.topo.gpus[4].cpuAffinity, QStringLiteral("32-63,96-127"));
}

// A paste cut inside GPU4's row: GPU0-GPU3 complete, GPU4 up to NIC6, GPU5-GPU7 absent.
void TestTopologyRealCaptures::nvsmiRaggedPartial()
{
    const TopologyParse p =
        load(real2(QStringLiteral("gh-nvsmi_nccl-2157-a100-18nic-4numa-ragged-partial.txt")));
    QVERIFY2(p.error.isEmpty(), qPrintable(p.error));
    QCOMPARE(p.topo.gpus.size(), size_t(8));
    QCOMPARE(p.topo.nics.size(), size_t(18));
    std::map<QString, int> classes = gpuPairClasses(p.topo);
    QCOMPARE(classes[QStringLiteral("NV12")], 25); // all but GPU5-GPU6, GPU5-GPU7, GPU6-GPU7
    QCOMPARE(gpuPair(p.topo, 4, 7), QStringLiteral("NV12"));
    QCOMPARE(gpuPair(p.topo, 6, 7), QString());
    QCOMPARE(p.topo.gpus[0].numa, 3);
    QCOMPARE(p.topo.gpus[2].numa, 1);
    QCOMPARE(p.topo.gpus[4].numa, -1);
    QCOMPARE(p.topo.numaNodes.size(), size_t(2)); // only NUMA 3 and 1 are in the rows that survived
    const GpuNicLink* cut = p.topo.nicLink(p.topo.gpuByIndex(4), 7); // NIC7: after the cut
    QVERIFY(!cut || cut->path == PathClass::Unknown);
    QCOMPARE(pathClassName(p.topo.nicLink(p.topo.gpuByIndex(0), 5)->path), QStringLiteral("PXB"));
    VERIFY_LISTED(p.topo.missing, QStringLiteral("rows GPU5-GPU7"));
    VERIFY_LISTED(p.topo.missing, QStringLiteral("row GPU4: cells from NIC7 on"));
    VERIFY_LISTED(
        p.topo.missing, QStringLiteral("3 of 28 GPU pairs have no class (GPU5-GPU6, GPU5-GPU7, GPU6-GPU7)"));
    VERIFY_LISTED(p.topo.missing, QStringLiteral("NIC Legend entries (device names) of NIC0-NIC17"));
}

// nvidia-smi topo -mp with 14 NICs, cut in GPU4's row; the shell prompt names the host.
void TestTopologyRealCaptures::nvsmiTopoMpPartial()
{
    const TopologyParse p = load(real2(QStringLiteral("gh-nvsmi_deepep-60-topo-mp-14nic-partial.txt")));
    QVERIFY2(p.error.isEmpty(), qPrintable(p.error));
    QCOMPARE(p.topo.host, QStringLiteral("f51fec68bf55"));
    QCOMPARE(p.topo.hostFrom, HostTopology::HostFrom::Content);
    QCOMPARE(p.topo.gpus.size(), size_t(8));
    QCOMPARE(p.topo.nics.size(), size_t(14));
    QCOMPARE(gpuPair(p.topo, 0, 1), QStringLiteral("NODE"));
    QCOMPARE(gpuPair(p.topo, 0, 4), QStringLiteral("SYS"));
    QCOMPARE(gpuPair(p.topo, 4, 7), QStringLiteral("NODE")); // from GPU4's row, before the cut
    QCOMPARE(gpuPair(p.topo, 5, 6), QString());
    QCOMPARE(pathClassName(p.topo.nicLink(p.topo.gpuByIndex(3), 7)->path), QStringLiteral("PIX"));
    QCOMPARE(p.topo.gpus[3].numa, 0);
    VERIFY_LISTED(p.topo.missing, QStringLiteral("rows GPU5-GPU7"));
    VERIFY_LISTED(p.topo.missing, QStringLiteral("row GPU4: its last value \"SY\""));
}

// `-m` and `-p2p rw` of one host, two files without a host name: one host.
void TestTopologyRealCaptures::nvsmiMatrixAndP2pFilesMerge()
{
    const TopologySet set =
        loadTopologyFiles({ real2(QStringLiteral("gh-nvsmi_club3090-1229-2x5090-topo-m.txt")),
            real2(QStringLiteral("gh-nvsmi_club3090-1229-2x5090-p2p-rw.txt")) });
    QVERIFY2(set.errors.isEmpty(), qPrintable(set.errors.join(u'\n')));
    QCOMPARE(set.hosts.size(), size_t(1));
    const HostTopology& h = set.hosts[0];
    QCOMPARE(h.sources.size(), 2);
    QCOMPARE(h.gpus.size(), size_t(2));
    const GpuLink* l = h.gpuLink(0, 1);
    QVERIFY(l);
    QCOMPARE(pathClassName(l->path), QStringLiteral("PHB"));
    QCOMPARE(l->p2p, QStringLiteral("GNS"));
    QCOMPARE(h.gpus[0].numa, 0);
    // Two captures of one kind without bus ids could be two identical machines: they stay apart.
    const TopologySet two =
        loadTopologyFiles({ real2(QStringLiteral("gh-nvsmi_club3090-1229-2x5090-topo-m.txt")),
            real2(QStringLiteral("gh-nvsmi_club3090-1125-indented-wrapped-plus-p2p.txt")) });
    QCOMPARE(two.hosts.size(), size_t(2));
}

// An indented -m matrix, a legend whose lines wrap, then a -p2p block in the same file: both read.
void TestTopologyRealCaptures::nvsmiIndentedMatrixThenP2pBlock()
{
    const TopologyParse p =
        load(real2(QStringLiteral("gh-nvsmi_club3090-1125-indented-wrapped-plus-p2p.txt")));
    QVERIFY2(p.error.isEmpty(), qPrintable(p.error));
    QCOMPARE(p.format, TopologyFormat::NvidiaSmiMatrix);
    QCOMPARE(p.topo.gpus.size(), size_t(2));
    const GpuLink* l = p.topo.gpuLink(0, 1);
    QVERIFY(l);
    QCOMPARE(pathClassName(l->path), QStringLiteral("NODE"));
    QCOMPARE(l->p2p, QStringLiteral("NS"));
    QCOMPARE(p.topo.gpus[1].cpuAffinity, QStringLiteral("0-15"));
    VERIFY_LISTED(p.topo.notes, QStringLiteral("read as the P2P overlay"));
    QVERIFY(p.topo.missing.isEmpty());
}

// What a PowerShell `>` redirect writes (UTF-16LE, BOM, CRLF) loads like the UTF-8 original.
void TestTopologyRealCaptures::utf16leWithBomLoadsLikeUtf8()
{
    const TopologyParse utf8 = load(real2(QStringLiteral("gh-nvsmi_club3090-1229-2x5090-topo-m.txt")));
    const QString wide = real2(QStringLiteral("gh-nvsmi_club3090-1229-2x5090-topo-m-utf16le-bom.txt"));
    QFile f(wide);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QVERIFY(f.read(2) == QByteArray("\xff\xfe"));
    const TopologyParse p = load(wide);
    QVERIFY2(p.error.isEmpty(), qPrintable(p.error));
    QCOMPARE(p.format, utf8.format);
    QCOMPARE(p.topo.gpus.size(), utf8.topo.gpus.size());
    QCOMPARE(gpuPair(p.topo, 0, 1), QStringLiteral("PHB"));
    QCOMPARE(p.topo.gpus[1].cpuAffinity, utf8.topo.gpus[1].cpuAffinity);
    QCOMPARE(p.topo.gpus[1].numa, 0);
    QCOMPARE(detectTopologyFormat(f.readAll().prepend("\xff\xfe")), TopologyFormat::NvidiaSmiMatrix);
    VERIFY_LISTED(p.topo.notes, QStringLiteral("read as UTF-16LE"));
    // The other encodings with a BOM, an XML one among them.
    QFile x(real2(QStringLiteral("simai_topo_4A100_2CX6.xml")));
    QVERIFY(x.open(QIODevice::ReadOnly));
    const QString xml = QString::fromUtf8(x.readAll());
    for (const auto enc : { QStringConverter::Utf16BE, QStringConverter::Utf32LE, QStringConverter::Utf8 }) {
        QStringEncoder encode(enc, QStringConverter::Flag::WriteBom);
        const TopologyParse q = parseTopologyCapture(encode(xml), QStringLiteral("simai.xml"));
        QVERIFY2(q.error.isEmpty(), qPrintable(q.error));
        QCOMPARE(q.topo.gpus.size(), size_t(4));
        QCOMPARE(gpuPair(q.topo, 0, 3), QStringLiteral("NV12"));
    }
}

// Every file of the folder is recognised and read.
void TestTopologyRealCaptures::everyReal2CaptureLoads()
{
    const QDir dir(QStringLiteral(RANKSCOPE_TEST_DATA "/topology/real-2"));
    int n = 0;
    for (const QString& f : dir.entryList(QDir::Files)) {
        if (f.endsWith(QLatin1String(".md")))
            continue;
        const TopologyParse p = load(dir.filePath(f));
        QVERIFY2(p.error.isEmpty(), qPrintable(p.error));
        // The two captures taken inside a cpuset are of a VM without a GPU; every other one has GPUs.
        QVERIFY2(p.topo.gpus.empty() == f.startsWith(QLatin1String("local_")), qPrintable(f));
        ++n;
    }
    QCOMPARE(n, 16); // the README's fifteen and the UTF-16LE copy
}

void TestTopologyRealCaptures::firstSetStillRight()
{
    // H100 HGX: GPUn-NICn PIX; GPU0-3 <-> NIC4-7 and GPU4-7 <-> NIC0-3 SYS (32 pairs); NV18.
    const TopologyParse hgx = load(topo(QStringLiteral("nvsmi-topo-h100-hgx-8nic-mlx5-pix-node-sys.txt")));
    QVERIFY2(hgx.error.isEmpty(), qPrintable(hgx.error));
    int sys = 0;
    for (const GpuNicLink& l : hgx.topo.nicLinks)
        sys += l.path == PathClass::SYS ? 1 : 0;
    QCOMPARE(sys, 32);
    for (int g = 0; g < 8; ++g)
        QCOMPARE(gpuNic(hgx.topo, g, QStringLiteral("mlx5_%1").arg(g)), QStringLiteral("PIX"));
    QCOMPARE(gpuPairClasses(hgx.topo).begin()->first, QStringLiteral("NV18"));
    QVERIFY(hgx.topo.missing.isEmpty());
    // 4 PCIe GPUs on 2 sockets: SYS 0-2, 0-3, 1-2, 1-3.
    const TopologyParse pcie = load(topo(QStringLiteral("nvsmi-topo-4gpu-pcie-pxb-pix-sys-no-nic.txt")));
    QVERIFY2(pcie.error.isEmpty(), qPrintable(pcie.error));
    QCOMPARE(pcie.topo.nics.size(), size_t(0));
    for (const auto& [a, b] : std::vector<std::pair<int, int>> { { 0, 2 }, { 0, 3 }, { 1, 2 }, { 1, 3 } })
        QCOMPARE(gpuPair(pcie.topo, a, b), QStringLiteral("SYS"));
    QCOMPARE(gpuPairClasses(pcie.topo)[QStringLiteral("SYS")], 4);
    // MI300A: XGMI, weight 15, one hop between every pair; one NUMA node per APU.
    const TopologyParse mi = load(topo(QStringLiteral("rocm-smi-showtopo-mi300a-4apu-gfx942-xgmi.txt")));
    QVERIFY2(mi.error.isEmpty(), qPrintable(mi.error));
    QCOMPARE(mi.topo.numaNodes.size(), size_t(4));
    for (const GpuLink& l : mi.topo.gpuLinks) {
        QCOMPARE(l.path, PathClass::XGMI);
        QCOMPARE(l.weight, 15);
        QCOMPARE(l.hops, 1);
    }
    QCOMPARE(mi.topo.gpuLinks.size(), size_t(6));
    // Azure NDv4: 4 <cpu numaid>, 2 GPUs and 2 HCAs each; GPU-HCA across numaid SYS. The bare IB-class
    // <pci> HCAs are RDMA.
    const TopologyParse nd = load(topo(QStringLiteral("nccl-topo-xml-azure-ndv4-a100.xml")));
    QVERIFY2(nd.error.isEmpty(), qPrintable(nd.error));
    QCOMPARE(nd.topo.gpus.size(), size_t(8));
    QCOMPARE(nd.topo.nics.size(), size_t(8));
    QCOMPARE(nd.topo.numaNodes.size(), size_t(4));
    for (const TopoNic& n : nd.topo.nics)
        QVERIFY(n.rdma);
    for (const GpuNicLink& l : nd.topo.nicLinks) {
        const bool sameNuma =
            nd.topo.gpus[static_cast<size_t>(l.gpu)].numa == nd.topo.nics[static_cast<size_t>(l.nic)].numa;
        QCOMPARE(l.path == PathClass::SYS, !sameNuma);
    }
    // The AWS p5en excerpt: hwloc refuses its cut tags (not enough alone for GPU-NIC pairs anyway).
    QVERIFY(!load(topo(QStringLiteral("hwloc-lstopo-aws-p5en-h200-efa-partial.xml"))).error.isEmpty());
}

// A folder's captures of machines not in the logs: listed, used for nothing.
void TestTopologyRealCaptures::foreignCaptureDrivesNoFix()
{
    const TopologySet set =
        loadTopologyFiles({ real2(QStringLiteral("hwloc-xml-2.14_24em64t-2n6c2t-pci.xml")),
            real2(QStringLiteral("hwloc-xml-v1.11_64intel64-3g2n+2n-irregulargroups+pci.xml")),
            topo(QStringLiteral("nvidia-smi-topo.gpu-a02.txt")) });
    const std::vector<RankInfo> ranks { rank(4, QStringLiteral("gpu-a02"), 0, QStringLiteral("18000")),
        rank(7, QStringLiteral("gpu-a02"), 3, QStringLiteral("99000")) };
    const PlacementResult r = placeRanks(ranks, set);
    QCOMPARE(r.captures.size(), size_t(3));
    QCOMPARE(r.captures[0].host, QString());
    QVERIFY2(r.captures[0].why.contains(QLatin1String("its hostname mirage004 is not in the logs")),
        qPrintable(r.captures[0].why));
    QCOMPARE(r.captures[1].host, QString());
    QCOMPARE(r.captures[2].host, QStringLiteral("gpu-a02"));
    QCOMPARE(r.captures[2].how, QStringLiteral("file name"));
    int unused = 0;
    for (const TopologyFinding& f : r.findings)
        if (f.kind == TopologyFinding::UnusedCapture) {
            ++unused;
            QVERIFY(f.detail.startsWith(QLatin1String("capture of an unknown host, not used: ")));
        }
    QCOMPARE(unused, 2);
    for (const HcaChoice& c : r.hca)
        QCOMPARE(c.host, QStringLiteral("gpu-a02"));
    QCOMPARE(r.hcaScripts.size(), 1);
    // Foreign only: no fix at all.
    const TopologySet foreign =
        loadTopologyFiles({ real2(QStringLiteral("hwloc-xml-2.14_24em64t-2n6c2t-pci.xml")) });
    const PlacementResult none = placeRanks(ranks, foreign);
    QVERIFY(none.hca.empty());
    QVERIFY(none.hcaScripts.isEmpty());
    QCOMPARE(none.ranks[0].hostIndex, -1);
}

// One host in the logs, one capture that names none: they go together.
void TestTopologyRealCaptures::oneHostOneCapture()
{
    const TopologySet set =
        loadTopologyFiles({ topo(QStringLiteral("nvsmi-topo-h100-hgx-8nic-mlx5-pix-node-sys.txt")) });
    QCOMPARE(set.hosts[0].host, QString());
    std::vector<RankInfo> ranks;
    for (int l = 0; l < 8; ++l)
        ranks.push_back(rank(l, QStringLiteral("node17"), l));
    const PlacementResult r = placeRanks(ranks, set);
    QCOMPARE(r.captures[0].host, QStringLiteral("node17"));
    QCOMPARE(r.captures[0].how, QStringLiteral("the only host and the only capture"));
    QCOMPARE(r.ranks[3].hostIndex, 0);
    QCOMPARE(r.hca.size(), size_t(8));
    QCOMPARE(r.hcaScripts.size(), 1);
    QVERIFY2(
        r.hcaScripts[0].startsWith(QLatin1String("case $(hostname -s) in node17) case $LOCAL_RANK in 0) ")),
        qPrintable(r.hcaScripts[0]));
    // Two hosts in the logs: the same capture belongs to neither.
    ranks.push_back(rank(8, QStringLiteral("node18"), 0));
    const PlacementResult two = placeRanks(ranks, set);
    QCOMPARE(two.captures[0].host, QString());
    QVERIFY(two.hca.empty());
}

// No host name anywhere, but the GPUs' bus ids hold exactly one host's ranks' bus ids.
void TestTopologyRealCaptures::boundByBusIds()
{
    const TopologySet set = loadTopologyFiles({ real2(QStringLiteral("simai_topo_4A100_2CX6.xml")) });
    QCOMPARE(set.hosts[0].host, QString());
    const std::vector<RankInfo> ranks { rank(0, QStringLiteral("a1"), 0, QStringLiteral("1b000")),
        rank(1, QStringLiteral("a1"), 1, QStringLiteral("1c000")),
        rank(2, QStringLiteral("b7"), 0, QStringLiteral("13000")),
        rank(3, QStringLiteral("b7"), 1, QStringLiteral("19000")) };
    const PlacementResult r = placeRanks(ranks, set);
    QCOMPARE(r.captures[0].host, QStringLiteral("b7"));
    QCOMPARE(r.captures[0].how, QStringLiteral("bus ids"));
    QCOMPARE(r.ranks[2].hostIndex, 0);
    QCOMPARE(r.ranks[2].matchedBy, QStringLiteral("busId"));
    QCOMPARE(r.ranks[0].hostIndex, -1);
    for (const HcaChoice& c : r.hca)
        QCOMPARE(c.host, QStringLiteral("b7"));
}

// Content before file name: a capture whose file name names a host of the logs but whose GPUs lack that
// host's bus ids is not that host's.
void TestTopologyRealCaptures::fileNameAfterContent()
{
    const TopologySet set = loadTopologyFiles({ topo(QStringLiteral("hwloc-topo.gpu-a02.xml")) });
    QCOMPARE(set.hosts[0].host, QStringLiteral("gpu-a02"));
    // hwloc HostName is content: it wins even against bus ids.
    const PlacementResult r =
        placeRanks({ rank(4, QStringLiteral("gpu-a02"), 0, QStringLiteral("18000")) }, set);
    QCOMPARE(r.captures[0].how, QStringLiteral("hostname"));
    const TopologySet named = loadTopologyFiles({ topo(QStringLiteral("nvidia-smi-topo.gpu-a02.txt")),
        topo(QStringLiteral("nccl-topo-dump.gpu-a02.xml")) });
    QCOMPARE(named.hosts.size(), size_t(1));
    QCOMPARE(named.hosts[0].hostFrom, HostTopology::HostFrom::FileName);
    const PlacementResult wrong =
        placeRanks({ rank(4, QStringLiteral("gpu-a02"), 0, QStringLiteral("d4000")) }, named);
    QCOMPARE(wrong.captures[0].host, QString());
    QVERIFY2(wrong.captures[0].why.contains(QLatin1String("bus ids are not those of gpu-a02's ranks")),
        qPrintable(wrong.captures[0].why));
}

// Every line of the fix names its host.
void TestTopologyRealCaptures::fixNeverWithoutHost()
{
    const TopologySet set = loadTopologyFiles({ topo(QStringLiteral("nvidia-smi-topo.gpu-a02.txt")),
        topo(QStringLiteral("nvsmi-topo-old-mlx-columns-spaces.gpu-b01.txt")),
        topo(QStringLiteral("nvsmi-topo-h100-hgx-8nic-mlx5-pix-node-sys.txt")),
        real2(QStringLiteral("gh-nccl_ibm-cloud-h100-vsi-topo.xml")) });
    std::vector<RankInfo> ranks;
    for (int l = 0; l < 4; ++l) {
        ranks.push_back(rank(l, QStringLiteral("gpu-a02"), l));
        ranks.push_back(rank(4 + l, QStringLiteral("gpu-b01"), l));
    }
    const PlacementResult r = placeRanks(ranks, set);
    QVERIFY(!r.hca.empty());
    for (const HcaChoice& c : r.hca)
        QVERIFY(c.host == u"gpu-a02" || c.host == u"gpu-b01");
    // gpu-a02 and gpu-b01 bind alike (local ranks 0-1 to mlx5_0, 2-3 to mlx5_1): one line for both.
    QCOMPARE(r.hcaScripts,
        QStringList {
            QStringLiteral("case $(hostname -s) in gpu-a02|gpu-b01) case $LOCAL_RANK in 0|1) export "
                           "NCCL_IB_HCA=mlx5_0;; 2|3) export NCCL_IB_HCA=mlx5_1;; esac;; esac") });
    int unused = 0;
    for (const TopologyFinding& f : r.findings)
        unused += f.kind == TopologyFinding::UnusedCapture ? 1 : 0;
    QCOMPARE(unused, 2); // the H100 captures name no host, and two hosts are in the logs
    // Hosts with one mapping share a line.
    HcaChoice a { QStringLiteral("x1"), 0, 0, {}, QStringLiteral("mlx5_0"), PathClass::PIX };
    HcaChoice b { QStringLiteral("x2"), 0, 0, {}, QStringLiteral("mlx5_0"), PathClass::PIX };
    QCOMPARE(hcaScriptsByHost({ a, b }),
        QStringList { QStringLiteral("case $(hostname -s) in x1|x2) case $LOCAL_RANK in 0) export "
                                     "NCCL_IB_HCA=mlx5_0;; esac;; esac") });
}

// analyze() applies the binding: a capture tied by content takes the host's name; two tied to one host merge.
void TestTopologyRealCaptures::attributeRenamesAndMerges()
{
    TopologySet set = loadTopologyFiles({ real2(QStringLiteral("simai_topo_4A100_2CX6.xml")),
        real2(QStringLiteral("hwloc-xml-2.14_24em64t-2n6c2t-pci.xml")) });
    QCOMPARE(set.hosts.size(), size_t(2));
    attributeCaptures(set, { rank(0, QStringLiteral("b7"), 0, QStringLiteral("13000")) });
    QCOMPARE(set.hosts.size(), size_t(2));
    QCOMPARE(set.hosts[0].host, QStringLiteral("b7"));
    QCOMPARE(set.hosts[1].host, QStringLiteral("mirage004")); // not in the logs: kept, not renamed
    VERIFY_LISTED(set.hosts[0].notes, QStringLiteral("tied to host b7 of the logs (bus ids)"));
}

// Captures without logs: the binding and the findings the topology implies.
void TestTopologyRealCaptures::capturesOnlyBinding()
{
    // 24em64t: GPU0 (0000:06:00.0) sits with mlx4_0 on NUMA0, GPU1 and GPU2 on NUMA1.
    const TopologySet set =
        loadTopologyFiles({ real2(QStringLiteral("hwloc-xml-2.14_24em64t-2n6c2t-pci.xml")) });
    const PlacementResult p = placeCapturesOnly(set);
    QCOMPARE(p.hca.size(), size_t(3));
    for (const HcaChoice& c : p.hca)
        QCOMPARE(c.nic, QStringLiteral("mlx4_0"));
    QCOMPARE(p.hcaScripts.size(), 1);
    QVERIFY2(
        p.hcaScripts[0].contains(QLatin1String("case $(hostname -s) in mirage004) case $LOCAL_RANK in 0|1|2) "
                                               "export NCCL_IB_HCA=mlx4_0;; esac;; esac")),
        qPrintable(p.hcaScripts[0]));
    QStringList off;
    for (const TopologyFinding& f : p.findings)
        if (f.kind == TopologyFinding::NicOffNuma)
            off << f.detail;
    QCOMPARE(off.size(), 2);
    VERIFY_LISTED(off, QStringLiteral("GPU1 and its nearest RDMA NIC mlx4_0 are on different NUMA nodes"));
    VERIFY_LISTED(off, QStringLiteral("GPU2 and its nearest RDMA NIC mlx4_0 are on different NUMA nodes"));
    QCOMPARE(p.cpu.size(), size_t(3));
    QCOMPARE(p.cpu[0].numa, 0);
    QCOMPARE(p.cpu[1].numa, 1);
    VERIFY_LISTED(p.cpuScripts, QStringLiteral("srun --cpu-bind=map_ldom:0,1,1 <command>"));
    VERIFY_LISTED(p.cpuScripts,
        QStringLiteral("case $LOCAL_RANK in 0) NUMA=0;; 1|2) NUMA=1;; esac; numactl --cpunodebind=$NUMA "
                       "--membind=$NUMA"));
    // No NUMA column (old driver): the CPU affinity binds instead.
    const PlacementResult dgx = placeCapturesOnly(loadTopologyFiles(
        { real2(QStringLiteral("gh-nvsmi_nccl-tests-78-dgx2-nv6-10nic-no-numa-partial.txt")) }));
    QVERIFY(dgx.cpuScripts.isEmpty()); // GPU5-GPU15 have no affinity: nothing to bind them to
    const PlacementResult old = placeCapturesOnly(
        loadTopologyFiles({ topo(QStringLiteral("nvsmi-topo-old-mlx-columns-spaces.gpu-b01.txt")) }));
    VERIFY_LISTED(old.cpuScripts, QStringLiteral("srun --cpu-bind=mask_cpu:0x"));
    VERIFY_LISTED(old.cpuScripts, QStringLiteral("numactl --physcpubind=$CPUS"));
    // P2P status: the two 5090s cannot reach each other.
    const PlacementResult p2p = placeCapturesOnly(
        loadTopologyFiles({ real2(QStringLiteral("gh-nvsmi_club3090-1229-2x5090-topo-m.txt")),
            real2(QStringLiteral("gh-nvsmi_club3090-1229-2x5090-p2p-rw.txt")) }));
    bool noP2p = false;
    for (const TopologyFinding& f : p2p.findings)
        noP2p = noP2p
            || (f.kind == TopologyFinding::NoP2p && f.detail.contains(QLatin1String("GPU0-GPU1 (GNS)")));
    QVERIFY(noP2p);
    // A cut capture says so.
    const PlacementResult cut = placeCapturesOnly(
        loadTopologyFiles({ real2(QStringLiteral("gh-nvsmi_deepep-60-topo-mp-14nic-partial.txt")) }));
    bool partial = false;
    for (const TopologyFinding& f : cut.findings)
        partial = partial
            || (f.kind == TopologyFinding::CapturePartial
                && f.detail.contains(QLatin1String("rows GPU5-GPU7")));
    QVERIFY(partial);
}

// `rankscope topology FILE` without logs prints the matrix, then the binding and the findings.
void TestTopologyRealCaptures::capturesOnlyReport()
{
    const TopologySet set =
        loadTopologyFiles({ real2(QStringLiteral("hwloc-xml-2.14_24em64t-2n6c2t-pci.xml")) });
    const QString text = topologyText(set) + capturesOnlyText(set, placeCapturesOnly(set));
    for (const char* part :
        { "Host mirage004", "GPU0", "mlx4_0", "Closest RDMA NIC per local rank (NCCL_IB_HCA",
            "export NCCL_IB_HCA=mlx4_0", "CPU binding per local rank", "srun --cpu-bind=map_ldom:0,1,1",
            "numactl --cpunodebind=$NUMA", "Findings",
            "[nic-off-numa] mirage004: GPU1 and its nearest RDMA NIC mlx4_0 are on different NUMA nodes" })
        QVERIFY2(text.contains(QLatin1String(part)),
            qPrintable(QStringLiteral("lacks %1:\n%2").arg(QLatin1String(part), text)));
}

QTEST_GUILESS_MAIN(TestTopologyRealCaptures)
#include "tst_topology_real_captures.moc"
