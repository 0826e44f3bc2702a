// SPDX-License-Identifier: MIT
// Files whose long lines a copy broke in two: a terminal cuts a line at its width, inside a word; an editor
// or a mail client wraps it at the last space that fits, and the space goes. Both are told from the first
// read of the file, and LineScanner::physicalLine() then reads each broken line whole.
#pragma once

#include <cstddef>
#include <string_view>

namespace rankscope {

constexpr std::size_t kMinTerminalWidth = 60;
constexpr std::size_t kMaxTerminalWidth = 400;
constexpr std::size_t kMaxWordWrapWidth = 200; // wider "wraps" are a log's own lines
constexpr std::size_t kWrapProbeBytes = 32 << 10; // how much of the first read is looked at

struct WrapShape
{
    int width = 0; // 0: the file is as its program wrote it
    bool atSpaces = false; // wrapped at spaces (the pieces join with one), not cut at the width
};

// At least two lines, not all the same, each going on in a next line that starts nothing of its own
// (startsOwnRecord(): no prefix, stamp, level, indentation or traceback): for a terminal's cut, lines of
// exactly the widest length (kMinTerminalWidth to kMaxTerminalWidth bytes); for a wrap at spaces, lines at
// least two shorter than the widest (at most kMaxWordWrapWidth) whose next line's first word would not have
// fitted after them. A log's own longest lines go on in lines of their own, so neither fires on it.
WrapShape detectWrap(std::string_view firstRead);

// A row of a text table ("| Trial name | # failures |", "+----+----+"): its rows are all one width by
// construction, none is a cut or wrapped line, and a failure word in it is a column's label or value.
bool isTableRow(std::string_view line);

// Whether `next` is the rest of `held` in a file wrapped at spaces to `width` columns.
bool continuesWordWrap(std::string_view held, std::string_view next, int width);

} // namespace rankscope
