// SPDX-License-Identifier: MIT
#include "topology_placement.h"

#include "cpuset.h"

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

int findHost(const TopologySet& set, const RankInfo& r)
{
    QStringList names = r.hostAliases;
    names.prepend(r.host);
    for (const QString& n : names)
        for (size_t i = 0; i < set.hosts.size(); ++i)
            if (!n.isEmpty() && set.hosts[i].host == shortHostName(n))
                return static_cast<int>(i);
    return -1;
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
    }
    return {};
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
    std::map<int, QSet<QString>> nicsUsedByHost; // host index -> names in its ranks' NET/IB lists
    std::map<int, QSet<int>> ranksOfHost;
    for (const RankInfo& r : ranks) {
        RankPlacement p;
        p.rank = r.rank;
        p.host = shortHostName(r.host);
        p.localRank = r.localRank;
        p.hostIndex = findHost(set, r);
        if (p.hostIndex < 0) {
            p.note = QStringLiteral("no topology capture for host %1").arg(r.host);
            out.ranks.push_back(p);
            continue;
        }
        const HostTopology& h = set.hosts[static_cast<size_t>(p.hostIndex)];
        p.host = h.host;
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
                         .arg(h.host, r.busId)
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
                    .arg(h.host, gpuLabel(g),
                        g.numa >= 0 ? QStringLiteral(" (NUMA%1)").arg(g.numa) : QString(), np.name,
                        nicNuma >= 0 ? QStringLiteral(" (NUMA%1)").arg(nicNuma) : QString());
            if (!r.gdr)
                detail += QStringLiteral(", without GPUDirect RDMA");
            out.findings.push_back(TopologyFinding { TopologyFinding::SysPath, h.host, r.rank, gpuLabel(g),
                np.name, QStringLiteral("SYS"), detail });
        }
        if (p.affinity == RankPlacement::Affinity::OffGpuNuma)
            out.findings.push_back(
                TopologyFinding { TopologyFinding::AffinityOffNuma, h.host, r.rank, gpuLabel(g), {}, {},
                    QStringLiteral("rank %1 on %2 runs on CPUs %3, outside NUMA%4 of its %5")
                        .arg(r.rank)
                        .arg(h.host, r.cpuAffinity)
                        .arg(g.numa)
                        .arg(gpuLabel(g)) });
        out.ranks.push_back(p);
    }

    // A host whose ranks list fewer RDMA NICs than its capture shows: a port down or a NIC excluded.
    for (const auto& [hostIndex, used] : nicsUsedByHost) {
        const HostTopology& h = set.hosts[static_cast<size_t>(hostIndex)];
        if (used.isEmpty())
            continue;
        QStringList usedSorted(used.begin(), used.end());
        usedSorted.sort();
        for (const TopoNic& n : h.nics) {
            if (!n.rdma || n.name.isEmpty() || used.contains(n.name))
                continue;
            out.findings.push_back(TopologyFinding { TopologyFinding::NicMissing, h.host, -1, {}, n.name, {},
                QStringLiteral("%1: NCCL's NET/IB list names %2 NIC(s) (%3) but the capture shows %4 too; "
                               "its port may be down or NCCL_IB_HCA excludes it")
                    .arg(h.host)
                    .arg(used.size())
                    .arg(usedSorted.join(QStringLiteral(", ")), n.name) });
        }
    }

    for (const HostTopology& h : set.hosts) {
        const std::vector<HcaChoice> choices = closestNicPerLocalRank(h, out.ranks);
        out.hca.insert(out.hca.end(), choices.begin(), choices.end());
        const QString script = hcaCaseScript(choices);
        if (!script.isEmpty() && !out.hcaScripts.contains(script))
            out.hcaScripts << script;
    }
    return out;
}

} // namespace rankscope
