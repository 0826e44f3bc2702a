// SPDX-License-Identifier: MIT
#include "topology_loader.h"

#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QStringConverter>
#include <QStringDecoder>
#include <algorithm>
#include <optional>

namespace rankscope {

namespace {

constexpr qint64 kMaxCaptureBytes = 64LL * 1024 * 1024;

// Text in any Unicode encoding that starts with a BOM (UTF-16LE is what a PowerShell `>` redirect
// writes), as UTF-8 without the BOM; anything else as it is. An XML declaration that names the old
// encoding is rewritten, so that the XML readers take the UTF-8 they are given.
QByteArray asUtf8(const QByteArray& content)
{
    const std::optional<QStringConverter::Encoding> bom = QStringConverter::encodingForData(content);
    if (!bom)
        return content;
    if (*bom == QStringConverter::Utf8)
        return content.mid(3);
    QStringDecoder decode(*bom, QStringDecoder::Flag::Stateless);
    QString text = decode(content);
    if (text.startsWith(QChar(0xfeff)))
        text.remove(0, 1);
    static const QRegularExpression declared(
        QStringLiteral("^(\\s*<\\?xml[^>]*encoding\\s*=\\s*[\"'])[^\"']*([\"'])"));
    text.replace(declared, QStringLiteral("\\1UTF-8\\2"));
    return text.toUtf8();
}

// Comparable identity of a capture's GPUs: bus ids and product names, where the capture gives them.
bool gpusAgree(const HostTopology& a, const HostTopology& b)
{
    if (a.gpus.empty() || a.gpus.size() != b.gpus.size())
        return false;
    for (const TopoGpu& g : a.gpus) {
        const int o =
            !g.busId.isEmpty() && b.gpuByBusId(g.busId) >= 0 ? b.gpuByBusId(g.busId) : b.gpuByIndex(g.index);
        if (o < 0)
            return false;
        const TopoGpu& h = b.gpus[static_cast<size_t>(o)];
        if (!g.busId.isEmpty() && !h.busId.isEmpty() && g.busId != h.busId)
            return false;
        if (g.index >= 0 && h.index >= 0 && g.index != h.index)
            return false;
        const bool productA = g.name != QStringLiteral("GPU%1").arg(g.index);
        const bool productB = h.name != QStringLiteral("GPU%1").arg(h.index);
        if (productA && productB && g.name != h.name)
            return false;
    }
    return true;
}

bool onlyP2p(const HostTopology& t)
{
    bool any = false;
    for (const GpuLink& l : t.gpuLinks) {
        if (l.path != PathClass::Unknown)
            return false;
        any = any || !l.p2p.isEmpty();
    }
    return any;
}

bool allBusIds(const HostTopology& t)
{
    return !t.gpus.empty()
        && std::all_of(t.gpus.begin(), t.gpus.end(), [](const TopoGpu& g) { return !g.busId.isEmpty(); });
}

// Two captures without a host name are of one machine when their content says so: the same GPUs (bus
// ids, indexes, product names) and parts that complete each other, a `-p2p` status matrix and a `-m`
// class matrix, or two different formats that both list every GPU's bus id. Two captures of one kind
// without bus ids could be two identical machines, and stay apart.
bool sameMachineByContent(const HostTopology& a, const HostTopology& b)
{
    if (!gpusAgree(a, b) || !gpusAgree(b, a))
        return false;
    if (onlyP2p(a) != onlyP2p(b))
        return true;
    return allBusIds(a) && allBusIds(b) && a.formats != b.formats;
}

} // namespace

QByteArray captureTextAsUtf8(const QByteArray& content)
{
    return asUtf8(content);
}

QString topologyFormatName(TopologyFormat f)
{
    switch (f) {
    case TopologyFormat::Unknown:
        return QStringLiteral("unknown");
    case TopologyFormat::NvidiaSmiMatrix:
        return QStringLiteral("nvidia-smi topo -m");
    case TopologyFormat::NvidiaSmiP2p:
        return QStringLiteral("nvidia-smi topo -p2p");
    case TopologyFormat::RocmSmi:
        return QStringLiteral("rocm-smi --showtopo");
    case TopologyFormat::NcclXml:
        return QStringLiteral("NCCL topology XML");
    case TopologyFormat::HwlocXml:
        return QStringLiteral("hwloc XML");
    }
    return {};
}

TopologyFormat detectTopologyFormat(const QByteArray& content)
{
    const QByteArray head = asUtf8(content.left(65536));
    const QByteArray trimmed = head.trimmed();
    if (trimmed.startsWith('<')) {
        static const QRegularExpression root(QStringLiteral("<(topology|system)[\\s>]"));
        const QRegularExpressionMatch m = root.match(QString::fromUtf8(head));
        if (m.hasMatch())
            return m.captured(1) == u"topology" ? TopologyFormat::HwlocXml : TopologyFormat::NcclXml;
        return TopologyFormat::Unknown;
    }
    if (head.contains("ROCm System Management Interface") || head.contains("between two GPUs")
        || head.contains("(Topology) Numa"))
        return TopologyFormat::RocmSmi;
    static const QRegularExpression header(
        QStringLiteral("^(?:\\s|\\x1b\\[[0-9;]*m)*GPU0(?:\\s|\\x1b)"), QRegularExpression::MultilineOption);
    if (header.match(QString::fromUtf8(head)).hasMatch())
        return TopologyFormat::NvidiaSmiMatrix;
    return TopologyFormat::Unknown;
}

TopologyParse parseTopologyCapture(const QByteArray& raw, const QString& sourceName, const QString& host)
{
    TopologyParse out;
    const QByteArray content = asUtf8(raw);
    switch (detectTopologyFormat(content)) {
    case TopologyFormat::NvidiaSmiMatrix:
    case TopologyFormat::NvidiaSmiP2p:
        out = parseNvidiaSmiTopo(content, sourceName);
        break;
    case TopologyFormat::RocmSmi:
        out = parseRocmSmiTopo(content, sourceName);
        break;
    case TopologyFormat::NcclXml:
        out = parseNcclTopoXml(content, sourceName);
        break;
    case TopologyFormat::HwlocXml:
        out = parseHwlocXml(content, sourceName);
        break;
    case TopologyFormat::Unknown:
        out.error = QStringLiteral("%1: not a recognised topology capture (tried nvidia-smi topo -m, "
                                   "nvidia-smi topo -p2p, rocm-smi --showtopo, NCCL topology XML, hwloc XML)")
                        .arg(sourceName);
        return out;
    }
    if (!host.isEmpty()) {
        out.topo.host = shortHostName(host);
        out.topo.hostFrom = HostTopology::HostFrom::Given;
    } else if (out.topo.host.isEmpty()) {
        out.topo.host = hostFromFileName(sourceName);
        out.topo.hostFrom =
            out.topo.host.isEmpty() ? HostTopology::HostFrom::None : HostTopology::HostFrom::FileName;
    }
    if (!raw.isEmpty() && content.size() != raw.size() && QStringConverter::encodingForData(raw))
        out.topo.notes << QStringLiteral("%1: read as %2 (its byte order mark)")
                              .arg(sourceName,
                                  QString::fromLatin1(QStringConverter::nameForEncoding(
                                      *QStringConverter::encodingForData(raw))));
    out.topo.formats.clear();
    out.topo.formats << topologyFormatName(out.format);
    return out;
}

TopologyParse loadTopologyFile(const QString& path, const QString& host)
{
    TopologyParse out;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        out.error = QStringLiteral("%1: cannot open: %2").arg(path, f.errorString());
        return out;
    }
    if (f.size() > kMaxCaptureBytes) {
        out.error =
            QStringLiteral("%1: %2 bytes is too large for a topology capture").arg(path).arg(f.size());
        return out;
    }
    return parseTopologyCapture(f.readAll(), path, host);
}

