// SPDX-License-Identifier: MIT
// `nvidia-smi topo -m` (and -mp, -p2p r|w|n|a): a matrix whose cells are tab- or space-separated,
// with optional CPU/NUMA affinity columns and an optional NIC Legend.
#include "cpuset.h"
#include "topology_loader.h"

#include <QHash>
#include <QRegularExpression>

namespace rankscope {

namespace {

QString stripAnsi(QString line)
{
    static const QRegularExpression ansi(QStringLiteral("\x1b\\[[0-9;]*[A-Za-z]"));
    line.remove(ansi);
    line.remove(u'\r');
    return line;
}

// Header words that belong to the trailing affinity columns, not to the matrix.
bool isTrailingStart(const QStringList& t, qsizetype i)
{
    const QString& w = t.at(i);
    const QString next = i + 1 < t.size() ? t.at(i + 1) : QString();
    return (w == u"CPU" && next == u"Affinity") || (w == u"NUMA" && next == u"Affinity")
        || (w == u"GPU" && next == u"NUMA");
}

bool isP2pValue(const QString& c)
{
    return c == u"OK" || c == u"NS" || c == u"CNS" || c == u"GNS" || c == u"TNS" || c == u"U";
}

struct Column
{
    bool gpu = false;
    int index = -1; // GPU<n> / NIC<n>; -1 for NIC columns named by device (old drivers: "mlx5_0")
    QString name;
};

Column columnFromName(const QString& name)
{
    static const QRegularExpression re(QStringLiteral("^(GPU|NIC)(\\d+)$"));
    Column c;
    c.name = name;
    const QRegularExpressionMatch m = re.match(name);
    if (m.hasMatch()) {
        c.gpu = m.captured(1) == u"GPU";
        c.index = m.captured(2).toInt();
    }
    return c;
}

} // namespace

TopologyParse parseNvidiaSmiTopo(const QByteArray& text, const QString& sourceName)
{
    TopologyParse out;
    out.format = TopologyFormat::NvidiaSmiMatrix;
    HostTopology& t = out.topo;
    t.sources << sourceName;
    const QStringList lines = QString::fromUtf8(text).split(u'\n');
    auto fail = [&](qsizetype line, const QString& what) {
        out.error = QStringLiteral("%1:%2: %3").arg(sourceName).arg(line + 1).arg(what);
        return out;
    };

    qsizetype header = -1;
    for (qsizetype i = 0; i < lines.size() && header < 0; ++i) {
        const QStringList w =
            stripAnsi(lines.at(i)).split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts);
        if (!w.isEmpty() && w.first() == u"GPU0" && !w.contains(QStringLiteral("X")))
            header = i;
    }
    if (header < 0)
        return fail(0, QStringLiteral("no nvidia-smi topo header row (\"GPU0 GPU1 ...\") found"));

    static const QRegularExpression ws(QStringLiteral("\\s+"));
    const QStringList hw = stripAnsi(lines.at(header)).split(ws, Qt::SkipEmptyParts);
    std::vector<Column> cols;
    QStringList trailing; // "CPU Affinity", "NUMA Affinity", "GPU NUMA ID" in header order
    for (qsizetype i = 0; i < hw.size(); ++i) {
        if (isTrailingStart(hw, i)) {
            const bool three = hw.at(i) == u"GPU";
            trailing << hw.mid(i, three ? 3 : 2).join(u' ');
            i += three ? 2 : 1;
        } else if (!trailing.isEmpty()) {
            return fail(header,
                QStringLiteral("unexpected header word \"%1\" after the affinity columns").arg(hw.at(i)));
        } else {
            cols.push_back(columnFromName(hw.at(i)));
        }
    }

