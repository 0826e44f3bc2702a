// SPDX-License-Identifier: MIT
// Every topology capture under tests/data/topology: detected format, host, GPU/NIC counts, specific
// cells; and the malformed ones: the error names the file and the line.
#include "topology_loader.h"
#include "topology_report.h"

#include <QTest>

using namespace rankscope;

namespace {

QString dataPath(const QString& name)
{
    return QStringLiteral(RANKSCOPE_TEST_DATA "/topology/") + name;
}

// "GPU3" -> gpu slot; "NIC1" -> by nvidia-smi legend index; "@0000:13:00.0" -> by bus id; else a NIC name.
int endpoint(const HostTopology& t, const QString& name, bool* isGpu)
{
    *isGpu = name.startsWith(u"GPU");
    if (*isGpu)
        return t.gpuByIndex(name.mid(3).toInt());
    if (name.startsWith(u'@'))
        return t.nicByBusId(name.mid(1));
    if (name.startsWith(u"NIC"))
        for (size_t i = 0; i < t.nics.size(); ++i)
            if (t.nics[i].legendIndex == name.mid(3).toInt())
                return static_cast<int>(i);
    return t.nicByName(name);
}

// Cell value as the report prints it: "NV18", "PIX", ... or "p2p:OK".
QString cell(const HostTopology& t, const QString& pair)
{
    const QStringList ends = pair.split(u'-');
    bool gA = false, gB = false;
    const int a = endpoint(t, ends.value(0), &gA), b = endpoint(t, ends.value(1), &gB);
    if (a < 0 || b < 0)
        return QStringLiteral("missing endpoint");
    if (gA && gB) {
        const GpuLink* l = t.gpuLink(a, b);
        return !l              ? QStringLiteral("no link")
            : l->p2p.isEmpty() ? pathClassName(l->path, l->linkCount)
                               : QStringLiteral("p2p:") + l->p2p;
    }
    const GpuNicLink* l = gA ? t.nicLink(a, b) : t.nicLink(b, a);
    return l ? pathClassName(l->path) : QStringLiteral("no link");
}

} // namespace

class TestTopologyParsers : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void captures_data();
    void captures();
    void partial_data();
    void partial();
    void errors_data();
    void errors();
    void hwlocCrashInputs_data();
    void hwlocCrashInputs();
    void hwlocPrecheckKeepsValidCapture();
    void hwlocEnumValuesOutOfRange();
    void sysPairCount();
    void affinityColumns();
    void hostOverride();
    void matrixLegendOnlyWhenUsed();
};

