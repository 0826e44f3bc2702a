// SPDX-License-Identifier: MIT
// Text pasted from an issue, a chat or a narrow terminal is often hard-wrapped: a long log line goes on in
// the next line, which has no prefix of its own, so it would lose its rank and its signature. This puts
// such pieces back together before the pasted text is scanned.
#pragma once

#include <QByteArray>
#include <string_view>

namespace rankscope {

struct RejoinResult
{
    QByteArray text;
    int joined = 0; // lines appended to the line before them
    int width = 0; // the wrap width the paste appears to have, 0 when it does not look wrapped
};

// A line is joined to the one before when the paste looks wrapped (its longest line is at most
// kMaxWrapWidth bytes), the line before is as wide as the paste or too full for this line's first word,
// and the line itself starts no record (no prefix, stamp, indentation, traceback or frame marker).
RejoinResult rejoinWrappedLines(const QByteArray& text);

// Whether a line starts something of its own even without a prefix (a stamp, a launcher tag, indentation,
// a traceback or frame marker, a level or an exception): such a line never continues a wrapped one.
bool startsOwnRecord(std::string_view line);
// A box's or a table's border ("-----", "=====", "*****"): one character repeated, ten times or more. It is
// as wide as what it frames, never a line a wrap or a terminal cut, and nothing after it continues it.
bool isBorderLine(std::string_view line);
// 'File "x.py", line 3, in run' (indented or not), whole: the line under it is its source, not its rest.
bool isWholeFrame(std::string_view line);

// Whether a line starts with a marker of a record of its own: a traceback, a C++ frame or exception
// banner, Python's chained-exception lines, an ellipsis, a Markdown fence, a Python frame.
bool startsWithRecordMarker(std::string_view line);

// Whether a line starts with what only a line's start carries: a stamp, an NCCL, launcher, rank or
// wrapper prefix, a traceback header. After a line a terminal cut at its width, anything else is its tail,
// even a level word or indentation (the cut falls anywhere).
bool startsWithLinePrefix(std::string_view line);

constexpr int kMaxWrapWidth = 200;

} // namespace rankscope
