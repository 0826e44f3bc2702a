// SPDX-License-Identifier: MIT
#include "topology_report.h"

#include <QJsonArray>
#include <algorithm>

namespace rankscope {

namespace {

QString cellText(PathClass pc, int count, bool derived)
{
    const QString s = pathClassName(pc, count);
    return s.isEmpty() ? QStringLiteral("?") : derived ? s + QLatin1Char('*') : s;
}

QString pad(const QString& s, int width)
{
    return s.leftJustified(width, QLatin1Char(' '));
}

QStringList sysPairs(const HostTopology& h)
{
    QStringList out;
    for (const GpuNicLink& l : h.nicLinks)
        if (l.path == PathClass::SYS)
            out << QStringLiteral("GPU%1-%2")
                       .arg(h.gpus[static_cast<size_t>(l.gpu)].index)
                       .arg(h.nics[static_cast<size_t>(l.nic)].displayName());
    for (const GpuLink& l : h.gpuLinks)
        if (l.path == PathClass::SYS)
            out << QStringLiteral("GPU%1-GPU%2")
                       .arg(h.gpus[static_cast<size_t>(l.a)].index)
                       .arg(h.gpus[static_cast<size_t>(l.b)].index);
    return out;
}

QString matrixText(const HostTopology& h)
{
    // Rows and columns in GPU index order, whatever order the capture listed them in.
    std::vector<int> order(h.gpus.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = static_cast<int>(i);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return h.gpus[static_cast<size_t>(a)].index < h.gpus[static_cast<size_t>(b)].index;
    });
    QStringList names;
    for (int g : order)
        names << QStringLiteral("GPU%1").arg(h.gpus[static_cast<size_t>(g)].index);
    for (const TopoNic& n : h.nics)
        names << n.displayName();
    const auto gpus = static_cast<int>(h.gpus.size());
    std::vector<QStringList> cells(static_cast<size_t>(gpus));
    int width = 6;
    for (const QString& n : names)
        width = std::max(width, static_cast<int>(n.size()) + 2);
    for (int row = 0; row < gpus; ++row) {
        const int r = order[static_cast<size_t>(row)];
        for (int c = 0; c < static_cast<int>(names.size()); ++c) {
            QString cell;
            if (c == row)
                cell = QStringLiteral("X");
            else if (c < gpus) {
                const GpuLink* l = h.gpuLink(r, order[static_cast<size_t>(c)]);
                cell = l ? cellText(l->path, l->linkCount, l->derived) : QStringLiteral("?");
                if (l && !l->p2p.isEmpty())
                    cell += QLatin1Char('/') + l->p2p;
            } else {
                const GpuNicLink* l = h.nicLink(r, c - gpus);
                cell = l ? cellText(l->path, 0, l->derived) : QStringLiteral("?");
            }
            width = std::max(width, static_cast<int>(cell.size()) + 2);
            cells[static_cast<size_t>(row)] << cell;
        }
    }
    QString out = pad(QString(), width);
    for (const QString& n : names)
        out += pad(n, width);
    out += QLatin1Char('\n');
    for (int row = 0; row < gpus; ++row) {
        const int r = order[static_cast<size_t>(row)];
        out += pad(names.at(row), width);
        for (const QString& cell : cells[static_cast<size_t>(row)])
            out += pad(cell, width);
        const TopoGpu& g = h.gpus[static_cast<size_t>(r)];
        out += QStringLiteral("%1 NUMA%2")
                   .arg(g.busId.isEmpty() ? QStringLiteral("-") : g.busId)
                   .arg(g.numa >= 0 ? QString::number(g.numa) : QStringLiteral("?"));
        out += QLatin1Char('\n');
    }
    return out;
}

QString affinityName(RankPlacement::Affinity a)
{
    switch (a) {
    case RankPlacement::Affinity::Unknown:
        return QStringLiteral("unknown");
    case RankPlacement::Affinity::OnGpuNuma:
        return QStringLiteral("on GPU NUMA");
    case RankPlacement::Affinity::OffGpuNuma:
        return QStringLiteral("off GPU NUMA");
    }
    return {};
}

} // namespace

