// SPDX-License-Identifier: MIT
#include "terminal_codes.h"

#include <algorithm>
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

// A colour code whose ESC byte a copy lost: '[', up to 12 digits and ';', 'm' ("[36m", "[0;32m"). Taken
// only in a line that also holds the reset "[0m", since "[5m" alone may be text.
std::size_t remnantLength(std::string_view s)
{
    std::size_t pos = 1;
    while (pos < s.size() && pos < 13 && ((s[pos] >= '0' && s[pos] <= '9') || s[pos] == ';'))
        ++pos;
    if (pos == 1 || pos >= s.size() || s[pos] != 'm')
        return 0;
    return pos + 1 < s.size() && s[pos + 1] == ']' ? 0 : pos + 1;
}

// The length of the sequence at s[i], 0 if none starts there. ESC itself, or what a copy left for it:
// rsyslog's octal "#033", caret notation "^[", U+FFFD; then sequenceLength() reads from the byte before
// the sequence's kind.
std::size_t sequenceAt(std::string_view s, std::size_t i, bool remnants)
{
    const std::string_view at = s.substr(i);
    auto kindFollows = [&](std::size_t n) { return at.size() > n && (at[n] == '[' || at[n] == ']'); };
    switch (at[0]) {
    case kEsc:
        return sequenceLength(at);
    case '#':
        return at.substr(0, 4) == "#033" && kindFollows(4) ? 3 + sequenceLength(at.substr(3)) : 0;
    case '^':
        return at.substr(0, 2) == "^[" && kindFollows(2) ? 1 + sequenceLength(at.substr(1)) : 0;
    case '\xEF':
        return at.substr(0, 3) == "\xEF\xBF\xBD" && kindFollows(3) ? 2 + sequenceLength(at.substr(2)) : 0;
    case '[':
        return remnants ? remnantLength(at) : 0;
    default:
        return 0;
    }
}

// Every stand-in a copy leaves for ESC ends its colouring with a reset that holds "[0m" ("#033[0m",
// "^[[0m", "[0m"): one search finds them all, block by block and line by line.
bool holdsStandIn(std::string_view s)
{
    return s.find("[0m") != std::string_view::npos;
}

} // namespace

bool mayHoldTerminalCodes(std::string_view block)
{
    return std::memchr(block.data(), kEsc, block.size()) != nullptr
        || memmem(block.data(), block.size(), "[0m", 3) != nullptr;
}

bool stripTerminalCodes(std::string_view line, std::string& out)
{
    const bool esc = std::memchr(line.data(), kEsc, line.size()) != nullptr;
    if (!esc && !holdsStandIn(line))
        return false;
    const bool remnants = holdsStandIn(line);
    bool any = false;
    std::size_t copied = 0;
    for (std::size_t i = 0; i < line.size();) {
        const std::size_t length = sequenceAt(line, i, remnants);
        if (length == 0) {
            ++i;
            continue;
        }
        if (!any) {
            out.clear();
            out.reserve(line.size());
            any = true;
        }
        out.append(line.data() + copied, i - copied);
        i = std::min(line.size(), i + length);
        copied = i;
    }
    if (any && copied < line.size())
        out.append(line.data() + copied, line.size() - copied);
    return any;
}

} // namespace rankscope
