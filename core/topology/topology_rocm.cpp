// SPDX-License-Identifier: MIT
// `rocm-smi --showtopo`: '='-framed sections (weight, hops, link type matrices; NUMA nodes). Any
// subset of the sections is accepted, so partial captures still load; a short row gives the cells it
// has and the rest is listed as missing. Lines of only '*', '=' or '-' separate, they title nothing.
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

QString sectionName(Section s)
{
    switch (s) {
    case Section::Weight:
        return QStringLiteral("weight");
    case Section::Hops:
        return QStringLiteral("hops");
    case Section::LinkType:
        return QStringLiteral("link type");
    case Section::Numa:
        return QStringLiteral("NUMA");
    case Section::None:
    case Section::Other:
        break;
    }
    return {};
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

    static const QRegularExpression titleRe(QStringLiteral("^(?:=+|\\*+)\\s*(.*?)\\s*(?:=+|\\*+)$"));
    static const QRegularExpression separator(QStringLiteral("^[=*\\-_~#]+$"));
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
        if (line.isEmpty() || line.startsWith(u"WARNING") || separator.match(line).hasMatch())
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
            if (!m.hasMatch()) {
                t.notes << QStringLiteral("%1:%2: unreadable NUMA line \"%3\"")
                               .arg(sourceName)
                               .arg(i + 1)
                               .arg(line);
                t.missing << QStringLiteral("NUMA line %1 (unreadable)").arg(i + 1);
                continue;
            }
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
                if (g < 0) {
                    columns.clear();
                    break;
                }
                columns.push_back(g);
            }
            if (columns.size() > 128) // no machine has that many GPUs; the link list is searched linearly
                return fail(
                    i, QStringLiteral("the matrix header names %1 GPUs, more than 128").arg(columns.size()));
            if (columns.empty()) { // not a matrix header: the section holds nothing this reader knows
                t.notes << QStringLiteral("%1:%2: \"%3\" is not a matrix header: the %4 section skipped")
                               .arg(sourceName)
                               .arg(i + 1)
                               .arg(line, sectionName(section));
                t.missing << QStringLiteral("the %1 matrix (unreadable header)").arg(sectionName(section));
                section = Section::Other;
            }
            continue;
        }
        const int row = gpuLabel(w.first());
        if (row < 0) {
            t.notes << QStringLiteral("%1:%2: row label \"%3\" is not a GPU: ignored")
                           .arg(sourceName)
                           .arg(i + 1)
                           .arg(w.first());
            continue;
        }
        if (static_cast<size_t>(w.size() - 1) < columns.size()) {
            t.notes << QStringLiteral("%1:%2: row %3 has %4 cells, the header has %5 GPUs")
                           .arg(sourceName)
                           .arg(i + 1)
                           .arg(w.first())
                           .arg(w.size() - 1)
                           .arg(columns.size());
            t.missing << QStringLiteral("%1 row %2: cells from GPU%3 on")
                             .arg(sectionName(section), w.first())
                             .arg(columns[static_cast<size_t>(w.size() - 1)]);
        } else if (static_cast<size_t>(w.size() - 1) > columns.size()) {
            t.notes << QStringLiteral(
                "%1:%2: row %3 has %4 cells, the header has %5 GPUs: the extra ones ignored")
                           .arg(sourceName)
                           .arg(i + 1)
                           .arg(w.first())
                           .arg(w.size() - 1)
                           .arg(columns.size());
        }
        const int a = gpuSlot(row);
        for (size_t c = 0; c < columns.size() && static_cast<qsizetype>(c) + 1 < w.size(); ++c) {
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
            if (!ok) {
                t.notes << QStringLiteral("%1:%2: row %3, column GPU%4: unreadable cell \"%5\"")
                               .arg(sourceName)
                               .arg(i + 1)
                               .arg(w.first())
                               .arg(columns[c])
                               .arg(v);
                t.missing << QStringLiteral("%1 %2/GPU%3 (unreadable cell \"%4\")")
                                 .arg(sectionName(section), w.first())
                                 .arg(columns[c])
                                 .arg(v);
            }
        }
    }
    if (!sawSection)
        return fail(0, QStringLiteral("no rocm-smi --showtopo section found"));
    if (t.gpus.empty())
        return fail(0, QStringLiteral("no readable GPU row in the rocm-smi --showtopo sections"));

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
