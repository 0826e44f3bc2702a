// SPDX-License-Identifier: MIT
// The hashing and compare helpers shared by the literal prefilter's build (literal_prefilter_build.cpp)
// and its per-line test (literal_prefilter.cpp).
#pragma once

#include <QtGlobal>
#include <cstddef>
#include <cstring>
#include <string>

namespace rankscope::prefilter {

inline constexpr std::size_t kGram = 4;
// A byte per hash (128 KB, in L2): one load and no shift per sample. It measured faster than a 16 KB
// bitmap in L1 whose bit extraction costs three more instructions per sample.
inline constexpr unsigned kHashBits = 17;
inline constexpr std::size_t kHashes = std::size_t { 1 } << kHashBits;

// ASCII upper case folded to lower case in every byte of a word at once (bytes >= 0x80 are left alone).
template <typename Word> inline Word foldCase(Word x)
{
    constexpr Word ones = static_cast<Word>(~Word { 0 }) / 0xFF; // 0x0101...
    const Word low7 = x & static_cast<Word>(ones * 0x7F);
    const Word aboveZ = low7 + static_cast<Word>(ones * (0x7F - 'Z')); // high bit set where the byte is > 'Z'
    const Word fromA = low7 + static_cast<Word>(ones * (0x80 - 'A')); // high bit set where the byte is >= 'A'
    const Word upper = (fromA ^ aboveZ) & ~x & static_cast<Word>(ones * 0x80);
    return x | (upper >> 2); // + 0x20 on the upper-case letters
}

template <typename Word> inline Word loadWord(const char* p)
{
    Word x;
    std::memcpy(&x, p, sizeof x);
    return x;
}

// Clearing bit 5 of every byte folds each lower-case letter onto its upper case in one AND. It also pairs
// a few other bytes (space and NUL, digits and control bytes), which can only add hits, never lose one:
// the atom compare that follows a hit is exact.
inline quint32 gramHash(const char* p)
{
    return ((loadWord<quint32>(p) & 0xDFDFDFDFu) * 0x9E3779B1u) >> (32 - kHashBits);
}

inline bool equalsLowered(const char* text, const std::string& atom)
{
    for (std::size_t k = 0; k < atom.size(); ++k) {
        const auto c = static_cast<unsigned char>(text[k]);
        const auto lower = static_cast<unsigned char>(c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c);
        if (lower != static_cast<unsigned char>(atom[k]))
            return false;
    }
    return true;
}

} // namespace rankscope::prefilter
