// SPDX-License-Identifier: MIT
// The topology graph on the sample job's gpu-a02 captures and on every capture in tests/data/topology.
#include "main_window.h"
#include "topology_view.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace rankscope;

namespace {

QString topoFile(const QString& name)
{
    return QStringLiteral(RANKSCOPE_TEST_DATA "/topology/") + name;
}

// Ranks 4-7 of the sample job (gpu-a02), as the log parsers report them (see sample-job README).
std::vector<RankInfo> sampleRanks()
{
    const QStringList bus { QStringLiteral("0000:18:00.0"), QStringLiteral("0000:19:00.0"),
        QStringLiteral("0000:98:00.0"), QStringLiteral("0000:99:00.0") };
    std::vector<RankInfo> ranks;
    for (int local = 0; local < 4; ++local) {
        RankInfo r;
        r.rank = 4 + local;
        r.host = QStringLiteral("gpu-a02");
        r.localRank = r.cudaDev = r.nvmlDev = local;
        r.busId = bus.at(local);
        r.nics.push_back(NicUse { 0, QStringLiteral("mlx5_0"), 1, QStringLiteral("IB") });
        if (r.rank == 4 || r.rank == 7)
            r.channelNics = { 0 };
        r.gdr = r.rank == 4;
        r.cpuAffinity = local < 2 ? QStringLiteral("0-31,64-95") : QStringLiteral("32-63,96-127");
        ranks.push_back(r);
    }
    return ranks;
}

const TopologyEdge* findEdge(const TopologyView& v, const QString& from, const QString& to)
{
    for (const TopologyEdge& e : v.edges())
        if (e.from == from && e.to == to)
            return &e;
    return nullptr;
}

// Device boxes never overlap and stay inside the scene.
void checkGeometry(const TopologyScene& s)
{
    const QRectF bounds(QPointF(0, 0), s.size);
    for (size_t i = 0; i < s.devices.size(); ++i) {
        QVERIFY2(!s.devices[i].rect.isEmpty(), qPrintable(s.devices[i].title));
        QVERIFY2(bounds.contains(s.devices[i].rect), qPrintable(s.devices[i].title));
        for (size_t j = i + 1; j < s.devices.size(); ++j)
            QVERIFY2(!s.devices[i].rect.intersects(s.devices[j].rect),
                qPrintable(s.devices[i].title + QStringLiteral(" overlaps ") + s.devices[j].title));
    }
    for (const TopologyNumaBox& b : s.numas)
        QVERIFY(bounds.contains(b.rect));
}

} // namespace

class TestTopologyView : public QObject
{
    Q_OBJECT

private:
    TopologySet m_set;
    PlacementResult m_placement;

private Q_SLOTS:
    void initTestCase()
    {
        m_set = loadTopologyFiles({ topoFile(QStringLiteral("nvidia-smi-topo.gpu-a02.txt")),
            topoFile(QStringLiteral("nccl-topo-dump.gpu-a02.xml")) });
        QVERIFY2(m_set.errors.isEmpty(), qPrintable(m_set.errors.join(u'\n')));
        QCOMPARE(m_set.hosts.size(), size_t(1));
        m_placement = placeRanks(sampleRanks(), m_set);
    }