void TestTopologyParsers::captures_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("format");
    QTest::addColumn<QString>("host");
    QTest::addColumn<int>("gpus");
    QTest::addColumn<int>("nics");
    QTest::addColumn<QString>("cells"); // "A-B=CLASS;..."
    const auto row = [](const char* tag, const char* file, TopologyFormat f, const char* host, int g, int n,
                         const char* cells) {
        QTest::newRow(tag) << QString::fromLatin1(file) << static_cast<int>(f) << QString::fromLatin1(host)
                           << g << n << QString::fromLatin1(cells);
    };
    // Real captures (tests/data/topology/SOURCES.md).
    row("h100-hgx", "nvsmi-topo-h100-hgx-8nic-mlx5-pix-node-sys.txt", TopologyFormat::NvidiaSmiMatrix, "", 8,
        8,
        "GPU0-NIC0=PIX;GPU0-mlx5_1=NODE;GPU0-mlx5_4=SYS;GPU7-mlx5_7=PIX;GPU4-mlx5_3=SYS;GPU5-mlx5_4=NODE;"
        "GPU0-GPU7=NV18");
    row("4gpu-no-nic", "nvsmi-topo-4gpu-pcie-pxb-pix-sys-no-nic.txt", TopologyFormat::NvidiaSmiMatrix, "", 4,
        0, "GPU0-GPU1=PXB;GPU2-GPU3=PIX;GPU0-GPU2=SYS;GPU1-GPU3=SYS");
    row("sample-nvsmi", "nvidia-smi-topo.gpu-a02.txt", TopologyFormat::NvidiaSmiMatrix, "gpu-a02", 4, 2,
        "GPU3-mlx5_0=SYS;GPU3-mlx5_1=PIX;GPU0-mlx5_0=PIX;GPU0-GPU1=PIX;GPU1-GPU2=SYS");
    row("mi300a", "rocm-smi-showtopo-mi300a-4apu-gfx942-xgmi.txt", TopologyFormat::RocmSmi, "", 4, 0,
        "GPU0-GPU1=XGMI;GPU2-GPU3=XGMI;GPU0-GPU3=XGMI");
    row("azure-ndv4-bare-pci", "nccl-topo-xml-azure-ndv4-a100.xml", TopologyFormat::NcclXml, "", 8, 8,
        "GPU0-@0101:00:00.0=PIX;GPU0-@0102:00:00.0=PIX;GPU0-@0103:00:00.0=SYS;GPU7-@0108:00:00.0=PIX;"
        "GPU7-@0101:00:00.0=SYS;GPU0-GPU1=PIX;GPU0-GPU2=SYS");
    row("sample-nccl-xml", "nccl-topo-dump.gpu-a02.xml", TopologyFormat::NcclXml, "gpu-a02", 4, 1,
        "GPU0-mlx5_0=PIX;GPU1-mlx5_0=PIX;GPU2-mlx5_0=SYS;GPU3-mlx5_0=SYS;GPU0-GPU1=PIX;GPU2-GPU3=PIX;GPU1-"
        "GPU2=SYS");
    // Fixtures written from the real formats.
    row("old-mlx-columns-spaces", "nvsmi-topo-old-mlx-columns-spaces.gpu-b01.txt",
        TopologyFormat::NvidiaSmiMatrix, "gpu-b01", 4, 2,
        "GPU0-GPU1=NV2;GPU0-GPU3=SYS;GPU0-mlx5_0=PHB;GPU2-mlx5_0=SYS;GPU3-mlx5_1=PHB");
    row("p2p-read", "nvsmi-topo-p2p-r.gpu-a02.txt", TopologyFormat::NvidiaSmiP2p, "gpu-a02", 4, 0,
        "GPU0-GPU1=p2p:OK;GPU0-GPU2=p2p:NS;GPU2-GPU3=p2p:OK");
    row("ansi-header", "nvsmi-topo-ansi-header.txt", TopologyFormat::NvidiaSmiMatrix, "", 2, 1,
        "GPU0-GPU1=NV12;GPU0-mlx5_bond_0=NODE;GPU1-NIC0=PHB");
    row("rocm-partial", "rocm-smi-showtopo-partial-pcie.gpu-r01.txt", TopologyFormat::RocmSmi, "gpu-r01", 4,
        0, "GPU0-GPU1=XGMI;GPU0-GPU2=SYS;GPU1-GPU3=PHB;GPU2-GPU3=XGMI");
    row("rocm-star-separator", "rocm-smi-showtopo-star-separator.gpu-r02.txt", TopologyFormat::RocmSmi,
        "gpu-r02", 4, 0, "GPU0-GPU1=XGMI;GPU1-GPU2=XGMI;GPU0-GPU3=XGMI");
    row("nccl-nested-xgmi", "nccl-topo-nested-switch-xgmi.xml", TopologyFormat::NcclXml, "", 2, 2,
        "GPU0-GPU1=XGMI4;GPU0-@0000:13:00.0=PXB;GPU1-mlx5_1=PIX;GPU0-mlx5_1=PHB;GPU1-@0000:13:00.0=PHB");
    row("hwloc-gpu-a02", "hwloc-topo.gpu-a02.xml", TopologyFormat::HwlocXml, "gpu-a02", 4, 2,
        "GPU0-mlx5_0=PIX;GPU3-mlx5_1=PIX;GPU3-mlx5_0=SYS;GPU2-mlx5_0=SYS;GPU0-mlx5_1=SYS;GPU0-GPU1=PIX;GPU1-"
        "GPU3=SYS");
}

