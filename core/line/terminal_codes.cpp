// SPDX-License-Identifier: MIT
#include "terminal_codes.h"

#include <algorithm>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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

// Whether "[0m" occurs in the block, at memory speed: glibc's memmem took 7 % of a coloured-free console's
// scan for this 3-byte needle (it is asked once per 128 KiB block); three compares per 16 bytes do not.
std::size_t findReset(std::string_view block, std::size_t from)
{
    const char* p = block.data();
    const std::size_t n = block.size();
    std::size_t i = from;
#if defined(__SSE2__)
    const __m128i open = _mm_set1_epi8('[');
    const __m128i zero = _mm_set1_epi8('0');
    const __m128i em = _mm_set1_epi8('m');
    for (; i + 18 <= n; i += 16) {
        const __m128i a = _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i)), open);
        const __m128i b = _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i + 1)), zero);
        const __m128i c = _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i + 2)), em);
        const int hits = _mm_movemask_epi8(_mm_and_si128(_mm_and_si128(a, b), c));
        if (hits != 0)
            return i + static_cast<std::size_t>(__builtin_ctz(static_cast<unsigned>(hits)));
    }
#endif
    for (; i + 3 <= n; ++i) {
        if (p[i] == '[' && p[i + 1] == '0' && p[i + 2] == 'm')
            return i;
    }
    return std::string_view::npos;
}

bool holdsReset(std::string_view block)
{
    return findReset(block, 0) != std::string_view::npos;
}

} // namespace

bool holdsCodesWithoutEsc(std::string_view text)
{
    // A reset whose ESC is there is an ordinary colour code: only one without it is a stand-in.
    for (std::size_t at = findReset(text, 0); at != std::string_view::npos; at = findReset(text, at + 3)) {
        if (at == 0 || text[at - 1] != kEsc)
            return true;
    }
    return false;
}

bool mayHoldTerminalCodes(std::string_view block, bool standIns)
{
    return std::memchr(block.data(), kEsc, block.size()) != nullptr || (standIns && holdsReset(block));
}

bool stripTerminalCodes(std::string_view line, std::string& out, bool standIns)
{
    const bool remnants = standIns && holdsReset(line);
    const void* first = std::memchr(line.data(), kEsc, line.size());
    if (!first && !remnants)
        return false;
    std::size_t copied = 0;
    if (!remnants) { // ESC bytes only: jump from one to the next
        out.clear();
        out.reserve(line.size());
        auto at = static_cast<std::size_t>(static_cast<const char*>(first) - line.data());
        while (true) {
            out.append(line.data() + copied, at - copied);
            copied = std::min(line.size(), at + sequenceLength(line.substr(at)));
            const void* next = copied < line.size()
                ? std::memchr(line.data() + copied, kEsc, line.size() - copied)
                : nullptr;
            if (!next)
                break;
            at = static_cast<std::size_t>(static_cast<const char*>(next) - line.data());
        }
    } else {
        bool any = false;
        for (std::size_t i = 0; i < line.size();) {
            const std::size_t length = sequenceAt(line, i, true);
            if (length == 0) {
                ++i;
                continue;
            }
            if (!any) { // `out` is left alone for a line with nothing to strip
                out.clear();
                out.reserve(line.size());
                any = true;
            }
            out.append(line.data() + copied, i - copied);
            i = std::min(line.size(), i + length);
            copied = i;
        }
        if (!any)
            return false;
    }
    if (copied < line.size())
        out.append(line.data() + copied, line.size() - copied);
    return true;
}

} // namespace rankscope