    void initiatingRankUsesNicAcrossSys()
    {
        TopologyView view;
        view.setTopology(&m_set, &m_placement, 7);
        QCOMPARE(view.currentHost(), QStringLiteral("gpu-a02"));

        const TopologyEdge* sys = findEdge(view, QStringLiteral("GPU3"), QStringLiteral("mlx5_0"));
        QVERIFY(sys);
        QCOMPARE(sys->label, QStringLiteral("SYS"));
        QVERIFY(sys->isSys);
        QVERIFY(sys->dashed);
        QVERIFY(sys->highlighted);
        QVERIFY(sys->used);
        QCOMPARE(sys->ranks, std::vector<int>({ 7 }));
        QCOMPARE(sys->text, QStringLiteral("SYS")); // GPU3 names rank 7 already
        // The drawn line runs from GPU3's box to mlx5_0's box.
        const TopologyScene& s = view.scene();
        const QRectF gpu3 = view.gpuBoxRect(3);
        const QRectF mlx0 = s.devices[static_cast<size_t>(s.deviceBox(
                                          false, m_set.hosts[0].nicByName(QStringLiteral("mlx5_0"))))]
                                .rect;
        QVERIFY(!gpu3.isNull());
        QCOMPARE(sys->path.size(), 2);
        QVERIFY(gpu3.adjusted(-1, -1, 1, 1).contains(sys->path.first()));
        QVERIFY(mlx0.adjusted(-1, -1, 1, 1).contains(sys->path.last()));

        // Rank 4 used mlx5_0 too, from GPU0 under the same switch: PIX, solid, not the initiating path.
        const TopologyEdge* pix = findEdge(view, QStringLiteral("GPU0"), QStringLiteral("mlx5_0"));
        QVERIFY(pix);
        QCOMPARE(pix->label, QStringLiteral("PIX"));
        QVERIFY(!pix->dashed);
        QVERIFY(!pix->highlighted);
        // Ranks 5 and 6 used no NIC: no edge from their GPUs unless all paths are asked for.
        QVERIFY(!findEdge(view, QStringLiteral("GPU2"), QStringLiteral("mlx5_0")));
        QVERIFY(!findEdge(view, QStringLiteral("GPU1"), QStringLiteral("mlx5_0")));
        checkGeometry(s);
    }

    void ranksAndBoxes()
    {
        TopologyView view;
        view.setTopology(&m_set, &m_placement, 7);
        QVERIFY(view.gpuBoxText(3).contains(QStringLiteral("rank 7")));
        QVERIFY(view.gpuBoxText(3).contains(QStringLiteral("0000:99:00.0")));
        QVERIFY(!view.gpuBoxText(2).contains(QStringLiteral("rank 7")));
        QVERIFY(view.gpuBoxText(0).contains(QStringLiteral("rank 4")));
        const TopologyScene& s = view.scene();
        int initiating = 0;
        for (const TopologyDeviceBox& d : s.devices)
            initiating += d.initiating ? 1 : 0;
        QCOMPARE(initiating, 1);
        QVERIFY(s.devices[static_cast<size_t>(s.deviceBox(true, m_set.hosts[0].gpuByIndex(3)))].initiating);

        // NUMA boxes with their CPUs; GPU3 sits in NUMA 1's box, mlx5_0 in NUMA 0's.
        QStringList numaLabels;
        for (const TopologyNumaBox& b : s.numas)
            numaLabels << b.label;
        QVERIFY2(numaLabels.contains(QStringLiteral("NUMA 0 \u00b7 CPUs 0-31,64-95")),
            qPrintable(numaLabels.join(u'|')));
        QVERIFY(numaLabels.contains(QStringLiteral("NUMA 1 \u00b7 CPUs 32-63,96-127")));
        for (const TopologyNumaBox& b : s.numas)
            if (b.label.startsWith(QStringLiteral("NUMA 1")))
                QVERIFY(b.rect.contains(view.gpuBoxRect(3)));
        // The switch of GPU2/GPU3 comes from the NCCL XML; mlx5_1 (absent from the XML, PIX in the
        // nvidia-smi matrix) joins it, marked as a NIC NCCL did not list.
        const int mlx1 = s.deviceBox(false, m_set.hosts[0].nicByName(QStringLiteral("mlx5_1")));
        QVERIFY(mlx1 >= 0);
        QVERIFY(s.devices[static_cast<size_t>(mlx1)].warn);
        bool sharedSwitch = false;
        for (const TopologyGroupBox& g : s.groups) {
            const bool hasGpu3 = std::count(
                g.devices.begin(), g.devices.end(), s.deviceBox(true, m_set.hosts[0].gpuByIndex(3)));
            const bool hasMlx1 = std::count(g.devices.begin(), g.devices.end(), mlx1);
            if (hasGpu3) {
                QCOMPARE(g.label, QStringLiteral("PCIe switch 0000:96:00.0"));
                sharedSwitch = hasMlx1;
            }
        }
        QVERIFY(sharedSwitch);
        QVERIFY(view.findingsText().contains(QStringLiteral("sys-path: rank 7")));
        QVERIFY(view.findingsText().contains(QStringLiteral("nic-missing")));
        // GPU–GPU classes differ (PIX within a switch, SYS across): a matrix inset, with its labels.
        QCOMPARE(s.matrixGpus.size(), size_t(4));
        QVERIFY(view.edgeLabels().contains(QStringLiteral("PIX")));
        QCOMPARE(view.edgeLabels().count(QStringLiteral("SYS")), 1 + 4); // GPU3-mlx5_0 + 4 GPU-GPU pairs
    }

