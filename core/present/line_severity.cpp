// SPDX-License-Identifier: MIT
#include "line_severity.h"

namespace rankscope {

namespace {

// Skips launcher and rank prefixes such as "[default3]:", "[rank7]:" and "0: " so the level
// marker that follows them is found at the start.
QStringView stripPrefixes(QStringView s)
{
    for (int guard = 0; guard < 4; ++guard) {
        if (s.startsWith(u'[')) {
            const qsizetype close = s.indexOf(QLatin1String("]:"));
            if (close > 1 && close < 24) {
                s = s.mid(close + 2);
                continue;
            }
        }
        qsizetype digits = 0;
        while (digits < s.size() && digits < 6 && s.at(digits).isDigit())
            ++digits;
        if (digits > 0 && s.mid(digits).startsWith(QLatin1String(": "))) {
            s = s.mid(digits + 2);
            continue;
        }
        break;
    }
    return s;
}

Severity levelLetter(QChar c, bool& known)
{
    known = true;
    switch (c.unicode()) {
    case u'F':
    case u'C':
        return Severity::Fatal;
    case u'E':
        return Severity::Error;
    case u'W':
        return Severity::Warn;
    default:
        known = false;
        return Severity::Info;
    }
}

// c10 "[E314 02:17:44…" / "[E ProcessGroupNCCL.cpp…" and torch/glog "E0314 02:17:44…".
bool levelMarker(QStringView s, Severity& out)
{
    qsizetype pos = 0;
    const bool bracket = s.startsWith(u'[');
    if (bracket)
        pos = 1;
    if (s.size() < pos + 2)
        return false;
    bool known = false;
    const Severity sev = levelLetter(s.at(pos), known);
    if (!known)
        return false;
    const QChar next = s.at(pos + 1);
    if (bracket && next == u' ') {
        out = sev;
        return true;
    }
    qsizetype digits = 0;
    while (pos + 1 + digits < s.size() && s.at(pos + 1 + digits).isDigit())
        ++digits;
    if (digits >= 3 && digits <= 4 && pos + 1 + digits < s.size() && s.at(pos + 1 + digits) == u' ') {
        out = sev;
        return true;
    }
    return false;
}

bool contains(QStringView s, const char* needle, Qt::CaseSensitivity cs = Qt::CaseSensitive)
{
    return s.contains(QLatin1String(needle), cs);
}

} // namespace

Severity classifyLineSeverity(QStringView line)
{
    if (contains(line, "NCCL WARN"))
        return Severity::Warn;
    const QStringView body = stripPrefixes(line);
    Severity marker = Severity::Info;
    if (levelMarker(body, marker))
        return marker;
    if (contains(body, "terminate called after throwing") || contains(body, "[CRITICAL]")
        || body.startsWith(QLatin1String("CRITICAL:")) || body.startsWith(QLatin1String("FATAL")))
        return Severity::Fatal;
    if (body.startsWith(QLatin1String("Traceback (most recent call last)")) || contains(body, "[ERROR]")
        || body.startsWith(QLatin1String("ERROR")) || contains(body, " ERROR ") || contains(body, "Error: ")
        || contains(body, "RuntimeError") || contains(body, "DistBackendError"))
        return Severity::Error;
    if (contains(body, "[WARNING]") || body.startsWith(QLatin1String("WARNING")) || contains(body, " WARN "))
        return Severity::Warn;
    return Severity::Info;
}

} // namespace rankscope
