// SPDX-License-Identifier: MIT
#include "topology_placement.h"

#include "cpuset.h"

#include <QFileInfo>
#include <QSet>
#include <algorithm>
#include <map>

namespace rankscope {

namespace {

QString gpuLabel(const TopoGpu& g)
{
    return g.busId.isEmpty() ? QStringLiteral("GPU%1").arg(g.index)
                             : QStringLiteral("GPU%1 %2").arg(g.index).arg(g.busId);
}

// The first capture tied to one of the rank's names.
int findHost(const std::vector<CaptureBinding>& bound, const RankInfo& r)
{
    QStringList names = r.hostAliases;
    names.prepend(r.host);
    for (const QString& n : names)
        for (size_t i = 0; i < bound.size(); ++i)
            if (!n.isEmpty() && bound[i].host == shortHostName(n))
                return static_cast<int>(i);
    return -1;
}

// The hosts of the logs, each with its names (the short host and the aliases) and its ranks' bus ids.
struct LogHost
{
    QString host;
    QSet<QString> names;
    QSet<QString> busIds;
};

std::vector<LogHost> logHostsOf(const std::vector<RankInfo>& ranks)
{
    std::vector<LogHost> out;
    for (const RankInfo& r : ranks) {
        const QString h = shortHostName(r.host);
        if (h.isEmpty())
            continue;
        auto it = std::find_if(out.begin(), out.end(), [&](const LogHost& l) { return l.host == h; });
        if (it == out.end()) {
            out.push_back(LogHost { h, { h }, {} });
            it = std::prev(out.end());
        }
        for (const QString& a : r.hostAliases)
            if (!shortHostName(a).isEmpty())
                it->names.insert(shortHostName(a));
        if (const QString bus = normaliseBusId(r.busId); !bus.isEmpty())
            it->busIds.insert(bus);
    }
    return out;
}

QString sourcesText(const HostTopology& h)
{
    QStringList names;
    for (const QString& s : h.sources)
        names << QFileInfo(s).fileName();
    return names.join(QStringLiteral(", "));
}

QString hostLabel(const HostTopology& h)
{
    return h.host.isEmpty() ? QStringLiteral("(host unknown: %1)").arg(sourcesText(h)) : h.host;
}

// The rank's CPUs against its GPU's NUMA node (NUMA cpus, else nvidia-smi's CPU Affinity column).
RankPlacement::Affinity affinityState(const HostTopology& h, const TopoGpu& g, const QString& rankCpus)
{
    if (rankCpus.trimmed().isEmpty())
        return RankPlacement::Affinity::Unknown;
    QString nodeCpus = g.cpuAffinity;
    for (const NumaNode& n : h.numaNodes)
        if (n.id == g.numa && !n.cpus.isEmpty())
            nodeCpus = n.cpus;
    const CpuSetParse mine = parseCpuSet(rankCpus);
    const CpuSetParse node = parseCpuRangeList(nodeCpus);
    if (!mine.error.isEmpty() || !node.error.isEmpty() || mine.set.isEmpty())
        return RankPlacement::Affinity::Unknown;
    return mine.set.isSubsetOf(node.set) ? RankPlacement::Affinity::OnGpuNuma
                                         : RankPlacement::Affinity::OffGpuNuma;
}

} // namespace

QString findingKindName(TopologyFinding::Kind k)
{
    switch (k) {
    case TopologyFinding::SysPath:
        return QStringLiteral("sys-path");
    case TopologyFinding::AffinityOffNuma:
        return QStringLiteral("affinity-off-numa");
    case TopologyFinding::NicMissing:
        return QStringLiteral("nic-missing");
    case TopologyFinding::NicOffNuma:
        return QStringLiteral("nic-off-numa");
    case TopologyFinding::NoRdmaNic:
        return QStringLiteral("no-rdma-nic");
    case TopologyFinding::NoP2p:
        return QStringLiteral("no-p2p");
    case TopologyFinding::CapturePartial:
        return QStringLiteral("capture-partial");
    case TopologyFinding::UnusedCapture:
        return QStringLiteral("capture-unknown-host");
    }
    return {};
}

QString CpuBinding::text() const
{
    QStringList parts;
    if (numa >= 0)
        parts << QStringLiteral("NUMA%1").arg(numa);
    if (!cpus.isEmpty())
        parts << QStringLiteral("CPUs %1").arg(cpus);
    return QStringLiteral("local rank %1 (GPU%2): %3")
        .arg(localRank)
        .arg(gpuIndex)
        .arg(parts.isEmpty() ? QStringLiteral("NUMA and CPUs unknown") : parts.join(QStringLiteral(", ")));
}

std::vector<CaptureBinding> bindCaptures(const TopologySet& set, const std::vector<RankInfo>& ranks)
{
    const std::vector<LogHost> logs = logHostsOf(ranks);
    std::vector<CaptureBinding> out(set.hosts.size());
    auto byName = [&](const QString& name) -> const LogHost* {
        for (const LogHost& l : logs)
            if (!name.isEmpty() && l.names.contains(name))
                return &l;
        return nullptr;
    };
    auto gpuBusIds = [](const HostTopology& h) {
        QSet<QString> ids;
        for (const TopoGpu& g : h.gpus)
            if (!g.busId.isEmpty())
                ids.insert(g.busId);
        return ids;
    };
    // The ranks' bus ids of a host that the capture does not have: it is not that host's capture.
    auto contradicts = [&](const HostTopology& h, const LogHost& l) {
        const QSet<QString> ids = gpuBusIds(h);
        return !ids.isEmpty() && !l.busIds.isEmpty() && !ids.contains(l.busIds);
    };
    for (size_t i = 0; i < set.hosts.size(); ++i) {
        const HostTopology& h = set.hosts[i];
        CaptureBinding& b = out[i];
        using From = HostTopology::HostFrom;
        // 1. The hostname the capture holds, or the one the caller gave.
        if (h.hostFrom == From::Content || h.hostFrom == From::Given) {
            if (const LogHost* l = byName(h.host)) {
                b.host = l->host;
                b.how = h.hostFrom == From::Content ? QStringLiteral("hostname") : QStringLiteral("--host");
            } else if (h.hostFrom == From::Content) {
                b.why = QStringLiteral("its hostname %1 is not in the logs").arg(h.host);
                continue;
            } else {
                b.why = QStringLiteral("the host %1 it was given is not in the logs").arg(h.host);
            }
            if (!b.host.isEmpty())
                continue;
        }
        // 2. Its GPUs' bus ids hold the bus ids of exactly one host's ranks.
        const QSet<QString> ids = gpuBusIds(h);
        const LogHost* only = nullptr;
        int candidates = 0;
        for (const LogHost& l : logs)
            if (!ids.isEmpty() && !l.busIds.isEmpty() && ids.contains(l.busIds)) {
                only = &l;
                ++candidates;
            }
        if (candidates == 1) {
            b.host = only->host;
            b.how = QStringLiteral("bus ids");
            continue;
        }
        // 3. Its file name.
        if (h.hostFrom == From::FileName) {
            const LogHost* l = byName(h.host);
            if (l && !contradicts(h, *l)) {
                b.host = l->host;
                b.how = QStringLiteral("file name");
                continue;
            }
            b.why = l
                ? QStringLiteral("its file name names host %1, but its GPUs' bus ids are not those of %1's "
                                 "ranks")
                      .arg(h.host)
                : QStringLiteral("its file name names host %1, which is not in the logs").arg(h.host);
        }
    }
    // 4. One host in the logs and one capture go together, unless the capture says otherwise.
    if (logs.size() == 1 && set.hosts.size() == 1 && out[0].host.isEmpty()
        && set.hosts[0].hostFrom != HostTopology::HostFrom::Content && !contradicts(set.hosts[0], logs[0])) {
        out[0].host = logs[0].host;
        out[0].how = QStringLiteral("the only host and the only capture");
        out[0].why.clear();
    }
    for (CaptureBinding& b : out)
        if (b.host.isEmpty() && b.why.isEmpty())
            b.why = logs.empty()
                ? QStringLiteral("the logs name no host")
                : QStringLiteral("neither its content nor its file name ties it to %1")
                      .arg(logs.size() == 1
                              ? logs[0].host
                              : QStringLiteral("any of the %1 hosts of the logs").arg(logs.size()));
    return out;
}

void attributeCaptures(TopologySet& set, const std::vector<RankInfo>& ranks)
{
    const std::vector<CaptureBinding> bound = bindCaptures(set, ranks);
    std::vector<HostTopology> kept;
    std::vector<QString> keptHost;
    for (size_t i = 0; i < set.hosts.size(); ++i) {
        HostTopology& h = set.hosts[i];
        const CaptureBinding& b = bound[i];
        if (!b.host.isEmpty() && h.host != b.host) {
            h.notes
                << QStringLiteral("%1: tied to host %2 of the logs (%3)").arg(sourcesText(h), b.host, b.how);
            h.host = b.host;
        }
        const auto same = std::find(keptHost.begin(), keptHost.end(), b.host);
        if (!b.host.isEmpty() && same != keptHost.end()) {
            mergeHostTopology(kept[static_cast<size_t>(same - keptHost.begin())], h);
            continue;
        }
        kept.push_back(std::move(h));
        keptHost.push_back(b.host);
    }
    set.hosts = std::move(kept);
}

QString HcaChoice::text() const
{
    const QString gpu = gpuBusId.isEmpty() ? QStringLiteral("GPU%1").arg(gpuIndex)
                                           : QStringLiteral("GPU%1 %2").arg(gpuIndex).arg(gpuBusId);
    return QStringLiteral("local rank %1 (%2) \u2192 %3 (%4)")
        .arg(localRank)
        .arg(gpu, nic, pathClassName(path));
}

std::vector<HcaChoice> closestNicPerLocalRank(const HostTopology& h, const std::vector<RankPlacement>& placed)
{
    // Local rank of each GPU: from the placed ranks when known, else the GPU index.
    std::map<int, int> localOfGpu;
    for (const RankPlacement& p : placed)
        if (p.gpu >= 0 && p.localRank >= 0 && p.host == h.host)
            localOfGpu[p.gpu] = p.localRank;
    std::vector<int> order(h.gpus.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = static_cast<int>(i);
    auto local = [&](int g) {
        const auto it = localOfGpu.find(g);
        return it != localOfGpu.end() ? it->second : h.gpus[static_cast<size_t>(g)].index;
    };
    std::sort(order.begin(), order.end(), [&](int a, int b) { return local(a) < local(b); });

    std::vector<HcaChoice> out;
    std::map<int, int> load; // NIC -> GPUs assigned so far
    for (int g : order) {
        int best = -1;
        PathClass bestPath = PathClass::Unknown;
        for (size_t n = 0; n < h.nics.size(); ++n) {
            if (h.nics[n].name.isEmpty() || !h.nics[n].rdma)
                continue; // NCCL_IB_HCA needs a device name
            const GpuNicLink* l = h.nicLink(g, static_cast<int>(n));
            const PathClass pc = l ? l->path : PathClass::Unknown;
            const int ni = static_cast<int>(n);
            if (best < 0 || pathRank(pc) < pathRank(bestPath) || (pc == bestPath && load[ni] < load[best])) {
                best = ni;
                bestPath = pc;
            }
        }
        if (best < 0)
            continue;
        ++load[best];
        const TopoGpu& gpu = h.gpus[static_cast<size_t>(g)];
        out.push_back(HcaChoice {
            h.host, local(g), gpu.index, gpu.busId, h.nics[static_cast<size_t>(best)].name, bestPath });
    }
    return out;
}

QString hcaCaseScript(const std::vector<HcaChoice>& choices)
{
    if (choices.empty())
        return {};
    std::map<QString, QStringList> ranksOfNic;
    QStringList nicOrder;
    for (const HcaChoice& c : choices) {
        if (!ranksOfNic.count(c.nic))
            nicOrder << c.nic;
        ranksOfNic[c.nic] << QString::number(c.localRank);
    }
    QString s = QStringLiteral("case $LOCAL_RANK in");
    for (const QString& nic : nicOrder) {
        // A leading '=' makes NCCL match the name exactly (mlx5_1 would also select mlx5_10).
        bool prefixOfOther = false;
        for (const QString& other : nicOrder)
            prefixOfOther = prefixOfOther || (other != nic && other.startsWith(nic));
        s += QStringLiteral(" %1) export NCCL_IB_HCA=%2%3;;")
                 .arg(ranksOfNic[nic].join(QLatin1Char('|')), prefixOfOther ? QStringLiteral("=") : QString(),
                     nic);
    }
    return s + QStringLiteral(" esac");
}

PlacementResult placeRanks(const std::vector<RankInfo>& ranks, const TopologySet& set)
{
    PlacementResult out;
    out.captures = bindCaptures(set, ranks);
    std::map<int, QSet<QString>> nicsUsedByHost; // host index -> names in its ranks' NET/IB lists
    std::map<int, QSet<int>> ranksOfHost;
    for (const RankInfo& r : ranks) {
        RankPlacement p;
        p.rank = r.rank;
        p.host = shortHostName(r.host);
        p.localRank = r.localRank;
        p.hostIndex = findHost(out.captures, r);
        if (p.hostIndex < 0) {
            p.note = QStringLiteral("no topology capture for host %1").arg(r.host);
            out.ranks.push_back(p);
            continue;
        }
        const HostTopology& h = set.hosts[static_cast<size_t>(p.hostIndex)];
        const QString& hostName = out.captures[static_cast<size_t>(p.hostIndex)].host;
        p.host = hostName;
        ranksOfHost[p.hostIndex].insert(r.rank);
        for (const NicUse& u : r.nics)
            nicsUsedByHost[p.hostIndex].insert(u.name);

        if (!r.busId.isEmpty() && (p.gpu = h.gpuByBusId(r.busId)) >= 0)
            p.matchedBy = QStringLiteral("busId");
        else if (r.nvmlDev >= 0 && (p.gpu = h.gpuByIndex(r.nvmlDev)) >= 0)
            p.matchedBy = QStringLiteral("nvmlDev");
        else if (r.cudaDev >= 0 && (p.gpu = h.gpuByIndex(r.cudaDev)) >= 0) {
            p.matchedBy = QStringLiteral("cudaDev");
            p.note = QStringLiteral("placed by cudaDev; CUDA's order can differ from nvidia-smi's");
        } else {
            p.note = QStringLiteral("no GPU of %1 matches busId \"%2\" / nvmlDev %3 / cudaDev %4")
                         .arg(hostName, r.busId)
                         .arg(r.nvmlDev)
                         .arg(r.cudaDev);
        }

        for (int idx : r.channelNics) {
            if (std::any_of(
                    p.nics.begin(), p.nics.end(), [&](const NicPlacement& n) { return n.ncclIndex == idx; }))
                continue;
            NicPlacement np;
            np.ncclIndex = idx;
            for (const NicUse& u : r.nics)
                if (u.index == idx)
                    np.name = u.name;
            np.topoNic = h.nicByName(np.name);
            if (np.topoNic >= 0 && p.gpu >= 0)
                if (const GpuNicLink* l = h.nicLink(p.gpu, np.topoNic))
                    np.path = l->path;
            p.nics.push_back(np);
        }
        if (p.gpu < 0) {
            out.ranks.push_back(p);
            continue;
        }
        const TopoGpu& g = h.gpus[static_cast<size_t>(p.gpu)];
        p.affinity = affinityState(h, g, r.cpuAffinity);
        for (const NicPlacement& np : p.nics) {
            if (np.path != PathClass::SYS)
                continue;
            const int nicNuma = h.nics[static_cast<size_t>(np.topoNic)].numa;
            QString detail =
                QStringLiteral("rank %1 on %2 %3%4 uses %5%6 across the inter-socket link (SYS)")
                    .arg(r.rank)
                    .arg(hostName, gpuLabel(g),
                        g.numa >= 0 ? QStringLiteral(" (NUMA%1)").arg(g.numa) : QString(), np.name,
                        nicNuma >= 0 ? QStringLiteral(" (NUMA%1)").arg(nicNuma) : QString());
            if (!r.gdr)
                detail += QStringLiteral(", without GPUDirect RDMA");
            out.findings.push_back(TopologyFinding { TopologyFinding::SysPath, hostName, r.rank, gpuLabel(g),
                np.name, QStringLiteral("SYS"), detail });
        }
        if (p.affinity == RankPlacement::Affinity::OffGpuNuma)
            out.findings.push_back(
                TopologyFinding { TopologyFinding::AffinityOffNuma, hostName, r.rank, gpuLabel(g), {}, {},
                    QStringLiteral("rank %1 on %2 runs on CPUs %3, outside NUMA%4 of its %5")
                        .arg(r.rank)
                        .arg(hostName, r.cpuAffinity)
                        .arg(g.numa)
                        .arg(gpuLabel(g)) });
        out.ranks.push_back(p);
    }

    // A host whose ranks list fewer RDMA NICs than its capture shows: a port down or a NIC excluded.
    for (const auto& [hostIndex, used] : nicsUsedByHost) {
        const HostTopology& h = set.hosts[static_cast<size_t>(hostIndex)];
        const QString& hostName = out.captures[static_cast<size_t>(hostIndex)].host;
        if (used.isEmpty())
            continue;
        QStringList usedSorted(used.begin(), used.end());
        usedSorted.sort();
        for (const TopoNic& n : h.nics) {
            if (!n.rdma || n.name.isEmpty() || used.contains(n.name))
                continue;
            out.findings.push_back(TopologyFinding { TopologyFinding::NicMissing, hostName, -1, {}, n.name,
                {},
                QStringLiteral("%1: NCCL's NET/IB list names %2 NIC(s) (%3) but the capture shows %4 too; "
                               "its port may be down or NCCL_IB_HCA excludes it")
                    .arg(hostName)
                    .arg(used.size())
                    .arg(usedSorted.join(QStringLiteral(", ")), n.name) });
        }
    }

    // The fix: for each host of the logs its capture covers (the first one tied to it), each local rank's
    // closest NIC. A capture of no host in the logs drives nothing; it is listed.
    QSet<QString> fixed;
    for (size_t i = 0; i < set.hosts.size(); ++i) {
        const CaptureBinding& b = out.captures[i];
        if (b.host.isEmpty()) {
            out.findings.push_back(
                TopologyFinding { TopologyFinding::UnusedCapture, set.hosts[i].host, -1, {}, {}, {},
                    QStringLiteral("capture of an unknown host, not used: %1 (%2)")
                        .arg(sourcesText(set.hosts[i]), b.why) });
            continue;
        }
        if (fixed.contains(b.host) || !ranksOfHost.count(static_cast<int>(i)))
            continue;
        fixed.insert(b.host);
        HostTopology named = set.hosts[i];
        named.host = b.host;
        const std::vector<HcaChoice> choices = closestNicPerLocalRank(named, out.ranks);
        out.hca.insert(out.hca.end(), choices.begin(), choices.end());
    }
    out.hcaScripts = hcaScriptsByHost(out.hca);
    return out;
}

QStringList hcaScriptsByHost(const std::vector<HcaChoice>& choices)
{
    QStringList hostOrder;
    std::map<QString, std::vector<HcaChoice>> byHost;
    for (const HcaChoice& c : choices) {
        if (!byHost.count(c.host))
            hostOrder << c.host;
        byHost[c.host].push_back(c);
    }
    // Hosts whose mapping is the same share a line.
    QStringList scriptOrder;
    std::map<QString, QStringList> hostsOfScript;
    for (const QString& h : hostOrder) {
        const QString script = hcaCaseScript(byHost[h]);
        if (script.isEmpty())
            continue;
        if (!hostsOfScript.count(script))
            scriptOrder << script;
        hostsOfScript[script] << h;
    }
    QStringList out;
    for (const QString& script : scriptOrder) {
        QStringList hosts = hostsOfScript[script];
        hosts.removeAll(QString());
        if (hosts.isEmpty())
            out << script; // captures without logs, of no known host
        else
            out << QStringLiteral("case $(hostname -s) in %1) %2;; esac")
                       .arg(hosts.join(QLatin1Char('|')), script);
    }
    return out;
}

namespace {

int nicNuma(const HostTopology& h, int nic)
{
    const TopoNic& n = h.nics[static_cast<size_t>(nic)];
    if (n.numa >= 0)
        return n.numa;
    if (n.node >= 0 && n.node < static_cast<int>(h.tree.size()))
        return h.tree[static_cast<size_t>(n.node)].numa;
    return -1;
}

QString cpuMask(const QString& cpus)
{
    const CpuSetParse p = parseCpuRangeList(cpus);
    if (!p.error.isEmpty() || p.set.isEmpty())
        return {};
    const std::vector<int> list = p.set.cpus();
    QString hex;
    const int top = list.back();
    for (int nibble = top / 4; nibble >= 0; --nibble) {
        int v = 0;
        for (int b = 0; b < 4; ++b)
            v |= p.set.contains(nibble * 4 + b) ? 1 << b : 0;
        hex += QChar::fromLatin1("0123456789abcdef"[v]);
    }
    return QStringLiteral("0x") + hex;
}

void capturesOnlyHost(const HostTopology& h, PlacementResult& out)
{
    const QString host = hostLabel(h);
    auto finding = [&](TopologyFinding::Kind kind, const QString& gpu, const QString& nic, const QString& pc,
                       const QString& detail) {
        out.findings.push_back(TopologyFinding { kind, h.host, -1, gpu, nic, pc, detail });
    };
    // NCCL_IB_HCA: each GPU to its closest RDMA NIC.
    const std::vector<HcaChoice> choices = closestNicPerLocalRank(h, {});
    out.hca.insert(out.hca.end(), choices.begin(), choices.end());
    for (const HcaChoice& c : choices) {
        const int g = h.gpuByIndex(c.gpuIndex), n = h.nicByName(c.nic);
        if (g < 0 || n < 0)
            continue;
        const int gn = h.gpus[static_cast<size_t>(g)].numa, nn = nicNuma(h, n);
        if (c.path == PathClass::SYS || (gn >= 0 && nn >= 0 && gn != nn))
            finding(TopologyFinding::NicOffNuma, gpuLabel(h.gpus[static_cast<size_t>(g)]), c.nic,
                pathClassName(c.path),
                QStringLiteral(
                    "%1: GPU%2 and its nearest RDMA NIC %3 are on different NUMA nodes (%4%5): its "
                    "network traffic crosses the inter-socket link")
                    .arg(host)
                    .arg(c.gpuIndex)
                    .arg(c.nic,
                        gn >= 0 && nn >= 0 ? QStringLiteral("GPU NUMA%1, NIC NUMA%2, ").arg(gn).arg(nn)
                                           : QString(),
                        pathClassName(c.path)));
    }
    QStringList socketNics;
    bool anyRdma = false;
    for (const TopoNic& n : h.nics) {
        anyRdma = anyRdma || n.rdma;
        if (!n.rdma)
            socketNics << n.displayName();
    }
    if (!h.nics.empty() && !anyRdma)
        finding(TopologyFinding::NoRdmaNic, {}, socketNics.join(QStringLiteral(", ")), {},
            QStringLiteral(
                "%1: no RDMA NIC in the capture (%2: socket NIC(s)): NCCL uses its socket transport "
                "between nodes, and NCCL_IB_HCA does not apply")
                .arg(host, socketNics.join(QStringLiteral(", "))));
    // P2P status (nvidia-smi topo -p2p): pairs that cannot reach each other directly.
    QStringList noP2p;
    for (const GpuLink& l : h.gpuLinks)
        if (!l.p2p.isEmpty() && l.p2p != u"OK")
            noP2p << QStringLiteral("GPU%1-GPU%2 (%3)")
                         .arg(h.gpus[static_cast<size_t>(l.a)].index)
                         .arg(h.gpus[static_cast<size_t>(l.b)].index)
                         .arg(l.p2p);
    if (!noP2p.isEmpty())
        finding(TopologyFinding::NoP2p, {}, {}, {},
            QStringLiteral("%1: no GPU peer-to-peer access between %2: NCCL passes their data through host "
                           "memory (SHM), or fails where NCCL_P2P_LEVEL forces P2P")
                .arg(host, noP2p.join(QStringLiteral(", "))));
    if (!h.missing.isEmpty())
        finding(TopologyFinding::CapturePartial, {}, {}, {},
            QStringLiteral("%1: the capture is incomplete: %2")
                .arg(host, h.missing.join(QStringLiteral("; "))));

    // CPU binding: each local rank on its GPU's NUMA node, else on its GPU's CPU affinity.
    std::vector<CpuBinding> cpu;
    std::vector<int> order(h.gpus.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = static_cast<int>(i);
    std::sort(order.begin(), order.end(), [&](int a, int b) {
        return h.gpus[static_cast<size_t>(a)].index < h.gpus[static_cast<size_t>(b)].index;
    });
    bool allNuma = !order.empty(), allCpus = !order.empty();
    for (int g : order) {
        const TopoGpu& gpu = h.gpus[static_cast<size_t>(g)];
        CpuBinding b { h.host, gpu.index, gpu.index, gpu.numa, gpu.cpuAffinity };
        for (const NumaNode& n : h.numaNodes)
            if (n.id == gpu.numa && !n.cpus.isEmpty())
                b.cpus = n.cpus;
        allNuma = allNuma && b.numa >= 0;
        allCpus = allCpus && !cpuMask(b.cpus).isEmpty();
        cpu.push_back(b);
    }
    out.cpu.insert(out.cpu.end(), cpu.begin(), cpu.end());
    if (cpu.empty() || (!allNuma && !allCpus))
        return;
    QStringList values, caseArms;
    std::map<QString, QStringList> ranksOfValue;
    QStringList valueOrder;
    for (const CpuBinding& b : cpu) {
        const QString v = allNuma ? QString::number(b.numa) : b.cpus;
        values << (allNuma ? v : cpuMask(b.cpus));
        if (!ranksOfValue.count(v))
            valueOrder << v;
        ranksOfValue[v] << QString::number(b.localRank);
    }
    for (const QString& v : valueOrder)
        caseArms << QStringLiteral("%1) %2=%3;;")
                        .arg(ranksOfValue[v].join(QLatin1Char('|')),
                            allNuma ? QStringLiteral("NUMA") : QStringLiteral("CPUS"), v);
    out.cpuScripts << QStringLiteral("# %1").arg(host);
    out.cpuScripts << QStringLiteral("srun --cpu-bind=%1:%2 <command>")
                          .arg(allNuma ? QStringLiteral("map_ldom") : QStringLiteral("mask_cpu"),
                              values.join(QLatin1Char(',')));
    out.cpuScripts << QStringLiteral("case $LOCAL_RANK in %1 esac; numactl %2 <command>")
                          .arg(caseArms.join(QLatin1Char(' ')),
                              allNuma ? QStringLiteral("--cpunodebind=$NUMA --membind=$NUMA")
                                      : QStringLiteral("--physcpubind=$CPUS"));
}

} // namespace

PlacementResult placeCapturesOnly(const TopologySet& set)
{
    PlacementResult out;
    for (const HostTopology& h : set.hosts)
        capturesOnlyHost(h, out);
    out.hcaScripts = hcaScriptsByHost(out.hca);
    return out;
}

} // namespace rankscope