QString topologyText(const TopologySet& set)
{
    QString out;
    for (const HostTopology& h : set.hosts) {
        out += QStringLiteral("Host %1\n").arg(h.host.isEmpty() ? QStringLiteral("(unknown)") : h.host);
        for (qsizetype i = 0; i < h.sources.size(); ++i)
            out += QStringLiteral("  source: %1 [%2]\n").arg(h.sources.at(i), h.formats.value(i));
        for (const NumaNode& n : h.numaNodes)
            out += QStringLiteral("  NUMA%1: CPUs %2\n")
                       .arg(n.id)
                       .arg(n.cpus.isEmpty() ? QStringLiteral("?") : n.cpus);
        const QString matrix = matrixText(h);
        out += QLatin1Char('\n') + matrix;
        if (matrix.contains(QLatin1Char('*'))) // the legend only when a cell uses it
            out += QStringLiteral("  (* = derived from the PCI tree)\n");
        const QStringList sys = sysPairs(h);
        out += QStringLiteral("  SYS pairs: %1\n")
                   .arg(sys.isEmpty() ? QStringLiteral("none") : sys.join(QStringLiteral(", ")));
        for (const QString& m : h.missing)
            out += QStringLiteral("  missing: %1\n").arg(m);
        for (const QString& n : h.notes)
            out += QStringLiteral("  note: %1\n").arg(n);
        out += QLatin1Char('\n');
    }
    return out; // set.errors are the caller's to print (stderr in the CLI)
}

QString placementText(const TopologySet& set, const PlacementResult& p)
{
    QString out = QStringLiteral("Rank placement\n");
    for (const RankPlacement& r : p.ranks) {
        out += QStringLiteral("  rank %1 %2 local %3: ").arg(r.rank).arg(r.host).arg(r.localRank);
        if (r.gpu < 0) {
            out += r.note + QLatin1Char('\n');
            continue;
        }
        const HostTopology& h = set.hosts[static_cast<size_t>(r.hostIndex)];
        const TopoGpu& g = h.gpus[static_cast<size_t>(r.gpu)];
        out += QStringLiteral("GPU%1 %2 (by %3)").arg(g.index).arg(g.busId, r.matchedBy);
        for (const NicPlacement& n : r.nics)
            out += QStringLiteral(", NET/%1 %2 %3")
                       .arg(n.ncclIndex)
                       .arg(n.name.isEmpty() ? QStringLiteral("?") : n.name, pathClassName(n.path));
        out += QStringLiteral(", affinity %1\n").arg(affinityName(r.affinity));
    }
    out += QStringLiteral("\nFindings\n");
    if (p.findings.empty())
        out += QStringLiteral("  none\n");
    for (const TopologyFinding& f : p.findings)
        out += QStringLiteral("  [%1] %2\n").arg(findingKindName(f.kind), f.detail);
    out += QStringLiteral("\nClosest NIC per local rank (NCCL_IB_HCA)\n");
    for (const HcaChoice& c : p.hca)
        out += QStringLiteral("  %1: %2\n").arg(c.host, c.text());
    for (const QString& s : p.hcaScripts)
        out += QStringLiteral("  %1\n").arg(s);
    return out;
}

