// SPDX-License-Identifier: MIT
// An interleaved console repeats a handful of line prefixes: "[default4]:[rank36]:I0314 02:10:43.212000
// 53386 train.py:212] ". Only the glog stamp's digits change from one line to the next.
// After a full parse, this remembers the launcher part ("[default4]:[rank36]:") with the fields parsed
// from it, and the shape of the glog header: how many fraction digits, and the bytes from the end of the
// time to the "] " that closes the header. A later line that repeats both gets the LinePrefix that
// parseLinePrefix would return, built from the memo and the stamp's digits at fixed offsets.
#pragma once

#include "line_prefix.h"
#include "prefix_index.h"

#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace rankscope {

// The stamp of a glog header, kept as its bytes to be parsed only if it is ever needed: the scanner
// keeps the last one per stream, and most are overwritten by the next line's.
struct GlogStampBytes
{
    char header[24]; // from the severity letter: "I0314 02:10:43.212000", zeros after the line's end
    quint8 fraction = 0; // digits after the seconds' point, 1..9
    StampKind kind = StampKind::None;
    ParsedStamp parse() const;
};

class RepeatedGlogPrefix
{
public:
    // After a full parse of `line`: remembers its prefix when it is a padded glog/torch header behind at
    // most srun, MPICH, tee and rank prefixes.
    void learn(std::string_view line, const LinePrefix& p);
    // True when `line` repeats a remembered prefix; `out` is then what parseLinePrefix(line) returns.
    bool match(std::string_view line, LinePrefix& out);
    // The entry match() used last.
    int lastEntry() const { return m_lastHit; }

    // The steps of match(), for a caller that reads the message its own way: the entry whose
    // launcher, header (any severity letter) and tail `line` repeats, or -1; where that header ends; the
    // message as match() finds it (false when parseLinePrefix would read an NCCL prefix in it); the stamp.
    int headerEntry(std::string_view line);
    std::size_t headerEnd(int entry) const { return m_entries[static_cast<std::size_t>(entry)].headerEnd; }
    bool messageOf(int entry, std::string_view line, std::string_view& message) const;
    void stampOf(int entry, std::string_view line, ParsedStamp& stamp) const;
    void stampBytes(int entry, std::string_view line, GlogStampBytes& out) const // inline: once per line
    {
        const Entry& e = m_entries[static_cast<std::size_t>(entry)];
        const std::size_t at = e.launcher.size();
        const std::size_t room = line.size() - at; // headerEntry() saw the whole header and tail there
        if (room >= sizeof out.header) {
            std::memcpy(out.header, line.data() + at, sizeof out.header);
        } else {
            std::memset(out.header, 0, sizeof out.header);
            std::memcpy(out.header, line.data() + at, room);
        }
        out.fraction = static_cast<quint8>(e.fractionDigits);
        out.kind = e.kind;
    }
    char severityOf(int entry, std::string_view line) const
    {
        return line[m_entries[static_cast<std::size_t>(entry)].launcher.size()];
    }
    int launcherRankOf(int entry) const { return m_entries[static_cast<std::size_t>(entry)].launcherRank; }
    int teeLocalRankOf(int entry) const { return m_entries[static_cast<std::size_t>(entry)].teeLocalRank; }
    int globalRankOf(int entry) const { return m_entries[static_cast<std::size_t>(entry)].globalRank; }
    // The stream the scanner gave an entry's lines in attempt `segment`, or -1 when it has not said.
    int stream(int entry, int segment) const
    {
        const Entry& e = m_entries[static_cast<std::size_t>(entry)];
        return e.segment == segment ? e.stream : -1;
    }
    void setStream(int entry, int segment, int stream)
    {
        Entry& e = m_entries[static_cast<std::size_t>(entry)];
        e.segment = segment;
        e.stream = stream;
    }
    void forget();

private:
    const std::vector<int>& candidates(std::string_view line) const;
    bool repeatsHeader(int entry, std::string_view line) const;
    struct Entry
    {
        std::string launcher; // the bytes before the severity letter
        std::string tail; // from the end of the time to the end of the closing "] "
        quint64 launcherEnd = 0; // the launcher's last 8 bytes, when it has 8
        int launcherRank = -1;
        int teeLocalRank = -1;
        int globalRank = -1;
        int fractionDigits = 0; // 1..9
        StampKind kind = StampKind::None; // Glog or TorchLogs
        std::size_t headerEnd = 0; // launcher, header, fraction and tail
        int segment = -1; // the attempt `stream` belongs to
        int stream = -1;
    };
    static constexpr std::size_t kMaxEntries = 4096; // then everything is forgotten and learned again
    std::vector<Entry> m_entries;
    PrefixIndex m_index; // entries with a launcher prefix, by it
    std::vector<int> m_plain; // entries without one: their lines start with the severity letter
    int m_lastHit = -1;
    bool m_turns = false; // the last hit was the entry after the one before it
};

} // namespace rankscope