const HostTopology* TopologySet::host(const QString& name) const
{
    const QString want = shortHostName(name);
    for (const HostTopology& h : hosts)
        if (h.host == want)
            return &h;
    return nullptr;
}

TopologySet loadTopologyFiles(const QStringList& paths, const QString& host)
{
    TopologySet set;
    for (const QString& path : paths) {
        TopologyParse p = loadTopologyFile(path, host);
        if (!p.error.isEmpty()) {
            set.errors << p.error;
            continue;
        }
        HostTopology* same = nullptr;
        for (HostTopology& h : set.hosts)
            if (!p.topo.host.isEmpty() && h.host == p.topo.host)
                same = &h;
        if (same)
            mergeHostTopology(*same, p.topo);
        else
            set.hosts.push_back(std::move(p.topo));
    }
    // A capture without a host name joins the one other capture whose content shows the same machine
    // (the `-m` and `-p2p` of one box, pasted as two files); with two candidates it stays on its own.
    for (size_t i = 0; i < set.hosts.size();) {
        if (!set.hosts[i].host.isEmpty()) {
            ++i;
            continue;
        }
        int match = -1, matches = 0;
        for (size_t j = 0; j < set.hosts.size(); ++j)
            if (j != i && sameMachineByContent(set.hosts[i], set.hosts[j])) {
                match = static_cast<int>(j);
                ++matches;
            }
        if (matches != 1) {
            ++i;
            continue;
        }
        HostTopology& into = set.hosts[static_cast<size_t>(match)];
        const HostTopology from = std::move(set.hosts[i]);
        into.notes << QStringLiteral("%1 and %2 show the same GPUs: merged as one machine")
                          .arg(into.sources.join(QStringLiteral(", ")),
                              from.sources.join(QStringLiteral(", ")));
        mergeHostTopology(into, from);
        set.hosts.erase(set.hosts.begin() + static_cast<std::ptrdiff_t>(i));
        i = 0; // indexes moved; the loop is short
    }
    return set;
}

