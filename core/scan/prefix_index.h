// SPDX-License-Identifier: MIT
// Finds which remembered line prefixes a line may start with, without trying them all: a combined console
// of a 256-rank job repeats hundreds of prefixes ("[default3]:gpu-a17:1007036:"), interleaved.
// Every prefix is hashed on its first K bytes, K being the length of the shortest prefix added; a line is
// hashed on its first K bytes too, so only the prefixes in that bucket can be the one it repeats.
#pragma once

#include "byte_compare.h"

#include <QtGlobal>
#include <array>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace rankscope {

class PrefixIndex
{
public:
    // Adds entry `entry` (the caller's number for it): `prefix` holds the bytes every line of it starts with.
    void add(std::string_view prefix, int entry)
    {
        m_prefixes.emplace_back(prefix);
        m_entries.push_back(entry);
        if (prefix.size() < m_keyLength) {
            m_keyLength = prefix.size(); // a shorter key for everyone: hash them all again
            rebuild();
        } else {
            m_buckets[bucket(prefix)].push_back(entry);
        }
    }
    void clear()
    {
        m_prefixes.clear();
        m_entries.clear();
        for (std::vector<int>& b : m_buckets)
            b.clear();
        m_keyLength = std::numeric_limits<std::size_t>::max();
    }
    // The entries whose prefix `line` may start with (compare before trusting one).
    const std::vector<int>& candidates(std::string_view line) const
    {
        static const std::vector<int> none;
        if (m_prefixes.size() <= kLinear)
            return m_entries; // hashing costs more than trying a few
        if (line.size() < m_keyLength)
            return none;
        return m_buckets[bucket(line)];
    }
    std::size_t size() const { return m_prefixes.size(); }

private:
    std::size_t bucket(std::string_view s) const
    {
        // Eight bytes at a time; the last word overlaps the one before it.
        quint64 h = m_keyLength;
        const auto mix = [&h](quint64 word) { h = (h ^ word) * 0x9E3779B97F4A7C15ull; };
        if (m_keyLength >= 8) {
            for (std::size_t i = 0; i + 8 < m_keyLength; i += 8)
                mix(loadWord(s.data() + i));
            mix(loadWord(s.data() + m_keyLength - 8));
        } else {
            for (std::size_t i = 0; i < m_keyLength; ++i)
                mix(static_cast<unsigned char>(s[i]));
        }
        return static_cast<std::size_t>(h ^ (h >> 31)) % kBuckets;
    }
    void rebuild()
    {
        for (std::vector<int>& b : m_buckets)
            b.clear();
        for (std::size_t i = 0; i < m_prefixes.size(); ++i)
            m_buckets[bucket(m_prefixes[i])].push_back(m_entries[i]);
    }

    static constexpr std::size_t kBuckets = 509; // prime: spreads the hash
    static constexpr std::size_t kLinear = 4;
    std::vector<std::string> m_prefixes; // in the order added
    std::vector<int> m_entries; // the caller's number of each
    std::array<std::vector<int>, kBuckets> m_buckets;
    std::size_t m_keyLength = std::numeric_limits<std::size_t>::max();
};

} // namespace rankscope
