// SPDX-License-Identifier: MIT
#include "control_compare.h"

#include "file_lines.h"
#include "line_normalize.h"
#include "line_prefix.h"

#include <QJsonArray>
#include <QSet>
#include <algorithm>

namespace rankscope {

namespace {

struct RankLine
{
    qint64 line = 0; // 1-based
    QString text;
    QString norm;
};

struct RankLines
{
    std::vector<RankLine> lines;
    QString error;
    bool filtered = false; // the file is shared: only the rank's own lines were kept
};

bool sharedWithOtherRanks(const Incident& inc, int file, int rank)
{
    return std::any_of(inc.ranks.begin(), inc.ranks.end(), [&](const RankInfo& r) {
        return r.rank != rank && std::find(r.files.begin(), r.files.end(), file) != r.files.end();
    });
}

// In a file several ranks write to, a line belongs to the rank its prefix names.
bool lineBelongs(const LinePrefix& p, const RankInfo& r)
{
    if (p.globalRank >= 0)
        return p.globalRank == r.rank;
    if (p.launcherRank >= 0)
        return p.launcherRank == r.rank;
    if (p.pid >= 0 && r.pid >= 0) {
        const std::string_view host = shortHostName(p.ncclHost);
        const bool hostOk = host.empty() || r.host.isEmpty()
            || QString::fromUtf8(host.data(), static_cast<qsizetype>(host.size())) == r.host;
        return hostOk && p.pid == r.pid;
    }
    if (p.teeLocalRank >= 0 && r.localRank >= 0)
        return p.teeLocalRank == r.localRank;
    return false;
}

// Streams lines [0, limit) of one file, keeping only the rank's lines when the file is shared.
RankLines readRankLines(
    const Incident& inc, int file, const RankInfo& rank, qint64 limit, const CancelToken* cancel)
{
    RankLines out;
    const FileInfo& info = inc.files[static_cast<size_t>(file)];
    FileLinesResult opened = FileLines::open(info, 8 * 1024 * 1024);
    if (!opened.ok()) {
        out.error = opened.error;
        return out;
    }
    out.filtered = sharedWithOtherRanks(inc, file, rank.rank);
    const qint64 n = limit < 0 ? opened.lines->count() : std::min(limit, opened.lines->count());
    for (qint64 i = 0; i < n; ++i) {
        if (cancel && (i & 0xfff) == 0 && cancel->isCancelled())
            break;
        const QByteArray raw = opened.lines->rawLine(i);
        const LinePrefix p =
            parseLinePrefix(std::string_view(raw.constData(), static_cast<size_t>(raw.size())));
        // Blank lines (also "[default3]:" with nothing after it) carry no evidence and move with buffering.
        if (QByteArray::fromRawData(p.afterLauncher.data(), static_cast<qsizetype>(p.afterLauncher.size()))
                .trimmed()
                .isEmpty())
            continue;
        if (out.filtered && !lineBelongs(p, rank))
            continue;
        RankLine l;
        l.line = i + 1;
        l.text = QString::fromUtf8(raw);
        l.norm = normalizeVolatile(l.text);
        out.lines.push_back(std::move(l));
    }
    return out;
}

// "nccl.gpu-a02.1402363.log" and "nccl.gpu-a02.251778.log" are the same file of the same rank.
QString fileShape(const QString& path)
{
    static const QRegularExpression digits(QStringLiteral("\\d+"));
    QString s = path;
    return s.replace(digits, QStringLiteral("#"));
}

int counterpartFile(
    const Incident& failing, const RankInfo& fr, int failingFile, const Incident& control, const RankInfo& cr)
{
    if (cr.files.empty())
        return -1;
    const QString shape = fileShape(failing.files[static_cast<size_t>(failingFile)].displayPath);
    for (int f : cr.files)
        if (fileShape(control.files[static_cast<size_t>(f)].displayPath) == shape)
            return f;
    const auto pos = std::find(fr.files.begin(), fr.files.end(), failingFile) - fr.files.begin();
    return pos < static_cast<qsizetype>(cr.files.size()) ? cr.files[static_cast<size_t>(pos)]
                                                         : cr.files.front();
}

const RankInfo* findCounterpart(const Incident& control, const RankInfo& fr, QString& alignedBy)
{
    if (const RankInfo* r = control.rankInfo(fr.rank)) {
        alignedBy = QStringLiteral("rank");
        return r;
    }
    for (const RankInfo& r : control.ranks)
        if (!fr.host.isEmpty() && r.host == fr.host && fr.localRank >= 0 && r.localRank == fr.localRank) {
            alignedBy = QStringLiteral("host+local rank");
            return &r;
        }
    return nullptr;
}

void addRow(Divergence& div, DiffRow row, bool isDifference)
{
    if (static_cast<int>(div.rows.size()) >= kMaxRows) {
        div.rowsCut = true;
        if (div.firstRow >= 0)
            return;
        // Keep the newest half so that the first difference still lands in the rows.
        div.rows.erase(div.rows.begin(), div.rows.begin() + kMaxRows / 2);
    }
    if (isDifference && div.firstRow < 0)
        div.firstRow = static_cast<int>(div.rows.size());
    div.rows.push_back(std::move(row));
}

// Linear alignment: equal lines pair up; a line whose normalised text the other run never prints is
// one-sided; two such lines facing each other pair up as a change (the NET/IB line listing fewer HCAs).
void align(Divergence& div, const std::vector<RankLine>& f, const std::vector<RankLine>& c)
{
    QSet<QString> inControl, inFailing;
    for (const RankLine& l : c)
        inControl.insert(l.norm);
    for (const RankLine& l : f)
        inFailing.insert(l.norm);
    size_t i = 0, j = 0;
    while (i < f.size()) {
        DiffRow row;
        row.failingLine = f[i].line;
        row.failingText = f[i].text;
        const bool fKnown = inControl.contains(f[i].norm);
        const bool haveC = j < c.size();
        const bool cKnown = haveC && inFailing.contains(c[j].norm);
        if (haveC && f[i].norm == c[j].norm) {
            row.kind = DiffRow::Same;
        } else if (haveC && (fKnown == cKnown)) {
            row.kind = DiffRow::Changed;
        } else if (!fKnown || !haveC) {
            row.kind = DiffRow::OnlyFailing;
        } else {
            DiffRow only;
            only.kind = DiffRow::OnlyControl;
            only.controlLine = c[j].line;
            only.controlText = c[j].text;
            addRow(div, std::move(only), false);
            ++j;
            continue;
        }
        if (row.kind != DiffRow::OnlyFailing) {
            row.controlLine = c[j].line;
            row.controlText = c[j].text;
            ++j;
        }
        row.failingOnly = !fKnown;
        const bool diff = row.kind != DiffRow::Same;
        if (diff && div.firstRow < 0) {
            div.found = true;
            div.failingLine = row.failingLine;
            div.failingText = row.failingText;
            div.controlLine = row.controlLine;
            div.controlText = row.controlText;
        }
        addRow(div, std::move(row), diff);
        if (!fKnown) {
            ++div.onlyInFailingTotal;
            if (static_cast<int>(div.onlyInFailing.size()) < kMaxOnlyInFailing)
                div.onlyInFailing.push_back({ div.failingFile, f[i].line, f[i].text });
        }
        ++i;
    }
}

} // namespace

Divergence compareWithControl(
    const Incident& failing, const Diagnosis& d, const Incident& control, const CancelToken* cancel)
{
    Divergence div;
    if (d.initiatingEvent < 0 || d.initiatingEvent >= static_cast<int>(failing.events.size())) {
        div.note = QStringLiteral("no initiating event in the failing run: nothing to compare");
        return div;
    }
    const LogEvent& ev = failing.events[static_cast<size_t>(d.initiatingEvent)];
    div.rank = ev.rank;
    div.host = ev.host;
    const RankInfo* fr = failing.rankInfo(ev.rank);
    if (!fr) {
        div.note =
            QStringLiteral("the initiating event is not attributed to a rank: no counterpart in the control");
        return div;
    }
    const RankInfo* cr = findCounterpart(control, *fr, div.alignedBy);
    if (!cr) {
        div.note = QStringLiteral("the control run has no rank %1 and no rank on host %2 with local rank %3")
                       .arg(fr->rank)
                       .arg(fr->host.isEmpty() ? QStringLiteral("?") : fr->host)
                       .arg(fr->localRank);
        return div;
    }
    div.controlRank = cr->rank;
    const int cFile = counterpartFile(failing, *fr, ev.file, control, *cr);
    if (ev.file < 0 || cFile < 0) {
        div.note = QStringLiteral("no log file to compare for rank %1").arg(fr->rank);
        return div;
    }
    div.failingFile = failing.files[static_cast<size_t>(ev.file)].displayPath;
    div.controlFile = control.files[static_cast<size_t>(cFile)].displayPath;
    div.initiatingLine = ev.line;

    const RankLines f = readRankLines(failing, ev.file, *fr, ev.line - 1, cancel);
    const RankLines c = readRankLines(control, cFile, *cr, -1, cancel);
    if (!f.error.isEmpty() || !c.error.isEmpty()) {
        div.note = !f.error.isEmpty() ? f.error : c.error;
        return div;
    }
    align(div, f.lines, c.lines);
    QStringList notes;
    if (f.filtered || c.filtered)
        notes << QStringLiteral(
            "shared log file: only the lines attributed to the aligned ranks were compared");
    if (div.rowsCut)
        notes << QStringLiteral("side-by-side rows cut at %1").arg(kMaxRows);
    if (!div.found)
        notes << QStringLiteral(
            "every line of rank %1 before the initiating event also appears in the control")
                     .arg(fr->rank);
    div.note = notes.join(QStringLiteral("; "));
    return div;
}

QJsonObject divergenceToJson(const Divergence& div)
{
    const auto side = [](const QString& file, qint64 line, const QString& text) {
        return QJsonObject { { QStringLiteral("file"), file }, { QStringLiteral("line"), line },
            { QStringLiteral("text"), text } };
    };
    QJsonArray only;
    for (const DiffLine& l : div.onlyInFailing)
        only.append(side(l.file, l.line, l.text));
    QJsonObject o;
    o.insert(QStringLiteral("rank"), div.rank);
    o.insert(QStringLiteral("host"), div.host);
    o.insert(QStringLiteral("controlRank"), div.controlRank);
    o.insert(QStringLiteral("alignedBy"), div.alignedBy);
    o.insert(QStringLiteral("found"), div.found);
    o.insert(QStringLiteral("initiatingLine"), div.initiatingLine);
    if (div.found) {
        o.insert(QStringLiteral("failing"), side(div.failingFile, div.failingLine, div.failingText));
        o.insert(QStringLiteral("control"), side(div.controlFile, div.controlLine, div.controlText));
    }
    o.insert(QStringLiteral("onlyInFailing"), only);
    o.insert(QStringLiteral("onlyInFailingTotal"), div.onlyInFailingTotal);
    if (!div.note.isEmpty())
        o.insert(QStringLiteral("note"), div.note);
    return o;
}

QString divergenceToText(const Divergence& div)
{
    QString out = QStringLiteral("Divergence from the control run\n");
    if (div.alignedBy.isEmpty())
        return out + QStringLiteral("  ") + div.note + QLatin1Char('\n');
    out += QStringLiteral("  rank %1 (%2) aligned by %3 with control rank %4\n")
               .arg(div.rank)
               .arg(div.host, div.alignedBy)
               .arg(div.controlRank);
    if (div.found) {
        out += QStringLiteral("  first differing line before the initiating event (%1:%2):\n")
                   .arg(div.failingFile)
                   .arg(div.initiatingLine);
        out += QStringLiteral("    failing %1:%2  %3\n")
                   .arg(div.failingFile)
                   .arg(div.failingLine)
                   .arg(div.failingText);
        if (div.controlLine > 0)
            out += QStringLiteral("    control %1:%2  %3\n")
                       .arg(div.controlFile)
                       .arg(div.controlLine)
                       .arg(div.controlText);
        else
            out += QStringLiteral("    control (no counterpart)\n");
    }
    if (div.onlyInFailingTotal > 0) {
        out += QStringLiteral("  only in the failing run (%1 lines):\n").arg(div.onlyInFailingTotal);
        for (const DiffLine& l : div.onlyInFailing)
            out += QStringLiteral("    %1:%2  %3\n").arg(l.file).arg(l.line).arg(l.text);
    }
    if (!div.note.isEmpty())
        out += QStringLiteral("  note: %1\n").arg(div.note);
    return out;
}

} // namespace rankscope
