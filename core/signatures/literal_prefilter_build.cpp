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

// Longer atoms occur on fewer lines that then fail the pattern; a length is used only if every pattern still
// has atoms at that length (otherwise that pattern would have to run on every line).
constexpr int kAtomLengths[] = { 13, 12, 10, 8, 6 };

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
    for (const int length : kAtomLengths) {
        std::future<BuiltPart> second;
        if (half < patterns.size())
            second =
                std::async(std::launch::async, buildPart, std::cref(patterns), half, patterns.size(), length);
        BuiltPart parts[2] = { buildPart(patterns, 0, half, length), BuiltPart {} };
        parts[1] = second.valid() ? second.get() : BuiltPart { nullptr, {}, {}, true };
        if (!parts[0].ok || !parts[1].ok)
            return false;
        std::vector<int> unfiltered = parts[0].unfiltered;
        for (const int p : parts[1].unfiltered)
            unfiltered.push_back(p + static_cast<int>(half));
        if (!unfiltered.empty() && length != kAtomLengths[std::size(kAtomLengths) - 1])
            continue;
        m_parts.clear();
        m_atoms.clear();
        for (BuiltPart& part : parts) {
            if (!part.filter)
                continue;
            m_parts.push_back({ std::move(part.filter), static_cast<int>(m_atoms.size()),
                static_cast<int>(part.atoms.size()) });
            for (std::string& atom : part.atoms)
                m_atoms.push_back(std::move(atom));
        }
        m_unfiltered = std::move(unfiltered);
        break;
    }
    return compileAtoms();
}

} // namespace rankscope
