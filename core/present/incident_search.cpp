// SPDX-License-Identifier: MIT
#include "incident_search.h"

#include "file_lines.h"

#include <algorithm>
#include <climits>
#include <map>
#include <tuple>

namespace rankscope {

namespace {

constexpr qint64 kCheckEvery = 2048; // lines between cancel checks and progress reports

// Which rank a line of a file belongs to, from the events of the file: a file of one rank (the usual
// per-rank log) gives it to every line; a file that interleaves ranks gives a line the rank of the
// nearest event at or before it.
class LineRanks
{
public:
    LineRanks(const Incident& incident, int file)
    {
        for (const LogEvent& e : incident.events) {
            if (e.file == file && e.rank >= 0)
                m_events.emplace_back(e.line, e.rank);
        }
        std::sort(m_events.begin(), m_events.end());
        const bool one = !m_events.empty()
            && std::all_of(m_events.begin(), m_events.end(),
                [&](const auto& p) { return p.second == m_events.front().second; });
        m_single = one ? m_events.front().second : -1;
    }
    int rankOf(qint64 line) const
    {
        if (m_single >= 0 || m_events.empty())
            return m_single;
        auto it = std::upper_bound(m_events.begin(), m_events.end(), std::make_pair(line, INT_MAX));
        return it == m_events.begin() ? m_events.front().second : std::prev(it)->second;
    }

private:
    std::vector<std::pair<qint64, int>> m_events;
    int m_single = -1;
};

// The host of a file's unattributed lines: the one host its events name, else none.
QString fileHost(const Incident& incident, int file)
{
    QString host;
    for (const LogEvent& e : incident.events) {
        if (e.file != file || e.host.isEmpty())
            continue;
        if (!host.isEmpty() && host != e.host)
            return {};
        host = e.host;
    }
    return host;
}

void groupHits(const Incident& incident, SearchResults& r, const std::vector<qint64>& fileCounts,
    const std::vector<std::map<int, qint64>>& rankCounts)
{
    // Key: rank groups first (by rank), then host groups, then file groups.
    std::map<std::tuple<int, int, QString>, SearchGroup> groups;
    auto groupFor = [&](int file, int rank) -> SearchGroup& {
        if (rank >= 0) {
            SearchGroup& g = groups[{ 0, rank, QString() }];
            if (g.label.isEmpty()) {
                const RankInfo* info = incident.rankInfo(rank);
                g.rank = rank;
                g.host = info ? info->host : QString();
                g.label = g.host.isEmpty() ? QStringLiteral("rank %1").arg(rank)
                                           : QStringLiteral("rank %1 · %2").arg(rank).arg(g.host);
            }
            return g;
        }
        const QString host = fileHost(incident, file);
        if (!host.isEmpty()) {
            SearchGroup& g = groups[{ 1, 0, host }];
            g.host = host;
            g.label = QStringLiteral("%1 (no rank)").arg(host);
            return g;
        }
        const QString path = incident.files[static_cast<size_t>(file)].displayPath;
        SearchGroup& g = groups[{ 2, 0, path }];
        g.label = QStringLiteral("unattributed: %1").arg(path);
        return g;
    };
    for (size_t f = 0; f < rankCounts.size(); ++f) {
        if (fileCounts[f] == 0)
            continue;
        for (const auto& [rank, n] : rankCounts[f])
            groupFor(static_cast<int>(f), rank).count += n;
    }
    for (size_t i = 0; i < r.hits.size(); ++i)
        groupFor(r.hits[i].file, r.hits[i].rank).hits.push_back(static_cast<int>(i));
    r.groups.reserve(groups.size());
    for (auto& [key, g] : groups)
        r.groups.push_back(std::move(g));
}

} // namespace

QRegularExpression searchExpression(const SearchQuery& query, QString* error)
{
    QRegularExpression::PatternOptions options = QRegularExpression::UseUnicodePropertiesOption;
    if (!query.caseSensitive)
        options |= QRegularExpression::CaseInsensitiveOption;
    QRegularExpression re(query.regex ? query.pattern : QRegularExpression::escape(query.pattern), options);
    if (!re.isValid() && error)
        *error = QStringLiteral("invalid regular expression at offset %1: %2")
                     .arg(re.patternErrorOffset())
                     .arg(re.errorString());
    return re;
}

SearchResults searchIncident(
    const Incident& incident, const SearchQuery& query, const CancelToken* cancel, const ProgressFn& progress)
{
    SearchResults r;
    r.query = query;
    if (query.pattern.isEmpty()) {
        r.error = QStringLiteral("nothing to search for");
        return r;
    }
    const QRegularExpression re = searchExpression(query, &r.error);
    if (!re.isValid())
        return r;
    re.optimize();
    qint64 totalBytes = 0;
    for (const FileInfo& f : incident.files)
        totalBytes += std::max<qint64>(1, f.bytes);
    qint64 doneBytes = 0;
    QStringList unreadable;
    std::vector<qint64> fileCounts(incident.files.size(), 0);
    std::vector<std::map<int, qint64>> rankCounts(incident.files.size());
    for (size_t f = 0; f < incident.files.size(); ++f) {
        const FileInfo& info = incident.files[f];
        if (cancel && cancel->isCancelled()) { // between files too: most are shorter than kCheckEvery
            r.cancelled = true;
            return r;
        }
        const FileLinesResult opened = FileLines::open(info, 4 * 1024 * 1024);
        if (!opened.ok()) {
            unreadable << opened.error;
            doneBytes += std::max<qint64>(1, info.bytes);
            continue;
        }
        const FileLines& lines = *opened.lines;
        const LineRanks ranks(incident, static_cast<int>(f));
        const qint64 n = lines.count();
        for (qint64 l = 0; l < n; ++l) {
            if (l % kCheckEvery == kCheckEvery - 1) {
                if (cancel && cancel->isCancelled()) {
                    r.cancelled = true;
                    return r;
                }
                if (progress && n > 0)
                    progress(doneBytes + std::max<qint64>(1, info.bytes) * l / n, totalBytes);
            }
            const QString text = lines.line(l);
            if (!re.match(text).hasMatch())
                continue;
            const int rank = ranks.rankOf(l + 1);
            ++r.totalHits;
            ++fileCounts[f];
            ++rankCounts[f][rank];
            if (static_cast<qint64>(r.hits.size()) < query.maxHits)
                r.hits.push_back({ static_cast<int>(f), l + 1, rank, text.left(kSearchHitChars) });
            else
                r.truncated = true;
        }
        r.linesSearched += n;
        ++r.filesSearched;
        doneBytes += std::max<qint64>(1, info.bytes);
        if (progress)
            progress(doneBytes, totalBytes);
    }
    if (!unreadable.isEmpty())
        r.error = unreadable.join(QLatin1String("; "));
    groupHits(incident, r, fileCounts, rankCounts);
    return r;
}

} // namespace rankscope
