// SPDX-License-Identifier: MIT
// The byte-level readers the wrapper parsers share (line_wrappers.cpp, wrapper_clocks.cpp): digits, words
// and numbers at a position of a line, bounded so that no reader scans a whole line.
#pragma once

#include <QtGlobal>
#include <string_view>

namespace rankscope::wrapper_scan {

inline bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}
inline bool isWordChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || isDigit(c) || c == '_' || c == '-' || c == '.';
}

// Digits at pos (at most 12); -1 when there are none.
inline qint64 readNumber(std::string_view s, std::size_t& pos)
{
    const std::size_t start = pos;
    qint64 value = 0;
    while (pos < s.size() && isDigit(s[pos]) && pos - start < 12)
        value = value * 10 + (s[pos++] - '0');
    return pos == start ? -1 : value;
}

inline std::size_t wordEnd(std::string_view s, std::size_t from, std::size_t max = 64)
{
    std::size_t pos = from;
    while (pos < s.size() && pos - from < max && isWordChar(s[pos]))
        ++pos;
    return pos;
}

} // namespace rankscope::wrapper_scan