void TestTopologyParsers::captures()
{
    QFETCH(QString, file);
    QFETCH(int, format);
    QFETCH(QString, host);
    QFETCH(int, gpus);
    QFETCH(int, nics);
    QFETCH(QString, cells);
    const TopologyParse p = loadTopologyFile(dataPath(file));
    QVERIFY2(p.error.isEmpty(), qPrintable(p.error));
    QCOMPARE(static_cast<int>(p.format), format);
    QCOMPARE(p.topo.host, host);
    QCOMPARE(static_cast<int>(p.topo.gpus.size()), gpus);
    QCOMPARE(static_cast<int>(p.topo.nics.size()), nics);
    for (const QString& spec : cells.split(u';')) {
        const QString pair = spec.section(u'=', 0, 0);
        QString want = spec.section(u'=', 1);
        if (want == u"XGMI4")
            want = QStringLiteral("XGMI"); // the count is checked separately below
        QCOMPARE(cell(p.topo, pair) + u' ' + pair, want + u' ' + pair);
    }
}

void TestTopologyParsers::errors_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("message"); // substrings, '|'-separated
    QTest::newRow("nccl-billion-laughs") << "nccl-topo-billion-laughs.xml"
                                         << "nccl-topo-billion-laughs.xml:|DOCTYPE";
    QTest::newRow("hwloc-billion-laughs") << "hwloc-billion-laughs.xml"
                                          << "hwloc-billion-laughs.xml|entity";
    QTest::newRow("nccl-unclosed") << "nccl-topo-unclosed.gpu-a02.xml"
                                   << "nccl-topo-unclosed.gpu-a02.xml:5:";
    QTest::newRow("hwloc-rejected-excerpt")
        << "hwloc-lstopo-aws-p5en-h200-efa-partial.xml"
        << "hwloc-lstopo-aws-p5en-h200-efa-partial.xml|hwloc could not load|line 164";
    QTest::newRow("unknown-format")
        << "not-a-topology.txt"
        << "not a recognised topology capture|nvidia-smi topo -m|rocm-smi|NCCL topology XML|hwloc XML";
    QTest::newRow("missing-file") << "no-such-file.txt"
                                  << "no-such-file.txt: cannot open";
}

// Malformed matrices load what is complete and name what is missing, with the file and the line.
void TestTopologyParsers::partial_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("cells"); // "A-B=CLASS;..." still read
    QTest::addColumn<QString>("missing"); // substrings of HostTopology::missing, '|'-separated
    QTest::addColumn<QString>("notes"); // substrings of the notes, '|'-separated
    QTest::newRow("ragged-row")
        << "nvsmi-topo-ragged-row.txt"
        << "GPU0-GPU1=PIX;GPU1-GPU2=SYS;GPU0-NIC0=PIX"
        << "row GPU1: cells from NIC0 on|row GPU1: CPU Affinity, NUMA Affinity|row GPU2 "
           "(the capture ends before it)|2 of 3 GPU-NIC pairs have no class"
        << "";
    QTest::newRow("unknown-row") << "nvsmi-topo-unknown-row.txt"
                                 << "GPU0-GPU1=PIX"
                                 << "row GPU2 (no column in the header)"
                                 << "nvsmi-topo-unknown-row.txt:4: row GPU2 is not a column of the header";
    QTest::newRow("bad-cell") << "nvsmi-topo-bad-cell.txt"
                              << "GPU0-GPU1=PIX"
                              << "GPU0/GPU1 (unreadable cell \"FAST\")"
                              << "nvsmi-topo-bad-cell.txt:2: row GPU0, column GPU1: unreadable cell \"FAST\"";
    QTest::newRow("bad-affinity") << "nvsmi-topo-bad-affinity.txt"
                                  << "GPU0-GPU1=PIX"
                                  << "GPU0: CPU Affinity (unreadable \"0-15x\")"
                                  << "GPU0: CPU Affinity \"0-15x\" unreadable";
    QTest::newRow("rocm-bad-row")
        << "rocm-smi-showtopo-bad-row.txt"
        << ""
        << "weight row GPU1: cells from GPU1 on"
        << "rocm-smi-showtopo-bad-row.txt:5: row GPU1 has 1 cells, the header has 2";
}

