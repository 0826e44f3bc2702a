// SPDX-License-Identifier: MIT
// The cheap first look at log bytes: RE2's FilteredRE2 reduces each signature pattern to the literals
// ("atoms") it cannot match without, one Vectorscan pass finds every occurrence of every atom in a block of
// bytes, and FilteredRE2 then says, per line, whether the atoms found there can satisfy a pattern. A line
// whose atoms satisfy no pattern is rejected before the RE2::Set runs, which is what almost every INFO line
// is. The design and its invariants: docs/scanner.md.
#pragma once

#include <QtGlobal>
#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace re2 {
class FilteredRE2;
}

namespace rankscope {

struct AtomHit
{
    quint32 start = 0; // offset of the occurrence in its block
    quint32 end = 0; // one past its last byte
    quint32 atom = 0;
};

// The atom occurrences of one block of bytes, found by LiteralPrefilter::scanBlock(), sorted by end.
struct AtomHits
{
    const char* base = nullptr;
    std::size_t size = 0;
    std::vector<AtomHit> hits;

    // Whether `text` is a view of this block's bytes (not a copy): then the hits inside it are all of its
    // atoms.
    bool covers(std::string_view text) const
    {
        return base && text.data() >= base && text.data() + text.size() <= base + size;
    }
    // A new block: no hits yet (the vector keeps its capacity).
    void reset(const char* blockBase, std::size_t blockSize)
    {
        base = blockBase;
        size = blockSize;
        hits.clear();
        cursor = 0;
    }
    // The first hit that ends after block offset `from`. The scanner asks about its lines in order, so the
    // answer is walked to from the last one; a step back searches.
    std::size_t firstEndingAfter(quint32 from) const
    {
        std::size_t i = cursor <= hits.size() ? cursor : hits.size();
        if (i > 0 && hits[i - 1].end > from) {
            i = static_cast<std::size_t>(
                std::partition_point(hits.begin(), hits.begin() + static_cast<std::ptrdiff_t>(i),
                    [from](const AtomHit& h) { return h.end <= from; })
                - hits.begin());
        }
        while (i < hits.size() && hits[i].end <= from)
            ++i;
        cursor = i;
        return i;
    }

private:
    mutable std::size_t cursor = 0; // firstEndingAfter()'s last answer
};

// The patterns a line's atoms allow, as indexes in build() order, ascending. `all`: the prefilter could
// not narrow them (a pattern without atoms, a search that failed), so every pattern is one.
struct PatternCandidates
{
    bool all = false;
    std::vector<int> patterns;
    void clear()
    {
        all = false;
        patterns.clear();
    }
};

class LiteralPrefilter
{
public:
    LiteralPrefilter();
    ~LiteralPrefilter();
    LiteralPrefilter(LiteralPrefilter&&) noexcept;
    LiteralPrefilter& operator=(LiteralPrefilter&&) noexcept;

    // patterns in RE2::Set order, each already known to compile. False when FilteredRE2 refuses one, or
    // Vectorscan refuses the atoms.
    bool build(const std::vector<std::string>& patterns);

    // Every atom occurrence in `block` (case-insensitive), in `out`, which keeps its capacity.
    void scanBlock(std::string_view block, AtomHits& out) const;
    // False only when no pattern can match `line`, a view inside the block `hits` was found in.
    // `sawAtom`, when given, is set to whether the line holds some atom; `candidates`, when given, to the
    // patterns that may match (none when the answer is false), which the matcher then tries alone.
    bool mayMatch(const AtomHits& hits, std::string_view line, bool* sawAtom = nullptr,
        PatternCandidates* candidates = nullptr) const;
    // The same for a line that is not a view of a scanned block (a copy without colour codes, a test):
    // one Vectorscan pass over the line itself.
    bool mayMatch(
        std::string_view line, bool* sawAtom = nullptr, PatternCandidates* candidates = nullptr) const;
    // False only when `line`, a view inside the block `hits` was found in, holds none of kLevelCues
    // (core/model/level_cues.h, case-sensitive), which the same search looks for beside the atoms.
    bool mayHoldLevelWord(const AtomHits& hits, std::string_view line) const;

    // Patterns without a usable literal: their presence makes mayMatch() pass every line.
    const std::vector<int>& unfilteredPatterns() const { return m_unfiltered; }
    const std::vector<std::string>& atoms() const { return m_atoms; }

private:
    std::optional<bool> fixedAnswer(bool& sawAtom, PatternCandidates* candidates) const;
    bool confirm(std::vector<int>& found, PatternCandidates* candidates) const;
    void potentials(const std::vector<int>& found, std::vector<int>& out) const;
    bool compileAtoms();

    struct Part
    {
        std::unique_ptr<re2::FilteredRE2> filter; // over a run of the patterns
        int firstAtom = 0; // its atoms are m_atoms[firstAtom, firstAtom + atomCount)
        int atomCount = 0;
        int firstPattern = 0; // its pattern 0 is build()'s pattern firstPattern
    };
    struct Database; // the Vectorscan database of the atoms
    std::vector<Part> m_parts; // the patterns in order, split in up to two parts built on two cores
    std::vector<std::string> m_atoms; // lower case
    // Ids from m_atoms.size() on in the database are the level cues; a hit of one is no atom.
    quint32 m_cueBase = 0;
    std::vector<quint32> m_atomLength;
    std::vector<int> m_unfiltered;
    std::unique_ptr<Database> m_db;
};

} // namespace rankscope
