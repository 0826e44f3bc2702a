// SPDX-License-Identifier: MIT
// Which box each GPU and NIC goes in, and which edges to draw. The PCI tree is trusted when the capture
// has one; matrix-only captures (nvidia-smi, rocm-smi) and tree-less devices are grouped from the
// matrix: PIX/PXB pairs share a switch box, and NUMA comes from the affinity columns or, for NICs,
// from the GPUs they reach without crossing sockets.
#include "topology_layout.h"

#include <QSet>
#include <algorithm>
#include <map>
#include <numeric>

namespace rankscope {

namespace {

// Union-find over device boxes.
struct Sets
{
    std::vector<int> parent;
    explicit Sets(size_t n)
        : parent(n)
    {
        std::iota(parent.begin(), parent.end(), 0);
    }
    int find(int x)
    {
        return parent[static_cast<size_t>(x)] == x
            ? x
            : parent[static_cast<size_t>(x)] = find(parent[static_cast<size_t>(x)]);
    }
    void join(int a, int b) { parent[static_cast<size_t>(find(a))] = find(b); }
};

// The topmost switch above a tree node (devices under one top switch reach each other by PIX/PXB).
int topSwitch(const HostTopology& h, int node)
{
    int found = -1;
    for (int n = node >= 0 ? h.tree[static_cast<size_t>(node)].parent : -1; n >= 0;
         n = h.tree[static_cast<size_t>(n)].parent)
        if (h.tree[static_cast<size_t>(n)].kind == TopoNodeKind::Switch)
            found = n;
    return found;
}

int treeNuma(const HostTopology& h, int node)
{
    for (int n = node; n >= 0; n = h.tree[static_cast<size_t>(n)].parent)
        if (h.tree[static_cast<size_t>(n)].kind == TopoNodeKind::Numa
            || h.tree[static_cast<size_t>(n)].numa >= 0)
            return h.tree[static_cast<size_t>(n)].numa;
    return -1;
}

QString socketKey(int numa, const QString& cpus)
{
    if (numa >= 0)
        return QStringLiteral("a%1").arg(numa, 4, 10, QLatin1Char('0'));
    return cpus.isEmpty() ? QString() : QStringLiteral("b") + cpus;
}

QString rankList(const std::vector<int>& ranks)
{
    QStringList s;
    for (int r : ranks)
        s << QString::number(r);
    return (ranks.size() == 1 ? QStringLiteral("rank ") : QStringLiteral("ranks "))
        + s.join(QStringLiteral(", "));
}

QString productName(const TopoGpu& g)
{
    QString n = g.name;
    if (n.isEmpty() || n == QStringLiteral("GPU%1").arg(g.index))
        return {};
    for (const char* vendor : { "NVIDIA ", "AMD " })
        if (n.startsWith(QLatin1String(vendor)))
            n = n.mid(static_cast<qsizetype>(qstrlen(vendor)));
    return n;
}

} // namespace

int TopologyScene::deviceBox(bool gpu, int index) const
{
    for (size_t i = 0; i < devices.size(); ++i)
        if (devices[i].gpu == gpu && devices[i].index == index)
            return static_cast<int>(i);
    return -1;
}

bool TopologyScene::showsInitiating() const
{
    return std::any_of(devices.begin(), devices.end(), [](const TopologyDeviceBox& d) {
        return d.initiating;
    }) || std::any_of(edges.begin(), edges.end(), [](const TopologyEdge& e) { return e.highlighted; });
}

TopologyScene buildTopologyScene(const HostTopology& h, int hostIndex, const PlacementResult* placement,
    int initiatingRank, bool allNicPaths)
{
    TopologyScene s;
    s.host = h.host;
    s.initiatingRank = initiatingRank;
    s.title = (h.host.isEmpty() ? QStringLiteral("(host unknown)") : h.host);
    if (!h.formats.isEmpty())
        s.title += QStringLiteral(" \u2014 ") + h.formats.join(QStringLiteral(" + "));

    const int nGpu = static_cast<int>(h.gpus.size());
    const int nNic = static_cast<int>(h.nics.size());
    QSet<QString> nicsNcclSkipped;
    if (placement)
        for (const TopologyFinding& f : placement->findings) {
            if (f.host == h.host && f.kind == TopologyFinding::NicMissing)
                nicsNcclSkipped.insert(f.nic);
            if (f.host == h.host)
                s.findings << findingKindName(f.kind) + QStringLiteral(": ") + f.detail;
        }

    // Devices, and the ranks on each.
    for (int g = 0; g < nGpu; ++g) {
        const TopoGpu& gpu = h.gpus[static_cast<size_t>(g)];
        TopologyDeviceBox d;
        d.index = g;
        d.name = QStringLiteral("GPU%1").arg(gpu.index);
        QStringList parts { d.name };
        if (!gpu.busId.isEmpty())
            parts << gpu.busId;
        if (const QString p = productName(gpu); !p.isEmpty())
            parts << p;
        d.title = parts.join(QStringLiteral(" \u00b7 "));
        s.devices.push_back(d);
    }
    for (int n = 0; n < nNic; ++n) {
        const TopoNic& nic = h.nics[static_cast<size_t>(n)];
        TopologyDeviceBox d;
        d.gpu = false;
        d.index = n;
        d.name = nic.displayName();
        d.title = nic.busId.isEmpty() || d.name.contains(nic.busId)
            ? d.name
            : d.name + QStringLiteral(" \u00b7 ") + nic.busId;
        if (nicsNcclSkipped.contains(nic.name)) {
            d.subtitle = QStringLiteral("not in NCCL's NIC list (port down?)");
            d.warn = true;
        } else if (!nic.rdma) {
            d.subtitle = QStringLiteral("no RDMA device");
        }
        s.devices.push_back(d);
    }

    // GPU–NIC edges the ranks used.
    std::map<std::pair<int, int>, TopologyEdge> nicEdges;
    auto nicEdge = [&](int g, int n) -> TopologyEdge& {
        TopologyEdge& e = nicEdges[{ g, n }];
        if (e.fromBox < 0) {
            e.fromBox = g;
            e.toBox = nGpu + n;
            const GpuNicLink* l = h.nicLink(g, n);
            e.pathClass = l ? l->path : PathClass::Unknown;
            e.derived = l && l->derived;
        }
        return e;
    };
    if (placement)
        for (const RankPlacement& p : placement->ranks) {
            if (p.hostIndex != hostIndex)
                continue;
            if (!p.note.isEmpty())
                s.findings << QStringLiteral("rank %1: %2").arg(p.rank).arg(p.note);
            if (p.gpu < 0 || p.gpu >= nGpu)
                continue;
            TopologyDeviceBox& gd = s.devices[static_cast<size_t>(p.gpu)];
            gd.ranks.push_back(p.rank);
            gd.initiating = gd.initiating || p.rank == initiatingRank;
            for (const NicPlacement& np : p.nics) {
                if (np.topoNic < 0 || np.topoNic >= nNic) {
                    s.findings << QStringLiteral(
                        "rank %1 used NET/IB/%2 (%3), which the capture does not show")
                                      .arg(p.rank)
                                      .arg(np.ncclIndex)
                                      .arg(np.name.isEmpty() ? QStringLiteral("name unknown") : np.name);
                    continue;
                }
                TopologyEdge& e = nicEdge(p.gpu, np.topoNic);
                e.used = true;
                e.ranks.push_back(p.rank);
                e.highlighted = e.highlighted || p.rank == initiatingRank;
                const size_t nicBox = static_cast<size_t>(nGpu) + static_cast<size_t>(np.topoNic);
                s.devices[nicBox].ranks.push_back(p.rank);
            }
        }
    if (allNicPaths)
        for (const GpuNicLink& l : h.nicLinks)
            if (l.gpu >= 0 && l.gpu < nGpu && l.nic >= 0 && l.nic < nNic)
                nicEdge(l.gpu, l.nic);
    for (auto& [key, e] : nicEdges) {
        e.from = s.devices[static_cast<size_t>(e.fromBox)].name;
        e.to = s.devices[static_cast<size_t>(e.toBox)].name;
        e.label = e.pathClass == PathClass::Unknown ? QStringLiteral("?") : pathClassName(e.pathClass);
        e.isSys = e.pathClass == PathClass::SYS;
        e.dashed = e.isSys || e.pathClass == PathClass::NODE || e.pathClass == PathClass::PHB;
        std::sort(e.ranks.begin(), e.ranks.end());
        s.edges.push_back(e);
    }
    for (TopologyDeviceBox& d : s.devices) {
        std::sort(d.ranks.begin(), d.ranks.end());
        d.ranks.erase(std::unique(d.ranks.begin(), d.ranks.end()), d.ranks.end());
        if (d.gpu && !d.ranks.empty())
            d.subtitle = rankList(d.ranks);
        else if (!d.gpu && !d.ranks.empty() && !d.warn)
            d.subtitle = QStringLiteral("used by ") + rankList(d.ranks);
    }
    // The GPU box already names its ranks; the edge repeats them only when some of them did not use it.
    for (TopologyEdge& e : s.edges)
        e.text = e.ranks.empty() || e.ranks == s.devices[static_cast<size_t>(e.fromBox)].ranks
            ? e.label
            : e.label + QStringLiteral(" \u00b7 ") + rankList(e.ranks);

    // GPU–GPU links: one summary line when every pair has the same class, else the matrix inset.
    QSet<QString> gpuClasses;
    for (const GpuLink& l : h.gpuLinks) {
        if (l.a < 0 || l.b < 0 || l.a >= nGpu || l.b >= nGpu)
            continue;
        TopologyEdge e;
        e.kind = TopologyEdge::GpuGpu;
        e.fromBox = l.a;
        e.toBox = l.b;
        e.from = s.devices[static_cast<size_t>(l.a)].name;
        e.to = s.devices[static_cast<size_t>(l.b)].name;
        e.pathClass = l.path;
        e.label = l.path == PathClass::Unknown ? QStringLiteral("?") : pathClassName(l.path, l.linkCount);
        e.text = e.label;
        e.isSys = l.path == PathClass::SYS;
        e.derived = l.derived;
        gpuClasses.insert(e.label);
        s.edges.push_back(e);
    }
    const size_t pairs = static_cast<size_t>(nGpu) * static_cast<size_t>(std::max(nGpu - 1, 0)) / 2;
    const size_t gpuEdges = s.edges.size() - nicEdges.size();
    if (gpuClasses.size() == 1 && gpuEdges == pairs && nGpu > 1)
        s.gpuGpuSummary =
            QStringLiteral("GPU\u2194GPU: %1 between all %2 GPUs").arg(*gpuClasses.begin()).arg(nGpu);
    else if (nGpu > 16)
        s.gpuGpuSummary =
            QStringLiteral("GPU\u2194GPU: %1 GPUs, see `rankscope topology` for the matrix").arg(nGpu);
    else if (gpuEdges > 0)
        for (int g = 0; g < nGpu; ++g)
            s.matrixGpus.push_back(g);

    // Switch groups: the tree's top switch, else PIX/PXB neighbours from the matrix.
    const int nDev = nGpu + nNic;
    Sets sets(static_cast<size_t>(nDev));
    std::vector<int> sw(static_cast<size_t>(nDev), -1);
    std::vector<QString> socket(static_cast<size_t>(nDev));
    std::vector<bool> inTree(static_cast<size_t>(nDev), false);
    for (int i = 0; i < nDev; ++i) {
        const bool isGpu = i < nGpu;
        const int node =
            isGpu ? h.gpus[static_cast<size_t>(i)].node : h.nics[static_cast<size_t>(i - nGpu)].node;
        const int ownNuma =
            isGpu ? h.gpus[static_cast<size_t>(i)].numa : h.nics[static_cast<size_t>(i - nGpu)].numa;
        const bool valid = node >= 0 && node < static_cast<int>(h.tree.size());
        inTree[static_cast<size_t>(i)] = valid;
        sw[static_cast<size_t>(i)] = valid ? topSwitch(h, node) : -1;
        const int numa = valid && treeNuma(h, node) >= 0 ? treeNuma(h, node) : ownNuma;
        socket[static_cast<size_t>(i)] =
            socketKey(numa, isGpu ? h.gpus[static_cast<size_t>(i)].cpuAffinity : QString());
    }
    for (int i = 0; i < nDev; ++i)
        for (int j = i + 1; j < nDev; ++j)
            if (sw[static_cast<size_t>(i)] >= 0 && sw[static_cast<size_t>(i)] == sw[static_cast<size_t>(j)])
                sets.join(i, j);
    std::map<int, PathClass> inferredBy; // group root -> the farthest class that joined it
    auto near = [](PathClass c) { return c == PathClass::PIX || c == PathClass::PXB; };
    auto joinByMatrix = [&](int a, int b, PathClass c) {
        if (!near(c) || (inTree[static_cast<size_t>(a)] && inTree[static_cast<size_t>(b)]))
            return;
        sets.join(a, b);
    };
    for (const GpuNicLink& l : h.nicLinks)
        if (l.gpu >= 0 && l.gpu < nGpu && l.nic >= 0 && l.nic < nNic)
            joinByMatrix(l.gpu, nGpu + l.nic, l.path);
    for (const GpuLink& l : h.gpuLinks)
        if (l.a >= 0 && l.a < nGpu && l.b >= 0 && l.b < nGpu)
            joinByMatrix(l.a, l.b, l.path);
    for (const GpuNicLink& l : h.nicLinks)
        if (l.gpu >= 0 && l.gpu < nGpu && l.nic >= 0 && l.nic < nNic && near(l.path)
            && sets.find(l.gpu) == sets.find(nGpu + l.nic) && sw[static_cast<size_t>(l.gpu)] < 0) {
            PathClass& c = inferredBy[sets.find(l.gpu)];
            c = pathRank(l.path) > pathRank(c) || c == PathClass::Unknown ? l.path : c;
        }
    for (const GpuLink& l : h.gpuLinks)
        if (l.a >= 0 && l.a < nGpu && l.b >= 0 && l.b < nGpu && near(l.path)
            && sets.find(l.a) == sets.find(l.b) && sw[static_cast<size_t>(l.a)] < 0) {
            PathClass& c = inferredBy[sets.find(l.a)];
            c = pathRank(l.path) > pathRank(c) || c == PathClass::Unknown ? l.path : c;
        }

    // A NIC with no NUMA of its own sits on the socket of the closest GPU it reaches without SYS.
    for (int n = 0; n < nNic; ++n) {
        QString& key = socket[static_cast<size_t>(nGpu) + static_cast<size_t>(n)];
        if (!key.isEmpty())
            continue;
        PathClass best = PathClass::Unknown;
        for (const GpuNicLink& l : h.nicLinks) {
            const bool sameSocket = l.path >= PathClass::PIX && l.path <= PathClass::NODE;
            if (l.nic != n || l.gpu < 0 || l.gpu >= nGpu || !sameSocket
                || socket[static_cast<size_t>(l.gpu)].isEmpty())
                continue;
            if (best == PathClass::Unknown || pathRank(l.path) < pathRank(best)) {
                best = l.path;
                key = socket[static_cast<size_t>(l.gpu)];
            }
        }
    }

    // Groups in device order (GPUs first). Devices with no switch share one unframed column per socket,
    // so that lines between them can run beside the column instead of through its boxes.
    std::vector<int> roots;
    std::map<int, std::vector<int>> members;
    for (int i = 0; i < nDev; ++i) {
        const int root = sets.find(i);
        if (!members.count(root))
            roots.push_back(root);
        members[root].push_back(i);
    }
    std::map<QString, std::vector<int>> groupsOfSocket;
    std::map<QString, int> looseOfSocket;
    for (int root : roots) {
        const std::vector<int>& devs = members[root];
        QString key;
        int treeSwitch = -1;
        for (int d : devs) {
            key = key.isEmpty() ? socket[static_cast<size_t>(d)] : key;
            treeSwitch = treeSwitch < 0 ? sw[static_cast<size_t>(d)] : treeSwitch;
        }
        TopologyGroupBox g;
        g.devices = devs;
        if (treeSwitch >= 0) {
            const TopoNode& node = h.tree[static_cast<size_t>(treeSwitch)];
            g.label = QStringLiteral("PCIe switch ") + (node.busId.isEmpty() ? node.label : node.busId);
        } else if (devs.size() > 1) {
            const auto it = inferredBy.find(root);
            g.label =
                QStringLiteral("PCIe switch (inferred from %1)")
                    .arg(it != inferredBy.end() ? pathClassName(it->second) : QStringLiteral("PIX/PXB"));
        }
        g.framed = !g.label.isEmpty();
        if (!g.framed && looseOfSocket.count(key)) {
            std::vector<int>& column = s.groups[static_cast<size_t>(looseOfSocket[key])].devices;
            column.insert(column.end(), devs.begin(), devs.end());
            continue;
        }
        if (!g.framed)
            looseOfSocket[key] = static_cast<int>(s.groups.size());
        groupsOfSocket[key].push_back(static_cast<int>(s.groups.size()));
        s.groups.push_back(g);
    }
    for (TopologyGroupBox& g : s.groups) // GPUs above NICs, each in index order
        std::sort(g.devices.begin(), g.devices.end());

    // NUMA boxes: numbered nodes in order, then sockets known only by CPU list, then the unplaced row.
    for (auto& [key, groups] : groupsOfSocket) {
        TopologyNumaBox b;
        b.groups = groups;
        if (key.isEmpty()) {
            b.unplaced = true;
            b.label = QStringLiteral("unplaced (NUMA node unknown)");
        } else if (key.startsWith(u'a')) {
            const int id = key.mid(1).toInt();
            QString cpus;
            for (const NumaNode& n : h.numaNodes)
                if (n.id == id)
                    cpus = n.cpus;
            for (int d : s.groups[static_cast<size_t>(groups.front())].devices)
                if (cpus.isEmpty() && d < nGpu)
                    cpus = h.gpus[static_cast<size_t>(d)].cpuAffinity;
            b.label = QStringLiteral("NUMA %1").arg(id)
                + (cpus.isEmpty() ? QString() : QStringLiteral(" \u00b7 CPUs ") + cpus);
        } else {
            b.label = QStringLiteral("CPUs %1 (NUMA id not in capture)").arg(key.mid(1));
        }
        s.numas.push_back(b);
    }
    std::stable_partition(
        s.numas.begin(), s.numas.end(), [](const TopologyNumaBox& b) { return !b.unplaced; });

    for (const QString& note : h.notes)
        s.findings << QStringLiteral("note: ") + note;
    return s;
}

} // namespace rankscope