void TestTopologyParsers::partial()
{
    QFETCH(QString, file);
    QFETCH(QString, cells);
    QFETCH(QString, missing);
    QFETCH(QString, notes);
    const TopologyParse p = loadTopologyFile(dataPath(file));
    QVERIFY2(p.error.isEmpty(), qPrintable(p.error));
    for (const QString& spec : cells.split(u';', Qt::SkipEmptyParts)) {
        const QString pair = spec.section(u'=', 0, 0);
        QCOMPARE(cell(p.topo, pair) + u' ' + pair, spec.section(u'=', 1) + u' ' + pair);
    }
    const QString m = p.topo.missing.join(u'\n'), n = p.topo.notes.join(u'\n');
    for (const QString& part : missing.split(u'|', Qt::SkipEmptyParts))
        QVERIFY2(m.contains(part), qPrintable(m + QStringLiteral("\n lacks ") + part));
    for (const QString& part : notes.split(u'|', Qt::SkipEmptyParts))
        QVERIFY2(n.contains(part), qPrintable(n + QStringLiteral("\n lacks ") + part));
}

void TestTopologyParsers::errors()
{
    QFETCH(QString, file);
    QFETCH(QString, message);
    const TopologyParse p = loadTopologyFile(dataPath(file));
    QVERIFY2(!p.error.isEmpty(), "expected an error");
    for (const QString& part : message.split(u'|'))
        QVERIFY2(p.error.contains(part), qPrintable(p.error + QStringLiteral(" lacks ") + part));
}

// Inputs on which hwloc 2.9 itself segfaults or allocates 512 MB (tests/data/topology/hostile/README.md):
// refused before hwloc with the file, the line and the offending attribute.
void TestTopologyParsers::hwlocCrashInputs_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("message"); // substrings, '|'-separated
    QTest::newRow("fuzz-garbled-attribute") // found by fuzz_topology_hwloc, minimised
        << "hostile/hwloc-fuzz-garbled-attribute.xml"
        << "hwloc-fuzz-garbled-attribute.xml: hwloc could not load the XML: line 3: ";
    // Found by fuzz_topology_hwloc: with nothing allowed hwloc prints "Topology became empty,
    // aborting!" and ends the process.
    QTest::newRow("root-allowed-sets-unreadable")
        << "hostile/hwloc-root-allowed-sets-unreadable.xml"
        << "hwloc-root-allowed-sets-unreadable.xml: hwloc could not load the XML: line 4: "
           "|allowed_cpuset=\"0=00000003\"|not a bitmap";
    QTest::newRow("root-allowed-sets-empty")
        << "hostile/hwloc-root-allowed-sets-empty.xml"
        << "hwloc-root-allowed-sets-empty.xml: hwloc could not load the XML: line 4: |empty allowed_cpuset";
    QTest::newRow("pu-without-complete-cpuset")
        << "hostile/hwloc-pu-without-complete-cpuset.xml"
        << "hwloc-pu-without-complete-cpuset.xml|line 8: <object type=\"PU\"> has a cpuset but no "
           "complete_cpuset";
    QTest::newRow("numa-without-complete-nodeset")
        << "hostile/hwloc-numa-without-complete-nodeset.xml"
        << "hwloc-numa-without-complete-nodeset.xml|line 7: <object type=\"NUMANode\"> has a nodeset but "
           "no complete_nodeset";
    QTest::newRow("single-quoted-value")
        << "hostile/hwloc-single-quoted-complete-cpuset.xml"
        << "hwloc-single-quoted-complete-cpuset.xml|line 8: <object> attribute text "
           "\"complete_cpuset='0x00000001' nodeset=\"0x...\"|the only form hwloc reads";
    QTest::newRow("spaced-equals")
        << "hostile/hwloc-spaced-equals-complete-cpuset.xml"
        << "hwloc-spaced-equals-complete-cpuset.xml|line 8: <object> attribute text \"complete_cpuset = ";
    QTest::newRow("upper-case-attribute")
        << "hostile/hwloc-upper-case-attribute-before-complete-cpuset.xml"
        << "hwloc-upper-case-attribute-before-complete-cpuset.xml|line 8: <object> attribute text "
           "\"Vendor=\"x\" complete_cpuset=";
    // Not crashes but a 512 MB bitmap and seconds of hwloc time each, from a 2 KB file.
    QTest::newRow("pu-without-os-index")
        << "hostile/hwloc-pu-without-os-index.xml"
        << "hwloc-pu-without-os-index.xml|line 8: <object type=\"PU\"> has no os_index";
    QTest::newRow("numa-os-index-4294967295")
        << "hostile/hwloc-numa-os-index-4294967295.xml"
        << "hwloc-numa-os-index-4294967295.xml|line 7: <object type=\"NUMANode\"> has os_index "
           "4294967295, over 1048575";
    // hwloc allocates the whole matrix from nbobjs before reading a value (fuzz_topology_hwloc).
    QTest::newRow("distances2-nbobjs-2000000000")
        << "hostile/hwloc-distances2-nbobjs-2000000000.xml"
        << "hwloc-distances2-nbobjs-2000000000.xml|line 12: <distances2> has nbobjs=\"2000000000\": a "
           "matrix of 2000000000 x 2000000000 values, more than this 1227-byte file can hold";
    // hwloc_bitmap_sscanf asserts on a set that starts with a comma, in any element (fuzz_topology_hwloc).
    QTest::newRow("set-leading-comma")
        << "hostile/hwloc-set-leading-comma.xml"
        << "hwloc-set-leading-comma.xml|line 9: <object> has complete_nodeset=\",0x00000001\", a set that "
           "starts with a comma (hwloc 2.9 aborts the process on it)";
    QTest::newRow("cpukind-leading-comma")
        << "hostile/hwloc-cpukind-leading-comma.xml"
        << "hwloc-cpukind-leading-comma.xml|line 12: <cpukind> has cpuset=\",0x00000003\", a set that starts";
    QTest::newRow("v1-distances-nbobjs-3000000000")
        << "hostile/hwloc-v1-distances-nbobjs-3000000000.xml"
        << "hwloc-v1-distances-nbobjs-3000000000.xml|line 6: <distances> has nbobjs=\"3000000000\": a "
           "matrix of 3000000000 x 3000000000 values";
}

