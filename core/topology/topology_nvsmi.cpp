// SPDX-License-Identifier: MIT
// `nvidia-smi topo -m` (and -mp, -p2p r|w|n|a): a matrix whose cells are tab- or space-separated,
// with optional CPU/NUMA affinity columns and an optional NIC Legend. Real pastes are often cut short or
// garbled, so the reader loads what is complete and lists what is missing: a short row gives the cells it
// has, a row cut by the end of the file loses only its last word, rows of NICs the header has no column
// for still give their GPU cells, an unreadable value is named. Several matrices in one file (a `-m`
// block and then a `-p2p` block) are all read: the P2P one becomes the overlay of the first.
#include "cpuset.h"
#include "topology_loader.h"

#include <QHash>
#include <QRegularExpression>
#include <algorithm>
#include <map>

namespace rankscope {

namespace {

constexpr size_t kMaxColumns = 128;

QString stripAnsi(QString line)
{
    static const QRegularExpression ansi(QStringLiteral("\x1b\\[[0-9;]*[A-Za-z]"));
    line.remove(ansi);
    line.remove(u'\r');
    return line;
}

QStringList wordsOf(const QString& line)
{
    static const QRegularExpression ws(QStringLiteral("\\s+"));
    return line.split(ws, Qt::SkipEmptyParts);
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
    return c == u"OK" || c == u"NS" || c == u"CNS" || c == u"GNS" || c == u"TNS" || c == u"U" || c == u"DR";
}

// A value of the affinity columns ("0-15", "0-47,96-143", "0", "N/A"): where a short row's cells end.
bool looksLikeTrailingValue(const QString& c)
{
    static const QRegularExpression re(QStringLiteral("^(?:[0-9][0-9,\\-]*|N/A)$"));
    return re.match(c).hasMatch();
}

struct Column
{
    bool gpu = false;
    int index = -1; // GPU<n> / NIC<n>; -1 for NIC columns named by device (old drivers: "mlx5_0")
    QString name;
    bool headerColumn = true; // false: a NIC row the header has no column for
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

bool isHeader(const QStringList& w)
{
    return !w.isEmpty() && w.first() == u"GPU0" && !w.contains(QStringLiteral("X"));
}

// "GPU5, GPU6, GPU7" -> "GPU5-GPU7" for runs of one prefix.
QString compactNames(const QStringList& names)
{
    static const QRegularExpression re(QStringLiteral("^([A-Za-z_]+)(\\d+)$"));
    QStringList out;
    for (qsizetype i = 0; i < names.size();) {
        const QRegularExpressionMatch m = re.match(names.at(i));
        qsizetype j = i;
        if (m.hasMatch())
            while (j + 1 < names.size()) {
                const QRegularExpressionMatch n = re.match(names.at(j + 1));
                if (!n.hasMatch() || n.captured(1) != m.captured(1)
                    || n.captured(2).toInt() != m.captured(2).toInt() + static_cast<int>(j + 1 - i))
                    break;
                ++j;
            }
        out << (j - i >= 2 ? names.at(i) + u'-' + names.at(j)
                           : QStringList(names.mid(i, j - i + 1)).join(QStringLiteral(", ")));
        i = j + 1;
    }
    return out.join(QStringLiteral(", "));
}

struct Block
{
    qsizetype header = -1;
    qsizetype end = -1; // one past the last line of the block
};

struct BlockRead
{
    HostTopology topo;
    bool p2p = false;
    int cellsRead = 0;
    QString error;
};

BlockRead readBlock(const QStringList& lines, const Block& b, bool cutTail, const QHash<int, QString>& legend,
    const QString& source)
{
    BlockRead out;
    HostTopology& t = out.topo;
    auto where = [&](qsizetype line) { return QStringLiteral("%1:%2").arg(source).arg(line + 1); };

    const QStringList hw = wordsOf(stripAnsi(lines.at(b.header)));
    std::vector<Column> cols;
    QStringList trailing; // "CPU Affinity", "NUMA Affinity", "GPU NUMA ID" in header order
    for (qsizetype i = 0; i < hw.size(); ++i) {
        if (isTrailingStart(hw, i)) {
            const bool three = hw.at(i) == u"GPU";
            trailing << hw.mid(i, three ? 3 : 2).join(u' ');
            i += three ? 2 : 1;
        } else if (!trailing.isEmpty()) {
            t.notes << QStringLiteral("%1: header word \"%2\" after the affinity columns ignored")
                           .arg(where(b.header), hw.at(i));
            break;
        } else {
            cols.push_back(columnFromName(hw.at(i)));
        }
    }
    // No machine has this many GPUs and NICs; a header that long is not a capture (and the link lists,
    // searched linearly, would make it quadratic twice over).
    if (cols.size() > kMaxColumns) {
        out.error = QStringLiteral("%1: the header names %2 GPUs and NICs, more than %3")
                        .arg(where(b.header))
                        .arg(cols.size())
                        .arg(kMaxColumns);
        return out;
    }
    const auto headerCols = static_cast<qsizetype>(cols.size());
    bool headerHasNic = false;
    for (const Column& c : cols)
        headerHasNic = headerHasNic || !c.gpu;

    // Rows: label, one cell per column (fewer when cut short), then the trailing values in header order.
    std::vector<std::vector<QString>> cells(cols.size()); // per column (row); "" = not read
    std::vector<QStringList> extra(cols.size());
    std::vector<bool> seen(cols.size(), false);
    std::vector<QString> cutFrom(cols.size()); // the first column a short row lacks
    bool pcie = false;
    static const QRegularExpression label(QStringLiteral("^(?:GPU|NIC)\\d+$"));
    for (qsizetype i = b.header + 1; i < b.end; ++i) {
        const QString line = stripAnsi(lines.at(i));
        QStringList w = wordsOf(line);
        if (w.isEmpty() || line.trimmed().startsWith(u"Legend"))
            break;
        qsizetype col = -1;
        for (size_t c = 0; c < cols.size(); ++c)
            if (cols[c].name == w.first())
                col = static_cast<qsizetype>(c);
        if (col < 0 && !label.match(w.first()).hasMatch())
            break; // not a row: the matrix ends here
        if (col < 0 && w.first().startsWith(u"NIC") && !headerHasNic && cols.size() < kMaxColumns) {
            // A NIC row the header has no column for (the paste lost the NIC columns): its cells are
            // the GPU columns' and still give the GPU-NIC classes.
            Column c = columnFromName(w.first());
            c.headerColumn = false;
            col = static_cast<qsizetype>(cols.size());
            cols.push_back(c);
            cells.emplace_back();
            extra.emplace_back();
            seen.push_back(false);
            cutFrom.emplace_back();
        } else if (col < 0) {
            t.notes << QStringLiteral("%1: row %2 is not a column of the header: ignored")
                           .arg(where(i), w.first());
            t.missing << QStringLiteral("row %1 (no column in the header)").arg(w.first());
            continue;
        }
        const auto ci = static_cast<size_t>(col);
        if (seen[ci]) {
            t.notes << QStringLiteral("%1: second row %2 ignored").arg(where(i), w.first());
            continue;
        }
        // The file ends inside this row: its last word may be cut short. A word no longer word can begin
        // with (SYS, PIX, NODE, OK) is whole; "NV1" of "NV12", "SY" or "0-23,4" may not be.
        if (cutTail && i == b.end - 1 && w.size() > 1) {
            const QString& last = w.last();
            const PathClass pc = parsePathClass(last);
            const bool whole = w.size() - 1 <= headerCols && !looksLikeTrailingValue(last)
                && ((pc != PathClass::Unknown && pc != PathClass::NVLink) || isP2pValue(last));
            if (!whole) {
                t.missing << QStringLiteral("row %1: its last value \"%2\" (the capture ends inside the row)")
                                 .arg(w.first(), last);
                w.removeLast();
            }
        }
        seen[ci] = true;
        cells[ci].assign(static_cast<size_t>(headerCols), QString());
        qsizetype k = 1;
        for (qsizetype c = 0; c < headerCols; ++c, ++k) {
            if (k >= w.size() || looksLikeTrailingValue(w.at(k))) {
                if (cutFrom[ci].isEmpty())
                    cutFrom[ci] = cols[static_cast<size_t>(c)].name;
                break;
            }
            const QString& v = w.at(k);
            const PathClass pc = parsePathClass(v);
            if (isP2pValue(v))
                out.p2p = true;
            else if (pc != PathClass::Unknown)
                pcie = pcie || pc != PathClass::Self;
            else {
                t.notes << QStringLiteral("%1: row %2, column %3: unreadable cell \"%4\"")
                               .arg(where(i), w.first(), cols[static_cast<size_t>(c)].name, v);
                t.missing << QStringLiteral("%1/%2 (unreadable cell \"%3\")")
                                 .arg(w.first(), cols[static_cast<size_t>(c)].name, v);
                continue;
            }
            cells[ci][static_cast<size_t>(c)] = v;
            ++out.cellsRead;
        }
        // A row whose own cell is not X is shifted (a cell lost in the middle): none of it can be trusted.
        if (col < headerCols && static_cast<size_t>(col) < cells[ci].size() && !cells[ci][ci].isEmpty()
            && parsePathClass(cells[ci][ci]) != PathClass::Self) {
            t.notes << QStringLiteral("%1: row %2 is shifted (its own cell reads \"%3\", not X): ignored")
                           .arg(where(i), w.first(), cells[ci][ci]);
            t.missing << QStringLiteral("row %1 (shifted)").arg(w.first());
            cells[ci].assign(static_cast<size_t>(headerCols), QString());
            cutFrom[ci].clear();
            continue;
        }
        extra[ci] = w.mid(std::min(k, w.size()));
        if (extra[ci].size() > trailing.size()) {
            t.notes << QStringLiteral("%1: row %2 has %3 values after the matrix, the header names %4: the "
                                      "extra ones ignored")
                           .arg(where(i), w.first())
                           .arg(extra[ci].size())
                           .arg(trailing.size());
            extra[ci] = extra[ci].mid(0, trailing.size());
        }
    }
    if (out.p2p && pcie) {
        out.error = QStringLiteral("%1: matrix mixes P2P status cells (OK/NS) with link classes")
                        .arg(where(b.header));
        return out;
    }

    std::vector<int> slot(cols.size(), -1); // column -> index into gpus or nics
    QStringList noRow, noLegend, rowOnlyNics;
    for (size_t c = 0; c < cols.size(); ++c) {
        if (cols[c].gpu) {
            TopoGpu g;
            g.index = cols[c].index;
            g.name = cols[c].name;
            if (!seen[c])
                noRow << cols[c].name;
            else if (!cutFrom[c].isEmpty())
                t.missing << QStringLiteral("row %1: cells from %2 on").arg(cols[c].name, cutFrom[c]);
            for (qsizetype k = 0; k < extra[c].size(); ++k) {
                const QString& key = trailing.at(k);
                const QString& v = extra[c].at(k);
                if (key == u"CPU Affinity" && v != u"N/A") {
                    const CpuSetParse cs = parseCpuRangeList(v);
                    if (!cs.error.isEmpty()) {
                        t.notes << QStringLiteral("%1: %2: CPU Affinity \"%3\" unreadable: %4")
                                       .arg(where(b.header), cols[c].name, v, cs.error);
                        t.missing
                            << QStringLiteral("%1: CPU Affinity (unreadable \"%2\")").arg(cols[c].name, v);
                    } else {
                        g.cpuAffinity = cs.set.toRangeList();
                    }
                } else if (key == u"NUMA Affinity") {
                    bool ok = false;
                    const int numa = v.toInt(&ok);
                    g.numa = ok ? numa : -1;
                }
            }
            if (seen[c] && extra[c].size() < trailing.size())
                t.missing << QStringLiteral("row %1: %2")
                                 .arg(cols[c].name, trailing.mid(extra[c].size()).join(QStringLiteral(", ")));
            slot[c] = static_cast<int>(t.gpus.size());
            t.gpus.push_back(g);
            if (g.numa >= 0) {
                bool known = false;
                for (NumaNode& nn : t.numaNodes)
                    if (nn.id == g.numa) {
                        known = true;
                        if (nn.cpus.isEmpty()) // the first GPU's affinity may have been unreadable
                            nn.cpus = g.cpuAffinity;
                    }
                if (!known)
                    t.numaNodes.push_back(NumaNode { g.numa, g.cpuAffinity });
            }
        } else {
            TopoNic nic;
            nic.legendIndex = cols[c].index;
            nic.name = cols[c].index >= 0 ? legend.value(cols[c].index) : cols[c].name;
            if (nic.name.isEmpty())
                noLegend << cols[c].name;
            if (!cols[c].headerColumn)
                rowOnlyNics << cols[c].name;
            slot[c] = static_cast<int>(t.nics.size());
            t.nics.push_back(nic);
        }
    }
    if (!noRow.isEmpty())
        t.missing << (noRow.size() == 1 ? QStringLiteral("row %1 (the capture ends before it)")
                                        : QStringLiteral("rows %1 (the capture ends before them)"))
                         .arg(compactNames(noRow));
    if (!noLegend.isEmpty()) {
        t.notes << QStringLiteral("%1: %2 without a NIC Legend entry").arg(source, compactNames(noLegend));
        t.missing << QStringLiteral("NIC Legend entries (device names) of %1").arg(compactNames(noLegend));
    }
    if (!rowOnlyNics.isEmpty())
        t.notes << QStringLiteral(
            "%1: %2: rows without a column in the header (the NIC columns are missing); "
            "their GPU cells give the GPU-NIC classes")
                       .arg(source, compactNames(rowOnlyNics));

    // GPU rows carry GPU-GPU and GPU-NIC cells; NIC rows fill GPU-NIC cells a GPU row lacked. A cell
    // (r, c) stands for the pair, so either row gives it.
    for (size_t r = 0; r < cols.size(); ++r) {
        for (size_t c = 0; c < static_cast<size_t>(headerCols) && c < cells[r].size(); ++c) {
            if (r == c || (!cols[r].gpu && !cols[c].gpu))
                continue;
            const QString& v = cells[r][c];
            if (v.isEmpty())
                continue;
            if (cols[r].gpu && cols[c].gpu) {
                GpuLink& l = t.setGpuLink(slot[r], slot[c]);
                if (out.p2p) {
                    if (l.p2p.isEmpty())
                        l.p2p = v;
                } else if (l.path == PathClass::Unknown) {
                    l.path = parsePathClass(v, &l.linkCount);
                } else if (l.path != parsePathClass(v)) {
                    t.notes << QStringLiteral("%1: %2/%3 reads %4 in one row and %5 in the other")
                                   .arg(source, cols[r].name, cols[c].name,
                                       pathClassName(l.path, l.linkCount), v);
                }
                continue;
            }
            if (out.p2p)
                continue;
            const int g = cols[r].gpu ? slot[r] : slot[c];
            const int n = cols[r].gpu ? slot[c] : slot[r];
            GpuNicLink& l = t.setNicLink(g, n);
            const PathClass pc = parsePathClass(v);
            if (l.path == PathClass::Unknown)
                l.path = pc;
            else if (l.path != pc)
                t.notes << QStringLiteral("%1: %2/%3 reads %4 in one row and %5 in the other")
                               .arg(source, cols[r].name, cols[c].name, pathClassName(l.path), v);
        }
    }
    // Pairs no row gave (a dense table: the link lists are searched linearly).
    const auto nGpu = static_cast<int>(t.gpus.size());
    const auto nNic = static_cast<int>(t.nics.size());
    std::vector<char> gpuKnown(static_cast<size_t>(nGpu) * static_cast<size_t>(nGpu), 0);
    std::vector<char> nicKnown(static_cast<size_t>(nGpu) * static_cast<size_t>(nNic), 0);
    for (const GpuLink& l : t.gpuLinks)
        if (out.p2p ? !l.p2p.isEmpty() : l.path != PathClass::Unknown)
            gpuKnown[static_cast<size_t>(l.a) * static_cast<size_t>(nGpu) + static_cast<size_t>(l.b)] = 1;
    for (const GpuNicLink& l : t.nicLinks)
        if (l.path != PathClass::Unknown)
            nicKnown[static_cast<size_t>(l.gpu) * static_cast<size_t>(nNic) + static_cast<size_t>(l.nic)] = 1;
    int gpuPairs = 0, gpuUnknown = 0;
    QStringList unknownPairs;
    for (int a = 0; a < nGpu; ++a)
        for (int c = a + 1; c < nGpu; ++c) {
            ++gpuPairs;
            if (!gpuKnown[static_cast<size_t>(a) * static_cast<size_t>(nGpu) + static_cast<size_t>(c)]) {
                ++gpuUnknown;
                if (unknownPairs.size() < 6)
                    unknownPairs << QStringLiteral("GPU%1-GPU%2")
                                        .arg(t.gpus[static_cast<size_t>(a)].index)
                                        .arg(t.gpus[static_cast<size_t>(c)].index);
            }
        }
    if (gpuUnknown > 0)
        t.missing << QStringLiteral("%1 of %2 GPU pairs have no %3 (%4%5)")
                         .arg(gpuUnknown)
                         .arg(gpuPairs)
                         .arg(out.p2p ? QStringLiteral("P2P status") : QStringLiteral("class"),
                             unknownPairs.join(QStringLiteral(", ")),
                             gpuUnknown > unknownPairs.size() ? QStringLiteral(", ...") : QString());
    if (!out.p2p) {
        int nicPairs = 0, nicUnknown = 0;
        for (int g = 0; g < nGpu; ++g)
            for (int n = 0; n < nNic; ++n) {
                ++nicPairs;
                nicUnknown +=
                    nicKnown[static_cast<size_t>(g) * static_cast<size_t>(nNic) + static_cast<size_t>(n)] ? 0
                                                                                                          : 1;
            }
        if (nicUnknown > 0)
            t.missing << QStringLiteral("%1 of %2 GPU-NIC pairs have no class").arg(nicUnknown).arg(nicPairs);
    }
    return out;
}

// "root@f51fec68bf55:~# nvidia-smi topo -mp", "[user@gpu-a02 ~]$ nvidia-smi topo -m": the prompt names the
// host.
QString hostFromPrompt(const QStringList& lines, qsizetype before)
{
    static const QRegularExpression prompt(
        QStringLiteral("^\\s*\\[?[A-Za-z0-9_.-]+@([A-Za-z0-9_.-]+)[\\s:\\]][^#$]*[#$]\\s*(?:sudo\\s+)?(?:"
                       "nvidia-smi|rocm-smi)\\b"));
    for (qsizetype i = 0; i < before && i < lines.size(); ++i) {
        const QRegularExpressionMatch m = prompt.match(stripAnsi(lines.at(i)));
        if (m.hasMatch())
            return shortHostName(m.captured(1));
    }
    return {};
}

} // namespace

TopologyParse parseNvidiaSmiTopo(const QByteArray& text, const QString& sourceName)
{
    TopologyParse out;
    out.format = TopologyFormat::NvidiaSmiMatrix;
    const QStringList lines = QString::fromUtf8(text).split(u'\n');
    auto fail = [&](qsizetype line, const QString& what) {
        out.error = QStringLiteral("%1:%2: %3").arg(sourceName).arg(line + 1).arg(what);
        out.topo.sources = QStringList { sourceName };
        return out;
    };

    std::vector<Block> blocks;
    for (qsizetype i = 0; i < lines.size(); ++i)
        if (isHeader(wordsOf(stripAnsi(lines.at(i))))) {
            if (!blocks.empty())
                blocks.back().end = i;
            blocks.push_back(Block { i, lines.size() });
        }
    if (blocks.empty())
        return fail(0, QStringLiteral("no nvidia-smi topo header row (\"GPU0 GPU1 ...\") found"));
    // The file ends without a newline right after a matrix row: that row's last word may be cut.
    qsizetype lastLine = lines.size() - 1;
    while (lastLine >= 0 && lines.at(lastLine).trimmed().isEmpty())
        --lastLine;
    const bool noFinalNewline = !text.endsWith('\n') && lastLine == lines.size() - 1;

    // NIC Legend, anywhere in the file: "  NIC0: mlx5_0".
    QHash<int, QString> legend;
    static const QRegularExpression legendRe(QStringLiteral("^\\s*NIC(\\d+)\\s*:\\s*(\\S+)\\s*$"));
    for (const QString& l : lines) {
        const QRegularExpressionMatch m = legendRe.match(stripAnsi(l));
        if (m.hasMatch())
            legend.insert(m.captured(1).toInt(), m.captured(2));
    }

    std::vector<BlockRead> reads;
    for (const Block& b : blocks) {
        BlockRead r = readBlock(lines, b, noFinalNewline && b.end == lines.size(), legend, sourceName);
        if (!r.error.isEmpty()) {
            out.error = r.error;
            out.topo.sources = QStringList { sourceName };
            return out;
        }
        reads.push_back(std::move(r));
    }
    // The first matrix of link classes is the capture; P2P blocks (and the rest) are overlaid on it.
    size_t base = 0;
    for (size_t i = 0; i < reads.size(); ++i)
        if (!reads[i].p2p && reads[i].cellsRead > 0) {
            base = i;
            break;
        }
    if (reads[base].cellsRead == 0)
        return fail(blocks[base].header, QStringLiteral("no readable matrix row under the header"));
    HostTopology& t = out.topo;
    t = std::move(reads[base].topo);
    t.sources = QStringList { sourceName };
    if (reads[base].p2p)
        out.format = TopologyFormat::NvidiaSmiP2p;
    for (size_t i = 0; i < reads.size(); ++i) {
        if (i == base || reads[i].cellsRead == 0)
            continue;
        const HostTopology& o = reads[i].topo;
        t.notes << o.notes;
        if (reads[i].p2p && !reads[base].p2p) {
            // The P2P overlay: matched by GPU index; its missing pairs matter less than the classes'.
            int overlaid = 0;
            for (const GpuLink& l : o.gpuLinks) {
                const int a = t.gpuByIndex(o.gpus[static_cast<size_t>(l.a)].index);
                const int b = t.gpuByIndex(o.gpus[static_cast<size_t>(l.b)].index);
                if (a < 0 || b < 0 || l.p2p.isEmpty())
                    continue;
                GpuLink& d = t.setGpuLink(a, b);
                if (d.p2p.isEmpty()) {
                    d.p2p = l.p2p;
                    ++overlaid;
                }
            }
            t.notes << QStringLiteral(
                "%1:%2: a P2P status matrix (nvidia-smi topo -p2p) follows: read as the "
                "P2P overlay of %3 GPU pair(s)")
                           .arg(sourceName)
                           .arg(blocks[i].header + 1)
                           .arg(overlaid);
            for (const QString& m : o.missing)
                t.missing << QStringLiteral("P2P matrix: %1").arg(m);
        } else {
            HostTopology copy = o;
            copy.notes.clear();
            copy.sources = QStringList { sourceName };
            mergeHostTopology(t, copy);
            t.sources.removeDuplicates();
            t.notes << QStringLiteral("%1:%2: a second matrix merged into the first")
                           .arg(sourceName)
                           .arg(blocks[i].header + 1);
        }
    }
    t.host = hostFromPrompt(lines, blocks.front().header);
    if (!t.host.isEmpty())
        t.hostFrom = HostTopology::HostFrom::Content;
    return out;
}

} // namespace rankscope