    // Rows: GPU/NIC label, one cell per column, then the trailing values in header order.
    std::vector<std::vector<QString>> cells(cols.size());
    std::vector<QStringList> extra(cols.size());
    std::vector<bool> seen(cols.size(), false);
    bool p2p = false, pcie = false;
    qsizetype i = header + 1;
    for (; i < lines.size(); ++i) {
        const QString line = stripAnsi(lines.at(i));
        if (line.trimmed().isEmpty() || line.trimmed().startsWith(u"Legend"))
            break;
        const QStringList w = line.split(ws, Qt::SkipEmptyParts);
        qsizetype col = -1;
        for (size_t c = 0; c < cols.size(); ++c)
            if (cols[c].name == w.first())
                col = static_cast<qsizetype>(c);
        if (col < 0)
            return fail(i, QStringLiteral("row label \"%1\" is not a column of the header").arg(w.first()));
        const auto n = static_cast<qsizetype>(cols.size());
        if (w.size() - 1 < n)
            return fail(i,
                QStringLiteral("row %1 has %2 matrix cells, the header has %3 columns")
                    .arg(w.first())
                    .arg(w.size() - 1)
                    .arg(n));
        const auto ci = static_cast<size_t>(col);
        for (qsizetype c = 0; c < n; ++c) {
            const QString& v = w.at(c + 1);
            const PathClass pc = parsePathClass(v);
            if (isP2pValue(v))
                p2p = true;
            else if (pc != PathClass::Unknown)
                pcie = pcie || pc != PathClass::Self;
            else
                return fail(i,
                    QStringLiteral("row %1, column %2: unknown cell \"%3\"")
                        .arg(w.first(), cols[static_cast<size_t>(c)].name, v));
            cells[ci].push_back(v);
        }
        extra[ci] = w.mid(n + 1);
        if (extra[ci].size() > trailing.size())
            return fail(i,
                QStringLiteral("row %1 has %2 values after the matrix, the header names %3")
                    .arg(w.first())
                    .arg(extra[ci].size())
                    .arg(trailing.size()));
        seen[ci] = true;
    }
    if (p2p && pcie)
        return fail(header, QStringLiteral("matrix mixes P2P status cells (OK/NS) with link classes"));
    if (p2p)
        out.format = TopologyFormat::NvidiaSmiP2p;

    // NIC Legend: "  NIC0: mlx5_0".
    QHash<int, QString> legend;
    static const QRegularExpression legendRe(QStringLiteral("^\\s*NIC(\\d+)\\s*:\\s*(\\S+)\\s*$"));
    for (; i < lines.size(); ++i) {
        const QRegularExpressionMatch m = legendRe.match(stripAnsi(lines.at(i)));
        if (m.hasMatch())
            legend.insert(m.captured(1).toInt(), m.captured(2));
    }

    std::vector<int> slot(cols.size(), -1); // column -> index into gpus or nics
    for (size_t c = 0; c < cols.size(); ++c) {
        if (!seen[c])
            return fail(header, QStringLiteral("column %1 has no row").arg(cols[c].name));
        if (cols[c].gpu) {
            TopoGpu g;
            g.index = cols[c].index;
            g.name = cols[c].name;
            for (qsizetype k = 0; k < extra[c].size(); ++k) {
                const QString& key = trailing.at(k);
                const QString& v = extra[c].at(k);
                if (key == u"CPU Affinity" && v != u"N/A") {
                    const CpuSetParse cs = parseCpuRangeList(v);
                    if (!cs.error.isEmpty())
                        return fail(
                            header, QStringLiteral("%1: CPU Affinity: %2").arg(cols[c].name, cs.error));
                    g.cpuAffinity = cs.set.toRangeList();
                } else if (key == u"NUMA Affinity") {
                    bool ok = false;
                    const int numa = v.toInt(&ok);
                    g.numa = ok ? numa : -1;
                }
            }
            slot[c] = static_cast<int>(t.gpus.size());
            t.gpus.push_back(g);
            if (g.numa >= 0) {
                bool known = false;
                for (const NumaNode& nn : t.numaNodes)
                    known = known || nn.id == g.numa;
                if (!known)
                    t.numaNodes.push_back(NumaNode { g.numa, g.cpuAffinity });
            }
        } else {
            TopoNic nic;
            nic.legendIndex = cols[c].index;
            nic.name = cols[c].index >= 0 ? legend.value(cols[c].index) : cols[c].name;
            if (nic.name.isEmpty())
                t.notes << QStringLiteral("%1: %2 has no NIC Legend entry").arg(sourceName, cols[c].name);
            slot[c] = static_cast<int>(t.nics.size());
            t.nics.push_back(nic);
        }
    }

    // GPU rows carry GPU-GPU and GPU-NIC cells; NIC rows only fill GPU-NIC cells a GPU row lacked.
    for (size_t r = 0; r < cols.size(); ++r) {
        for (size_t c = 0; c < cols.size(); ++c) {
            if (r == c || (!cols[r].gpu && !cols[c].gpu))
                continue;
            const QString& v = cells[r][c];
            if (cols[r].gpu && cols[c].gpu) {
                GpuLink& l = t.setGpuLink(slot[r], slot[c]);
                if (p2p)
                    l.p2p = v;
                else
                    l.path = parsePathClass(v, &l.linkCount);
                continue;
            }
            const int g = cols[r].gpu ? slot[r] : slot[c];
            const int n = cols[r].gpu ? slot[c] : slot[r];
            if (p2p)
                continue;
            GpuNicLink& l = t.setNicLink(g, n);
            const PathClass pc = parsePathClass(v);
            if (l.path == PathClass::Unknown)
                l.path = pc;
            else if (l.path != pc)
                t.notes << QStringLiteral("%1: %2/%3 reads %4 in one row and %5 in the other")
                               .arg(sourceName, cols[r].name, cols[c].name, pathClassName(l.path), v);
        }
    }
    return out;
}

} // namespace rankscope
