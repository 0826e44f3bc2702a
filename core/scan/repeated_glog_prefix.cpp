// SPDX-License-Identifier: MIT
#include "repeated_glog_prefix.h"

#include "byte_compare.h"

#include <algorithm>
#include <cstring>

namespace rankscope {

namespace {

// "L" + "MMDD HH:MM:SS." before the fraction digits.
constexpr std::size_t kHeader = 15;
constexpr std::size_t kMaxTail = 200; // parseLinePrefix looks for the closing "] " in 256 bytes

bool isDigit(char c)
{
    return static_cast<unsigned>(c - '0') <= 9u;
}

bool isSeverityLetter(char c)
{
    return c == 'E' || c == 'W' || c == 'I' || c == 'F' || c == 'V' || c == 'C';
}

bool isAlnum(char c)
{
    return isDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// The padded glog header at `h`: a severity letter, "MMDD HH:MM:SS." and `fraction` digits. `room` is how
// many bytes may be read from `h`.
bool paddedHeader(const char* h, std::size_t fraction, std::size_t room)
{
    if (!isSeverityLetter(h[0]))
        return false;
    if (room >= kHeader + 8 + 1) {
        // Word by word: h[1..8] "MMDD HH:", h[8..15] ":MM:SS.f", then up to eight fraction digits.
        const quint64 date = loadWord(h + 1);
        const quint64 time = loadWord(h + 8);
        if ((date & 0xFF0000FF00000000ull) != 0x3A00002000000000ull || !digitsAt(date, 0x00FFFF00FFFFFFFFull)
            || (time & 0x00FF0000FF0000FFull) != 0x002E00003A00003Aull
            || !digitsAt(time, 0xFF00FFFF00FFFF00ull))
            return false;
        const std::size_t inWord = fraction < 8 ? fraction : 8;
        const quint64 mask = inWord == 8 ? ~quint64 { 0 } : (quint64 { 1 } << (8 * inWord)) - 1;
        return digitsAt(loadWord(h + kHeader), mask) && (fraction < 9 || isDigit(h[kHeader + 8]));
    }
    if (h[5] != ' ' || h[8] != ':' || h[11] != ':' || h[14] != '.')
        return false;
    static constexpr std::size_t digitsAt[] = { 1, 2, 3, 4, 6, 7, 9, 10, 12, 13 };
    for (const std::size_t i : digitsAt) {
        if (!isDigit(h[i]))
            return false;
    }
    for (std::size_t i = 0; i < fraction; ++i) {
        if (!isDigit(h[kHeader + i]))
            return false;
    }
    return true;
}

// readNcclPrefix's first step: the first word ends at ':' (or runs past 256 bytes).
bool mayStartNcclPrefix(std::string_view message)
{
    const std::size_t n = std::min<std::size_t>(message.size(), 256);
    for (std::size_t i = 0; i < n; ++i) {
        if (message[i] == ' ')
            return false;
        if (message[i] == ':')
            return true;
    }
    return message.size() > 256;
}

int two(const char* p)
{
    return (p[0] - '0') * 10 + (p[1] - '0');
}

// The number the first `count` (1..8) digits at `p` spell, all at once: the digits are moved to the top of
// a word (zeros in front) and pairs, quads and octets are combined by three multiplications.
quint64 digitsValue(const char* p, std::size_t count)
{
    quint64 x = loadWord(p) << (8 * (8 - count));
    x = ((x & 0x0F0F0F0F0F0F0F0Full) * 2561) >> 8;
    x = ((x & 0x00FF00FF00FF00FFull) * 6553601) >> 16;
    return ((x & 0x0000FFFF0000FFFFull) * 42949672960001ull) >> 32;
}

// After the header: the message, past its leading spaces. parseLinePrefix would look for an NCCL
// "host:pid:tid" there; such lines are left to it (false).
bool messageAt(std::string_view line, std::size_t at, std::string_view& message)
{
    message = line.substr(at);
    while (!message.empty() && message[0] == ' ')
        message.remove_prefix(1);
    return message.empty() || !isAlnum(message[0]) || !mayStartNcclPrefix(message);
}

} // namespace

void RepeatedGlogPrefix::learn(std::string_view line, const LinePrefix& p)
{
    const ParsedStamp& s = p.stamp;
    if ((s.kind != StampKind::Glog && s.kind != StampKind::TorchLogs) || s.offset != 0 || !p.pdshHost.empty()
        || !p.rayIp.empty() || p.rayPid >= 0 || p.nccl != NcclLevel::None || p.afterLauncher.empty()
        || p.afterLauncher.data() < line.data() || p.message.data() < p.afterLauncher.data())
        return;
    const auto at = static_cast<std::size_t>(p.afterLauncher.data() - line.data());
    const auto length = static_cast<std::size_t>(s.length);
    if (length <= kHeader || length > kHeader + 9 || at + length >= line.size()
        || !paddedHeader(line.data() + at, length - kHeader, line.size() - at))
        return; // the bracketed c10 form, the unpadded one, or a fraction of more than 9 digits
    // The tail runs to the "] " that closes the header; the message starts after it (and its spaces).
    const std::string_view rest = line.substr(at + length);
    const std::size_t close = rest.substr(0, kMaxTail).find("] ");
    if (close == std::string_view::npos)
        return;
    const std::string_view tail = rest.substr(0, close + 2);
    for (const int i : candidates(line)) {
        const Entry& e = m_entries[static_cast<std::size_t>(i)];
        if (e.launcher.size() == at && e.fractionDigits == static_cast<int>(length - kHeader)
            && std::memcmp(e.launcher.data(), line.data(), at) == 0 && tail == e.tail)
            return; // already known
    }
    if (m_entries.size() >= kMaxEntries)
        forget();
    Entry e;
    e.launcher.assign(line.substr(0, at));
    e.tail.assign(tail);
    e.launcherRank = p.launcherRank;
    e.teeLocalRank = p.teeLocalRank;
    e.globalRank = p.globalRank;
    e.fractionDigits = static_cast<int>(length - kHeader);
    e.kind = s.kind;
    e.launcherEnd = at >= 8 ? loadWord(line.data() + at - 8) : 0;
    e.headerEnd = at + length + e.tail.size();
    const int index = static_cast<int>(m_entries.size());
    if (e.launcher.empty())
        m_plain.push_back(index);
    else
        m_index.add(e.launcher, index);
    m_entries.push_back(std::move(e));
}

bool RepeatedGlogPrefix::match(std::string_view line, LinePrefix& out)
{
    const int i = headerEntry(line);
    std::string_view message;
    if (i < 0 || !messageOf(i, line, message))
        return false;
    const Entry& e = m_entries[static_cast<std::size_t>(i)];
    out = LinePrefix {};
    out.launcherRank = e.launcherRank;
    out.teeLocalRank = e.teeLocalRank;
    out.globalRank = e.globalRank;
    out.afterLauncher = line.substr(e.launcher.size());
    out.message = message;
    stampOf(i, line, out.stamp);
    return true;
}

bool RepeatedGlogPrefix::repeatsHeader(int entry, std::string_view line) const
{
    const Entry& e = m_entries[static_cast<std::size_t>(entry)];
    const std::size_t at = e.launcher.size();
    const auto fraction = static_cast<std::size_t>(e.fractionDigits);
    const std::size_t tailAt = at + kHeader + fraction;
    if (line.size() < tailAt + e.tail.size())
        return false;
    // The launcher's last bytes ("rank36]:") tell the entries of one console apart.
    if (at >= 8 && loadWord(line.data() + at - 8) != e.launcherEnd)
        return false;
    return sameBytes(line.data(), e.launcher.data(), at)
        && paddedHeader(line.data() + at, fraction, line.size() - at)
        && sameBytes(line.data() + tailAt, e.tail.data(), e.tail.size());
}

int RepeatedGlogPrefix::headerEntry(std::string_view line)
{
    // A per-rank console repeats one prefix, and a node's console takes its ranks in turn, in the order
    // they were learned: the last entry that matched and the one after it are tried first, the one after
    // it first when the last line took that turn.
    const int last = m_lastHit;
    const int first = m_turns ? last + 1 : last;
    for (const int i : { first, m_turns ? last : last + 1 }) {
        if (i >= 0 && static_cast<std::size_t>(i) < m_entries.size() && repeatsHeader(i, line)) {
            m_turns = i == last + 1;
            return m_lastHit = i;
        }
    }
    m_turns = false;
    for (const int i : candidates(line)) {
        if (i != last && i != last + 1 && repeatsHeader(i, line))
            return m_lastHit = i;
    }
    return -1;
}

bool RepeatedGlogPrefix::messageOf(int entry, std::string_view line, std::string_view& message) const
{
    return messageAt(line, headerEnd(entry), message);
}

void RepeatedGlogPrefix::stampOf(int entry, std::string_view line, ParsedStamp& s) const
{
    GlogStampBytes bytes;
    stampBytes(entry, line, bytes);
    s = bytes.parse();
}

ParsedStamp GlogStampBytes::parse() const
{
    const char* h = header;
    ParsedStamp s;
    s.kind = kind;
    s.length = static_cast<int>(kHeader + fraction);
    s.severity = h[0];
    s.month = two(h + 1);
    s.day = two(h + 3);
    s.hour = two(h + 6);
    s.minute = two(h + 9);
    s.second = two(h + 12);
    static constexpr int scale[] = { 1'000'000'000, 100'000'000, 10'000'000, 1'000'000, 100'000, 10'000,
        1'000, 100, 10, 1 };
    quint64 nanos = digitsValue(h + kHeader, fraction < 8 ? fraction : 8); // reads header[15..22]
    if (fraction == 9)
        nanos = nanos * 10 + static_cast<quint64>(h[kHeader + 8] - '0');
    s.nanos = static_cast<int>(nanos) * scale[fraction];
    return s;
}

// A launcher prefix never starts with a severity letter, so a line that does can only repeat a plain entry.
const std::vector<int>& RepeatedGlogPrefix::candidates(std::string_view line) const
{
    return !line.empty() && isSeverityLetter(line[0]) ? m_plain : m_index.candidates(line);
}

void RepeatedGlogPrefix::forget()
{
    m_entries.clear();
    m_index.clear();
    m_plain.clear();
    m_lastHit = -1;
    m_turns = false;
}

} // namespace rankscope
