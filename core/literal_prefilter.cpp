#include "literal_prefilter.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <re2/filtered_re2.h>
#include <re2/re2.h>
#include <unordered_map>

namespace rankscope {

namespace {

// Longer atoms let the scan sample fewer positions; a length is used only if every pattern still has
// atoms at that length (otherwise that pattern would have to run on every line).
constexpr int kAtomLengths[] = { 12, 10, 8, 6 };
constexpr std::size_t kGram = 4;
constexpr unsigned kHashBits = 16;
constexpr std::size_t kHashes = std::size_t { 1 } << kHashBits;

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

inline quint32 gramHash(const char* p)
{
    return (foldCase(loadWord<quint32>(p)) * 0x9E3779B1u) >> (32 - kHashBits);
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

// How likely a gram of an atom is to turn up in ordinary log text, where a hit costs a compare: common
// letters and spaces score high, and so do grams that many atoms share ("nccl", "call").
int gramCost(const char* gram, const std::unordered_map<quint32, int>& shared)
{
    static constexpr std::string_view byFrequency = " etaoinsrhldcumfpgwybvkxjqz";
    int cost = 0;
    for (std::size_t i = 0; i < kGram; ++i) {
        const std::size_t rank = byFrequency.find(gram[i]);
        cost += rank == std::string_view::npos ? 2 : static_cast<int>(byFrequency.size() - rank);
    }
    const auto it = shared.find(loadWord<quint32>(gram));
    return cost + 8 * (it == shared.end() ? 0 : it->second);
}

} // namespace

LiteralPrefilter::LiteralPrefilter() = default;
LiteralPrefilter::~LiteralPrefilter() = default;
LiteralPrefilter::LiteralPrefilter(LiteralPrefilter&&) noexcept = default;
LiteralPrefilter& LiteralPrefilter::operator=(LiteralPrefilter&&) noexcept = default;

bool LiteralPrefilter::build(const std::vector<std::string>& patterns)
{
    RE2::Options options;
    options.set_log_errors(false);
    for (const int length : kAtomLengths) {
        auto filter = std::make_unique<re2::FilteredRE2>(length);
        for (std::size_t p = 0; p < patterns.size(); ++p) {
            int id = -1;
            if (filter->Add(patterns[p], options, &id) != RE2::NoError || id != static_cast<int>(p))
                return false;
        }
        std::vector<std::string> atoms;
        filter->Compile(&atoms);
        std::vector<int> unfiltered;
        filter->AllPotentials({}, &unfiltered);
        if (!unfiltered.empty() && length != kAtomLengths[std::size(kAtomLengths) - 1])
            continue;
        m_filter = std::move(filter);
        m_atoms = std::move(atoms);
        m_unfiltered = std::move(unfiltered);
        break;
    }
    index();
    return true;
}

// Every atom is at least `shortest` bytes long, so one of the first `stride` grams of an occurrence
// starts on a multiple of the stride: sampling those positions finds every atom. Each sampled gram is
// looked up on its own, in a bitmap small enough for L1; only a hit compares the atoms behind it.
void LiteralPrefilter::index()
{
    std::size_t shortest = 64;
    for (const std::string& atom : m_atoms)
        shortest = std::min(shortest, atom.size());
    if (shortest < kGram) { // FilteredRE2 never returns such atoms; never risk a miss if it did
        m_unfiltered.push_back(-1);
        shortest = kGram;
    }
    m_stride = shortest - kGram + 1;
    std::unordered_map<quint32, int> shared; // gram -> how many atom positions have it
    for (const std::string& atom : m_atoms) {
        for (std::size_t k = 0; k + kGram <= atom.size(); ++k)
            ++shared[loadWord<quint32>(atom.data() + k)];
    }
    m_gramBits.assign(kHashes / 64, 0);
    std::vector<std::vector<Candidate>> buckets(kHashes);
    for (std::size_t a = 0; a < m_atoms.size(); ++a) {
        const std::string& atom = m_atoms[a];
        char head[8] = {};
        const std::size_t headLength = std::min<std::size_t>(8, atom.size());
        std::memcpy(head, atom.data(), headLength);
        Candidate c { foldCase(loadWord<quint64>(head)), 0, static_cast<int>(a), 0 };
        std::memset(head, 0, sizeof head);
        std::memset(head, 0xFF, headLength);
        c.headMask = loadWord<quint64>(head);
        c.head &= c.headMask;
        for (std::size_t residue = 0; residue < m_stride; ++residue) {
            // Any gram at an offset of this residue will do: take the one least likely in ordinary text.
            std::size_t best = residue;
            for (std::size_t k = residue + m_stride; k + kGram <= atom.size(); k += m_stride) {
                if (gramCost(atom.data() + k, shared) < gramCost(atom.data() + best, shared))
                    best = k;
            }
            const quint32 h = gramHash(atom.data() + best);
            m_gramBits[h >> 6] |= quint64 { 1 } << (h & 63);
            c.offset = static_cast<int>(best);
            buckets[h].push_back(c);
        }
    }
    m_bucketStart.clear();
    m_candidates.clear();
    m_bucketStart.reserve(kHashes + 1);
    for (const std::vector<Candidate>& bucket : buckets) {
        m_bucketStart.push_back(static_cast<quint32>(m_candidates.size()));
        m_candidates.insert(m_candidates.end(), bucket.begin(), bucket.end());
    }
    m_bucketStart.push_back(static_cast<quint32>(m_candidates.size()));
}

bool LiteralPrefilter::mayMatch(std::string_view line) const
{
    if (!m_filter)
        return false;
    if (!m_unfiltered.empty())
        return true;
    thread_local std::vector<int> found;
    found.clear();
    const char* text = line.data();
    const std::size_t n = line.size();
    const quint64* bits = m_gramBits.data();
    const std::size_t stride = m_stride;
    for (std::size_t at = 0; at + kGram <= n; at += stride) {
        const quint32 h = gramHash(text + at);
        if (!(bits[h >> 6] & (quint64 { 1 } << (h & 63))))
            continue;
        for (quint32 b = m_bucketStart[h]; b < m_bucketStart[h + 1]; ++b) {
            const Candidate& c = m_candidates[b];
            const std::string& atom = m_atoms[static_cast<std::size_t>(c.atom)];
            const auto offset = static_cast<std::size_t>(c.offset);
            if (offset > at || atom.size() > n - (at - offset))
                continue;
            const char* start = text + at - offset;
            // Most hits are common grams ("nccl", "rank"): one word compare rejects them.
            if (n - (at - offset) >= 8 && (foldCase(loadWord<quint64>(start)) & c.headMask) != c.head)
                continue;
            if (equalsLowered(start, atom))
                found.push_back(c.atom);
        }
    }
    if (found.empty())
        return false;
    std::sort(found.begin(), found.end());
    found.erase(std::unique(found.begin(), found.end()), found.end());
    thread_local std::vector<int> potentials;
    potentials.clear();
    m_filter->AllPotentials(found, &potentials);
    return !potentials.empty();
}

} // namespace rankscope
