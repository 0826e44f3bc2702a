// SPDX-License-Identifier: MIT
#include "paste_rejoin.h"

#include "line_prefix.h"
#include "severity_rules.h"

#include <QList>
#include <string_view>

namespace rankscope {

namespace {

std::string_view view(const QByteArray& b)
{
    return std::string_view(b.constData(), static_cast<size_t>(b.size()));
}

// The line without markdown quote markers, which the scanner strips later anyway.
std::string_view body(std::string_view line)
{
    while (line.substr(0, 2) == "> ")
        line.remove_prefix(2);
    return line;
}

bool hasPrefix(const LinePrefix& p)
{
    return !p.ncclHost.empty() || p.stamp.found() || p.launcherRank >= 0 || p.teeLocalRank >= 0
        || p.globalRank >= 0 || !p.pdshHost.empty() || !p.rayIp.empty();
}

} // namespace

bool startsWithLinePrefix(std::string_view s)
{
    const LinePrefix p = parseLinePrefix(s);
    return hasPrefix(p) || p.rayPid >= 0 || p.pid >= 0 || !p.sourceTag.empty() || p.wrapperStamp.found()
        || s.substr(0, 34) == "Traceback (most recent call last):";
}

bool startsWithRecordMarker(std::string_view s)
{
    static constexpr std::string_view kStarts[] = { "Traceback", "frame #", "Exception raised from",
        "terminate called", "During handling", "The above exception", "...", "```", "File \"",
        "NCCL version " }; // NCCL's banner, bare before 2.5 and under NCCL_DEBUG=VERSION
    for (std::string_view start : kStarts) {
        if (s.substr(0, start.size()) == start)
            return true;
    }
    return false;
}

// 'File "x.py", line 3, in run', indented or not: a traceback frame that ends with its function's name, so
// the line under it is its source, never the rest of it (a frame a wrap cut ends at "in" or before).
bool isWholeFrame(std::string_view s)
{
    const std::size_t in = s.rfind(", in ");
    return isTracebackFrame(s) && in != std::string_view::npos && in + 5 < s.size()
        && s.find(' ', in + 5) == std::string_view::npos;
}

bool isBorderLine(std::string_view s)
{
    while (!s.empty() && (s.back() == ' ' || s.back() == '\r'))
        s.remove_suffix(1);
    if (s.size() < 10 || !(s[0] == '-' || s[0] == '=' || s[0] == '*' || s[0] == '_'))
        return false;
    return s.find_first_not_of(s[0]) == std::string_view::npos;
}

bool startsOwnRecord(std::string_view s)
{
    if (s.empty() || s[0] == ' ' || s[0] == '\t' || s[0] == '[' || s[0] == '#' || startsWithRecordMarker(s)
        || isBorderLine(s))
        return true;
    // A progress bar ("train: Scanning ...  97%|██▉| 43830/45049") is a terminal redraw of its own, never the
    // tail of a wrapped line, even when a message is glued to its end.
    const std::string_view head = s.substr(0, 240);
    for (std::size_t bar = head.find("%|"); bar != std::string_view::npos; bar = head.find("%|", bar + 2)) {
        if (bar > 0 && head[bar - 1] >= '0' && head[bar - 1] <= '9')
            return true;
    }
    // A traceback's exception: a dotted or capitalised class name and ": " ("paddle.fluid.core.EnforceNotMet:
    // ..."), which no wrap leaves at the start of a piece. Under a long source line it is no piece of it.
    const std::string_view name = exceptionName(s);
    if (!name.empty() && name.size() < s.size()
        && (name.find('.') != std::string_view::npos || (name[0] >= 'A' && name[0] <= 'Z')))
        return true;
    const LinePrefix p = parseLinePrefix(s);
    if (hasPrefix(p))
        return true;
    const LineClass c = classifyLine(p);
    return c.severity != Severity::Info || c.shape != LineShape::Plain;
}

RejoinResult rejoinWrappedLines(const QByteArray& text)
{
    RejoinResult out;
    QList<QByteArray> lines = text.split('\n');
    int widest = 0, atWidest = 0;
    for (QByteArray& l : lines) {
        if (l.endsWith('\r'))
            l.chop(1);
        const int length = static_cast<int>(l.size());
        atWidest = length > widest ? 1 : atWidest + (length == widest ? 1 : 0);
        widest = std::max(widest, length);
    }
    // Several lines of exactly the widest length: a terminal that cut at its width, often inside a word.
    // Otherwise the text was wrapped at spaces (mail, editors), and each wrap swallowed one.
    const bool cutAtWidth = atWidest >= 2;
    if (widest == 0 || widest > kMaxWrapWidth) {
        out.text = text;
        return out;
    }
    QByteArray joined;
    joined.reserve(text.size());
    bool recordOpen = false; // the current output line can go on (it is not blank)
    int previousLength = -1;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const std::string_view here = body(view(lines[i]));
        // Wrapped: the line before is as wide as the paste, or this line's first word would have fit
        // on it (a word wrap only breaks where the next word does not fit).
        const size_t word = std::min(here.find(' '), here.size());
        const bool wrapped = recordOpen
            && (previousLength == widest || previousLength + 1 + static_cast<int>(word) > widest)
            && !startsOwnRecord(here) && !(i > 0 && isWholeFrame(body(view(lines[i - 1]))));
        if (wrapped) {
            if (!(cutAtWidth && previousLength == widest) && !joined.endsWith(' '))
                joined += ' ';
            joined.append(here.data(), static_cast<qsizetype>(here.size()));
            ++out.joined;
        } else {
            if (i > 0)
                joined += '\n';
            joined += lines[i];
            // A border is as wide as the box it draws, not a line a wrap cut: nothing goes on after it.
            recordOpen = !here.empty() && !isBorderLine(here);
        }
        previousLength = static_cast<int>(lines[i].size());
    }
    out.width = out.joined > 0 ? widest : 0;
    out.text = out.joined > 0 ? joined : text;
    return out;
}

} // namespace rankscope
