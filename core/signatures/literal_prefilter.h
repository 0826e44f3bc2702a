// SPDX-License-Identifier: MIT
// The cheap first look at every log line: RE2's FilteredRE2 reduces each signature pattern to the literals
// ("atoms") it cannot match without, and this filter finds which atoms occur in a line. A line whose atoms
// satisfy no pattern is rejected before the RE2::Set runs, which is what almost every INFO line is.
#pragma once

#include <QtGlobal>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace re2 {
class FilteredRE2;
}

namespace rankscope {

class LiteralPrefilter
{
public:
    LiteralPrefilter();
    ~LiteralPrefilter();
    LiteralPrefilter(LiteralPrefilter&&) noexcept;
    LiteralPrefilter& operator=(LiteralPrefilter&&) noexcept;

    // patterns in RE2::Set order, each already known to compile. False when FilteredRE2 refuses one.
    bool build(const std::vector<std::string>& patterns);
    // False only when no pattern can match the line. `sawAtom`, when given, is set to whether the line
    // holds some atom; a line without any can have none of its bytes complete another line's pattern.
    bool mayMatch(std::string_view line, bool* sawAtom = nullptr) const;
    // Patterns without a usable literal: their presence makes mayMatch() pass every line.
    const std::vector<int>& unfilteredPatterns() const { return m_unfiltered; }
    // Bytes between sampled positions (the shortest atom minus the gram length, plus one).
    std::size_t stride() const { return m_stride; }
    // False only when no atom occurrence in `line` can include a byte of [first, end): every gram that
    // overlaps those bytes is looked up among all the atoms' grams.
    bool atomMayOverlap(std::string_view line, std::size_t first, std::size_t end) const;

private:
    struct Candidate
    {
        quint64 head; // the atom's first (up to) eight bytes, lower case
        quint64 headMask; // the bytes of head that belong to the atom
        int atom;
        int offset; // of the gram within the atom
    };
    void index();
    bool confirm(std::string_view line, std::size_t from) const;
    bool atomAtAny(std::string_view line, std::size_t at, std::size_t count) const;
    bool atomBehind(std::string_view line, std::size_t at, const Candidate& c) const;

    struct Part
    {
        std::unique_ptr<re2::FilteredRE2> filter; // over a run of the patterns
        int firstAtom = 0; // its atoms are m_atoms[firstAtom, firstAtom + atomCount)
        int atomCount = 0;
    };
    std::vector<Part> m_parts; // the patterns in order, split in up to two parts built on two cores
    std::vector<std::string> m_atoms; // lower case
    std::vector<int> m_unfiltered;
    std::size_t m_stride = 1;
    // A bit per gram hash, set when some atom has that gram at any offset: 16 KB, which stays in L1 while
    // the scan streams log bytes through L2 (a byte per hash, 128 KB, missed on most lookups).
    std::vector<quint64> m_anyGram;
    std::vector<quint8> m_gramHit; // per gram hash: 1 when some atom has that gram at an offset < stride
    std::vector<quint32> m_bucketStart; // CSR offsets into m_candidates, by gram hash
    std::vector<Candidate> m_candidates;
};

} // namespace rankscope