    void allNicPathsToggle()
    {
        TopologyView view;
        view.setTopology(&m_set, &m_placement, 7);
        view.setShowAllNicPaths(true);
        int nicEdges = 0, sysEdges = 0, highlighted = 0;
        for (const TopologyEdge& e : view.edges()) {
            if (e.kind != TopologyEdge::GpuNic)
                continue;
            ++nicEdges;
            sysEdges += e.isSys ? 1 : 0;
            highlighted += e.highlighted ? 1 : 0;
        }
        QCOMPARE(nicEdges, 8); // 4 GPUs x 2 NICs
        QCOMPARE(sysEdges, 4); // GPU0/1-mlx5_1, GPU2/3-mlx5_0
        QCOMPARE(highlighted, 1);
        checkGeometry(view.scene());
    }

    void exports()
    {
        TopologyView view;
        view.setTopology(&m_set, &m_placement, 7);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QString error;
        const QString svgPath = dir.filePath(QStringLiteral("topo.svg"));
        QVERIFY2(view.exportSvg(svgPath, &error), qPrintable(error));
        QFile svg(svgPath);
        QVERIFY(svg.open(QIODevice::ReadOnly));
        const QByteArray svgBytes = svg.readAll();
        QVERIFY(svgBytes.contains("<svg"));
        QVERIFY(svgBytes.contains("SYS"));
        QVERIFY(svgBytes.contains("rank 7"));
        QCOMPARE(view.renderSvg(), svgBytes);

        const QString pngPath = dir.filePath(QStringLiteral("topo.png"));
        QVERIFY2(view.exportPng(pngPath, &error), qPrintable(error));
        QVERIFY(QFileInfo(pngPath).size() > 0);
        QImage png(pngPath);
        QVERIFY(!png.isNull());
        QVERIFY(png.width() >= view.sceneSize().width());
        // Where the SYS line is drawn, the PNG has the SYS red (or its dashes' neighbourhood does).
        const QImage img = view.renderImage(1.0);
        const TopologyEdge* sys = findEdge(view, QStringLiteral("GPU3"), QStringLiteral("mlx5_0"));
        QVERIFY(sys);
        int reddish = 0;
        const QLineF line(sys->path.first(), sys->path.last());
        for (int i = 2; i < 40; ++i) {
            const QColor c = img.pixelColor(line.pointAt(i / 100.0).toPoint());
            reddish += c.red() > 150 && c.green() < 110 && c.blue() < 110 ? 1 : 0;
        }
        QVERIFY2(reddish > 5, qPrintable(QString::number(reddish)));

        QVERIFY(!view.exportSvg(dir.filePath(QStringLiteral("no/such/dir/x.svg")), &error));
        QVERIFY(error.contains(QStringLiteral("x.svg")));
        QVERIFY(!view.exportPng(dir.filePath(QStringLiteral("no/such/dir/x.png")), &error));
        QVERIFY(error.contains(QStringLiteral("x.png")));
    }

