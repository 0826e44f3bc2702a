// SPDX-License-Identifier: MIT
// Matches raw log lines against every catalog pattern at once.
// A literal prefilter (RE2's FilteredRE2 atoms, found by Vectorscan) rejects most lines and names the few
// patterns the others may match; those are tried alone, strongest role first, and the first that matches
// gives its captures. One RE2::Set over all patterns answers when the prefilter cannot narrow them.
// Built once, then safe for concurrent const use from any number of threads.
#pragma once

#include "log_model.h"
#include "signature_catalog.h"

#include <QString>
#include <QStringList>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

namespace rankscope {

class LiteralPrefilter;
struct PatternCandidates;

struct MatchResult
{
    int signature = -1; // index into the catalog; -1 when nothing matched
    int pattern = -1; // index into that signature's patterns
    std::vector<Capture> captures; // named groups that took part in the match
    explicit operator bool() const { return signature >= 0; }
};

// What torchrun's agent says before it restarts the workers. No signature matches it, but the scanner
// must parse such a line in full: the literal prefilter passes every line that holds one of these, so a
// scanner shortcut that asks the prefilter needs no search of its own.
inline constexpr std::string_view kRestartPhrases[] = { "will restart worker group",
    "Restarting worker group" };

// The failure vocabulary's phrases (line/failure_words.h), lower case: the prefilter passes every line
// that holds one, case-insensitively, so no scanner shortcut skips a line with a failure word in it.
inline constexpr std::string_view kFailurePhrases[] = { "failed", "failure", "timed out", "error:", "error ",
    "error]", "exception:", "traceback", "caught signal", "segmentation fault", "bus error", "killed",
    "exit code", "exitcode", "nvrm: xid", "nccl warn", "critical", "fatal ", "fatal:", "fatal]", "timing out",
    "operation timeout", "socket timeout", "unhandled exception",
    "free(): ", "malloc(): ", "munmap_chunk(): ", "double free or corruption", "process received signal",
    "nccl error", "cuda error", "*** sig" };

struct MatcherOptions
{
    std::int64_t maxMemoryBytes = 64 << 20; // budget for the compiled RE2::Set
};

class SignatureMatcher
{
public:
    explicit SignatureMatcher(const Catalog& catalog, MatcherOptions options = {});
    ~SignatureMatcher();
    SignatureMatcher(SignatureMatcher&&) noexcept;
    SignatureMatcher& operator=(SignatureMatcher&&) noexcept;
    SignatureMatcher(const SignatureMatcher&) = delete;
    SignatureMatcher& operator=(const SignatureMatcher&) = delete;

    bool isValid() const; // false when the set could not be compiled (then nothing matches)
    QString errorString() const; // why it is invalid, or the patterns that were skipped
    int patternCount() const;
    // "id pattern N" for each pattern without a literal of 6+ characters: such a pattern makes the
    // prefilter pass every line, which costs throughput (never correctness).
    QStringList unfilteredPatterns() const;

    // Cheap test run before the Set: false guarantees that no pattern matches the line, and that the line
    // holds none of kRestartPhrases or kFailurePhrases.
    bool mayMatch(std::string_view line) const;
    // The filter behind mayMatch(), for a caller that tests every line of a file and would pay for two
    // calls across files per line otherwise; null when the matcher is invalid (mayMatch() is then false).
    const LiteralPrefilter* literalPrefilter() const;
    // Best signature: role cause > symptom > context, then catalog order.
    MatchResult match(std::string_view line) const;
    // The same, but empty unless the best signature's role ranks before `role` (0 cause, 1 symptom,
    // 2 context): a continuation line that cannot improve on its record costs no capture extraction.
    MatchResult matchBefore(std::string_view line, int role) const;
    // match() for a line the caller's literalPrefilter() already passed, with the candidates it gave: the
    // filter does not run twice, and only the candidates are tried.
    MatchResult matchCandidates(
        std::string_view line, const PatternCandidates& candidates, int roleLimit = kUnmatchedRoleRank) const;
    // match() without the prefilter: the RE2::Set over every pattern. The reference that match() and
    // matchCandidates() must agree with (tst_signature_matcher), and their way when the prefilter cannot
    // narrow the patterns.
    MatchResult matchWithSet(std::string_view line) const;
    // match() for a line a person retyped in lower case ("runtimeerror: cuda error: invalid device
    // ordinal"): the patterns compiled without regard to case, on the first call (thread-safe). Asked only of
    // such lines, which are few.
    MatchResult matchIgnoringCase(std::string_view line) const;
    // Every matching signature, in catalog order.
    std::vector<int> matchAll(std::string_view line) const;
    // Captures of one signature on a line it matches (empty result when it does not match).
    MatchResult matchSignature(int signature, std::string_view line) const;

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace rankscope
