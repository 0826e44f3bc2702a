// SPDX-License-Identifier: MIT
// The literal prefilter's per-line test: sampled grams looked up in the table that
// literal_prefilter_build.cpp made, the atoms behind a hit compared, FilteredRE2 asked about the atoms found.
#include "literal_prefilter.h"

#include "literal_prefilter_hash.h"

#include <algorithm>
#include <re2/filtered_re2.h>
#include <vector>

namespace rankscope {

using namespace prefilter;

bool LiteralPrefilter::mayMatch(std::string_view line, bool* sawAtom) const
{
    bool saw = false;
    bool& seen = sawAtom ? *sawAtom : saw;
    seen = !m_unfiltered.empty() && !m_parts.empty();
    if (m_parts.empty())
        return false;
    if (!m_unfiltered.empty())
        return true;
    const char* text = line.data();
    const std::size_t n = line.size();
    if (n < kGram)
        return false;
    const quint8* hits = m_gramHit.data();
    const std::size_t stride = m_stride;
    const std::size_t last = n - kGram; // the last position a gram can start at
    auto hit = [hits](quint32 h) { return hits[h]; };
    // The hot loop: four samples per round, one branch. Almost every line ends here with no hit at all.
    std::size_t at = 0;
    for (; at + 3 * stride <= last; at += 4 * stride) {
        const unsigned any = hit(gramHash(text + at)) | hit(gramHash(text + at + stride))
            | hit(gramHash(text + at + 2 * stride)) | hit(gramHash(text + at + 3 * stride));
        // A hit is often a common gram that only shares a hash bit with an atom gram ("]:gp" of
        // "[default3]:gpu-a01"): the scan goes on unless one of the four positions holds an atom.
        if (any && atomAtAny(line, at, 4)) {
            seen = true;
            return confirm(line, at);
        }
    }
    for (; at <= last; at += stride) {
        if (hit(gramHash(text + at)) && atomAtAny(line, at, 1)) {
            seen = true;
            return confirm(line, at);
        }
    }
    return false;
}

// An atom occurrence [s, s + length) that includes byte q holds the whole gram at max(s, q - 3): its
// length is at least kGram. So the grams from first - 3 to end - 1 are all there is to look up.
bool LiteralPrefilter::atomMayOverlap(std::string_view line, std::size_t first, std::size_t end) const
{
    if (m_parts.empty())
        return false;
    if (!m_unfiltered.empty())
        return true;
    if (line.size() < kGram)
        return false;
    const std::size_t from = first > kGram - 1 ? first - (kGram - 1) : 0;
    const std::size_t to = std::min(end, line.size() - kGram + 1);
    for (std::size_t g = from; g < to; ++g) {
        const quint32 h = gramHash(line.data() + g);
        if (m_anyGram[h / 64] >> (h % 64) & 1)
            return true;
    }
    return false;
}

// Whether the atom of candidate `c` occurs in `line` with its chosen gram at `at`.
bool LiteralPrefilter::atomBehind(std::string_view line, std::size_t at, const Candidate& c) const
{
    const std::string& atom = m_atoms[static_cast<std::size_t>(c.atom)];
    const auto offset = static_cast<std::size_t>(c.offset);
    const std::size_t n = line.size();
    if (offset > at || atom.size() > n - (at - offset))
        return false;
    const char* start = line.data() + at - offset;
    // Most hits are common grams ("nccl", "rank"): one word compare rejects them.
    if (n - (at - offset) >= 8 && (foldCase(loadWord<quint64>(start)) & c.headMask) != c.head)
        return false;
    return equalsLowered(start, atom);
}

// Whether an atom sits behind one of the `count` sampled positions from `at`.
bool LiteralPrefilter::atomAtAny(std::string_view line, std::size_t at, std::size_t count) const
{
    for (std::size_t k = 0; k < count; ++k, at += m_stride) {
        const quint32 h = gramHash(line.data() + at);
        if (!m_gramHit[h])
            continue;
        for (quint32 b = m_bucketStart[h]; b < m_bucketStart[h + 1]; ++b) {
            if (atomBehind(line, at, m_candidates[b]))
                return true;
        }
    }
    return false;
}

// A sampled gram was seen at or after `from`: compare the atoms behind every sampled hit from there on,
// then ask FilteredRE2 whether the atoms found can satisfy a pattern.
bool LiteralPrefilter::confirm(std::string_view line, std::size_t from) const
{
    thread_local std::vector<int> found;
    found.clear();
    const char* text = line.data();
    const std::size_t n = line.size();
    const quint8* hits = m_gramHit.data();
    const std::size_t stride = m_stride;
    for (std::size_t at = from; at + kGram <= n; at += stride) {
        const quint32 h = gramHash(text + at);
        if (!hits[h])
            continue;
        for (quint32 b = m_bucketStart[h]; b < m_bucketStart[h + 1]; ++b) {
            if (atomBehind(line, at, m_candidates[b]))
                found.push_back(m_candidates[b].atom);
        }
    }
    if (found.empty())
        return false;
    std::sort(found.begin(), found.end());
    found.erase(std::unique(found.begin(), found.end()), found.end());
    // Each part asked about its own atoms, numbered from 0 in it.
    thread_local std::vector<int> local;
    thread_local std::vector<int> potentials;
    for (const Part& part : m_parts) {
        local.clear();
        for (const int atom : found) {
            if (atom >= part.firstAtom && atom < part.firstAtom + part.atomCount)
                local.push_back(atom - part.firstAtom);
        }
        potentials.clear();
        part.filter->AllPotentials(local, &potentials);
        if (!potentials.empty())
            return true;
    }
    return false;
}

} // namespace rankscope
