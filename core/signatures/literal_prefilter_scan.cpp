// SPDX-License-Identifier: MIT
// The literal prefilter's search: one Vectorscan database of every atom (caseless literals), scanned over a
// whole block of bytes or over one line, and FilteredRE2 asked about the atoms of a line.
#include "level_cues.h"
#include "literal_prefilter.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <hs.h>
#include <limits>
#include <optional>
#include <re2/filtered_re2.h>

namespace rankscope {

namespace {

struct DatabaseFree
{
    void operator()(hs_database_t* db) const { hs_free_database(db); }
};
struct CompileErrorFree
{
    void operator()(hs_compile_error_t* e) const { hs_free_compile_error(e); }
};

std::atomic<quint64> g_nextDatabaseId { 1 };

// One scratch space per thread, grown to fit every database the thread has scanned with. A database is
// known by an id that is never reused, so a new database at an old address still gets its scratch checked.
struct ThreadScratch
{
    hs_scratch_t* scratch = nullptr;
    quint64 fittedTo = 0;
    ThreadScratch() = default;
    ThreadScratch(const ThreadScratch&) = delete;
    ThreadScratch& operator=(const ThreadScratch&) = delete;
    ~ThreadScratch()
    {
        if (scratch)
            hs_free_scratch(scratch);
    }
};

} // namespace

struct LiteralPrefilter::Database
{
    std::unique_ptr<hs_database_t, DatabaseFree> db;
    quint64 id = 0;