    void hostSwitching()
    {
        const TopologySet set = loadTopologyFiles({ topoFile(QStringLiteral("nvidia-smi-topo.gpu-a02.txt")),
            topoFile(QStringLiteral("nccl-topo-dump.gpu-a02.xml")),
            topoFile(QStringLiteral("nvsmi-topo-old-mlx-columns-spaces.gpu-b01.txt")) });
        QCOMPARE(set.hosts.size(), size_t(2));
        const PlacementResult placement = placeRanks(sampleRanks(), set);
        TopologyView view;
        QSignalSpy spy(&view, &TopologyView::currentHostChanged);
        view.setTopology(&set, &placement, 7);
        QCOMPARE(view.currentHost(), QStringLiteral("gpu-a02")); // the initiating rank's host
        QCOMPARE(view.hosts().size(), 2);

        view.setCurrentHost(QStringLiteral("gpu-b01.cluster.local"));
        QCOMPARE(view.currentHost(), QStringLiteral("gpu-b01"));
        QCOMPARE(spy.last().at(0).toString(), QStringLiteral("gpu-b01"));
        QCOMPARE(view.gpuBoxCount(), 4);
        QVERIFY(
            !findEdge(view, QStringLiteral("GPU3"), QStringLiteral("mlx5_0"))); // no ranks placed on gpu-b01
        QVERIFY(!view.gpuBoxText(3).contains(QStringLiteral("rank")));
        QVERIFY(view.scene().title.startsWith(QStringLiteral("gpu-b01")));
        checkGeometry(view.scene());

        view.setCurrentHost(QStringLiteral("gpu-a02"));
        QCOMPARE(view.currentHost(), QStringLiteral("gpu-a02"));
        const TopologyEdge* sys = findEdge(view, QStringLiteral("GPU3"), QStringLiteral("mlx5_0"));
        QVERIFY(sys && sys->highlighted);

        view.setCurrentHost(QStringLiteral("no-such-host"));
        QCOMPARE(view.currentHost(), QStringLiteral("gpu-a02"));
    }

    void hgxMatrixOnly()
    {
        // 8 GPUs + 8 NICs, no tree: GPUn and NICn (PIX) share an inferred switch; two NUMA boxes.
        const TopologySet set =
            loadTopologyFiles({ topoFile(QStringLiteral("nvsmi-topo-h100-hgx-8nic-mlx5-pix-node-sys.txt")) });
        QVERIFY(set.errors.isEmpty());
        TopologyView view;
        view.setTopology(&set, nullptr, -1);
        const TopologyScene& s = view.scene();
        QCOMPARE(view.gpuBoxCount(), 8);
        QCOMPARE(s.numas.size(), size_t(2));
        int framed = 0;
        for (const TopologyGroupBox& g : s.groups)
            if (g.framed) {
                ++framed;
                QCOMPARE(g.devices.size(), size_t(2));
                QVERIFY(g.label.contains(QStringLiteral("inferred from PIX")));
            }
        QCOMPARE(framed, 8);
        QVERIFY(s.gpuGpuSummary.contains(QStringLiteral("NV18")));
        QVERIFY(s.matrixGpus.empty());
        view.setShowAllNicPaths(true);
        int sys = 0, nic = 0;
        for (const TopologyEdge& e : view.edges())
            if (e.kind == TopologyEdge::GpuNic) {
                ++nic;
                sys += e.isSys ? 1 : 0;
            }
        QCOMPARE(nic, 64);
        QCOMPARE(sys, 32);
        checkGeometry(view.scene());
    }

