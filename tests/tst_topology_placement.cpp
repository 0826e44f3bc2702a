// SPDX-License-Identifier: MIT
// Merging captures of one host, deriving path classes from trees (checked against nvidia-smi's own
// matrix), placing the sample job's ranks, the findings, the NCCL_IB_HCA fix and the JSON output.
#include "topology_placement.h"
#include "topology_report.h"

#include <QJsonArray>
#include <QTest>

using namespace rankscope;

namespace {

QString dataPath(const QString& name)
{
    return QStringLiteral(RANKSCOPE_TEST_DATA "/topology/") + name;
}

// Facts of the sample job (tests/data/sample-job, README ground truth), as the log engine reports them.
RankInfo sampleRank(int rank, const char* host, int local, const char* busId, std::vector<NicUse> nics,
    std::vector<int> channelNics, bool gdr, const char* affinity)
{
    RankInfo r;
    r.rank = rank;
    r.host = QString::fromLatin1(host);
    r.hostAliases << QString::fromLatin1(host) + QStringLiteral(".cluster.local");
    r.localRank = r.cudaDev = r.nvmlDev = local;
    r.busId = QString::fromLatin1(busId);
    r.nics = std::move(nics);
    r.channelNics = std::move(channelNics);
    r.gdr = gdr;
    r.cpuAffinity = QString::fromLatin1(affinity);
    return r;
}

std::vector<RankInfo> sampleRanks()
{
    const NicUse a01mlx0 { 0, QStringLiteral("mlx5_0"), 1, QStringLiteral("IB") };
    const NicUse a01mlx1 { 1, QStringLiteral("mlx5_1"), 1, QStringLiteral("IB") };
    const NicUse a02mlx0 { 0, QStringLiteral("mlx5_0"), 1, QStringLiteral("IB") };
    return {
        sampleRank(0, "gpu-a01", 0, "18000", { a01mlx0, a01mlx1 }, { 0 }, true, "0-31,64-95"),
        sampleRank(4, "gpu-a02", 0, "18000", { a02mlx0 }, { 0 }, true, "0-31,64-95"),
        sampleRank(5, "gpu-a02", 1, "19000", { a02mlx0 }, {}, false, ""),
        // Not in the sample: rank 6 pinned by an old-style hex mask to NUMA0 while its GPU2 is on NUMA1.
        sampleRank(6, "gpu-a02", 2, "98000", { a02mlx0 }, {}, false, "ffffffff,00000000,ffffffff"),
        sampleRank(7, "gpu-a02", 3, "99000", { a02mlx0 }, { 0 }, false, "32-63,96-127"),
    };
}

TopologySet sampleTopology()
{
    return loadTopologyFiles({ dataPath(QStringLiteral("nvidia-smi-topo.gpu-a02.txt")),
        dataPath(QStringLiteral("nccl-topo-dump.gpu-a02.xml")) });
}

} // namespace

class TestTopologyPlacement : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void derivedAgreesWithNvidiaSmi_data();
    void derivedAgreesWithNvidiaSmi();
    void mergeSameHost();
    void hwlocKeepsIoDevices();
    void sampleJobPlacement();
    void findings();
    void hcaFix();
    void json();
    void captureRoundTrip();
};

void TestTopologyPlacement::derivedAgreesWithNvidiaSmi_data()
{
    QTest::addColumn<QString>("tree");
    QTest::addColumn<int>("expectedPairs");
    QTest::newRow("nccl-xml") << "nccl-topo-dump.gpu-a02.xml" << 6 + 4; // 6 GPU pairs, 4 GPUs x mlx5_0
    QTest::newRow("hwloc") << "hwloc-topo.gpu-a02.xml" << 6 + 8; // 6 GPU pairs, 4 GPUs x 2 NICs
}