QString capturesOnlyText(const TopologySet& set, const PlacementResult& p)
{
    QString out;
    if (set.hosts.empty())
        return out; // nothing was read: the errors say why
    if (!p.hca.empty() || !p.hcaScripts.isEmpty()) {
        out += QStringLiteral("Closest RDMA NIC per local rank (NCCL_IB_HCA; local rank n = GPUn)\n");
        for (const HcaChoice& c : p.hca)
            out += QStringLiteral("  %1: %2\n")
                       .arg(c.host.isEmpty() ? QStringLiteral("(host unknown)") : c.host, c.text());
        for (const QString& s : p.hcaScripts)
            out += QStringLiteral("  %1\n").arg(s);
        out += QLatin1Char('\n');
    }
    const bool anyCpu = std::any_of(
        p.cpu.begin(), p.cpu.end(), [](const CpuBinding& b) { return b.numa >= 0 || !b.cpus.isEmpty(); });
    if (anyCpu) {
        out += QStringLiteral("CPU binding per local rank (each rank on its GPU's NUMA node)\n");
        for (const CpuBinding& b : p.cpu)
            out += QStringLiteral("  %1: %2\n")
                       .arg(b.host.isEmpty() ? QStringLiteral("(host unknown)") : b.host, b.text());
        for (const QString& s : p.cpuScripts)
            out += QStringLiteral("  %1\n").arg(s);
        out += QLatin1Char('\n');
    }
    out += QStringLiteral("Findings\n");
    if (p.findings.empty())
        out += QStringLiteral("  none\n");
    for (const TopologyFinding& f : p.findings)
        out += QStringLiteral("  [%1] %2\n").arg(findingKindName(f.kind), f.detail);
    return out;
}