void mergeHostTopology(HostTopology& into, const HostTopology& from)
{
    into.sources << from.sources;
    into.formats << from.formats;
    into.notes << from.notes;
    for (const QString& m : from.missing)
        into.missing << QStringLiteral("%1: %2").arg(QFileInfo(from.sources.value(0)).fileName(), m);
    if (into.host.isEmpty()) {
        into.host = from.host;
        into.hostFrom = from.hostFrom;
    }
    if (into.machineCpus.isEmpty()) {
        into.machineCpus = from.machineCpus;
        into.allowedCpus = from.allowedCpus;
    }
    const int treeOffset = static_cast<int>(into.tree.size());
    const bool takeTree = into.tree.empty() && !from.tree.empty();
    if (takeTree) {
        for (TopoNode n : from.tree) {
            if (n.parent >= 0)
                n.parent += treeOffset;
            into.tree.push_back(n);
        }
    } else if (!from.tree.empty()) {
        into.notes << QStringLiteral("%1: PCI tree not merged (an earlier capture of the host gave one); "
                                     "its printed or derived classes were merged")
                          .arg(from.sources.join(QStringLiteral(", ")));
    }
    auto fill = [](QString& a, const QString& b) {
        if (a.isEmpty())
            a = b;
    };
    auto fillInt = [](int& a, int b) {
        if (a < 0)
            a = b;
    };

    std::vector<int> gmap, nmap;
    for (const TopoGpu& g : from.gpus) {
        int i = g.busId.isEmpty() ? -1 : into.gpuByBusId(g.busId);
        if (i < 0 && g.index >= 0) {
            const int byIndex = into.gpuByIndex(g.index);
            if (byIndex >= 0
                && (into.gpus[static_cast<size_t>(byIndex)].busId.isEmpty() || g.busId.isEmpty()))
                i = byIndex;
        }
        if (i < 0) {
            i = static_cast<int>(into.gpus.size());
            into.gpus.push_back(TopoGpu {});
            into.gpus.back().node = -1;
        }
        TopoGpu& d = into.gpus[static_cast<size_t>(i)];
        fillInt(d.index, g.index);
        fill(d.busId, g.busId);
        fill(d.name, g.name);
        fillInt(d.numa, g.numa);
        fill(d.cpuAffinity, g.cpuAffinity);
        fillInt(d.ncclRank, g.ncclRank);
        if (takeTree && g.node >= 0)
            d.node = g.node + treeOffset;
        gmap.push_back(i);
    }
    for (const TopoNic& n : from.nics) {
        int i = into.nicByName(n.name);
        if (i < 0 && n.name.isEmpty())
            i = into.nicByBusId(n.busId);
        if (i < 0) {
            i = static_cast<int>(into.nics.size());
            into.nics.push_back(TopoNic {});
        }
        TopoNic& d = into.nics[static_cast<size_t>(i)];
        fill(d.name, n.name);
        fill(d.busId, n.busId);
        fillInt(d.port, n.port);
        fillInt(d.ncclDev, n.ncclDev);
        fillInt(d.legendIndex, n.legendIndex);
        fillInt(d.numa, n.numa);
        if (takeTree && n.node >= 0)
            d.node = n.node + treeOffset;
        nmap.push_back(i);
    }
    for (const NumaNode& nn : from.numaNodes) {
        bool known = false;
        for (NumaNode& have : into.numaNodes)
            if (have.id == nn.id) {
                known = true;
                fill(have.cpus, nn.cpus);
            }
        if (!known)
            into.numaNodes.push_back(nn);
    }

    // A printed class beats a derived one; two printed classes that disagree keep the first.
    auto conflict = [&](const QString& pair, PathClass have, PathClass got) {
        into.notes << QStringLiteral("%1: %2 is %3 there but %4 in %5")
                          .arg(from.sources.join(QStringLiteral(", ")), pair, pathClassName(got),
                              pathClassName(have), into.sources.first());
    };
    for (const GpuLink& l : from.gpuLinks) {
        GpuLink& d = into.setGpuLink(gmap[static_cast<size_t>(l.a)], gmap[static_cast<size_t>(l.b)]);
        if (l.path != PathClass::Unknown) {
            if (d.path == PathClass::Unknown || (d.derived && !l.derived)) {
                if (d.derived && d.path != l.path)
                    conflict(QStringLiteral("GPU%1-GPU%2 (derived from the tree)")
                                 .arg(into.gpus[static_cast<size_t>(d.a)].index)
                                 .arg(into.gpus[static_cast<size_t>(d.b)].index),
                        d.path, l.path);
                d.path = l.path;
                d.linkCount = l.linkCount;
                d.derived = l.derived;
            } else if (d.path != l.path && !l.derived && !d.derived) {
                conflict(QStringLiteral("GPU%1-GPU%2")
                             .arg(into.gpus[static_cast<size_t>(d.a)].index)
                             .arg(into.gpus[static_cast<size_t>(d.b)].index),
                    d.path, l.path);
            }
        }
        fill(d.p2p, l.p2p);
        fillInt(d.weight, l.weight);
        fillInt(d.hops, l.hops);
    }
    for (const GpuNicLink& l : from.nicLinks) {
        GpuNicLink& d = into.setNicLink(gmap[static_cast<size_t>(l.gpu)], nmap[static_cast<size_t>(l.nic)]);
        if (l.path == PathClass::Unknown)
            continue;
        if (d.path == PathClass::Unknown || (d.derived && !l.derived)) {
            if (d.derived && d.path != l.path)
                conflict(QStringLiteral("GPU%1-%2 (derived from the tree)")
                             .arg(into.gpus[static_cast<size_t>(d.gpu)].index)
                             .arg(into.nics[static_cast<size_t>(d.nic)].displayName()),
                    d.path, l.path);
            d.path = l.path;
            d.derived = l.derived;
        } else if (d.path != l.path && !l.derived && !d.derived) {
            conflict(QStringLiteral("GPU%1-%2")
                         .arg(into.gpus[static_cast<size_t>(d.gpu)].index)
                         .arg(into.nics[static_cast<size_t>(d.nic)].displayName()),
                d.path, l.path);
        }
    }
    // A tree that arrived with this capture can fill classes that neither capture printed.
    if (takeTree)
        derivePathClasses(into);
}

} // namespace rankscope
