// Small fixed-width byte helpers for the scanner's per-line shortcuts, where a libc call per compare
// costs more than the compare itself.
#pragma once

#include <QtGlobal>
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

inline DifferenceSpan differenceSpan(const char* a, const char* b, std::size_t n)
{
#if defined(__SSE2__)
    if (n >= 16 && n <= 256) {
        // A bit per byte that differs, from every 16-byte block: a fixed number of independent compares,
        // no exit in the middle of the line. The last block overlaps the one before it.
        quint64 bits[5] = {};
        const auto blockDiff = [a, b](std::size_t at) {
            const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(a + at));
            const __m128i y = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b + at));
            return quint64 { ~static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(x, y))) & 0xFFFFu };
        };
        std::size_t i = 0;
        for (; i + 16 <= n; i += 16)
            bits[i / 64] |= blockDiff(i) << (i % 64);
        if (i < n) {
            const std::size_t at = n - 16;
            const quint64 d = blockDiff(at);
            bits[at / 64] |= d << (at % 64);
            if (at % 64 > 48)
                bits[at / 64 + 1] |= d >> (64 - at % 64);
        }
        std::size_t w = 0;
        while (w < 4 && bits[w] == 0)
            ++w;
        if (w == 4)
            return { n, n };
        const std::size_t first = w * 64 + static_cast<std::size_t>(std::countr_zero(bits[w]));
        w = 3;
        while (bits[w] == 0)
            --w;
        return { first, w * 64 + 64 - static_cast<std::size_t>(std::countl_zero(bits[w])) };
    }
#endif
    std::size_t first = 0;
    while (first < n && a[first] == b[first])
        ++first;
    if (first == n)
        return { n, n };
    std::size_t end = n;
    while (a[end - 1] == b[end - 1])
        --end;
    return { first, end };
}

} // namespace rankscope
