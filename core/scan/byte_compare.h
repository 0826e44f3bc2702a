// SPDX-License-Identifier: MIT
// Small fixed-width byte helpers for the scanner's per-line shortcuts, where a libc call per compare
// costs more than the compare itself.
#pragma once

#include <QtGlobal>
#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace rankscope {

inline quint64 loadWord(const char* p)
{
    quint64 x;
    std::memcpy(&x, p, sizeof x);
    return x;
}

// memcmp(a, b, n) == 0, eight bytes at a time; the last word overlaps the one before it.
inline bool sameBytes(const char* a, const char* b, std::size_t n)
{
    if (n < 8) {
        for (std::size_t i = 0; i < n; ++i) {
            if (a[i] != b[i])
                return false;
        }
        return true;
    }
    for (std::size_t i = 0; i + 8 < n; i += 8) {
        if (loadWord(a + i) != loadWord(b + i))
            return false;
    }
    return loadWord(a + n - 8) == loadWord(b + n - 8);
}

// True when every byte selected by `mask` (0xFF per byte) is an ASCII digit. A byte outside the mask can
// carry into the one above it in the second test and make it fail, never pass: callers fall back to the
// slow path then.
inline bool digitsAt(quint64 word, quint64 mask)
{
    constexpr quint64 high = 0xF0F0F0F0F0F0F0F0ull;
    constexpr quint64 zeros = 0x3030303030303030ull;
    constexpr quint64 six = 0x0606060606060606ull;
    return (word & mask & high) == (zeros & mask) && ((word + six) & mask & high) == (zeros & mask);
}

// Where a[0, n) and b[0, n) differ: bytes [first, end), with first == end == n when they are equal.
struct DifferenceSpan
{
    std::size_t first;
    std::size_t end;
};

#if defined(__SSE2__)
// A bit per byte of a[0, 16) that equals b[0, 16).
inline unsigned equalBytes16(const char* a, const char* b)
{
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(a));
    const __m128i y = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b));
    return static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(x, y)));
}
#endif

inline DifferenceSpan differenceSpan(const char* a, const char* b, std::size_t n)
{
    std::size_t first = n;
    std::size_t end = 0;
    std::size_t i = 0;
#if defined(__SSE2__)
    if (n >= 16) {
        // 64 bytes per step and one branch: a line that repeats its predecessor but for a counter takes the
        // same path through here every time.
        for (; i + 64 <= n; i += 64) {
            const quint64 equal = equalBytes16(a + i, b + i)
                | quint64 { equalBytes16(a + i + 16, b + i + 16) } << 16
                | quint64 { equalBytes16(a + i + 32, b + i + 32) } << 32
                | quint64 { equalBytes16(a + i + 48, b + i + 48) } << 48;
            if (equal != ~quint64 { 0 }) {
                if (first == n)
                    first = i + static_cast<std::size_t>(std::countr_one(equal));
                end = i + 64 - static_cast<std::size_t>(std::countl_one(equal));
            }
        }
        // The rest in 16-byte blocks, the last one ending at n (it may overlap the one before).
        for (; i < n; i += 16) {
            const std::size_t at = i + 16 <= n ? i : n - 16;
            const auto differ = ~equalBytes16(a + at, b + at) & 0xFFFFu;
            if (differ == 0)
                continue;
            first = std::min(first, at + static_cast<std::size_t>(std::countr_zero(differ)));
            end = at + 32 - static_cast<std::size_t>(std::countl_zero(differ));
        }
        return first == n ? DifferenceSpan { n, n } : DifferenceSpan { first, end };
    }
#endif
    for (; i < n; ++i) {
        if (a[i] != b[i]) {
            first = std::min(first, i);
            end = i + 1;
        }
    }
    return first == n ? DifferenceSpan { n, n } : DifferenceSpan { first, end };
}

} // namespace rankscope