    void rendersEveryCapture_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<bool>("mustDraw");
        // The real captures named in SOURCES.md and the sample job's: each must give GPU boxes.
        const QStringList mustDraw { QStringLiteral("nvidia-smi-topo.gpu-a02.txt"),
            QStringLiteral("nccl-topo-dump.gpu-a02.xml"), QStringLiteral("hwloc-topo.gpu-a02.xml"),
            QStringLiteral("nvsmi-topo-h100-hgx-8nic-mlx5-pix-node-sys.txt"),
            QStringLiteral("nvsmi-topo-4gpu-pcie-pxb-pix-sys-no-nic.txt"),
            QStringLiteral("rocm-smi-showtopo-mi300a-4apu-gfx942-xgmi.txt"),
            QStringLiteral("nccl-topo-xml-azure-ndv4-a100.xml"),
            QStringLiteral("nccl-topo-nested-switch-xgmi.xml") };
        const QDir dir(QStringLiteral(RANKSCOPE_TEST_DATA "/topology"));
        const QStringList files = dir.entryList(QDir::Files, QDir::Name);
        QVERIFY(files.size() > 10);
        for (const QString& name : files)
            QTest::newRow(qPrintable(name)) << dir.filePath(name) << mustDraw.contains(name);
        // The second set of real captures (real-2/README.md): every one draws its GPUs, but the two of a
        // VM without any (local_*).
        const QDir real2(dir.filePath(QStringLiteral("real-2")));
        for (const QString& name : real2.entryList(QDir::Files, QDir::Name))
            if (!name.endsWith(QLatin1String(".md")))
                QTest::newRow(qPrintable(QStringLiteral("real-2/") + name))
                    << real2.filePath(name) << !name.startsWith(QLatin1String("local_"));
    }

    void rendersEveryCapture()
    {
        QFETCH(QString, path);
        QFETCH(bool, mustDraw);
        const TopologySet set = loadTopologyFiles({ path });
        TopologyView view;
        view.setTopology(&set, nullptr, -1);
        QVERIFY(!view.renderImage(1.0).isNull());
        QVERIFY(!view.renderSvg().isEmpty());
        size_t gpus = 0;
        for (const HostTopology& h : set.hosts)
            gpus += h.gpus.size();
        if (mustDraw)
            QVERIFY2(gpus > 0, qPrintable(set.errors.join(u'\n')));
        if (set.hosts.empty()) {
            // A capture that could not be read says so under the graph, naming the file.
            QCOMPARE(view.gpuBoxCount(), 0);
            QVERIFY(view.findingsText().contains(QFileInfo(path).fileName()));
            return;
        }
        for (const HostTopology& h : set.hosts) {
            view.setCurrentHost(h.host);
            QCOMPARE(view.gpuBoxCount(), static_cast<int>(h.gpus.size())); // nothing dropped
            int nics = 0;
            for (const TopologyDeviceBox& d : view.scene().devices)
                nics += d.gpu ? 0 : 1;
            QCOMPARE(nics, static_cast<int>(h.nics.size()));
            for (const TopoGpu& g : h.gpus)
                QVERIFY(!view.gpuBoxRect(g.index).isEmpty());
            checkGeometry(view.scene());
            view.setShowAllNicPaths(true);
            checkGeometry(view.scene());
            QVERIFY(!view.renderImage(1.0).isNull());
            view.setShowAllNicPaths(false);
        }
    }

    // Opening only a capture shows its topology, as lstopo would, instead of "Nothing could be read".
    void windowWithCapturesOnly()
    {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        w.openPaths({ topoFile(QStringLiteral("real-2/hwloc-xml-2.14_24em64t-2n6c2t-pci.xml")) });
        if (w.isLoading()) {
            QSignalSpy done(&w, &MainWindow::analysisFinished);
            QVERIFY(done.wait(60000));
        }
        QStringList labels;
        for (const QLabel* l : w.findChildren<QLabel*>())
            labels << l->text();
        const QString shown = labels.join(u'\n');
        QVERIFY2(!shown.contains(QLatin1String("Nothing could be read")), qPrintable(shown));
        QVERIFY2(shown.contains(QLatin1String("Topology only, no logs")), qPrintable(shown));
        const TopologyView* view = w.topologyView();
        QCOMPARE(view->hosts(), QStringList { QStringLiteral("mirage004") });
        QCOMPARE(view->gpuBoxCount(), 3);
        QVERIFY(view->showAllNicPaths()); // 3 GPUs x 3 NICs: every path drawn
        QVERIFY2(view->findingsText().contains(
                     QLatin1String("GPU1 and its nearest RDMA NIC mlx4_0 are on different NUMA nodes")),
            qPrintable(view->findingsText()));
        QVERIFY(!view->edges().empty());
    }

    // The `-m` and `-p2p` captures of one machine without a host name are one host in the window (no
    // host selector, one drawing), and a `-p2p` block pasted after a `-m` block in one file is read too.
    void windowMatrixAndP2pOfOneHost_data()
    {
        QTest::addColumn<QStringList>("files");
        QTest::addColumn<QString>("p2p");
        QTest::newRow("two files") << QStringList {
            QStringLiteral("gh-nvsmi_club3090-1229-2x5090-topo-m.txt"),
            QStringLiteral("gh-nvsmi_club3090-1229-2x5090-p2p-rw.txt")
        } << "(GNS)";
        QTest::newRow("one file, -p2p after -m")
            << QStringList { QStringLiteral("gh-nvsmi_club3090-1125-indented-wrapped-plus-p2p.txt") }
            << "(NS)";
    }

    void windowMatrixAndP2pOfOneHost()
    {
        QFETCH(QStringList, files);
        QFETCH(QString, p2p);
        QStringList paths;
        for (const QString& f : files)
            paths << topoFile(QStringLiteral("real-2/") + f);
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        w.openPaths(paths);
        if (w.isLoading()) {
            QSignalSpy done(&w, &MainWindow::analysisFinished);
            QVERIFY(done.wait(60000));
        }
        const TopologyView* view = w.topologyView();
        QCOMPARE(view->hosts(), QStringList { QString() });
        const QComboBox* hostCombo = view->findChild<QComboBox*>();
        QVERIFY(hostCombo);
        QCOMPARE(hostCombo->count(), 1);
        QVERIFY(!hostCombo->isVisible());
        QCOMPARE(view->gpuBoxCount(), 2);
        // The P2P status of the pair comes from the -p2p part; the -m part gives its class.
        QVERIFY2(view->findingsText().contains(
                     QStringLiteral("no GPU peer-to-peer access between GPU0-GPU1 %1").arg(p2p)),
            qPrintable(view->findingsText()));
    }

    void darkPalette()
    {
        TopologyView view;
        QPalette dark;
        dark.setColor(QPalette::Base, QColor(0x1e, 0x1f, 0x22));
        dark.setColor(QPalette::Window, QColor(0x2b, 0x2d, 0x30));
        dark.setColor(QPalette::Text, QColor(0xdf, 0xe1, 0xe5));
        view.setPalette(dark);
        view.setTopology(&m_set, &m_placement, 7);
        const QImage img = view.renderImage(1.0);
        QCOMPARE(img.pixelColor(1, 1), QColor(0x1e, 0x1f, 0x22));
        // A GPU title is drawn in the light text colour somewhere inside GPU0's box.
        const QRectF box = view.gpuBoxRect(0);
        int light = 0;
        for (int x = static_cast<int>(box.left()); x < static_cast<int>(box.right()); ++x)
            for (int y = static_cast<int>(box.top()); y < static_cast<int>(box.center().y()); ++y)
                light += img.pixelColor(x, y).lightness() > 180 ? 1 : 0;
        QVERIFY(light > 20);
    }
};

QTEST_MAIN(TestTopologyView)
#include "tst_topology_view.moc"
