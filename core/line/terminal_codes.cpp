// SPDX-License-Identifier: MIT
#include "terminal_codes.h"

#include <cstring>

namespace rankscope {

namespace {

constexpr char kEsc = '\x1b';
constexpr char kBell = '\x07';

// Length of the ESC sequence that starts at `s[0]` (an ESC), at most s.size().
std::size_t sequenceLength(std::string_view s)
{
    if (s.size() < 2)
        return s.size();
    const char kind = s[1];
    if (kind == '[') {
        std::size_t pos = 2;
        while (pos < s.size()) {
            const auto c = static_cast<unsigned char>(s[pos]);
            ++pos;
            if (c >= 0x40 && c <= 0x7E)
                return pos; // the final byte
            if (c < 0x20 || c > 0x3F)
                return pos - 1; // not a CSI byte: the sequence was broken, keep what follows
        }
        return pos;
    }
    if (kind == ']') {
        for (std::size_t pos = 2; pos < s.size(); ++pos) {
            if (s[pos] == kBell)
                return pos + 1;
            if (s[pos] == kEsc && pos + 1 < s.size() && s[pos + 1] == '\\')
                return pos + 2;
        }
        return s.size();
    }
    // Any other escape: intermediate bytes (0x20-0x2F, as in "ESC ( B"), then one final byte.
    std::size_t pos = 1;
    while (pos < s.size() && static_cast<unsigned char>(s[pos]) >= 0x20
        && static_cast<unsigned char>(s[pos]) <= 0x2F)
        ++pos;
    return pos < s.size() ? pos + 1 : pos;
}

} // namespace

bool stripTerminalCodes(std::string_view line, std::string& out)
{
    const void* first = std::memchr(line.data(), kEsc, line.size());
    if (!first)
        return false;
    out.clear();
    out.reserve(line.size());
    std::size_t pos = 0;
    auto at = static_cast<std::size_t>(static_cast<const char*>(first) - line.data());
    while (true) {
        out.append(line.data() + pos, at - pos);
        pos = at + sequenceLength(line.substr(at));
        const void* next =
            pos < line.size() ? std::memchr(line.data() + pos, kEsc, line.size() - pos) : nullptr;
        if (!next)
            break;
        at = static_cast<std::size_t>(static_cast<const char*>(next) - line.data());
    }
    if (pos < line.size())
        out.append(line.data() + pos, line.size() - pos);
    return true;
}

} // namespace rankscope
