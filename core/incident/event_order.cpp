// SPDX-License-Identifier: MIT
#include "event_order.h"

#include <QDate>
#include <QFileInfo>
#include <algorithm>
#include <map>
#include <tuple>

namespace rankscope {

namespace {

EventTime resolve(const ParsedStamp& s, int year)
{
    EventTime t;
    if (!s.found())
        return t;
    if (auto ms = stampToMs(s, year)) {
        t.ms = *ms;
        t.valid = true;
        t.wholeSecond = !(s.hasFraction && s.subsecondOrdered);
    }
    return t;
}

// An unstamped record takes the time of the nearer stamped line of its file.
EventTime inferTime(const ScannedEvent& ev, int year)
{
    const qint64 line = ev.event.line;
    const EventTime before = resolve(ev.prevStamp, year);
    const EventTime after = resolve(ev.nextStamp, year);
    EventTime t;
    if (before.valid && (!after.valid || line - ev.prevStampLine <= ev.nextStampLine - line))
        t = before;
    else if (after.valid)
        t = after;
    t.inferred = t.valid;
    return t;
}

} // namespace

int incidentYear(const std::vector<FileScan>& scans, const QDate& written)
{
    std::map<int, int> votes;
    for (const FileScan& s : scans) {
        if (s.yearSeen != 0)
            ++votes[s.yearSeen];
    }
    // No stamp says its year: the year the log was written, unless a stamp's day comes after that date
    // (vLLM's "12-08 20:46:56" in a file written on 2026-12-06): then the year before. A log is never
    // written before its lines happened.
    int fallbackYear = written.year();
    for (const FileScan& s : scans) {
        for (const StreamStats& st : s.streams) {
            const ParsedStamp& f = st.firstStamp;
            if (st.hasStamp && f.year == 0 && f.month >= 1 && f.month <= 12
                && (f.month > written.month() || (f.month == written.month() && f.day > written.day() + 1)))
                fallbackYear = written.year() - 1;
        }
    }
    int best = fallbackYear, count = 0;
    for (const auto& [year, n] : votes) {
        if (n > count) {
            best = year;
            count = n;
        }
    }
    return best;
}

EventOrder sortEvents(std::vector<FileScan>& scans, std::vector<LogEvent> earlier, int fileBase)
{
    EventOrder out;
    QDate written = QDate::currentDate();
    for (const FileScan& s : scans) {
        if (!s.info.content.isEmpty() || s.info.path.startsWith(QLatin1Char('<')))
            continue;
        // An archive's member ("job.tar.gz!/node3/rank-24.log") has the archive's date.
        const qsizetype member = s.info.path.indexOf(QLatin1String("!/"));
        const QDate modified =
            QFileInfo(member < 0 ? s.info.path : s.info.path.left(member)).lastModified().date();
        if (modified.isValid())
            written = modified;
        break;
    }
    out.year = incidentYear(scans, written);
    // Said to the reader when no clock carried a year (glog, c10, vLLM, syslog): the dates shown rest on it.
    out.yearAssumed = std::none_of(scans.begin(), scans.end(), [](const FileScan& s) {
        return s.yearSeen != 0;
    }) && std::any_of(scans.begin(), scans.end(), [](const FileScan& s) {
        return std::any_of(s.streams.begin(), s.streams.end(), [](const StreamStats& st) {
            return st.hasStamp && st.firstStamp.year == 0 && st.firstStamp.month >= 1;
        });
    });
    out.earlier = std::move(earlier);

    // `arrival` points at the events in the order they came in (the earlier ones, then each file's); the
    // sort permutes that order, and placeEvents() moves each event once, into its sorted place.
    std::size_t eventCount = out.earlier.size();
    for (const FileScan& s : scans)
        eventCount += s.events.size();
    out.arrival.reserve(eventCount);
    std::vector<bool> ncclWarnText; // per event: its text holds " NCCL WARN "
    ncclWarnText.reserve(eventCount);
    for (LogEvent& e : out.earlier) { // none when called from buildIncident()
        out.arrival.push_back(&e);
        ncclWarnText.push_back(e.text.contains(QLatin1String(" NCCL WARN ")));
    }
    for (size_t fi = 0; fi < scans.size(); ++fi) {
        FileScan& s = scans[fi];
        if (!s.info.hasTimestamps && !s.events.empty())
            out.untimedFiles.push_back(s.info.displayPath);
        for (ScannedEvent& ev : s.events) {
            LogEvent& e = ev.event;
            e.file = fileBase + static_cast<int>(fi);
            e.time = ev.stamp.found() ? resolve(ev.stamp, out.year) : inferTime(ev, out.year);
            if (ev.lastRepeatStamp.found())
                e.lastRepeatTime = resolve(ev.lastRepeatStamp, out.year);
            out.arrival.push_back(&e);
            ncclWarnText.push_back(ev.ncclWarnText); // found in the line's bytes by the scan
        }
    }

    // Timed events by time; at equal times NCCL's own line first (it is where errors originate), then
    // the milder severity (the fingerprint is an early WARN, then the ERROR that carries it); untimed
    // events keep their file order after the timed ones. The keys are computed once per event.
    struct Key
    {
        bool timed;
        qint64 ms;
        bool inferred;
        bool ncclWarn;
        Severity severity;
        int file;
        qint64 line;
        std::size_t index;
    };
    std::vector<Key> keys;
    keys.reserve(out.arrival.size());
    for (std::size_t i = 0; i < out.arrival.size(); ++i) {
        const LogEvent& e = *out.arrival[i];
        keys.push_back({ e.time.valid, e.time.valid ? e.time.ms : 0, e.time.inferred,
            e.message.size() != e.text.size() && ncclWarnText[i], e.severity, e.file, e.line, i });
    }
    // A time borrowed from a stamped neighbour says nothing finer: within one file the order of writing
    // does (an unstamped exception line above the stamped warning it caused). So the events of one file at
    // one time, when one of them has an inferred time, are a block in line order, placed among the other
    // files' events by its first-placed member. Comparing such pairs by line and the others by kind would
    // not be an ordering (a < b < c < a), and std::sort's result would depend on the other events.
    std::sort(keys.begin(), keys.end(), [](const Key& a, const Key& b) {
        return std::make_tuple(!a.timed, a.ms, a.file, a.line, a.index)
            < std::make_tuple(!b.timed, b.ms, b.file, b.line, b.index);
    });
    for (std::size_t from = 0; from < keys.size();) {
        std::size_t to = from + 1;
        bool inferred = keys[from].inferred;
        while (to < keys.size() && keys[to].timed == keys[from].timed && keys[to].ms == keys[from].ms
            && keys[to].file == keys[from].file) {
            inferred = inferred || keys[to].inferred;
            ++to;
        }
        if (inferred && keys[from].timed) {
            const auto best = std::min_element(keys.begin() + static_cast<std::ptrdiff_t>(from),
                keys.begin() + static_cast<std::ptrdiff_t>(to), [](const Key& a, const Key& b) {
                    return std::make_pair(!a.ncclWarn, a.severity) < std::make_pair(!b.ncclWarn, b.severity);
                });
            const bool ncclWarn = best->ncclWarn;
            const Severity severity = best->severity;
            for (std::size_t i = from; i < to; ++i) {
                keys[i].ncclWarn = ncclWarn;
                keys[i].severity = severity;
            }
        }
        from = to;
    }
    // Timed first, by time; then NCCL's own line, the milder severity; then file order.
    std::sort(keys.begin(), keys.end(), [](const Key& a, const Key& b) {
        const auto rank = [](const Key& k) {
            return std::make_tuple(!k.timed, k.ms, k.timed && !k.ncclWarn,
                k.timed ? k.severity : Severity::Info, k.file, k.line, k.index);
        };
        return rank(a) < rank(b);
    });
    out.sorted.reserve(keys.size());
    for (const Key& k : keys)
        out.sorted.push_back(k.index);
    return out;
}

void placeEvents(std::vector<FileScan>& scans, Incident& inc, EventOrder order)
{
    const int year = order.year;
    inc.files.reserve(inc.files.size() + scans.size()); // 100,000 files: no doubling slack
    for (FileScan& s : scans) {
        // Rank activity span from its streams' stamped lines.
        for (const StreamStats& st : s.streams) {
            if (st.rank < 0 || !st.hasStamp)
                continue;
            auto it = std::lower_bound(inc.ranks.begin(), inc.ranks.end(), st.rank,
                [](const RankInfo& r, int v) { return r.rank < v; });
            if (it == inc.ranks.end() || it->rank != st.rank)
                continue;
            const EventTime first = resolve(st.firstStamp, year), last = resolve(st.lastStamp, year);
            if (first.valid && (!it->timesKnown || first.ms < it->firstTime.ms))
                it->firstTime = first;
            if (last.valid && (!it->timesKnown || last.ms > it->lastTime.ms))
                it->lastTime = last;
            it->timesKnown = it->timesKnown || first.valid || last.valid;
        }
        inc.totalBytes += s.info.bytes;
        inc.files.push_back(std::move(s.info));
    }
    const QStringList& untimedFiles = order.untimedFiles;
    if (!untimedFiles.isEmpty()) {
        inc.warnings.push_back(QStringLiteral(
            "%1 file(s) have no timestamps (%2): their events are ordered by line only, and their order "
            "against other ranks is unknown")
                                   .arg(untimedFiles.size())
                                   .arg(untimedFiles.mid(0, 3).join(QStringLiteral(", "))
                                       + (untimedFiles.size() > 3 ? QStringLiteral(", …") : QString())));
    }
    if (order.yearAssumed)
        inc.warnings.push_back(
            QStringLiteral("the clocks carry no year: %1 is assumed (the year the log file was "
                           "written, or the year before when a date would fall after it)")
                .arg(order.year));
    inc.events.clear();
    inc.events.reserve(order.sorted.size());
    for (const std::size_t i : order.sorted)
        inc.events.push_back(std::move(*order.arrival[i]));

    // First WARN per rank: by time where known, else the first in file order (events are sorted so).
    inc.firstWarn = -1;
    int firstUnattributed = -1;
    for (size_t i = 0; i < inc.events.size(); ++i) {
        const LogEvent& e = inc.events[i];
        if (e.severity < Severity::Warn)
            continue;
        if (e.rank < 0) {
            if (firstUnattributed < 0)
                firstUnattributed = static_cast<int>(i);
            continue;
        }
        if (inc.firstWarn < 0)
            inc.firstWarn = static_cast<int>(i);
        auto it = std::lower_bound(
            inc.ranks.begin(), inc.ranks.end(), e.rank, [](const RankInfo& r, int v) { return r.rank < v; });
        if (it != inc.ranks.end() && it->rank == e.rank && it->firstWarn < 0)
            it->firstWarn = static_cast<int>(i);
    }
    if (inc.firstWarn < 0)
        inc.firstWarn = firstUnattributed;
}

} // namespace rankscope
