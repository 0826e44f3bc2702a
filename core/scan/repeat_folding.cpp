// SPDX-License-Identifier: MIT
#include "repeat_folding.h"

#include <QHash>
#include <algorithm>

namespace rankscope {

namespace {

bool isDigit(QChar c)
{
    return c.unicode() >= '0' && c.unicode() <= '9';
}

// Feeds the text to the hash with every run of digits as one '#'.
quint64 hashText(quint64 h, const QString& s)
{
    bool inNumber = false;
    for (const QChar c : s) {
        const bool digit = isDigit(c);
        if (digit && inNumber)
            continue;
        inNumber = digit;
        h = (h ^ (digit ? '#' : c.unicode())) * 1099511628211ULL; // FNV-1a
    }
    return (h ^ 0xffU) * 1099511628211ULL; // ends the text: "ab" + "c" differs from "a" + "bc"
}

// Equal but for their numbers: every run of digits matches any other run.
bool sameButNumbers(const QString& a, const QString& b)
{
    qsizetype i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (isDigit(a[i]) && isDigit(b[j])) {
            while (i < a.size() && isDigit(a[i]))
                ++i;
            while (j < b.size() && isDigit(b[j]))
                ++j;
            continue;
        }
        if (a[i] != b[j])
            return false;
        ++i;
        ++j;
    }
    return i == a.size() && j == b.size();
}

quint64 repeatHash(const ScannedEvent& ev)
{
    const LogEvent& e = ev.event;
    quint64 h = 14695981039346656037ULL;
    h = (h ^ static_cast<quint64>(ev.stream)) * 1099511628211ULL;
    h = (h ^ static_cast<quint64>(e.signature + 2)) * 1099511628211ULL;
    h = (h ^ static_cast<quint64>(e.lineCount)) * 1099511628211ULL;
    h = hashText(h, e.text);
    for (const QString& line : e.continuation)
        h = hashText(h, line);
    return h;
}

bool areRepeats(const ScannedEvent& a, const ScannedEvent& b)
{
    const LogEvent& x = a.event;
    const LogEvent& y = b.event;
    if (a.stream != b.stream || a.nccl != b.nccl || a.ncclWarnText != b.ncclWarnText
        || a.rolePriority != b.rolePriority || x.signature != y.signature || x.severity != y.severity
        || x.rank != y.rank || x.localRank != y.localRank || x.device != y.device || x.pid != y.pid
        || x.lineCount != y.lineCount || (x.openedAt > 0) != (y.openedAt > 0)
        || x.failureWord != y.failureWord || x.host != y.host || x.source != y.source
        || x.captures != y.captures || x.continuation.size() != y.continuation.size()
        || !sameButNumbers(x.text, y.text) || !sameButNumbers(x.message, y.message))
        return false;
    for (qsizetype i = 0; i < x.continuation.size(); ++i) {
        if (!sameButNumbers(x.continuation[i], y.continuation[i]))
            return false;
    }
    return true;
}

} // namespace

void RepeatFolder::examine(std::vector<ScannedEvent>& events, std::size_t end, std::vector<int> pinned)
{
    std::sort(pinned.begin(), pinned.end());
    Q_ASSERT(end <= events.size());
    m_dropped.resize(events.size(), false);
    for (std::size_t i = m_examined; i < end; ++i) {
        if (std::binary_search(pinned.begin(), pinned.end(), static_cast<int>(i)))
            continue; // a record still open on it: kept, and no reference for later ones
        ScannedEvent& ev = events[i];
        auto [it, inserted] = m_kinds.try_emplace(repeatHash(ev));
        Kind& kind = it->second;
        if (inserted) {
            kind = { static_cast<int>(i), static_cast<int>(i), 1 };
            continue;
        }
        if (!areRepeats(events[static_cast<std::size_t>(kind.first)], ev))
            continue; // two kinds with one hash: the later stays an event of its own
        if (kind.kept < kKept) {
            ++kind.kept;
            kind.last = static_cast<int>(i);
            continue;
        }
        ScannedEvent& into = events[static_cast<std::size_t>(kind.last)];
        if (ev.lastRepeatStamp.found())
            into.lastRepeatStamp = ev.lastRepeatStamp;
        else if (ev.stamp.found())
            into.lastRepeatStamp = ev.stamp;
        LogEvent& target = into.event;
        target.repeats += 1 + ev.event.repeats;
        target.lastRepeatLine = std::max(ev.event.line, ev.event.lastRepeatLine);
        m_lastFoldedLine = std::max(m_lastFoldedLine, target.lastRepeatLine);
        m_folded += 1;
        ev = ScannedEvent(); // its strings go now; the slot goes at the next compact()
        m_dropped[i] = true;
        ++m_pendingDrops;
    }
    m_examined = std::max(m_examined, end);
}

std::vector<int> RepeatFolder::compact(std::vector<ScannedEvent>& events)
{
    m_dropped.resize(events.size(), false);
    std::vector<int> remap(events.size(), -1);
    std::size_t to = 0;
    for (std::size_t from = 0; from < events.size(); ++from) {
        if (m_dropped[from])
            continue;
        remap[from] = static_cast<int>(to);
        if (to != from)
            events[to] = std::move(events[from]);
        ++to;
    }
    events.resize(to);
    for (auto& [hash, kind] : m_kinds) {
        kind.first = remap[static_cast<std::size_t>(kind.first)];
        kind.last = remap[static_cast<std::size_t>(kind.last)];
        Q_ASSERT(kind.first >= 0 && kind.last >= 0); // references are never folded
    }
    m_examined = m_examined < remap.size() ? static_cast<std::size_t>(remap[m_examined]) : to;
    m_dropped.assign(to, false);
    m_pendingDrops = 0;
    return remap;
}

} // namespace rankscope
