// SPDX-License-Identifier: MIT
#include "line_author.h"

#include "line_prefix.h"
#include "text_util.h"

#include <QHash>
#include <algorithm>

namespace rankscope {

namespace {

bool sameHost(const QString& a, const QString& b)
{
    return a.isEmpty() || b.isEmpty() || a == b;
}

// The one rank that a process (pid, and host when known) is; -1 when none or several (two hosts can reuse
// a pid, so a pid alone names a rank only when no other rank has it).
int rankOfProcess(const Incident& incident, const FileAuthors& writers, qint64 pid, const QString& host)
{
    if (pid < 0)
        return -1;
    int found = -1;
    const auto take = [&found](int rank) {
        if (found >= 0 && found != rank)
            return false;
        found = rank;
        return true;
    };
    for (const RankInfo& r : incident.ranks)
        if (r.pid == pid && (sameHost(host, r.host) || r.hostAliases.contains(host)) && !take(r.rank))
            return -1;
    for (const FileAuthors::ProcessRank& p : writers.processRanks)
        if (p.pid == pid && sameHost(host, p.host) && !take(p.rank))
            return -1;
    return found;
}

// What the line's own prefixes say about its writer.
LineAuthor authorFromPrefixes(const QString& text)
{
    const QByteArray utf8 = text.toUtf8();
    const LinePrefix p =
        parseLinePrefix(std::string_view(utf8.constData(), static_cast<size_t>(utf8.size())));
    LineAuthor w;
    w.rank = p.globalRank;
    w.pid = p.pid >= 0 ? p.pid : p.rayPid;
    const std::string_view host = !p.ncclHost.empty() ? p.ncclHost : p.pdshHost;
    w.host = QString::fromUtf8(shortHostName(host));
    w.source = QString::fromUtf8(p.sourceTag);
    return w;
}

} // namespace

FileAuthors fileAuthors(const Incident& incident, int file)
{
    FileAuthors w;
    w.file = file;
    for (size_t i = 0; i < incident.events.size(); ++i)
        if (incident.events[i].file == file)
            w.eventLines.emplace_back(incident.events[i].line, static_cast<int>(i));
    std::stable_sort(w.eventLines.begin(), w.eventLines.end(),
        [](const auto& a, const auto& b) { return a.first < b.first; });
    QHash<QPair<QString, qint64>, int> rankOf; // -2: two ranks, the process names neither
    for (const LogEvent& e : incident.events) {
        if (e.pid < 0 || e.rank < 0)
            continue;
        const auto key = qMakePair(e.host, e.pid);
        const auto it = rankOf.find(key);
        if (it == rankOf.end())
            rankOf.insert(key, e.rank);
        else if (it.value() != e.rank)
            it.value() = -2;
    }
    for (auto it = rankOf.cbegin(); it != rankOf.cend(); ++it)
        if (it.value() >= 0)
            w.processRanks.push_back({ it.key().first, it.key().second, it.value() });
    for (const RankInfo& r : incident.ranks) {
        if (std::find(r.files.begin(), r.files.end(), file) == r.files.end())
            continue;
        if (w.onlyRank >= 0) {
            w.onlyRank = -1; // several ranks wrote this file: it names none of them
            break;
        }
        w.onlyRank = r.rank;
    }
    return w;
}

LineAuthor authorOfLine(
    const Incident& incident, const FileAuthors& writers, qint64 line, const QString& text)
{
    LineAuthor w;
    // An event whose record covers the line (a traceback's later lines are its event's too).
    auto it = std::upper_bound(writers.eventLines.begin(), writers.eventLines.end(), line,
        [](qint64 l, const std::pair<qint64, int>& e) { return l < e.first; });
    for (int back = 0; it != writers.eventLines.begin() && back < 64; ++back) {
        --it;
        const LogEvent& e = incident.events[static_cast<size_t>(it->second)];
        if (e.line <= line && line < e.line + std::max(1, e.lineCount)) {
            w.rank = e.rank;
            w.host = e.host;
            w.pid = e.pid;
            w.source = e.source;
            break;
        }
    }
    if (!w.known())
        w = authorFromPrefixes(text);
    if (w.rank < 0)
        w.rank = rankOfProcess(incident, writers, w.pid, w.host);
    if (w.rank < 0 && w.pid < 0) // no process named: the line is the file's, and so its one rank's
        w.rank = writers.onlyRank;
    if (w.rank >= 0 && w.host.isEmpty())
        if (const RankInfo* r = incident.rankInfo(w.rank))
            w.host = r->host;
    return w;
}

QString describeAuthor(const LineAuthor& writer)
{
    QStringList parts;
    if (writer.rank >= 0)
        parts << QStringLiteral("rank %1").arg(writer.rank);
    if (!writer.host.isEmpty())
        parts << writer.host;
    if (writer.pid >= 0)
        parts << QStringLiteral("pid %1").arg(writer.pid);
    if (!writer.source.isEmpty() && writer.rank < 0 && writer.pid < 0)
        parts << writer.source;
    return parts.isEmpty() ? QStringLiteral("unattributed") : parts.join(QStringLiteral(" · "));
}

} // namespace rankscope