    // The thread's scratch, ready for this database; null when Vectorscan could not allocate it.
    hs_scratch_t* scratch() const
    {
        thread_local ThreadScratch t;
        if (t.fittedTo != id) {
            if (hs_alloc_scratch(db.get(), &t.scratch) != HS_SUCCESS)
                return nullptr;
            t.fittedTo = id;
        }
        return t.scratch;
    }
};

LiteralPrefilter::LiteralPrefilter() = default;
LiteralPrefilter::~LiteralPrefilter() = default;
LiteralPrefilter::LiteralPrefilter(LiteralPrefilter&&) noexcept = default;
LiteralPrefilter& LiteralPrefilter::operator=(LiteralPrefilter&&) noexcept = default;

bool LiteralPrefilter::compileAtoms()
{
    m_db.reset();
    m_atomLength.clear();
    // The atoms, caseless, then the level cues as they are written: one search finds both.
    std::vector<const char*> expressions;
    std::vector<std::size_t> lengths;
    std::vector<unsigned> flags;
    std::vector<unsigned> ids;
    const auto add = [&](std::string_view literal, unsigned flag) {
        ids.push_back(static_cast<unsigned>(expressions.size()));
        expressions.push_back(literal.data());
        lengths.push_back(literal.size());
        flags.push_back(flag);
        m_atomLength.push_back(static_cast<quint32>(literal.size()));
    };
    for (const std::string& atom : m_atoms)
        add(atom, HS_FLAG_CASELESS);
    m_cueBase = static_cast<quint32>(m_atoms.size());
    for (const std::string_view cue : kLevelCues)
        add(cue, 0);
    hs_database_t* db = nullptr;
    hs_compile_error_t* error = nullptr;
    const hs_error_t rc = hs_compile_lit_multi(expressions.data(), flags.data(), ids.data(), lengths.data(),
        static_cast<unsigned>(expressions.size()), HS_MODE_BLOCK, nullptr, &db, &error);
    const std::unique_ptr<hs_compile_error_t, CompileErrorFree> errorGuard(error);
    if (rc != HS_SUCCESS)
        return false;
    m_db = std::make_unique<Database>();
    m_db->db.reset(db);
    m_db->id = g_nextDatabaseId.fetch_add(1);
    return true;
}

namespace {

struct BlockContext
{
    std::vector<AtomHit>* hits;
    const quint32* lengths;
};

int onBlockHit(unsigned id, unsigned long long /*from*/, unsigned long long to, unsigned /*flags*/, void* ctx)
{
    auto* c = static_cast<BlockContext*>(ctx);
    const auto end = static_cast<quint32>(to);
    c->hits->push_back({ end - c->lengths[id], end, id });
    return 0;
}

int onLineHit(unsigned id, unsigned long long, unsigned long long, unsigned, void* ctx)
{
    static_cast<std::vector<int>*>(ctx)->push_back(static_cast<int>(id));
    return 0;
}

} // namespace

void LiteralPrefilter::scanBlock(std::string_view block, AtomHits& out) const
{
    out.reset(block.data(), block.size());
    if (!m_db || block.empty())
        return;
    Q_ASSERT(block.size() <= std::numeric_limits<unsigned>::max());
    hs_scratch_t* scratch = m_db->scratch();
    BlockContext ctx { &out.hits, m_atomLength.data() };
    if (!scratch
        || hs_scan(m_db->db.get(), block.data(), static_cast<unsigned>(block.size()), 0, scratch, onBlockHit,
               &ctx)
            != HS_SUCCESS) {
        out.base = nullptr; // not covered: every line is scanned on its own
        return;
    }
    // Literal matches come in order of their end; keep the lookup below right if they ever do not.
    const auto byEnd = [](const AtomHit& a, const AtomHit& b) { return a.end < b.end; };
    if (!std::is_sorted(out.hits.begin(), out.hits.end(), byEnd))
        std::sort(out.hits.begin(), out.hits.end(), byEnd);
}

// The answer every line gets when nothing needs looking up: none without patterns, all when a pattern has
// no atom. nullopt when the line's atoms decide.
std::optional<bool> LiteralPrefilter::fixedAnswer(bool& sawAtom, PatternCandidates* candidates) const
{
    sawAtom = !m_unfiltered.empty() && !m_parts.empty();
    if (m_parts.empty())
        return false;
    if (!m_unfiltered.empty()) {
        if (candidates)
            candidates->all = true;
        return true;
    }
    return std::nullopt;
}

bool LiteralPrefilter::mayMatch(
    const AtomHits& hits, std::string_view line, bool* sawAtom, PatternCandidates* candidates) const
{
    Q_ASSERT(hits.covers(line));
    bool saw = false;
    bool& seen = sawAtom ? *sawAtom : saw;
    if (candidates)
        candidates->clear();
    if (const std::optional<bool> fixed = fixedAnswer(seen, candidates))
        return *fixed;
    const auto from = static_cast<quint32>(line.data() - hits.base);
    const auto to = static_cast<quint32>(from + line.size());
    // From the first occurrence that ends inside the line; those that also start inside it are its atoms.
    thread_local std::vector<int> found;
    found.clear();
    for (std::size_t i = hits.firstEndingAfter(from); i < hits.hits.size() && hits.hits[i].end <= to; ++i) {
        const AtomHit& h = hits.hits[i];
        if (h.start >= from && h.atom < m_cueBase)
            found.push_back(static_cast<int>(h.atom));
    }
    if (found.empty())
        return false;
    seen = true;
    return confirm(found, candidates);
}

bool LiteralPrefilter::mayMatch(std::string_view line, bool* sawAtom, PatternCandidates* candidates) const
{
    bool saw = false;
    bool& seen = sawAtom ? *sawAtom : saw;
    if (candidates)
        candidates->clear();
    if (const std::optional<bool> fixed = fixedAnswer(seen, candidates))
        return *fixed;
    if (!m_db || line.empty())
        return false;
    thread_local std::vector<int> found;
    found.clear();
    hs_scratch_t* scratch = m_db->scratch();
    if (!scratch
        || hs_scan(
               m_db->db.get(), line.data(), static_cast<unsigned>(line.size()), 0, scratch, onLineHit, &found)
            != HS_SUCCESS) {
        seen = true; // could not look: pass the line to the exact matchers
        if (candidates)
            candidates->all = true;
        return true;
    }
    found.erase(std::remove_if(found.begin(), found.end(),
                    [this](int id) { return static_cast<quint32>(id) >= m_cueBase; }),
        found.end());
    if (found.empty())
        return false;
    seen = true;
    return confirm(found, candidates);
}

bool LiteralPrefilter::mayHoldLevelWord(const AtomHits& hits, std::string_view line) const
{
    if (!m_db || !hits.covers(line))
        return true; // not searched: the caller reads the line
    const auto from = static_cast<quint32>(line.data() - hits.base);
    const auto to = static_cast<quint32>(from + line.size());
    for (std::size_t i = hits.firstEndingAfter(from); i < hits.hits.size() && hits.hits[i].end <= to; ++i) {
        if (hits.hits[i].start >= from && hits.hits[i].atom >= m_cueBase)
            return true;
    }
    return false;
}

// Whether the atoms found (indexes into m_atoms, in any order, repeats allowed) can satisfy a pattern, and
// which patterns they allow.
bool LiteralPrefilter::confirm(std::vector<int>& found, PatternCandidates* candidates) const
{
    std::sort(found.begin(), found.end());
    found.erase(std::unique(found.begin(), found.end()), found.end());
    // Lines of one kind hold the same few atoms ("rank", "train.py" on every logging line): the answer for a
    // set of atoms is remembered, since FilteredRE2's AllPotentials() costs more than the scan.
    struct Memo
    {
        quint64 db = 0;
        std::vector<int> atoms;
        std::vector<int> patterns;
    };
    thread_local std::array<Memo, 64> memo;
    std::size_t h = m_db->id;
    for (const int a : found)
        h = h * 1000003u ^ static_cast<std::size_t>(a);
    Memo& slot = memo[h % memo.size()];
    if (slot.db != m_db->id || slot.atoms != found) {
        slot.db = m_db->id;
        slot.atoms = found;
        potentials(found, slot.patterns);
    }
    if (candidates)
        candidates->patterns = slot.patterns;
    return !slot.patterns.empty();
}

// The patterns the atoms allow, ascending: each FilteredRE2 part is asked about its own atoms, numbered from
// 0 in it, and answers with its own pattern numbers.
void LiteralPrefilter::potentials(const std::vector<int>& found, std::vector<int>& out) const
{
    out.clear();
    thread_local std::vector<int> local;
    thread_local std::vector<int> partPatterns;
    for (const Part& part : m_parts) {
        local.clear();
        for (const int atom : found) {
            if (atom >= part.firstAtom && atom < part.firstAtom + part.atomCount)
                local.push_back(atom - part.firstAtom);
        }
        if (local.empty())
            continue;
        partPatterns.clear();
        part.filter->AllPotentials(local, &partPatterns);
        for (const int p : partPatterns)
            out.push_back(p + part.firstPattern);
    }
    std::sort(out.begin(), out.end());
}

} // namespace rankscope
