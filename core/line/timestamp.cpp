// SPDX-License-Identifier: MIT
#include "timestamp.h"

#include "cann_header.h"

#include <QDateTime>
#include <algorithm>
#include <cstddef>
#include <limits>

namespace rankscope {

namespace {

constexpr qint64 kEpoch2001 = 978307200; // 2001-01-01T00:00:00Z
constexpr qint64 kEpoch2100 = 4102444800; // 2100-01-01T00:00:00Z

// A read position over the line; every accessor is bounds-checked so malformed input can never overrun.
struct Cursor
{
    std::string_view text;
    std::size_t pos = 0;

    char peek(std::size_t ahead = 0) const { return pos + ahead < text.size() ? text[pos + ahead] : '\0'; }
    bool isDigit(std::size_t ahead = 0) const
    {
        const char c = peek(ahead);
        return c >= '0' && c <= '9';
    }
    bool eat(char c)
    {
        if (peek() != c)
            return false;
        ++pos;
        return true;
    }
    // Exactly n digits.
    bool fixed(int n, int& out)
    {
        int v = 0;
        for (int i = 0; i < n; ++i) {
            if (!isDigit(static_cast<std::size_t>(i)))
                return false;
            v = v * 10 + (peek(static_cast<std::size_t>(i)) - '0');
        }
        pos += static_cast<std::size_t>(n);
        out = v;
        return true;
    }
    // 1..maxDigits digits; returns how many were read (0: none).
    int upTo(int maxDigits, qint64& out)
    {
        qint64 v = 0;
        int n = 0;
        while (n < maxDigits && isDigit()) {
            // Saturates instead of overflowing: only skipped runs (excess fraction digits, up to 64)
            // are longer than 18 digits, and their value is unused (found by fuzz_timestamp).
            if (v <= (std::numeric_limits<qint64>::max() - 9) / 10)
                v = v * 10 + (peek() - '0');
            ++pos;
            ++n;
        }
        out = v;
        return n;
    }
    std::size_t countSpaces() const
    {
        std::size_t n = 0;
        while (peek(n) == ' ')
            ++n;
        return n;
    }
};

bool isSeverityLetter(char c)
{
    return c == 'E' || c == 'W' || c == 'I' || c == 'F' || c == 'V' || c == 'C';
}

bool isAlnum(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// A stamp must not run into more digits or a word: "2026-03-14 02:17:44x1" is not a stamp.
bool atBoundary(const Cursor& c)
{
    return !isAlnum(c.peek());
}

// Up to 9 fraction digits scaled to nanoseconds; further digits are consumed and ignored.
bool fraction(Cursor& c, int& nanos, int& digits)
{
    qint64 v = 0;
    digits = c.upTo(9, v);
    if (digits == 0)
        return false;
    for (int i = digits; i < 9; ++i)
        v *= 10;
    qint64 ignored = 0;
    c.upTo(64, ignored);
    nanos = static_cast<int>(v);
    return true;
}

// HH:MM:SS with an optional '.' or ',' fraction. Returns the fraction separator ('\0' when none).
bool clockTime(Cursor& c, ParsedStamp& s, char& fracSep, int& fracDigits)
{
    fracSep = '\0';
    fracDigits = 0;
    if (!c.fixed(2, s.hour) || !c.eat(':') || !c.fixed(2, s.minute) || !c.eat(':') || !c.fixed(2, s.second))
        return false;
    const char sep = c.peek();
    if ((sep == '.' || sep == ',') && c.isDigit(1)) {
        ++c.pos;
        s.hasFraction = fraction(c, s.nanos, fracDigits);
        fracSep = sep;
    }
    return true;
}

// YYYY-MM-DD[T ]HH:MM:SS[.frac][Z|+HH:MM|+HHMM]
bool isoDateTime(Cursor& c, ParsedStamp& s, char& dateSep, char& fracSep)
{
    int fracDigits = 0;
    if (!c.fixed(4, s.year) || !c.eat('-') || !c.fixed(2, s.month) || !c.eat('-') || !c.fixed(2, s.day))
        return false;
    dateSep = c.peek();
    if (dateSep != 'T' && dateSep != ' ')
        return false;
    ++c.pos;
    if (!clockTime(c, s, fracSep, fracDigits))
        return false;
    const char z = c.peek();
    if (z == 'Z') {
        ++c.pos;
        s.hasZone = true;
    } else if ((z == '+' || z == '-') && c.isDigit(1) && c.isDigit(2)) {
        Cursor probe = c;
        ++probe.pos;
        int hh = 0, mm = 0;
        probe.fixed(2, hh);
        probe.eat(':');
        if (probe.fixed(2, mm)) {
            c = probe;
            s.hasZone = true;
            s.zoneOffsetSeconds = (z == '-' ? -1 : 1) * (hh * 3600 + mm * 60);
        }
    }
    return true;
}

void finish(ParsedStamp& s, StampKind kind, std::size_t begin, std::size_t end)
{
    s.kind = kind;
    s.offset = static_cast<int>(begin);
    s.length = static_cast<int>(end - begin);
}

// The calendar date and clock of epoch seconds (UTC).
void setFromEpoch(qint64 secs, ParsedStamp& s)
{
    const QDateTime t = QDateTime::fromSecsSinceEpoch(secs, Qt::UTC);
    s.year = t.date().year();
    s.month = t.date().month();
    s.day = t.date().day();
    s.hour = t.time().hour();
    s.minute = t.time().minute();
    s.second = t.time().second();
}

// Glog/c10/torch header after the severity letter: MMDD HH:MM:SS.frac. c10 prints MMDD unpadded (314).
bool glogBody(Cursor& c, ParsedStamp& s, bool allowUnpadded, int& fracDigits)
{
    // Abseil's logger before InitGoogle() has no broken-down time: "E0000 00:00:1725383433.302361 ", the
    // epoch seconds where the minutes' seconds would be.
    if (c.text.substr(c.pos, 11) == "0000 00:00:") {
        Cursor e { c.text, c.pos + 11 };
        qint64 secs = 0;
        if (e.upTo(10, secs) != 10 || secs < kEpoch2001 || secs >= kEpoch2100 || e.peek() != '.')
            return false;
        ++e.pos;
        s.hasFraction = fraction(e, s.nanos, fracDigits);
        if (!s.hasFraction || e.peek() != ' ')
            return false;
        setFromEpoch(secs, s);
        c.pos = e.pos;
        return true;
    }
    // The common padded form "MMDD HH:MM:SS.f..." read at fixed offsets: this runs on every c10 line.
    const std::string_view t = c.text.substr(c.pos);
    const char* p = t.data();
    const auto digit = [&](std::size_t i) { return i < t.size() && static_cast<unsigned>(p[i] - '0') <= 9u; };
    if (t.size() >= 15 && digit(0) && digit(1) && digit(2) && digit(3) && p[4] == ' ' && digit(5) && digit(6)
        && p[7] == ':' && digit(8) && digit(9) && p[10] == ':' && digit(11) && digit(12) && p[13] == '.'
        && digit(14)) {
        const auto two = [&](std::size_t i) { return (p[i] - '0') * 10 + (p[i + 1] - '0'); };
        s.month = two(0);
        s.day = two(2);
        s.hour = two(5);
        s.minute = two(8);
        s.second = two(11);
        c.pos += 14;
        s.hasFraction = fraction(c, s.nanos, fracDigits);
        return c.peek() == ' ';
    }
    qint64 mmdd = 0;
    const int n = c.upTo(4, mmdd);
    if (n != 4 && !(allowUnpadded && n == 3))
        return false;
    if (c.isDigit() || !c.eat(' '))
        return false;
    s.month = static_cast<int>(mmdd / 100);
    s.day = static_cast<int>(mmdd % 100);
    char fracSep = '\0';
    if (!clockTime(c, s, fracSep, fracDigits) || fracSep != '.')
        return false;
    return c.peek() == ' ';
}

// "TP0", "DP12", "PP1", "EP3", "CP0": a parallel dimension and the writer's rank in it.
bool isParallelTag(std::string_view t)
{
    static constexpr std::string_view kDims[] = { "TP", "DP", "PP", "EP", "CP" };
    if (t.size() < 3 || t[2] < '0' || t[2] > '9')
        return false;
    for (std::string_view d : kDims) {
        if (t.substr(0, 2) == d)
            return true;
    }
    return false;
}

// "[E314 02:17:44.791203518 file:line]", "[2026-03-14 02:17:44] ", "[  12.345] ", "[NeMo I 2024-...".
ParsedStamp bracketed(std::string_view text)
{
    ParsedStamp s;
    Cursor c { text, 1 };
    if (text.substr(0, 6) == "[NeMo " && isSeverityLetter(c.peek(5)) && c.peek(6) == ' ') {
        c.pos = 8;
        char dateSep = '\0', fracSep = '\0';
        if (!isoDateTime(c, s, dateSep, fracSep) || dateSep != ' ' || c.peek() != ' ')
            return {};
        s.severity = text[6];
        finish(s, StampKind::Iso8601, 8, c.pos);
        return s;
    }
    if (isSeverityLetter(c.peek()) && c.isDigit(1)) {
        s.severity = c.peek();
        ++c.pos;
        int fracDigits = 0;
        if (!glogBody(c, s, true, fracDigits))
            return {};
        s.subsecondOrdered = fracDigits != 9;
        finish(s, StampKind::Glog, 0, c.pos);
        return s;
    }
    c.pos += c.countSpaces();
    if (c.isDigit() && c.isDigit(1) && c.isDigit(2) && c.isDigit(3) && c.peek(4) == '-') {
        char dateSep = '\0', fracSep = '\0';
        if (!isoDateTime(c, s, dateSep, fracSep))
            return {};
        // Ray's C++ log header: "[2024-06-10 12:00:00,123 E 135782 135782] (raylet) file.cc:12: msg".
        if (c.peek() == ' ' && isSeverityLetter(c.peek(1)) && c.peek(2) == ' ' && c.isDigit(3)) {
            const char letter = c.peek(1);
            c.pos += 3;
            qint64 pid = 0, tid = 0;
            if (c.upTo(10, pid) == 0 || !c.eat(' ') || c.upTo(10, tid) == 0 || !c.eat(']'))
                return {};
            s.severity = letter;
            finish(s, StampKind::Iso8601, 0, c.pos);
            return s;
        }
        // SGLang's "[2025-01-12 10:11:12 TP0] " and "[... DP1 TP3] ": the parallel ranks of the writer.
        const std::size_t tagsStart = c.pos + 1;
        for (int tags = 0; tags < 4 && c.peek() == ' ' && isParallelTag(text.substr(c.pos + 1)); ++tags) {
            c.pos += 3;
            while (c.isDigit())
                ++c.pos;
        }
        if (c.pos > tagsStart) {
            s.tagsOffset = static_cast<int>(tagsStart);
            s.tagsLength = static_cast<int>(c.pos - tagsStart);
        }
        if (!c.eat(']'))
            return {};
        const bool nccl = dateSep == ' ' && !s.hasZone && fracSep != ',';
        finish(s, nccl ? StampKind::NcclBracket : StampKind::Iso8601, 0, c.pos);
        return s;
    }
    // dmesg: [ seconds.micros ]
    qint64 secs = 0;
    if (c.upTo(12, secs) == 0 || !c.eat('.') || !c.isDigit())
        return {};
    int nanos = 0, digits = 0;
    fraction(c, nanos, digits);
    if (!c.eat(']'))
        return {};
    s.uptimeSeconds = static_cast<double>(secs) + static_cast<double>(nanos) / 1e9;
    s.nanos = nanos;
    finish(s, StampKind::Dmesg, 0, c.pos);
    return s;
}

int syslogMonth(std::string_view m)
{
    static constexpr std::string_view names[] = { "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug",
        "Sep", "Oct", "Nov", "Dec" };
    for (int i = 0; i < 12; ++i) {
        if (names[i] == m)
            return i + 1;
    }
    return 0;
}

// "Mar 14 02:17:44 host ..." and "Mar  4 02:17:44 host ...".
// A bracketed level word, then the clock: torchelastic's "[INFO] 2021-09-14 14:02:51,853 api: ...", also
// "[ERROR] 2024-05-01T10:00:00Z ...". Offset 0; the length runs to the end of the clock.
ParsedStamp levelThenClock(std::string_view text)
{
    std::size_t close = 0;
    const char letter = bracketedLevel(text, close);
    if (letter == 0)
        return {};
    ParsedStamp s;
    Cursor c { text, close + 2 };
    char dateSep = '\0', fracSep = '\0';
    if (!c.isDigit() || !isoDateTime(c, s, dateSep, fracSep) || !atBoundary(c))
        return {};
    s.severity = letter;
    finish(s, StampKind::Iso8601, 0, c.pos);
    return s;
}

ParsedStamp syslog(std::string_view text)
{
    ParsedStamp s;
    s.month = syslogMonth(text.substr(0, 3));
    Cursor c { text, 3 };
    if (s.month == 0 || !c.eat(' '))
        return {};
    c.eat(' ');
    qint64 day = 0;
    if (c.upTo(2, day) == 0 || !c.eat(' '))
        return {};
    s.day = static_cast<int>(day);
    char fracSep = '\0';
    int fracDigits = 0;
    if (!clockTime(c, s, fracSep, fracDigits) || c.peek() != ' ')
        return {};
    finish(s, StampKind::Syslog, 0, c.pos);
    return s;
}

// "E0314 02:17:44.123456 12345 file.cc:12] msg" (glog) or "... torch/distributed/run.py:766] msg" (torch).
ParsedStamp glogLine(std::string_view text)
{
    ParsedStamp s;
    s.severity = text[0];
    Cursor c { text, 1 };
    int fracDigits = 0;
    if (!glogBody(c, s, false, fracDigits))
        return {};
    const std::size_t end = c.pos;
    // The module path tells torch's Python formatter from glog: look only at the next two short tokens.
    ++c.pos;
    qint64 id = 0;
    bool python = false;
    if (c.upTo(10, id) > 0 && c.eat(' ')) {
        const std::size_t fileStart = c.pos;
        const std::size_t limit = std::min(text.size(), fileStart + 200);
        std::size_t colon = fileStart;
        while (colon < limit && text[colon] != ':' && text[colon] != ' ')
            ++colon;
        python = colon < limit && text[colon] == ':' && colon >= fileStart + 3
            && text.substr(colon - 3, 3) == ".py";
    }
    finish(s, python ? StampKind::TorchLogs : StampKind::Glog, 0, end);
    return s;
}

// vLLM's Python formatter (SGLang and others copied it): the level word, the date without a year and the
// clock, then the source, "ERROR 02-12 02:14:01 worker_base.py:574] msg" or, since vLLM 0.8, "INFO 04-06
// 20:46:48 [multiproc_worker_utils.py:238] msg". Taken only with the source, so that the message starts
// after its "] ".
ParsedStamp levelWordHeader(std::string_view text)
{
    static constexpr std::pair<std::string_view, char> kLevels[] = { { "ERROR ", 'E' }, { "WARNING ", 'W' },
        { "INFO ", 'I' }, { "DEBUG ", 'D' }, { "CRITICAL ", 'C' }, { "WARN ", 'W' } };
    for (const auto& [word, letter] : kLevels) {
        if (text.substr(0, word.size()) != word)
            continue;
        ParsedStamp s;
        Cursor c { text, word.size() };
        char fracSep = '\0';
        int fracDigits = 0;
        if (!c.fixed(2, s.month) || !c.eat('-') || !c.fixed(2, s.day) || !c.eat(' ')
            || !clockTime(c, s, fracSep, fracDigits) || !c.eat(' '))
            return {};
        const std::size_t end = c.pos - 1;
        c.eat('[');
        // "file.py:574]": a file name, a colon and digits, then the bracket, within 160 bytes.
        const std::size_t file = c.pos;
        while (c.pos < text.size() && c.pos < file + 160 && text[c.pos] != ':' && text[c.pos] != ' '
            && text[c.pos] != ']')
            ++c.pos;
        qint64 line = 0;
        if (c.pos == file || !c.eat(':') || c.upTo(7, line) == 0 || !c.eat(']'))
            return {};
        s.severity = letter;
        finish(s, StampKind::LevelWordHeader, 0, end);
        return s;
    }
    return {};
}

// ISO / Python logging at column 0, or epoch seconds.
ParsedStamp leadingDigits(std::string_view text)
{
    ParsedStamp s;
    Cursor c { text, 0 };
    if (c.isDigit(1) && c.isDigit(2) && c.isDigit(3) && c.peek(4) == '-') {
        char dateSep = '\0', fracSep = '\0';
        if (!isoDateTime(c, s, dateSep, fracSep) || !atBoundary(c))
            return {};
        // TensorFlow's and XLA's (TSL's) logger: "2019-07-07 06:48:49.161736: E tensorflow/core/x.cc:279] ":
        // the clock, then the glog letter and source as a glog header has them.
        if (c.peek() == ':' && c.peek(1) == ' ' && isSeverityLetter(c.peek(2)) && c.peek(3) == ' '
            && dateSep == ' ') {
            s.severity = c.peek(2);
            finish(s, StampKind::Glog, 0, c.pos + 3);
            return s;
        }
        const bool python = fracSep == ',' && dateSep == ' ' && !s.hasZone;
        finish(s, python ? StampKind::PythonLogging : StampKind::Iso8601, 0, c.pos);
        return s;
    }
    // oneCCL's logger (Intel GPUs, "ccl_logger::write_prefix"): "2024:08:21-10:24:26:( 4456) |CCL_ERROR| ".
    if (c.isDigit(1) && c.isDigit(2) && c.isDigit(3) && c.peek(4) == ':') {
        char fracSep = '\0';
        int fracDigits = 0;
        if (!c.fixed(4, s.year) || !c.eat(':') || !c.fixed(2, s.month) || !c.eat(':') || !c.fixed(2, s.day)
            || !c.eat('-') || !clockTime(c, s, fracSep, fracDigits) || c.peek() != ':' || c.peek(1) != '(')
            return {};
        finish(s, StampKind::Iso8601, 0, c.pos);
        return s;
    }
    // Hugging Face's example scripts: "01/12/2024 10:11:12 - ERROR - __main__ - ..." (month first).
    if (c.isDigit(1) && c.peek(2) == '/') {
        char fracSep = '\0';
        int fracDigits = 0;
        if (!c.fixed(2, s.month) || !c.eat('/') || !c.fixed(2, s.day) || !c.eat('/') || !c.fixed(4, s.year)
            || !c.eat(' ') || !clockTime(c, s, fracSep, fracDigits) || !atBoundary(c))
            return {};
        finish(s, StampKind::Iso8601, 0, c.pos);
        return s;
    }
    qint64 secs = 0;
    if (c.upTo(10, secs) != 10 || secs < kEpoch2001 || secs >= kEpoch2100)
        return {};
    qint64 ms = 0;
    if (c.peek() == '.' && c.isDigit(1)) {
        ++c.pos;
        int digits = 0;
        s.hasFraction = fraction(c, s.nanos, digits);
        ms = s.nanos / 1000000;
    }
    const char next = c.peek();
    if (next != ' ' && next != '\t' && next != '\0')
        return {};
    if (next == '\0' && c.pos != text.size())
        return {};
    s.epochMs = secs * 1000 + ms;
    finish(s, StampKind::Epoch, 0, c.pos);
    return s;
}

// Howard Hinnant's days_from_civil: days since 1970-01-01 of a proleptic Gregorian date.
qint64 daysFromCivil(qint64 y, int m, int d)
{
    y -= m <= 2 ? 1 : 0;
    const qint64 era = (y >= 0 ? y : y - 399) / 400;
    const qint64 yoe = y - era * 400;
    const qint64 doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const qint64 doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

int daysInMonth(int y, int m)
{
    static constexpr int days[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
    const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return m == 2 && leap ? 29 : days[m - 1];
}

} // namespace

char bracketedLevel(std::string_view text, std::size_t& close)
{
    if (text.empty() || text[0] != '[')
        return 0;
    close = text.substr(0, 11).find("] ");
    if (close == std::string_view::npos)
        return 0;
    const std::string_view level = text.substr(1, close - 1);
    if (level == "ERROR")
        return 'E';
    if (level == "FATAL" || level == "CRITICAL")
        return 'F';
    if (level == "WARNING" || level == "WARN")
        return 'W';
    if (level == "INFO" || level == "DEBUG" || level == "EVENT" || level == "TRACE")
        return 'I';
    return 0;
}

ParsedStamp findTimestamp(std::string_view text)
{
    if (text.size() < 6)
        return {};
    const char c = text[0];
    if (c >= 'C' && c <= 'W' && text[1] >= 'A' && text[1] <= 'Z') {
        if (const ParsedStamp s = levelWordHeader(text); s.found())
            return s;
    }
    if (c == '[') {
        if (text[1] >= 'A' && text[1] <= 'Z' && !(text[2] >= '0' && text[2] <= '9')) {
            CannHeader cann;
            if (readCannHeader(text, cann))
                return cann.stamp;
            if (const ParsedStamp s = levelThenClock(text); s.found())
                return s;
        }
        return bracketed(text);
    }
    if (c >= '0' && c <= '9')
        return leadingDigits(text);
    if (isSeverityLetter(c) && text[1] >= '0' && text[1] <= '9')
        return glogLine(text);
    if (c >= 'A' && c <= 'S')
        return syslog(text);
    return {};
}

std::optional<qint64> stampToMs(const ParsedStamp& s, int defaultYear)
{
    if (s.kind == StampKind::None || s.kind == StampKind::Dmesg)
        return std::nullopt;
    if (s.kind == StampKind::Epoch)
        return s.epochMs;
    const int year = s.year != 0 ? s.year : defaultYear;
    if (year < 1 || s.month < 1 || s.month > 12 || s.day < 1 || s.day > daysInMonth(year, s.month)
        || s.hour > 23 || s.minute > 59 || s.second > 60)
        return std::nullopt;
    const qint64 days = daysFromCivil(year, s.month, s.day);
    const qint64 seconds = ((days * 24 + s.hour) * 60 + s.minute) * 60 + s.second - s.zoneOffsetSeconds;
    const qint64 subMs = s.subsecondOrdered ? s.nanos / 1000000 : 0;
    return seconds * 1000 + subMs;
}

} // namespace rankscope
