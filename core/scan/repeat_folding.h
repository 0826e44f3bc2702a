// SPDX-License-Identifier: MIT
// Folds the repeats of one event into the events before it while a file is scanned: a warning printed at
// every step, a watchdog's retry, a tiled log. Memory then grows with what a log says, not with how often
// it says it (a 294 MB log of one c10d warning repeated by 8 ranks held 2.5 GB of events).
//
// Two events are repeats when the same writer (stream) wrote them with the same severity, signature and
// captures, the same rank, and the same text and continuation but for their numbers (a run of digits
// matches any other run). The first kKept of each kind stay events; each later one is counted on the
// last of them (LogEvent::repeats, LogEvent::lastRepeatLine) and dropped, and the file gets a note.
// The diagnosis reads a failure from its first occurrences; what it counts (collateral) adds the repeats.
#pragma once

#include "scan_records.h"

#include <cstddef>
#include <unordered_map>
#include <vector>

namespace rankscope {

class RepeatFolder
{
public:
    static constexpr int kKept = 8; // events of one kind kept per writer before the rest are counted
    // Events this close to the newest are not examined yet: the record builder may still add to them.
    static constexpr std::size_t kSettle = 16;
    static constexpr std::size_t kBatch = 2048; // examined together, before a line, once that many came

    // True when enough events came since the last examination for another one.
    bool due(std::size_t eventCount) const { return eventCount >= m_examined + kSettle + kBatch; }
    // Examines the events from the first not yet examined up to `end` (exclusive), in order. A pinned
    // event (one a record still being read may change) stays as it is and is never a repeat's reference.
    void examine(std::vector<ScannedEvent>& events, std::size_t end, std::vector<int> pinned);
    // True when dropped events take as much room as the kept ones: compact() is worth its copy.
    bool worthCompacting(std::size_t eventCount) const { return m_pendingDrops * 2 >= eventCount; }
    // Removes the folded events. Returns, for each old index, its new index, or -1 when it was folded.
    std::vector<int> compact(std::vector<ScannedEvent>& events);
    bool hasDrops() const { return m_pendingDrops > 0; }
    qint64 folded() const { return m_folded; }
    qint64 lastFoldedLine() const { return m_lastFoldedLine; }

private:
    struct Kind
    {
        int first = -1; // the first event of the kind: repeats are compared with it
        int last = -1; // the last one kept: it carries the count
        int kept = 0;
    };
    std::unordered_map<quint64, Kind> m_kinds; // by repeatHash()
    std::vector<bool> m_dropped; // by event index, since the last compact()
    std::size_t m_examined = 0;
    std::size_t m_pendingDrops = 0;
    qint64 m_folded = 0;
    qint64 m_lastFoldedLine = 0;
};

} // namespace rankscope
