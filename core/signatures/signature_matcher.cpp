// SPDX-License-Identifier: MIT
// One RE2::Set over all patterns, gated by FilteredRE2's required literals ("atoms").
#include "signature_matcher.h"

#include "launch_info.h"
#include "literal_prefilter.h"

#include <algorithm>
#include <future>
#include <mutex>
#include <optional>
#include <re2/re2.h>
#include <re2/set.h>

namespace rankscope {

struct SignatureMatcher::Impl
{
    RE2::Options options;
    std::vector<std::shared_ptr<const RE2>> regexps; // one per pattern, for captures
    std::vector<int> patternSignature; // pattern -> signature index
    std::vector<int> patternLocal; // pattern -> index within the signature's patterns
    std::vector<SignatureRole> roles; // signature -> role
    std::vector<bool> fallback; // signature -> Signature::fallback
    // signature -> Signature::refines or Signature::hint: chosen by the diagnosis, never by a line
    std::vector<bool> variant;
    std::unique_ptr<RE2::Set> set;
    std::vector<std::string> patterns; // in Set order
    LiteralPrefilter literals;
    bool valid = false;
    QString error;
    QStringList unfiltered; // "id pattern N"

    // The patterns without regard to case (matchIgnoringCase()), built on first use.
    mutable std::once_flag foldedOnce;
    mutable std::unique_ptr<RE2::Set> folded;

