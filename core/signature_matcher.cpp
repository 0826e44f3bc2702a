// One RE2::Set over all patterns, gated by FilteredRE2's required literals ("atoms").
#include "signature_matcher.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <re2/filtered_re2.h>
#include <re2/re2.h>
#include <re2/set.h>

namespace rankscope {

namespace {
constexpr int kMinAtomLength = 6; // shorter atoms (" to ", "rank") occur in most INFO lines

// The prefilter samples the line: every atom is at least kMinAtomLength >= kGram + kStride - 1 bytes long,
// so one of the kStride grams that start its first kStride bytes begins on a multiple of kStride. Each
// sampled gram is looked up on its own (no chain of dependent loads, unlike a shift table), in a bitmap
// small enough for L1; only a hit compares the atoms registered for that gram.
constexpr std::size_t kGram = 4;
constexpr std::size_t kStride = kMinAtomLength - kGram + 1;
static_assert(kStride >= 1);
constexpr unsigned kHashBits = 16;

struct LowerTable
{
    std::array<unsigned char, 256> map {};
    constexpr LowerTable()
    {
        for (std::size_t c = 0; c < 256; ++c)
            map[c] = static_cast<unsigned char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    }
};
constexpr LowerTable kLower;

// Four bytes, ASCII upper case folded to lower case in one register (bytes >= 0x80 are left alone).
inline quint32 gramHash(const char* p)
{
    quint32 x;
    std::memcpy(&x, p, sizeof x);
    const quint32 low7 = x & 0x7F7F7F7Fu;
    const quint32 aboveZ = low7 + 0x25252525u; // high bit set where the byte is > 'Z'
    const quint32 fromA = low7 + 0x3F3F3F3Fu; // high bit set where the byte is >= 'A'
    const quint32 upper = (fromA ^ aboveZ) & ~x & 0x80808080u;
    x |= upper >> 2; // + 0x20 on the upper-case letters
    return (x * 0x9E3779B1u) >> (32 - kHashBits);
}

bool equalsLowered(const char* text, const std::string& atom)
{
    for (std::size_t k = 0; k < atom.size(); ++k) {
        if (kLower.map[static_cast<unsigned char>(text[k])] != static_cast<unsigned char>(atom[k]))
            return false;
    }
    return true;
}
} // namespace

struct SignatureMatcher::Impl
{
    RE2::Options options;
    std::vector<std::unique_ptr<RE2>> regexps; // one per pattern, for captures
    std::vector<int> patternSignature; // pattern -> signature index
    std::vector<int> patternLocal; // pattern -> index within the signature's patterns
    std::vector<SignatureRole> roles; // signature -> role
    std::unique_ptr<RE2::Set> set;
    re2::FilteredRE2 filter { kMinAtomLength };
    std::vector<std::string> atoms; // lower-case literals; a pattern can only match if its atoms occur
    std::vector<quint64> gramBits; // bit per gram hash: some atom has that gram at offset < kStride
    // (atom, offset) pairs by gram hash (CSR layout): the candidates to compare on a bitmap hit.
    std::vector<quint32> bucketStart; // 2^kHashBits + 1 offsets into bucketAtoms
    struct Candidate
    {
        int atom;
        int offset;
    };
    std::vector<Candidate> bucketAtoms;
    bool alwaysPotential = false; // some pattern has no usable atom: the prefilter must pass everything
    bool valid = false;
    QString error;
    QStringList unfiltered; // "id pattern N"