// Every cell the tree-based capture derives must equal nvidia-smi's printed cell for the same GPU/NIC.
void TestTopologyPlacement::derivedAgreesWithNvidiaSmi()
{
    QFETCH(QString, tree);
    QFETCH(int, expectedPairs);
    const TopologyParse smi = loadTopologyFile(dataPath(QStringLiteral("nvidia-smi-topo.gpu-a02.txt")));
    const TopologyParse derived = loadTopologyFile(dataPath(tree));
    QVERIFY2(smi.error.isEmpty() && derived.error.isEmpty(), qPrintable(smi.error + derived.error));
    int compared = 0;
    for (const GpuLink& l : derived.topo.gpuLinks) {
        QVERIFY(l.derived);
        const int a = smi.topo.gpuByIndex(derived.topo.gpus[static_cast<size_t>(l.a)].index);
        const int b = smi.topo.gpuByIndex(derived.topo.gpus[static_cast<size_t>(l.b)].index);
        const GpuLink* printed = smi.topo.gpuLink(a, b);
        QVERIFY(printed);
        QCOMPARE(pathClassName(l.path), pathClassName(printed->path));
        ++compared;
    }
    for (const GpuNicLink& l : derived.topo.nicLinks) {
        const int g = smi.topo.gpuByIndex(derived.topo.gpus[static_cast<size_t>(l.gpu)].index);
        const int n = smi.topo.nicByName(derived.topo.nics[static_cast<size_t>(l.nic)].name);
        QVERIFY(n >= 0);
        const GpuNicLink* printed = smi.topo.nicLink(g, n);
        QVERIFY(printed);
        QCOMPARE(pathClassName(l.path) + derived.topo.nics[static_cast<size_t>(l.nic)].name,
            pathClassName(printed->path) + derived.topo.nics[static_cast<size_t>(l.nic)].name);
        ++compared;
    }
    QCOMPARE(compared, expectedPairs);
}

void TestTopologyPlacement::mergeSameHost()
{
    const TopologySet set = sampleTopology();
    QVERIFY(set.errors.isEmpty());
    QCOMPARE(set.hosts.size(), size_t(1));
    const HostTopology& h = set.hosts.front();
    QCOMPARE(h.host, QStringLiteral("gpu-a02"));
    QCOMPARE(h.sources.size(), 2);
    QCOMPARE(h.gpus.size(), size_t(4));
    QCOMPARE(h.nics.size(), size_t(2));
    QCOMPARE(h.gpus[3].busId, QStringLiteral("0000:99:00.0")); // from the XML
    QCOMPARE(h.gpus[3].ncclRank, 7);
    QCOMPARE(h.nics[0].busId, QStringLiteral("0000:1a:00.0"));
    QVERIFY(h.nics[1].busId.isEmpty()); // mlx5_1 is only in nvidia-smi's legend
    QVERIFY2(h.notes.isEmpty(), qPrintable(h.notes.join(u'\n'))); // no disagreement between the two
    const GpuNicLink* l = h.nicLink(3, 1);
    QVERIFY(l && l->path == PathClass::PIX && !l->derived);
    QVERIFY(set.host(QStringLiteral("GPU-A02.cluster.local")) == &h);
}

void TestTopologyPlacement::hwlocKeepsIoDevices()
{
    const TopologyParse p = loadTopologyFile(dataPath(QStringLiteral("hwloc-topo.gpu-a02.xml")));
    QVERIFY2(p.error.isEmpty(), qPrintable(p.error));
    QCOMPARE(p.topo.host, QStringLiteral("gpu-a02")); // from the HostName info
    QCOMPARE(p.topo.gpus[3].busId, QStringLiteral("0000:99:00.0"));
    QCOMPARE(p.topo.gpus[3].name, QStringLiteral("NVIDIA H100 PCIe"));
    QCOMPARE(p.topo.gpus[3].numa, 1);
    QCOMPARE(p.topo.gpus[3].cpuAffinity, QStringLiteral("32-63,96-127"));
    QCOMPARE(p.topo.nics[1].name, QStringLiteral("mlx5_1"));
    QCOMPARE(p.topo.nics[1].busId, QStringLiteral("0000:9a:00.0"));
    QCOMPARE(p.topo.numaNodes.size(), size_t(2));
    QVERIFY(p.topo.notes.join(u' ').contains(QStringLiteral("mlx5_1 port 1 state 1")));
}

