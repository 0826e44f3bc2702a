// Small fixed-width byte helpers for the scanner's per-line shortcuts, where a libc call per compare
// costs more than the compare itself.
#pragma once

#include <QtGlobal>
#include <cstddef>
#include <cstring>

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

} // namespace rankscope