    bool prefilter(std::string_view line) const;
    MatchResult captures(int pattern, std::string_view line) const;
    std::vector<int> hits(std::string_view line) const; // pattern indexes
};

bool SignatureMatcher::Impl::prefilter(std::string_view line) const
{
    if (!valid)
        return false;
    if (alwaysPotential)
        return true;
    thread_local std::vector<int> found;
    found.clear();
    const char* text = line.data();
    const std::size_t n = line.size();
    for (std::size_t at = 0; at + kGram <= n; at += kStride) {
        const quint32 h = gramHash(text + at);
        if (!(gramBits[h >> 6] & (quint64 { 1 } << (h & 63))))
            continue;
        for (quint32 b = bucketStart[h]; b < bucketStart[h + 1]; ++b) {
            const Candidate c = bucketAtoms[b];
            const std::string& atom = atoms[static_cast<std::size_t>(c.atom)];
            const auto offset = static_cast<std::size_t>(c.offset);
            if (offset <= at && atom.size() <= n - (at - offset) && equalsLowered(text + at - offset, atom))
                found.push_back(c.atom);
        }
    }
    if (found.empty())
        return false;
    std::sort(found.begin(), found.end());
    found.erase(std::unique(found.begin(), found.end()), found.end());
    thread_local std::vector<int> potentials;
    potentials.clear();
    filter.AllPotentials(found, &potentials);
    return !potentials.empty();
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

MatchResult SignatureMatcher::Impl::captures(int pattern, std::string_view line) const
{
    const RE2& re = *regexps[static_cast<std::size_t>(pattern)];
    MatchResult result;
    const int groups = re.NumberOfCapturingGroups();
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
    QStringList skipped;
    for (std::size_t s = 0; s < catalog.signatures.size(); ++s) {
        const Signature& sig = catalog.signatures[s];
        d->roles.push_back(sig.role);
        for (int p = 0; p < sig.patterns.size(); ++p) {
            const std::string pattern = sig.patterns[p].toStdString();
            auto re = std::make_unique<RE2>(pattern, d->options);
            std::string setError;
            if (!re->ok()) {
                skipped << sig.id + QStringLiteral(" pattern ") + QString::number(p) + QStringLiteral(": ")
                        + QString::fromStdString(re->error());
                continue;
            }
            const int expected = static_cast<int>(d->regexps.size());
            int filterId = -1;
            if (d->set->Add(pattern, &setError) != expected
                || d->filter.Add(pattern, d->options, &filterId) != RE2::NoError || filterId != expected) {
                d->error = QStringLiteral("internal: pattern index mismatch at ") + sig.id;
                return;
            }
            d->regexps.push_back(std::move(re));
            d->patternSignature.push_back(static_cast<int>(s));
            d->patternLocal.push_back(p);
        }
    }
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
    d->filter.Compile(&d->atoms);
    std::vector<int> unfiltered;
    d->filter.AllPotentials({}, &unfiltered);
    d->alwaysPotential = !unfiltered.empty();
    for (int p : unfiltered) {
        const auto up = static_cast<std::size_t>(p);
        d->unfiltered << catalog.signatures[static_cast<std::size_t>(d->patternSignature[up])].id
                + QStringLiteral(" pattern ") + QString::number(d->patternLocal[up]);
    }
    constexpr std::size_t kHashes = std::size_t { 1 } << kHashBits;
    d->gramBits.assign(kHashes / 64, 0);
    std::vector<std::vector<Impl::Candidate>> buckets(kHashes);
    for (std::size_t a = 0; a < d->atoms.size(); ++a) {
        const std::string& atom = d->atoms[a];
        if (atom.size() < kGram + kStride - 1) {
            d->alwaysPotential = true; // cannot happen with kMinAtomLength, but never risk a miss
            continue;
        }
        for (std::size_t k = 0; k < kStride; ++k) {
            const quint32 h = gramHash(atom.data() + k);
            d->gramBits[h >> 6] |= quint64 { 1 } << (h & 63);
            buckets[h].push_back({ static_cast<int>(a), static_cast<int>(k) });
        }
    }
    d->bucketStart.reserve(kHashes + 1);
    for (const auto& bucket : buckets) {
        d->bucketStart.push_back(static_cast<quint32>(d->bucketAtoms.size()));
        d->bucketAtoms.insert(d->bucketAtoms.end(), bucket.begin(), bucket.end());
    }
    d->bucketStart.push_back(static_cast<quint32>(d->bucketAtoms.size()));
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
    return d->prefilter(line);
}

MatchResult SignatureMatcher::match(std::string_view line) const
{
    if (!d->prefilter(line))
        return {};
    const std::vector<int> patterns = d->hits(line);
    int best = -1;
    for (int p : patterns) {
        if (best < 0)
            best = p;
        const auto role = [this](int pattern) {
            return d->roles[static_cast<std::size_t>(d->patternSignature[static_cast<std::size_t>(pattern)])];
        };
        // Patterns are in catalog order, so the first pattern of the strongest role wins.
        if (role(p) < role(best))
            best = p;
    }
    if (best < 0)
        return {};
    return d->captures(best, line);
}

std::vector<int> SignatureMatcher::matchAll(std::string_view line) const
{
    std::vector<int> out;
    if (!d->prefilter(line))
        return out;
    for (int p : d->hits(line)) {
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
        MatchResult r = d->captures(static_cast<int>(p), line);
        if (r)
            return r;
    }
    return {};
}

} // namespace rankscope
