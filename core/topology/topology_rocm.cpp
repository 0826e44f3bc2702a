// SPDX-License-Identifier: MIT
// `rocm-smi --showtopo`: '='-framed sections (weight, hops, link type matrices; NUMA nodes). Any
// subset of the sections is accepted, so partial captures still load.
#include "topology_loader.h"

#include <QRegularExpression>
#include <map>

namespace rankscope {

namespace {

enum class Section
{
    None,
    Weight,
    Hops,
    LinkType,
    Numa,
    Other
};

Section sectionFromTitle(const QString& title)
{
    const QString t = title.toLower();
    if (t.contains(u"weight"))
        return Section::Weight;
    if (t.contains(u"hops"))
        return Section::Hops;
    if (t.contains(u"link type"))
        return Section::LinkType;
    if (t.contains(u"numa"))
        return Section::Numa;
    return Section::Other;
}

int gpuLabel(const QString& word)
{
    static const QRegularExpression re(QStringLiteral("^GPU\\[?(\\d+)\\]?$"));
    const QRegularExpressionMatch m = re.match(word);
    return m.hasMatch() ? m.captured(1).toInt() : -1;
}

} // namespace

TopologyParse parseRocmSmiTopo(const QByteArray& text, const QString& sourceName)
{
    TopologyParse out;
    out.format = TopologyFormat::RocmSmi;
    HostTopology& t = out.topo;
    t.sources << sourceName;
    auto fail = [&](qsizetype line, const QString& what) {
        out.error = QStringLiteral("%1:%2: %3").arg(sourceName).arg(line + 1).arg(what);
        return out;
    };
    auto gpuSlot = [&](int index) {
        int slot = t.gpuByIndex(index);
        if (slot < 0) {
            TopoGpu g;
            g.index = index;
            g.name = QStringLiteral("GPU%1").arg(index);
            slot = static_cast<int>(t.gpus.size());
            t.gpus.push_back(g);
        }
        return slot;
    };

    static const QRegularExpression titleRe(QStringLiteral("^=+\\s*(.*?)\\s*=+$"));
    static const QRegularExpression numaRe(QStringLiteral(
        "^(GPU\\s*\\[?\\d+\\]?)\\s*:\\s*\\(Topology\\)\\s*Numa (Node|Affinity)\\s*:\\s*(-?\\d+)\\s*$"));
    static const QRegularExpression ws(QStringLiteral("\\s+"));
    const QStringList lines = QString::fromUtf8(text).split(u'\n');
    Section section = Section::None;
    std::vector<int> columns; // GPU indexes of the current matrix header
    std::map<std::pair<int, int>, int> hops;
    bool sawSection = false;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QString line = lines.at(i).trimmed();
        if (line.isEmpty() || line.startsWith(u"WARNING"))
            continue;
        const QRegularExpressionMatch title = titleRe.match(line);
        if (title.hasMatch()) {
            section = sectionFromTitle(title.captured(1));
            sawSection = sawSection || (section != Section::Other && section != Section::None);
            columns.clear();
            continue;
        }
        if (section == Section::Numa) {
            const QRegularExpressionMatch m = numaRe.match(line);
            if (!m.hasMatch())
                return fail(i, QStringLiteral("unreadable NUMA line \"%1\"").arg(line));
            const int slot = gpuSlot(gpuLabel(m.captured(1).remove(ws)));
            if (m.captured(2) == u"Node")
                t.gpus[static_cast<size_t>(slot)].numa = m.captured(3).toInt();
            continue;
        }
        if (section == Section::None || section == Section::Other)
            continue;
        const QStringList w = line.split(ws, Qt::SkipEmptyParts);
        if (columns.empty()) {
            for (const QString& h : w) {
                const int g = gpuLabel(h);
                if (g < 0)
                    return fail(i, QStringLiteral("matrix header word \"%1\" is not a GPU").arg(h));
                columns.push_back(g);
            }
            continue;
        }
        const int row = gpuLabel(w.first());
        if (row < 0)
            return fail(i, QStringLiteral("row label \"%1\" is not a GPU").arg(w.first()));
        if (static_cast<size_t>(w.size() - 1) != columns.size())
            return fail(i,
                QStringLiteral("row %1 has %2 cells, the header has %3 GPUs")
                    .arg(w.first())
                    .arg(w.size() - 1)
                    .arg(columns.size()));
        const int a = gpuSlot(row);
        for (size_t c = 0; c < columns.size(); ++c) {
            if (columns[c] == row)
                continue;
            const int b = gpuSlot(columns[c]);
            const QString& v = w.at(static_cast<qsizetype>(c) + 1);
            GpuLink& l = t.setGpuLink(a, b);
            bool ok = true;
            if (section == Section::Weight)
                l.weight = v.toInt(&ok);
            else if (section == Section::Hops)
                l.hops = v.toInt(&ok);
            else if (v.compare(u"XGMI", Qt::CaseInsensitive) == 0)
                l.path = PathClass::XGMI;
            else if (v.compare(u"PCIE", Qt::CaseInsensitive) == 0)
                l.path = PathClass::PHB; // refined below once NUMA and hops are known
            else
                ok = v.compare(u"N/A", Qt::CaseInsensitive) == 0;
            if (!ok)
                return fail(i,
                    QStringLiteral("row %1, column GPU%2: unreadable cell \"%3\"")
                        .arg(w.first())
                        .arg(columns[c])
                        .arg(v));
        }
    }
    if (!sawSection)
        return fail(0, QStringLiteral("no rocm-smi --showtopo section found"));

    // rocm-smi says only "PCIE": across NUMA nodes or 3 hops (cross-socket) is SYS, otherwise PHB.
    for (GpuLink& l : t.gpuLinks) {
        if (l.path != PathClass::PHB)
            continue;
        const int na = t.gpus[static_cast<size_t>(l.a)].numa, nb = t.gpus[static_cast<size_t>(l.b)].numa;
        if ((na >= 0 && nb >= 0 && na != nb) || l.hops >= 3)
            l.path = PathClass::SYS;
    }
    for (const TopoGpu& g : t.gpus) {
        bool known = g.numa < 0;
        for (const NumaNode& n : t.numaNodes)
            known = known || n.id == g.numa;
        if (!known)
            t.numaNodes.push_back(NumaNode { g.numa, {} });
    }
    return out;
}

} // namespace rankscope