void TestTopologyPlacement::sampleJobPlacement()
{
    const TopologySet set = sampleTopology();
    const PlacementResult r = placeRanks(sampleRanks(), set);
    QCOMPARE(r.ranks.size(), size_t(5));
    const RankPlacement& r0 = r.ranks[0];
    QCOMPARE(r0.gpu, -1); // no capture for gpu-a01
    QVERIFY(r0.note.contains(QStringLiteral("gpu-a01")));
    const RankPlacement& r7 = r.ranks[4];
    QCOMPARE(r7.rank, 7);
    QCOMPARE(r7.host, QStringLiteral("gpu-a02"));
    QCOMPARE(r7.matchedBy, QStringLiteral("busId"));
    QCOMPARE(set.hosts[0].gpus[static_cast<size_t>(r7.gpu)].index, 3);
    QCOMPARE(r7.nics.size(), size_t(1));
    QCOMPARE(r7.nics[0].name, QStringLiteral("mlx5_0"));
    QCOMPARE(r7.nics[0].path, PathClass::SYS);
    QCOMPARE(r7.affinity, RankPlacement::Affinity::OnGpuNuma); // 32-63,96-127 is NUMA1 = GPU3's node
    const RankPlacement& r4 = r.ranks[1];
    QCOMPARE(r4.nics[0].path, PathClass::PIX);
    QCOMPARE(r.ranks[3].affinity, RankPlacement::Affinity::OffGpuNuma);
    QCOMPARE(r.ranks[2].affinity, RankPlacement::Affinity::Unknown);

    // Without a bus id the NVML index places the rank; the FQDN alias finds the host.
    std::vector<RankInfo> byIndex { sampleRanks()[4] };
    byIndex[0].busId.clear();
    byIndex[0].host = QStringLiteral("gpu-a02.cluster.local");
    const PlacementResult p2 = placeRanks(byIndex, set);
    QCOMPARE(p2.ranks[0].matchedBy, QStringLiteral("nvmlDev"));
    QCOMPARE(set.hosts[0].gpus[static_cast<size_t>(p2.ranks[0].gpu)].busId, QStringLiteral("0000:99:00.0"));
}

void TestTopologyPlacement::findings()
{
    const PlacementResult r = placeRanks(sampleRanks(), sampleTopology());
    int sys = 0, missing = 0, offNuma = 0;
    for (const TopologyFinding& f : r.findings) {
        if (f.kind == TopologyFinding::SysPath) {
            ++sys;
            QCOMPARE(f.rank, 7);
            QCOMPARE(f.host, QStringLiteral("gpu-a02"));
            QCOMPARE(f.gpu, QStringLiteral("GPU3 0000:99:00.0"));
            QCOMPARE(f.nic, QStringLiteral("mlx5_0"));
            QCOMPARE(f.pathClass, QStringLiteral("SYS"));
            QVERIFY(f.detail.contains(QStringLiteral("without GPUDirect RDMA")));
        } else if (f.kind == TopologyFinding::NicMissing) {
            ++missing;
            QCOMPARE(f.host, QStringLiteral("gpu-a02"));
            QCOMPARE(f.nic, QStringLiteral("mlx5_1"));
        } else {
            ++offNuma;
            QCOMPARE(f.rank, 6); // the constructed case; rank 7's affinity is on its GPU's node
        }
    }
    QCOMPARE(sys, 1);
    QCOMPARE(missing, 1);
    QCOMPARE(offNuma, 1);
}

