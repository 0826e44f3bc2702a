// SPDX-License-Identifier: MIT
// The clocks that tools put in front of a line (wrapper_clocks.h).
#include "wrapper_clocks.h"

#include "text_util.h"
#include "wrapper_scan.h"

namespace rankscope {

using namespace wrapper_scan;

namespace {

bool holdsPodArrow(std::string_view s)
{
    for (std::size_t at = s.find('>'); at != std::string_view::npos; at = s.find('>', at + 1)) {
        if (at >= 1 && at + 2 < s.size() && s[at - 1] == ' ' && s[at + 1] == '>' && s[at + 2] == ' ')
            return true;
    }
    return false;
}

} // namespace

// A pod's or container's own clock: "2025-08-12 09:37:03.463948 worker-9 >> ".
bool readPodClock(std::string_view s, LineWrappers& w, std::size_t& length)
{
    // Most lines that start with a digit are a logger's own stamp, without the " >> ": a search for its
    // rare '>' refuses them before the stamp is parsed, which the prefix parser then does once, not twice.
    if (s.size() < 24 || !isDigit(s[0]) || !holdsPodArrow(s))
        return false;
    const ParsedStamp stamp = findTimestamp(s);
    if (!stamp.found() || stamp.offset != 0)
        return false;
    std::size_t pos = static_cast<std::size_t>(stamp.length);
    while (pos < s.size() && s[pos] == ' ')
        ++pos;
    const std::size_t end = wordEnd(s, pos);
    if (end == pos || !startsWith(s.substr(end), " >> "))
        return false;
    w.stamp = stamp;
    w.host = s.substr(pos, end - pos);
    length = end + 4;
    return true;
}

// A log collector's clock: "2024-05-01T10:00:00.123456789Z " (kubectl logs --timestamps, docker logs -t,
// a CI runner, Loki). RFC 3339 in UTC, a 'T' and a 'Z': a collector stamps every line it passes on, a
// traceback's frames too, so it is the wrapper's clock, not a new message. One space follows it; the
// line's own indentation after that space stays. A log console's table copied as text (CloudWatch's:
// "  | 2024-11-28T07:42:11.526Z | message", "2025-05-22T14:26:33.403-07:00 | message") has the clock in
// a column of its own, in UTC or with the zone's offset, and a bar after it.
bool readCollectorClock(std::string_view s, LineWrappers& w, std::size_t& length)
{
    if (s.size() < 22 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':')
        return false;
    std::size_t pos = 19;
    if (s[pos] == '.' || s[pos] == ',') {
        ++pos;
        while (pos < s.size() && pos < 30 && isDigit(s[pos]))
            ++pos;
    }
    std::size_t end = pos; // the clock's end, zone included
    if (end < s.size() && s[end] == 'Z')
        ++end;
    else if (end + 6 <= s.size() && (s[end] == '+' || s[end] == '-') && s[end + 3] == ':')
        end += 6;
    else
        return false;
    const bool column = startsWith(s.substr(end), " | ");
    // The container runtime's own log file (CRI, what kubelet keeps under /var/log/pods): the clock, the
    // stream and F for a full line or P for a part of a longer one, "2024-05-01T10:00:00.123456789Z stdout F
    // ".
    const std::string_view after = s.substr(end);
    const bool cri = startsWith(after, " stdout F ") || startsWith(after, " stderr F ")
        || startsWith(after, " stdout P ") || startsWith(after, " stderr P ");
    if (!column && !cri && (s[end - 1] != 'Z' || end >= s.size() || s[end] != ' '))
        return false;
    const ParsedStamp stamp = findTimestamp(s.substr(0, end));
    if (!stamp.found() || stamp.offset != 0 || stamp.length != static_cast<int>(end))
        return false;
    w.stamp = stamp;
    length = end + (column ? 3 : cri ? 10 : 1);
    return true;
}

// A collector's clock to the minute, "2025-02-18 12:54 " before the job's own prefix ("[rank13]:[E218 ..."):
// a logger prints seconds, so a clock without them is what a console or a log viewer added. Peeled without a
// stamp: a minute orders nothing between ranks, and the zone it is in is not the job's (12:54 against the
// line's own 04:54:22).
bool readMinuteClock(std::string_view s, std::size_t& length)
{
    constexpr std::string_view kShape = "dddd-dd-dd dd:dd [";
    if (s.size() <= kShape.size())
        return false;
    for (std::size_t i = 0; i < kShape.size(); ++i) {
        if (kShape[i] == 'd' ? !isDigit(s[i]) : s[i] != kShape[i])
            return false;
    }
    length = kShape.size() - 1;
    return true;
}

// OpenMPI's --timestamp-output: ctime's "Fri Aug 11 12:31:45 2023" glued to the --tag-output tag that
// follows it ("...2023[1,0]<stdout>:"). Only taken before a tag: ctime's form alone is no wrapper.
bool readMpiTimestamp(std::string_view s, LineWrappers& w, std::size_t& length)
{
    static constexpr std::string_view kMonths = "JanFebMarAprMayJunJulAugSepOctNovDec";
    if (s.size() < 30 || s[3] != ' ' || s[7] != ' ')
        return false;
    const std::size_t month = kMonths.find(s.substr(4, 3));
    if (month == std::string_view::npos || month % 3 != 0)
        return false;
    const auto two = [&](std::size_t at, int& out) {
        if (!isDigit(s[at + 1]) || !(isDigit(s[at]) || s[at] == ' '))
            return false;
        out = (s[at] == ' ' ? 0 : (s[at] - '0') * 10) + (s[at + 1] - '0');
        return true;
    };
    ParsedStamp t;
    if (!two(8, t.day) || s[10] != ' ' || !two(11, t.hour) || s[13] != ':' || !two(14, t.minute)
        || s[16] != ':' || !two(17, t.second) || s[19] != ' ')
        return false;
    int century = 0, year = 0;
    if (!two(20, century) || !two(22, year) || (s[24] != '[' && s[24] != '<'))
        return false;
    t.year = century * 100 + year;
    t.month = static_cast<int>(month / 3) + 1;
    t.kind = StampKind::Syslog;
    t.length = 24;
    w.stamp = t;
    length = 24;
    return true;
}

} // namespace rankscope
