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

// The index of the first byte where a[0, n) and b[0, n) differ, or n when they are equal.
inline std::size_t firstDifference(const char* a, const char* b, std::size_t n)
{
    std::size_t i = 0;
#if defined(__SSE2__)
    for (; i + 16 <= n; i += 16) {
        const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(a + i));
        const __m128i y = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b + i));
        const auto same = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(x, y)));
        if (same != 0xFFFFu)
            return i + static_cast<std::size_t>(std::countr_one(same));
    }
#endif
    for (; i + 8 <= n && loadWord(a + i) == loadWord(b + i); i += 8) { }
    for (; i < n; ++i) {
        if (a[i] != b[i])
            return i;
    }
    return n;
}

// Given that a[first] != b[first]: the index of the last byte where a[0, n) and b[0, n) differ.
inline std::size_t lastDifference(const char* a, const char* b, std::size_t first, std::size_t n)
{
    std::size_t end = n; // bytes [end, n) are equal
#if defined(__SSE2__)
    for (; end >= first + 16; end -= 16) {
        const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(a + end - 16));
        const __m128i y = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b + end - 16));
        const auto same = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(x, y)));
        if (same != 0xFFFFu)
            return end - 1 - static_cast<std::size_t>(std::countl_one(same << 16));
    }
#endif
    for (; end >= first + 8 && loadWord(a + end - 8) == loadWord(b + end - 8); end -= 8) { }
    for (; end > first + 1; --end) {
        if (a[end - 1] != b[end - 1])
            return end - 1;
    }
    return first;
}

} // namespace rankscope
