// SPDX-License-Identifier: MIT
// Building the literal prefilter: FilteredRE2's atoms for the patterns, then the gram table the per-line
// test samples (literal_prefilter.cpp).
#include "literal_prefilter.h"
#include "literal_prefilter_hash.h"

#include <algorithm>
#include <functional>
#include <future>
#include <re2/filtered_re2.h>
#include <re2/re2.h>
#include <thread>
#include <unordered_map>
#include <unordered_set>

namespace rankscope {

using namespace prefilter;

namespace {

// Longer atoms let the scan sample fewer positions; a length is used only if every pattern still has
// atoms at that length (otherwise that pattern would have to run on every line).
constexpr int kAtomLengths[] = { 13, 12, 10, 8, 6 };

// Lines every healthy job prints by the million. An atom gram that occurs here, or only shares its hash
// bit with one that does, would make the filter compare atoms on most lines (an atom with "recv" in it
// against every "recvbuff"; "]:gp" of "[default3]:gpu-a01" on a bit an atom gram set), so it is chosen
// last.
constexpr std::string_view kOrdinaryText =
    "gpu-a01:1007033:1007033 [0] NCCL INFO AllReduce: opCount 3de sendbuff 0x7f3a40000000 recvbuff "
    "0x7f3a40000000 count 26214400 datatype 7 op 0 root 0 comm 0x55cc94badc50 [nranks=1024] stream "
    "0x55cc94cbcd10\n"
    "NCCL INFO Broadcast: opCount 0 sendbuff recvbuff AllGather ReduceScatter Send Recv SendRecv\n"
    "NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC/read Channel 01/02 : 1[1] -> 0[0] [receive] via "
    "NET/IB/0/GDRDMA [send] via NET/IB/1\n"
    "NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/RoCE ; OOB eth0:10.0.0.1<0>\n"
    "NCCL INFO comm 0x55cc94badc50 rank 0 nranks 8 cudaDev 0 nvmlDev 0 busId 18000 commId 0x1 - Init "
    "COMPLETE\n"
    "NCCL INFO Connected all rings Connected all trees threadThresholds 8/8/64 | 64/8/64 | 512 | 512\n"
    "NCCL INFO 32 coll channels, 32 collnet channels, 0 nvls channels, 32 p2p channels, 32 p2p channels "
    "per peer\n"
    "NCCL INFO Trees [0] 1/-1/-1->0->-1 [1] -1/-1/-1->0->1 P2P Chunksize set to 524288\n"
    "[default3]:gpu-a01:1007036:1007036 [3] NCCL INFO Channel 00/32 : 0 1 2 3 4 5 6 7\n"
    "[default4]:[rank36]:I0314 02:10:43.212000 53386 train.py:212] step 2790 | loss 2.3674 | "
    "grad_norm 0.899 | lr 3.00e-04 | 1.93 s/it tokens/s samples/s throughput epoch iteration batch\n"
    "INFO:torch.distributed.run:Using nproc_per_node=8. WARNING:torch.distributed.elastic.multiprocessing"
    ".redirects:NOTE: Redirects are currently not supported in Windows or MacOs.\n";

// How likely a gram of an atom is to turn up in ordinary log text, where a hit costs a compare: grams of
// kOrdinaryText score highest, then common letters and spaces, and grams that many atoms share ("nccl",
// "call").
int gramCost(const char* gram, const std::unordered_map<quint32, int>& shared,
    const std::unordered_set<quint32>& ordinary)
{
    static constexpr std::string_view byFrequency = " etaoinsrhldcumfpgwybvkxjqz";
    int cost = 0;
    for (std::size_t i = 0; i < kGram; ++i) {
        const std::size_t rank = byFrequency.find(gram[i]);
        cost += rank == std::string_view::npos ? 2 : static_cast<int>(byFrequency.size() - rank);
    }
    if (ordinary.count(gramHash(gram)) != 0)
        cost += 1000;
    const auto it = shared.find(loadWord<quint32>(gram));
    return cost + 8 * (it == shared.end() ? 0 : it->second);
}

} // namespace

LiteralPrefilter::LiteralPrefilter() = default;
LiteralPrefilter::~LiteralPrefilter() = default;
LiteralPrefilter::LiteralPrefilter(LiteralPrefilter&&) noexcept = default;
LiteralPrefilter& LiteralPrefilter::operator=(LiteralPrefilter&&) noexcept = default;

namespace {

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
    index();
    return true;
}

// Every atom is at least `shortest` bytes long, so one of the first `stride` grams of an occurrence
// starts on a multiple of the stride: sampling those positions finds every atom. Each sampled gram is
// looked up on its own, in a table of one byte per hash; only a hit compares the atoms behind it.
void LiteralPrefilter::index()
{
    std::size_t shortest = 64;
    m_anyGram.assign(kHashes / 64, 0);
    for (const std::string& atom : m_atoms) {
        shortest = std::min(shortest, atom.size());
        for (std::size_t k = 0; k + kGram <= atom.size(); ++k) {
            const quint32 h = gramHash(atom.data() + k);
            m_anyGram[h / 64] |= quint64 { 1 } << (h % 64);
        }
    }
    if (shortest < kGram) { // FilteredRE2 never returns such atoms; never risk a miss if it did
        m_unfiltered.push_back(-1);
        shortest = kGram;
    }
    m_stride = shortest - kGram + 1;
    std::unordered_set<quint32> ordinary; // the hashes of kOrdinaryText's grams (gramHash folds case)
    for (std::size_t k = 0; k + kGram <= kOrdinaryText.size(); ++k)
        ordinary.insert(gramHash(kOrdinaryText.data() + k));
    std::unordered_map<quint32, int> shared; // gram -> how many atom positions have it
    for (const std::string& atom : m_atoms) {
        for (std::size_t k = 0; k + kGram <= atom.size(); ++k)
            ++shared[loadWord<quint32>(atom.data() + k)];
    }
    m_gramHit.assign(kHashes, 0);
    std::vector<std::pair<quint32, Candidate>> byHash; // a vector per hash would be 128k allocations
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
                if (gramCost(atom.data() + k, shared, ordinary)
                    < gramCost(atom.data() + best, shared, ordinary))
                    best = k;
            }
            const quint32 h = gramHash(atom.data() + best);
            m_gramHit[h] = 1;
            c.offset = static_cast<int>(best);
            byHash.emplace_back(h, c);
        }
    }
    // Grouped by hash, each group in the order added.
    std::stable_sort(
        byHash.begin(), byHash.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    m_candidates.clear();
    m_bucketStart.assign(kHashes + 1, 0);
    for (const auto& [h, c] : byHash) {
        ++m_bucketStart[h + 1];
        m_candidates.push_back(c);
    }
    for (std::size_t h = 0; h < kHashes; ++h)
        m_bucketStart[h + 1] += m_bucketStart[h];
}

} // namespace rankscope