QJsonObject topologyToJson(const TopologySet& set, const PlacementResult* placement)
{
    QJsonArray hosts;
    for (const HostTopology& h : set.hosts) {
        QJsonArray numa, gpus, nics, gpuLinks, nicLinks;
        for (const NumaNode& n : h.numaNodes)
            numa.append(QJsonObject { { QStringLiteral("id"), n.id }, { QStringLiteral("cpus"), n.cpus } });
        for (const TopoGpu& g : h.gpus)
            gpus.append(QJsonObject { { QStringLiteral("index"), g.index },
                { QStringLiteral("busId"), g.busId }, { QStringLiteral("name"), g.name },
                { QStringLiteral("numa"), g.numa }, { QStringLiteral("cpuAffinity"), g.cpuAffinity },
                { QStringLiteral("ncclRank"), g.ncclRank } });
        for (const TopoNic& n : h.nics)
            nics.append(QJsonObject { { QStringLiteral("name"), n.displayName() },
                { QStringLiteral("busId"), n.busId }, { QStringLiteral("port"), n.port },
                { QStringLiteral("ncclDev"), n.ncclDev }, { QStringLiteral("numa"), n.numa },
                { QStringLiteral("rdma"), n.rdma } });
        for (const GpuLink& l : h.gpuLinks) {
            QJsonObject o { { QStringLiteral("a"), h.gpus[static_cast<size_t>(l.a)].index },
                { QStringLiteral("b"), h.gpus[static_cast<size_t>(l.b)].index },
                { QStringLiteral("class"), pathClassName(l.path, l.linkCount) },
                { QStringLiteral("derived"), l.derived } };
            if (!l.p2p.isEmpty())
                o.insert(QStringLiteral("p2p"), l.p2p);
            if (l.weight >= 0)
                o.insert(QStringLiteral("weight"), l.weight);
            if (l.hops >= 0)
                o.insert(QStringLiteral("hops"), l.hops);
            gpuLinks.append(o);
        }
        for (const GpuNicLink& l : h.nicLinks)
            nicLinks.append(QJsonObject { { QStringLiteral("gpu"), h.gpus[static_cast<size_t>(l.gpu)].index },
                { QStringLiteral("nic"), h.nics[static_cast<size_t>(l.nic)].displayName() },
                { QStringLiteral("class"), pathClassName(l.path) },
                { QStringLiteral("derived"), l.derived } });
        hosts.append(QJsonObject { { QStringLiteral("host"), h.host },
            { QStringLiteral("sources"), QJsonArray::fromStringList(h.sources) },
            { QStringLiteral("formats"), QJsonArray::fromStringList(h.formats) },
            { QStringLiteral("numaNodes"), numa }, { QStringLiteral("gpus"), gpus },
            { QStringLiteral("nics"), nics }, { QStringLiteral("gpuLinks"), gpuLinks },
            { QStringLiteral("nicLinks"), nicLinks },
            { QStringLiteral("sysPairs"), QJsonArray::fromStringList(sysPairs(h)) },
            { QStringLiteral("missing"), QJsonArray::fromStringList(h.missing) },
            { QStringLiteral("notes"), QJsonArray::fromStringList(h.notes) } });
    }
    QJsonObject out { { QStringLiteral("hosts"), hosts },
        { QStringLiteral("errors"), QJsonArray::fromStringList(set.errors) } };
    if (!placement)
        return out;
    QJsonArray ranks, findings, hca;
    for (const RankPlacement& r : placement->ranks) {
        QJsonObject o { { QStringLiteral("rank"), r.rank }, { QStringLiteral("host"), r.host },
            { QStringLiteral("localRank"), r.localRank }, { QStringLiteral("matchedBy"), r.matchedBy },
            { QStringLiteral("affinity"), affinityName(r.affinity) }, { QStringLiteral("note"), r.note } };
        if (r.gpu >= 0) {
            const TopoGpu& g = set.hosts[static_cast<size_t>(r.hostIndex)].gpus[static_cast<size_t>(r.gpu)];
            o.insert(QStringLiteral("gpu"), g.index);
            o.insert(QStringLiteral("busId"), g.busId);
        }
        QJsonArray nicArr;
        for (const NicPlacement& n : r.nics)
            nicArr.append(QJsonObject { { QStringLiteral("ncclIndex"), n.ncclIndex },
                { QStringLiteral("name"), n.name }, { QStringLiteral("class"), pathClassName(n.path) } });
        o.insert(QStringLiteral("nics"), nicArr);
        ranks.append(o);
    }
    for (const TopologyFinding& f : placement->findings)
        findings.append(QJsonObject { { QStringLiteral("kind"), findingKindName(f.kind) },
            { QStringLiteral("host"), f.host }, { QStringLiteral("rank"), f.rank },
            { QStringLiteral("gpu"), f.gpu }, { QStringLiteral("nic"), f.nic },
            { QStringLiteral("pathClass"), f.pathClass }, { QStringLiteral("detail"), f.detail } });
    for (const HcaChoice& c : placement->hca)
        hca.append(QJsonObject { { QStringLiteral("host"), c.host },
            { QStringLiteral("localRank"), c.localRank }, { QStringLiteral("gpu"), c.gpuIndex },
            { QStringLiteral("busId"), c.gpuBusId }, { QStringLiteral("nic"), c.nic },
            { QStringLiteral("class"), pathClassName(c.path) }, { QStringLiteral("text"), c.text() } });
    out.insert(QStringLiteral("placement"), ranks);
    out.insert(QStringLiteral("findings"), findings);
    out.insert(QStringLiteral("ncclIbHca"), hca);
    out.insert(QStringLiteral("ncclIbHcaScripts"), QJsonArray::fromStringList(placement->hcaScripts));
    if (!placement->captures.empty()) {
        QJsonArray captures;
        for (size_t i = 0; i < placement->captures.size() && i < set.hosts.size(); ++i) {
            const CaptureBinding& b = placement->captures[i];
            captures.append(
                QJsonObject { { QStringLiteral("sources"), QJsonArray::fromStringList(set.hosts[i].sources) },
                    { QStringLiteral("host"), b.host }, { QStringLiteral("how"), b.how },
                    { QStringLiteral("why"), b.why } });
        }
        out.insert(QStringLiteral("captureHosts"), captures);
    }
    if (!placement->cpu.empty()) {
        QJsonArray cpu;
        for (const CpuBinding& b : placement->cpu)
            cpu.append(QJsonObject { { QStringLiteral("host"), b.host },
                { QStringLiteral("localRank"), b.localRank }, { QStringLiteral("gpu"), b.gpuIndex },
                { QStringLiteral("numa"), b.numa }, { QStringLiteral("cpus"), b.cpus } });
        out.insert(QStringLiteral("cpuBinding"), cpu);
        out.insert(QStringLiteral("cpuBindingScripts"), QJsonArray::fromStringList(placement->cpuScripts));
    }
    return out;
}

} // namespace rankscope