void TestTopologyPlacement::hcaFix()
{
    const PlacementResult r = placeRanks(sampleRanks(), sampleTopology());
    QCOMPARE(r.hca.size(), size_t(4));
    QCOMPARE(r.hca[3].text(), QStringLiteral("local rank 3 (GPU3 0000:99:00.0) \u2192 mlx5_1 (PIX)"));
    QCOMPARE(r.hca[0].nic, QStringLiteral("mlx5_0"));
    // The line names its host: it is for gpu-a02's ranks only (gpu-a01 has no capture).
    QCOMPARE(r.hcaScripts,
        QStringList { QStringLiteral("case $(hostname -s) in gpu-a02) case $LOCAL_RANK in 0|1) export "
                                     "NCCL_IB_HCA=mlx5_0;; 2|3) export NCCL_IB_HCA=mlx5_1;; esac;; esac") });

    // HGX: eight GPUs, each with its own PIX NIC; "mlx5_1" would prefix-match nothing here.
    const TopologySet hgx =
        loadTopologyFiles({ dataPath(QStringLiteral("nvsmi-topo-h100-hgx-8nic-mlx5-pix-node-sys.txt")) },
            QStringLiteral("hgx1"));
    const std::vector<HcaChoice> c = closestNicPerLocalRank(hgx.hosts[0], {});
    QCOMPARE(c.size(), size_t(8));
    for (const HcaChoice& ch : c) {
        QCOMPARE(ch.nic, QStringLiteral("mlx5_%1").arg(ch.gpuIndex));
        QCOMPARE(ch.path, PathClass::PIX);
    }
    // Ties (two PIX NICs per GPU pair on Azure NDv4) spread over both NICs; nameless NICs are skipped.
    HcaChoice a { QStringLiteral("h"), 0, 0, {}, QStringLiteral("mlx5_1"), PathClass::PIX };
    HcaChoice b { QStringLiteral("h"), 1, 1, {}, QStringLiteral("mlx5_10"), PathClass::PIX };
    QCOMPARE(hcaCaseScript({ a, b }),
        QStringLiteral(
            "case $LOCAL_RANK in 0) export NCCL_IB_HCA==mlx5_1;; 1) export NCCL_IB_HCA=mlx5_10;; esac"));
}

void TestTopologyPlacement::json()
{
    const TopologySet set = sampleTopology();
    const PlacementResult r = placeRanks(sampleRanks(), set);
    const QJsonObject o = topologyToJson(set, &r);
    const QJsonObject host = o.value(QStringLiteral("hosts")).toArray().at(0).toObject();
    QCOMPARE(host.value(QStringLiteral("host")).toString(), QStringLiteral("gpu-a02"));
    QCOMPARE(host.value(QStringLiteral("gpus")).toArray().size(), 4);
    QVERIFY(host.value(QStringLiteral("sysPairs")).toArray().contains(QStringLiteral("GPU3-mlx5_0")));
    const QJsonArray findings = o.value(QStringLiteral("findings")).toArray();
    QJsonObject sys;
    for (const QJsonValue& f : findings)
        if (f.toObject().value(QStringLiteral("kind")).toString() == u"sys-path")
            sys = f.toObject();
    QCOMPARE(sys.value(QStringLiteral("rank")).toInt(), 7);
    QCOMPARE(sys.value(QStringLiteral("nic")).toString(), QStringLiteral("mlx5_0"));
    QCOMPARE(o.value(QStringLiteral("ncclIbHca")).toArray().size(), 4);
    const QString text = topologyText(set) + placementText(set, r);
    QVERIFY(text.contains(
        QStringLiteral("SYS pairs: GPU0-mlx5_1, GPU1-mlx5_1, GPU2-mlx5_0, GPU3-mlx5_0, GPU0-GPU2")));
    QVERIFY(text.contains(QStringLiteral("case $LOCAL_RANK in 0|1)")));
    QVERIFY(text.contains(
        QStringLiteral("[sys-path] rank 7 on gpu-a02 GPU3 0000:99:00.0 (NUMA1) uses mlx5_0 (NUMA0)")));
}

// What `rankscope capture-topology` writes must load back through the hwloc reader.
void TestTopologyPlacement::captureRoundTrip()
{
    const HwlocExport e = exportLocalHwlocXml();
    QVERIFY2(e.error.isEmpty(), qPrintable(e.error));
    QVERIFY(e.xml.contains("<topology"));
    QCOMPARE(detectTopologyFormat(e.xml), TopologyFormat::HwlocXml);
    const TopologyParse p = parseTopologyCapture(e.xml, QStringLiteral("local.xml"), QStringLiteral("me"));
    QVERIFY2(p.error.isEmpty(), qPrintable(p.error));
    QCOMPARE(p.topo.host, QStringLiteral("me"));
    QVERIFY(!p.topo.tree.empty());
    QVERIFY(!p.topo.numaNodes.empty()); // hwloc always reports at least one NUMA node
}

QTEST_GUILESS_MAIN(TestTopologyPlacement)
#include "tst_topology_placement.moc"