    // False when no pattern can match the line; `candidates` then says which may.
    bool prefilter(std::string_view line, PatternCandidates& candidates) const
    {
        return valid && literals.mayMatch(line, nullptr, &candidates);
    }
    // `matched`: the Set has already found this pattern in the line.
    MatchResult captures(int pattern, std::string_view line, bool matched) const;
    MatchResult capturesWith(const RE2& re, int pattern, std::string_view line, bool matched) const;
    std::vector<int> hits(std::string_view line) const; // pattern indexes, by the Set
    // The patterns among `candidates` that match the line, each tried alone; the Set's hits when the
    // prefilter could not narrow them.
    std::vector<int> hitsAmong(std::string_view line, const PatternCandidates& candidates) const;
    // What best() would choose among the candidates' hits, with a role before `roleLimit`, and its captures;
    // empty when none. The candidates are tried strongest first, so the first that matches decides.
    MatchResult bestAmong(std::string_view line, const PatternCandidates& candidates, int roleLimit) const;
    // The pattern that decides among sorted `hits` (-1 when none may): the strongest role, then catalog
    // order.
    int best(const std::vector<int>& hits) const;
    int rankOf(int pattern) const // best()'s order: role, then a catch-all after the others
    {
        const auto sig = static_cast<std::size_t>(patternSignature[static_cast<std::size_t>(pattern)]);
        return static_cast<int>(roles[sig]) * 2 + (fallback[sig] ? 1 : 0);
    }
    SignatureRole roleOf(int pattern) const
    {
        return roles[static_cast<std::size_t>(patternSignature[static_cast<std::size_t>(pattern)])];
    }
};

int SignatureMatcher::Impl::best(const std::vector<int>& hits) const
{
    // Patterns are in catalog order, so the first pattern of the strongest role wins; a catch-all entry
    // (Signature::fallback) only when nothing else of its role matched. A variant never matches a line.
    int out = -1;
    for (int p : hits) {
        if (!variant[static_cast<std::size_t>(patternSignature[static_cast<std::size_t>(p)])]
            && (out < 0 || rankOf(p) < rankOf(out)))
            out = p;
    }
    return out;
}

std::vector<int> SignatureMatcher::Impl::hitsAmong(
    std::string_view line, const PatternCandidates& candidates) const
{
    if (candidates.all)
        return hits(line);
    std::vector<int> out;
    for (const int p : candidates.patterns) {
        // The prefilter's own patterns (restart, failure and launch phrases) follow the Set's.
        if (p >= static_cast<int>(regexps.size()))
            break;
        const RE2& re = *regexps[static_cast<std::size_t>(p)];
        if (re.Match(line, 0, line.size(), RE2::UNANCHORED, nullptr, 0))
            out.push_back(p);
    }
    return out;
}

MatchResult SignatureMatcher::Impl::bestAmong(
    std::string_view line, const PatternCandidates& candidates, int roleLimit) const
{
    if (candidates.all) {
        const int b = best(hits(line));
        return b >= 0 && static_cast<int>(roleOf(b)) < roleLimit ? captures(b, line, true) : MatchResult {};
    }
    // (rank, pattern): the order best() chooses in, so the first candidate that matches is its answer.
    thread_local std::vector<std::pair<int, int>> order;
    order.clear();
    for (const int p : candidates.patterns) {
        if (p >= static_cast<int>(regexps.size()))
            break;
        if (!variant[static_cast<std::size_t>(patternSignature[static_cast<std::size_t>(p)])]
            && static_cast<int>(roleOf(p)) < roleLimit)
            order.emplace_back(rankOf(p), p);
    }
    std::sort(order.begin(), order.end());
    for (const auto& [rank, p] : order) {
        // A pattern with groups is matched once, with them: RE2's DFA rejects a line as fast either way,
        // and the winner is not run a second time for its captures.
        MatchResult r = captures(p, line, false);
        if (r)
            return r;
    }
    return {};
}

std::vector<int> SignatureMatcher::Impl::hits(std::string_view line) const
{
    std::vector<int> out;
    RE2::Set::ErrorInfo info { RE2::Set::kNoError };
    if (!set->Match(line, &out, &info) && info.kind == RE2::Set::kOutOfMemory) {
        // The Set's DFA hit its budget on this line: fall back to the individual patterns.
        out.clear();
        for (std::size_t p = 0; p < regexps.size(); ++p) {
            if (RE2::PartialMatch(line, *regexps[p]))
                out.push_back(static_cast<int>(p));
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

MatchResult SignatureMatcher::Impl::captures(int pattern, std::string_view line, bool matched) const
{
    return capturesWith(*regexps[static_cast<std::size_t>(pattern)], pattern, line, matched);
}

MatchResult SignatureMatcher::Impl::capturesWith(
    const RE2& re, int pattern, std::string_view line, bool matched) const
{
    MatchResult result;
    const int groups = re.NumberOfCapturingGroups();
    // Nothing to extract: whether it matches is all (the Set may have said so already).
    if (groups == 0 && (matched || re.Match(line, 0, line.size(), RE2::UNANCHORED, nullptr, 0))) {
        result.signature = patternSignature[static_cast<std::size_t>(pattern)];
        result.pattern = patternLocal[static_cast<std::size_t>(pattern)];
        return result;
    }
    if (groups == 0)
        return result;
    std::vector<re2::StringPiece> sub(static_cast<std::size_t>(groups + 1));
    if (!re.Match(line, 0, line.size(), RE2::UNANCHORED, sub.data(), groups + 1))
        return result;
    result.signature = patternSignature[static_cast<std::size_t>(pattern)];
    result.pattern = patternLocal[static_cast<std::size_t>(pattern)];
    for (const auto& [name, index] : re.NamedCapturingGroups()) {
        const re2::StringPiece& piece = sub[static_cast<std::size_t>(index)];
        if (piece.data() == nullptr)
            continue; // optional group that did not take part
        result.captures.emplace_back(QString::fromStdString(name),
            QString::fromUtf8(piece.data(), static_cast<qsizetype>(piece.size())));
    }
    std::sort(result.captures.begin(), result.captures.end());
    return result;
}

SignatureMatcher::SignatureMatcher(const Catalog& catalog, MatcherOptions matcherOptions)
    : d(std::make_unique<Impl>())
{
    d->options.set_log_errors(false);
    RE2::Options setOptions = d->options;
    setOptions.set_max_mem(matcherOptions.maxMemoryBytes);
    d->set = std::make_unique<RE2::Set>(setOptions, RE2::UNANCHORED);
    // The prefilter is built from the same pattern list on a second core meanwhile (a third of the
    // start-up); a pattern RE2 refuses below makes it be built again without that pattern.
    std::vector<std::string> allPatterns;
    for (const Signature& sig : catalog.signatures) {
        for (const QString& pattern : sig.patterns)
            allPatterns.push_back(pattern.toStdString());
    }
    // The prefilter's patterns go on past the Set's with the restart phrases.
    std::vector<std::string> scannerPatterns;
    for (const std::string_view phrase : kRestartPhrases)
        scannerPatterns.push_back(RE2::QuoteMeta(std::string(phrase)));
    for (const std::string_view phrase : kFailurePhrases)
        scannerPatterns.push_back(RE2::QuoteMeta(std::string(phrase)));
    for (const std::string_view phrase : kLaunchPhrases) // launch_info.h: the launch detector's cues
        scannerPatterns.push_back(RE2::QuoteMeta(std::string(phrase)));
    allPatterns.insert(allPatterns.end(), scannerPatterns.begin(), scannerPatterns.end());
    std::future<std::optional<LiteralPrefilter>> prefilter =
        std::async(std::launch::async, [&allPatterns]() -> std::optional<LiteralPrefilter> {
            LiteralPrefilter built;
            if (allPatterns.empty() || !built.build(allPatterns))
                return std::nullopt;
            return built;
        });
    QStringList skipped;
    for (std::size_t s = 0; s < catalog.signatures.size(); ++s) {
        const Signature& sig = catalog.signatures[s];
        d->roles.push_back(sig.role);
        d->fallback.push_back(sig.fallback);
        d->variant.push_back(!sig.refines.isEmpty() || sig.hint); // chosen by the diagnosis, never by a line
        for (int p = 0; p < sig.patterns.size(); ++p) {
            const std::string pattern = sig.patterns[p].toStdString();
            // The catalog compiled it already, with these same options.
            const auto known = static_cast<std::size_t>(p);
            std::shared_ptr<const RE2> re = known < sig.compiledPatterns.size() && sig.compiledPatterns[known]
                ? sig.compiledPatterns[known]
                : std::make_shared<const RE2>(pattern, d->options);
            std::string setError;
            if (!re->ok()) {
                skipped << sig.id + QStringLiteral(" pattern ") + QString::number(p) + QStringLiteral(": ")
                        + QString::fromStdString(re->error());
                continue;
            }
            const int expected = static_cast<int>(d->regexps.size());
            if (d->set->Add(pattern, &setError) != expected) {
                d->error = QStringLiteral("internal: pattern index mismatch at ") + sig.id;
                return;
            }
            d->regexps.push_back(std::move(re));
            d->patterns.push_back(pattern);
            d->patternSignature.push_back(static_cast<int>(s));
            d->patternLocal.push_back(p);
        }
    }
    std::optional<LiteralPrefilter> ready = prefilter.get();
    if (!skipped.isEmpty())
        d->error = QStringLiteral("skipped invalid patterns: ") + skipped.join(QStringLiteral("; "));
    if (d->regexps.empty()) {
        d->valid = false;
        if (d->error.isEmpty())
            d->error = QStringLiteral("the catalog has no patterns");
        return;
    }
    if (!d->set->Compile()) {
        d->error = QStringLiteral("the signature pattern set exceeds the memory budget of ")
            + QString::number(matcherOptions.maxMemoryBytes / 1024) + QStringLiteral(" KiB (")
            + QString::number(d->regexps.size())
            + QStringLiteral(" patterns); simplify or split the patterns");
        return;
    }
    if (ready && d->patterns.size() + scannerPatterns.size() == allPatterns.size()) {
        d->literals = std::move(*ready);
    } else {
        std::vector<std::string> patterns = d->patterns; // without the patterns RE2 refused
        patterns.insert(patterns.end(), scannerPatterns.begin(), scannerPatterns.end());
        if (!d->literals.build(patterns)) {
            d->error = QStringLiteral("internal: the literal prefilter refused a pattern");
            return;
        }
    }
    for (int p : d->literals.unfilteredPatterns()) {
        if (p < 0 || p >= static_cast<int>(d->patternSignature.size()))
            continue;
        const auto up = static_cast<std::size_t>(p);
        d->unfiltered << catalog.signatures[static_cast<std::size_t>(d->patternSignature[up])].id
                + QStringLiteral(" pattern ") + QString::number(d->patternLocal[up]);
    }
    d->valid = true;
}

SignatureMatcher::~SignatureMatcher() = default;
SignatureMatcher::SignatureMatcher(SignatureMatcher&&) noexcept = default;
SignatureMatcher& SignatureMatcher::operator=(SignatureMatcher&&) noexcept = default;

bool SignatureMatcher::isValid() const
{
    return d->valid;
}
QString SignatureMatcher::errorString() const
{
    return d->error;
}
int SignatureMatcher::patternCount() const
{
    return static_cast<int>(d->regexps.size());
}
QStringList SignatureMatcher::unfilteredPatterns() const
{
    return d->unfiltered;
}

bool SignatureMatcher::mayMatch(std::string_view line) const
{
    return d->valid && d->literals.mayMatch(line);
}

const LiteralPrefilter* SignatureMatcher::literalPrefilter() const
{
    return d->valid ? &d->literals : nullptr;
}

MatchResult SignatureMatcher::match(std::string_view line) const
{
    return matchBefore(line, static_cast<int>(SignatureRole::Context) + 1); // any role
}

MatchResult SignatureMatcher::matchBefore(std::string_view line, int roleLimit) const
{
    thread_local PatternCandidates candidates;
    if (!d->prefilter(line, candidates))
        return {};
    return matchCandidates(line, candidates, roleLimit);
}

MatchResult SignatureMatcher::matchCandidates(
    std::string_view line, const PatternCandidates& candidates, int roleLimit) const
{
    if (!d->valid)
        return {};
    return d->bestAmong(line, candidates, roleLimit);
}

MatchResult SignatureMatcher::matchWithSet(std::string_view line) const
{
    if (!d->valid)
        return {};
    const int best = d->best(d->hits(line));
    return best < 0 ? MatchResult {} : d->captures(best, line, true);
}

MatchResult SignatureMatcher::matchIgnoringCase(std::string_view line) const
{
    if (!d->valid)
        return {};
    std::call_once(d->foldedOnce, [this] {
        RE2::Options options = d->options;
        options.set_case_sensitive(false);
        auto set = std::make_unique<RE2::Set>(options, RE2::UNANCHORED);
        for (const std::string& pattern : d->patterns) {
            if (set->Add(pattern, nullptr) < 0)
                return; // every pattern compiled case-sensitively; one that does not here leaves no set
        }
        if (set->Compile())
            d->folded = std::move(set);
    });
    std::vector<int> hits;
    if (!d->folded || !d->folded->Match(line, &hits))
        return {};
    std::sort(hits.begin(), hits.end());
    const int best = d->best(hits);
    if (best < 0)
        return {};
    // The captures of the one pattern that won, compiled without regard to case too.
    RE2::Options options = d->options;
    options.set_case_sensitive(false);
    const RE2 re(d->patterns[static_cast<std::size_t>(best)], options);
    return re.ok() ? d->capturesWith(re, best, line, false) : MatchResult {};
}

std::vector<int> SignatureMatcher::matchAll(std::string_view line) const
{
    std::vector<int> out;
    PatternCandidates candidates;
    if (!d->prefilter(line, candidates))
        return out;
    for (int p : d->hitsAmong(line, candidates)) {
        const int s = d->patternSignature[static_cast<std::size_t>(p)];
        if (out.empty() || out.back() != s)
            out.push_back(s);
    }
    return out;
}

MatchResult SignatureMatcher::matchSignature(int signature, std::string_view line) const
{
    for (std::size_t p = 0; p < d->patternSignature.size(); ++p) {
        if (d->patternSignature[p] != signature)
            continue;
        MatchResult r = d->captures(static_cast<int>(p), line, false);
        if (r)
            return r;
    }
    return {};
}

} // namespace rankscope
