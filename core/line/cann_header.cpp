// SPDX-License-Identifier: MIT
#include "cann_header.h"

namespace rankscope {

namespace {

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

// Exactly n digits at pos; advances pos.
bool fixedDigits(std::string_view t, std::size_t& pos, int n, int& out)
{
    int v = 0;
    for (int i = 0; i < n; ++i, ++pos) {
        if (pos >= t.size() || !isDigit(t[pos]))
            return false;
        v = v * 10 + (t[pos] - '0');
    }
    out = v;
    return true;
}

bool eat(std::string_view t, std::size_t& pos, char c)
{
    if (pos >= t.size() || t[pos] != c)
        return false;
    ++pos;
    return true;
}

// Up to `max` digits at pos (at least one); advances pos.
bool number(std::string_view t, std::size_t& pos, qint64& out, int max = 10)
{
    const std::size_t start = pos;
    qint64 v = 0;
    while (pos < t.size() && isDigit(t[pos]) && pos - start < static_cast<std::size_t>(max))
        v = v * 10 + (t[pos++] - '0');
    out = v;
    return pos > start;
}

// "2023-10-16-08:41:56" with an optional ".291" (ms) and ".748" (us) after it.
bool cannClock(std::string_view t, std::size_t& pos, ParsedStamp& s)
{
    if (!fixedDigits(t, pos, 4, s.year) || !eat(t, pos, '-') || !fixedDigits(t, pos, 2, s.month)
        || !eat(t, pos, '-') || !fixedDigits(t, pos, 2, s.day) || !eat(t, pos, '-')
        || !fixedDigits(t, pos, 2, s.hour) || !eat(t, pos, ':') || !fixedDigits(t, pos, 2, s.minute)
        || !eat(t, pos, ':') || !fixedDigits(t, pos, 2, s.second))
        return false;
    int ms = 0, us = 0;
    std::size_t probe = pos;
    if (eat(t, probe, '.') && fixedDigits(t, probe, 3, ms)) {
        pos = probe;
        if (eat(t, probe, '.') && fixedDigits(t, probe, 3, us))
            pos = probe;
        else
            us = 0;
        s.nanos = ms * 1000000 + us * 1000;
        s.hasFraction = true;
    }
    return pos >= t.size() || !isDigit(t[pos]);
}

// "(PID:927000, Device:3, RankID:3) ": torch_npu's writer fields; unknown keys are skipped.
void readWriterFields(std::string_view t, std::size_t& pos, CannHeader& out)
{
    const std::size_t close = t.find(") ", pos);
    if (pos >= t.size() || t[pos] != '(' || close == std::string_view::npos || close - pos > 80)
        return;
    std::string_view fields = t.substr(pos + 1, close - pos - 1);
    while (!fields.empty()) {
        const std::size_t comma = fields.find(',');
        std::string_view field = fields.substr(0, comma);
        fields = comma == std::string_view::npos ? std::string_view() : fields.substr(comma + 1);
        while (!field.empty() && field.front() == ' ')
            field.remove_prefix(1);
        const std::size_t colon = field.find(':');
        if (colon == std::string_view::npos)
            continue;
        std::size_t at = colon + 1;
        qint64 v = -1;
        if (!number(field, at, v))
            continue;
        const std::string_view key = field.substr(0, colon);
        if (key == "PID")
            out.pid = v;
        else if (key == "Device")
            out.device = static_cast<int>(v);
        else if (key == "RankID")
            out.rank = static_cast<int>(v);
    }
    pos = close + 2;
}

} // namespace

bool readCannHeader(std::string_view t, CannHeader& out)
{
    if (t.size() < 30 || t[0] != '[')
        return false;
    std::size_t close = 0;
    CannHeader h;
    h.stamp.severity = bracketedLevel(t, close);
    if (h.stamp.severity == 0)
        return false;
    std::size_t pos = close + 2;
    if (pos < t.size() && isDigit(t[pos])) {
        // torch_npu: "[ERROR] <clock> (PID:..., Device:..., RankID:...) "
        if (!cannClock(t, pos, h.stamp))
            return false;
        h.stamp.length = static_cast<int>(pos);
        if (eat(t, pos, ' '))
            readWriterFields(t, pos, h);
    } else {
        // The plog: "MODULE(pid,process):<clock> [file:line][tid]" (newer CANN puts a space between them).
        const std::size_t open = t.find('(', pos);
        if (open == std::string_view::npos || open == pos || open - pos > 24)
            return false;
        for (std::size_t i = pos; i < open; ++i)
            if (!((t[i] >= 'A' && t[i] <= 'Z') || isDigit(t[i]) || t[i] == '_'))
                return false;
        pos = open + 1;
        if (!number(t, pos, h.pid) || !eat(t, pos, ','))
            return false;
        const std::size_t end = t.find("):", pos);
        if (end == std::string_view::npos || end - pos > 128)
            return false;
        pos = end + 2;
        if (!cannClock(t, pos, h.stamp))
            return false;
        h.stamp.length = static_cast<int>(pos);
        eat(t, pos, ' ');
        for (int group = 0; group < 2 && pos < t.size() && t[pos] == '['; ++group) {
            const std::size_t shut = t.find(']', pos);
            if (shut == std::string_view::npos || shut - pos > 96)
                break;
            std::size_t at = pos + 1;
            qint64 tid = -1;
            if (group == 1 && number(t, at, tid) && at == shut)
                h.tid = tid;
            pos = shut + 1;
            if (group == 0)
                eat(t, pos, ' ');
        }
    }
    h.stamp.kind = StampKind::Cann;
    h.stamp.offset = 0;
    h.messageStart = pos;
    out = h;
    return true;
}

std::size_t cannCodeLength(std::string_view t)
{
    if (t.size() < 8 || (t[0] != 'E' && t[0] != 'W'))
        return 0;
    if (!((t[1] >= 'A' && t[1] <= 'Z') || isDigit(t[1])))
        return 0;
    for (std::size_t i = 2; i < 6; ++i)
        if (!isDigit(t[i]))
            return 0;
    return t[6] == ':' && t[7] == ' ' ? 8 : 0;
}

bool isCannRuntimeReport(std::string_view m)
{
    const std::size_t code = cannCodeLength(m);
    return code != 0 && m[0] == 'E' && m.substr(code) != "Inner Error!";
}

ParsedStamp cannCodeClock(std::string_view t, qint64& pid)
{
    std::size_t pos = cannCodeLength(t);
    if (pos == 0)
        return {};
    qint64 named = -1;
    if (t.substr(pos, 6) == "[PID: ") {
        std::size_t at = pos + 6;
        if (!number(t, at, named) || !eat(t, at, ']') || !eat(t, at, ' '))
            return {};
        pos = at;
    }
    ParsedStamp s;
    const std::size_t begin = pos;
    if (!cannClock(t, pos, s))
        return {};
    s.kind = StampKind::Cann;
    pid = named;
    s.offset = static_cast<int>(begin);
    s.length = static_cast<int>(pos - begin);
    return s;
}

} // namespace rankscope