void TestTopologyParsers::hwlocCrashInputs()
{
    QFETCH(QString, file);
    QFETCH(QString, message);
    const TopologyParse p = loadTopologyFile(dataPath(file));
    QCOMPARE(static_cast<int>(p.format), static_cast<int>(TopologyFormat::HwlocXml));
    QVERIFY2(!p.error.isEmpty(), "expected an error");
    for (const QString& part : message.split(u'|'))
        QVERIFY2(p.error.contains(part), qPrintable(p.error + QStringLiteral(" lacks ") + part));
    QVERIFY(p.topo.gpus.empty());
}

// The fixtures above differ from this capture by one attribute each; it still goes through hwloc.
void TestTopologyParsers::hwlocPrecheckKeepsValidCapture()
{
    const TopologyParse p = loadTopologyFile(dataPath(QStringLiteral("hostile/hwloc-minimal-valid.xml")));
    QVERIFY2(p.error.isEmpty(), qPrintable(p.error));
    QCOMPARE(p.topo.host, QStringLiteral("gpu-z01"));
    QCOMPARE(p.topo.numaNodes.size(), size_t(1));
    QCOMPARE(p.topo.numaNodes[0].cpus, QStringLiteral("0-1"));

    // A distance matrix the file does hold is not refused.
    const TopologyParse d = loadTopologyFile(dataPath(QStringLiteral("hostile/hwloc-distances2-valid.xml")));
    QVERIFY2(d.error.isEmpty(), qPrintable(d.error));
    QCOMPARE(d.topo.host, QStringLiteral("gpu-z02"));
}

// hwloc keeps bridge_type="2-1" and osdev_type="250" as they are, in enum fields no enumerator matches.
// The capture still loads (under UBSan, reading those fields as the enum aborted: fuzz_topology_hwloc).
// The bridge with upstream type 2 is not a host bridge, so the GPUs and NICs are all still found.
void TestTopologyParsers::hwlocEnumValuesOutOfRange()
{
    const TopologyParse valid = loadTopologyFile(dataPath(QStringLiteral("hwloc-topo.gpu-a02.xml")));
    const TopologyParse p =
        loadTopologyFile(dataPath(QStringLiteral("hostile/hwloc-enum-values-out-of-range.xml")));
    QVERIFY2(p.error.isEmpty(), qPrintable(p.error));
    QCOMPARE(p.topo.host, QStringLiteral("gpu-a02"));
    QCOMPARE(p.topo.gpus.size(), valid.topo.gpus.size());
    QCOMPARE(p.topo.nics.size(), valid.topo.nics.size());
    QCOMPARE(p.topo.gpus.size(), size_t(4));
}

