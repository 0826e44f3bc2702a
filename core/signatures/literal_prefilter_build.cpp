// SPDX-License-Identifier: MIT
// Building the literal prefilter: FilteredRE2's atoms for the patterns, then the Vectorscan database of the
// atoms (literal_prefilter_scan.cpp).
#include "literal_prefilter.h"

#include <algorithm>
#include <functional>
#include <future>
#include <re2/filtered_re2.h>
#include <re2/re2.h>
#include <thread>

namespace rankscope {

namespace {

// Literals shorter than this do not gate a pattern (FilteredRE2 treats them as matching anything). Six is
// the shortest failure phrase the scanner adds ("failed", kFailurePhrases), so no longer minimum could
// leave every pattern an atom; the Vectorscan pass costs the same whatever the atoms' lengths.
constexpr int kMinAtomLength = 6;

// One FilteredRE2 over patterns [from, to), its atoms, and its patterns without atoms (numbered from 0).
struct BuiltPart
{
    std::unique_ptr<re2::FilteredRE2> filter;
    std::vector<std::string> atoms;
    std::vector<int> unfiltered;
    bool ok = false; // false when FilteredRE2 refused a pattern
};

BuiltPart buildPart(
    const std::vector<std::string>& patterns, std::size_t from, std::size_t to, int atomLength)
{
    RE2::Options options;
    options.set_log_errors(false);
    BuiltPart part;
    part.filter = std::make_unique<re2::FilteredRE2>(atomLength);
    for (std::size_t p = from; p < to; ++p) {
        int id = -1;
        if (part.filter->Add(patterns[p], options, &id) != RE2::NoError || id != static_cast<int>(p - from))
            return part;
    }
    part.filter->Compile(&part.atoms);
    part.filter->AllPotentials({}, &part.unfiltered);
    part.ok = true;
    return part;
}

} // namespace

bool LiteralPrefilter::build(const std::vector<std::string>& patterns)
{
    // FilteredRE2 compiles every pattern again and is a third of the CLI's start-up: two halves of the
    // patterns, each with a FilteredRE2 of its own, are built on two cores.
    const std::size_t half = patterns.size() > 1 && std::thread::hardware_concurrency() > 1
        ? (patterns.size() + 1) / 2
        : patterns.size();
    std::future<BuiltPart> second;
    if (half < patterns.size())
        second = std::async(
            std::launch::async, buildPart, std::cref(patterns), half, patterns.size(), kMinAtomLength);
    BuiltPart parts[2] = { buildPart(patterns, 0, half, kMinAtomLength), BuiltPart {} };
    parts[1] = second.valid() ? second.get() : BuiltPart { nullptr, {}, {}, true };
    if (!parts[0].ok || !parts[1].ok)
        return false;
    m_unfiltered = parts[0].unfiltered;
    for (const int p : parts[1].unfiltered)
        m_unfiltered.push_back(p + static_cast<int>(half));
    m_parts.clear();
    m_atoms.clear();
    for (std::size_t i = 0; i < 2; ++i) {
        BuiltPart& part = parts[i];
        if (!part.filter)
            continue;
        m_parts.push_back({ std::move(part.filter), static_cast<int>(m_atoms.size()),
            static_cast<int>(part.atoms.size()), i == 0 ? 0 : static_cast<int>(half) });
        for (std::string& atom : part.atoms)
            m_atoms.push_back(std::move(atom));
    }
    return compileAtoms();
}

} // namespace rankscope