// SOURCES.md: GPU0-3 <-> NIC4-7 and GPU4-7 <-> NIC0-3 are SYS, 32 pairs.
void TestTopologyParsers::sysPairCount()
{
    const TopologyParse p =
        loadTopologyFile(dataPath(QStringLiteral("nvsmi-topo-h100-hgx-8nic-mlx5-pix-node-sys.txt")));
    QVERIFY2(p.error.isEmpty(), qPrintable(p.error));
    int sys = 0;
    for (const GpuNicLink& l : p.topo.nicLinks)
        sys += l.path == PathClass::SYS ? 1 : 0;
    QCOMPARE(sys, 32);
    QCOMPARE(p.topo.nics[4].name, QStringLiteral("mlx5_4"));
}

void TestTopologyParsers::affinityColumns()
{
    const TopologyParse p = loadTopologyFile(dataPath(QStringLiteral("nvidia-smi-topo.gpu-a02.txt")));
    QVERIFY2(p.error.isEmpty(), qPrintable(p.error));
    QCOMPARE(p.topo.gpus[3].cpuAffinity, QStringLiteral("32-63,96-127"));
    QCOMPARE(p.topo.gpus[3].numa, 1);
    QCOMPARE(p.topo.numaNodes.size(), size_t(2));
    // Old drivers: CPU Affinity only, no NUMA column.
    const TopologyParse old =
        loadTopologyFile(dataPath(QStringLiteral("nvsmi-topo-old-mlx-columns-spaces.gpu-b01.txt")));
    QVERIFY2(old.error.isEmpty(), qPrintable(old.error));
    QCOMPARE(old.topo.gpus[2].cpuAffinity, QStringLiteral("12-23,36-47"));
    QCOMPARE(old.topo.gpus[2].numa, -1);
    // NCCL XML: GPU's NUMA from <cpu numaid>, CPUs from its affinity mask.
    const TopologyParse x = loadTopologyFile(dataPath(QStringLiteral("nccl-topo-dump.gpu-a02.xml")));
    QVERIFY2(x.error.isEmpty(), qPrintable(x.error));
    QCOMPARE(x.topo.gpus[3].busId, QStringLiteral("0000:99:00.0"));
    QCOMPARE(x.topo.gpus[3].numa, 1);
    QCOMPARE(x.topo.gpus[3].ncclRank, 7);
    QCOMPARE(x.topo.gpus[3].cpuAffinity, QStringLiteral("32-63,96-127"));
    const TopologyParse rccl = loadTopologyFile(dataPath(QStringLiteral("nccl-topo-nested-switch-xgmi.xml")));
    const GpuLink* xgmi = rccl.topo.gpuLink(0, 1);
    QVERIFY(xgmi);
    QCOMPARE(xgmi->linkCount, 4);
}

void TestTopologyParsers::hostOverride()
{
    const TopologyParse p = loadTopologyFile(
        dataPath(QStringLiteral("nvidia-smi-topo.gpu-a02.txt")), QStringLiteral("Node7.Example.org"));
    QCOMPARE(p.topo.host, QStringLiteral("node7"));
    QCOMPARE(hostFromFileName(QStringLiteral("/x/nccl-topo-dump.gpu-a02.cluster.local.xml")),
        QStringLiteral("gpu-a02"));
    QCOMPARE(hostFromFileName(QStringLiteral("topo.xml")), QString());
}

QTEST_GUILESS_MAIN(TestTopologyParsers)
// The "*" legend under the path matrix only when some cell was derived from the PCI tree.
void TestTopologyParsers::matrixLegendOnlyWhenUsed()
{
    const QString legend = QStringLiteral("(* = derived from the PCI tree)");
    const QString rocm = topologyText(
        loadTopologyFiles({ dataPath(QStringLiteral("rocm-smi-showtopo-mi300a-4apu-gfx942-xgmi.txt")) }));
    QVERIFY(rocm.contains(QLatin1String("XGMI")));
    QVERIFY2(!rocm.contains(legend), qPrintable(rocm));
    const QString hwloc =
        topologyText(loadTopologyFiles({ dataPath(QStringLiteral("hwloc-topo.gpu-a02.xml")) }));
    QVERIFY2(hwloc.contains(legend), qPrintable(hwloc));
    QVERIFY(hwloc.contains(QLatin1String("SYS*")) || hwloc.contains(QLatin1String("PIX*")));
}

#include "tst_topology_parsers.moc"
