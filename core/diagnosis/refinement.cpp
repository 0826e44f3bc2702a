// SPDX-License-Identifier: MIT
// Variants told apart by the rest of the incident (Signature::refines): a watchdog timeout on the first
// collective, next to long CPU work, or after training finished, means different things and needs a
// different fix. The first variant in catalog order whose conditions all hold is shown.
#include "diagnosis_parts.h"

#include <algorithm>
#include <map>
#include <re2/re2.h>
#include <set>

namespace rankscope::detail {

namespace {

bool recordMatches(const LogEvent& e, const RE2& re)
{
    if (RE2::PartialMatch(e.text.toStdString(), re))
        return true;
    for (const QString& line : e.continuation) {
        if (RE2::PartialMatch(line.toStdString(), re))
            return true;
    }
    return false;
}

// Some event of the incident matches a pattern of one of `ids` (not only its best signature: a tqdm bar
// glued to a watchdog line is one event with two meanings). Each record is converted to UTF-8 once.
bool incidentMatches(const Incident& inc, const Catalog& cat, const QStringList& ids)
{
    std::vector<const Signature*> wanted;
    std::vector<int> indices;
    for (const QString& id : ids) {
        const int s = cat.indexOf(id);
        if (s >= 0) {
            wanted.push_back(&cat.signatures[static_cast<size_t>(s)]);
            indices.push_back(s);
        }
    }
    for (const LogEvent& e : inc.events) {
        if (std::find(indices.begin(), indices.end(), e.signature) != indices.end())
            return true;
        std::vector<std::string> lines { e.text.toStdString() };
        for (const QString& line : e.continuation)
            lines.push_back(line.toStdString());
        for (const Signature* sig : wanted) {
            for (const auto& re : sig->compiledPatterns) {
                for (const std::string& line : lines) {
                    if (re && RE2::PartialMatch(line, *re))
                        return true;
                }
            }
        }
    }
    return false;
}

// One watchdog timeout: the call it waits in, by process group and SeqNum.
struct WatchdogCall
{
    std::pair<std::string, long long> key; // process group (may be empty), SeqNum
    QString call; // OpType, with the element count when the line gives it
    int rank = -1;
    int event = -1;
};

// Watchdog timeouts that can be compared by SeqNum. A SeqNum names a call only within its group: a line that
// names no group is compared only with others that name none, and only past the first few calls, where every
// new group's SeqNum 1 or 2 would meet by chance.
std::vector<WatchdogCall> watchdogCalls(const Incident& inc)
{
    static const RE2 watchdog(
        R"((?:\[PG (?:ID )?(\d+)[^\]]*\] )?Watchdog caught collective operation timeout: )"
        R"(WorkNCCL\(SeqNum=(\d+), OpType=(\w+)(?:, NumelIn=(\d+))?)");
    std::vector<WatchdogCall> calls;
    for (int i = 0; i < static_cast<int>(inc.events.size()); ++i) {
        const LogEvent& e = inc.events[static_cast<size_t>(i)];
        std::string pg, op, numel;
        long long seq = 0;
        if (!RE2::PartialMatch(e.text.toStdString(), watchdog, &pg, &seq, &op, &numel))
            continue;
        if (pg.empty() && seq < 10)
            continue;
        // A send on one rank and its receive on the other share a SeqNum in pipeline parallelism: only
        // collectives are compared (a coalesced batch names no single call either).
        if (op == "SEND" || op.rfind("RECV", 0) == 0 || op == "COALESCED")
            continue;
        const QString call = numel.empty()
            ? QString::fromStdString(op)
            : QStringLiteral("%1 of %2 elements")
                  .arg(QString::fromStdString(op), QString::fromStdString(numel));
        calls.push_back({ { pg, seq }, call, e.rank, i });
    }
    return calls;
}

QString rankName(int rank, const QString& unknown)
{
    return rank >= 0 ? QStringLiteral("rank %1").arg(rank) : unknown;
}

// Two watchdog timeouts at the same SeqNum of one process group that name different collectives (OpType or
// element count): each rank is in a different call, so the ranks took different code paths.
QString mismatchedCollectives(const Incident& inc)
{
    std::map<std::pair<std::string, long long>, const WatchdogCall*> seen;
    const std::vector<WatchdogCall> calls = watchdogCalls(inc);
    for (const WatchdogCall& c : calls) {
        const auto [it, fresh] = seen.try_emplace(c.key, &c);
        if (!fresh && it->second->call != c.call)
            return QStringLiteral("at SeqNum %1 %2 waits in %3 and %4 in %5")
                .arg(c.key.second)
                .arg(rankName(it->second->rank, QStringLiteral("one rank")), it->second->call,
                    rankName(c.rank, QStringLiteral("another")), c.call);
    }
    return {};
}

} // namespace

int oddCollectiveEvent(const Incident& inc, QString* why)
{
    // Per SeqNum, per call: the ranks (an unattributed line counts as one more writer) and the first event.
    struct Group
    {
        std::set<int> ranks;
        int unattributed = 0;
        int first = -1;
        int writers() const { return static_cast<int>(ranks.size()) + unattributed; }
    };
    std::map<std::pair<std::string, long long>, std::map<QString, Group>> bySeq;
    for (const WatchdogCall& c : watchdogCalls(inc)) {
        Group& g = bySeq[c.key][c.call];
        if (c.rank >= 0)
            g.ranks.insert(c.rank);
        else
            ++g.unattributed;
        if (g.first < 0)
            g.first = c.event;
    }
    for (const auto& [key, groups] : bySeq) {
        if (groups.size() < 2)
            continue;
        const Group* odd = nullptr;
        const QString* oddCall = nullptr;
        int fewest = 1 << 30, runnerUp = 1 << 30, total = 0;
        for (const auto& [call, g] : groups) {
            total += g.writers();
            if (g.writers() < fewest) {
                runnerUp = fewest;
                fewest = g.writers();
                odd = &g;
                oddCall = &call;
            } else {
                runnerUp = std::min(runnerUp, g.writers());
            }
        }
        // Only a call fewer ranks wait in than in any other is the odd one out; one against one says nothing.
        if (!odd || fewest >= runnerUp || total < 3)
            continue;
        if (why) {
            QStringList others;
            for (const auto& [call, g] : groups)
                if (&g != odd)
                    others << QStringLiteral("%1 rank(s) in %2").arg(g.writers()).arg(call);
            const LogEvent& e = inc.events[static_cast<size_t>(odd->first)];
            *why = QStringLiteral("at SeqNum %1 %2 waits in %3 while %4: it took another code path")
                       .arg(key.second)
                       .arg(rankName(e.rank, QStringLiteral("one rank")), *oddCall,
                           others.join(QStringLiteral(", ")));
        }
        return odd->first;
    }
    return -1;
}

int refineSignature(const Incident& inc, const Catalog& cat, const Diagnosis& d, QString* why)
{
    const int base = d.signature;
    if (base < 0)
        return base;
    Q_ASSERT(base < static_cast<int>(cat.signatures.size())
        && d.initiatingEvent < static_cast<int>(inc.events.size()));
    const QString& baseId = cat.signatures[static_cast<size_t>(base)].id;
    // A hang's phase entry (Signature::stall) has no initiating line: only its variants without an
    // `initiating` condition can hold.
    const LogEvent* init =
        d.initiatingEvent >= 0 ? &inc.events[static_cast<size_t>(d.initiatingEvent)] : nullptr;
    for (int s = 0; s < static_cast<int>(cat.signatures.size()); ++s) {
        const Signature& v = cat.signatures[static_cast<size_t>(s)];
        if (v.refines != baseId)
            continue;
        const RefineConditions& w = v.when;
        QStringList reasons;
        if (!w.initiating.isEmpty()) {
            if (!init || !w.initiatingPattern || !recordMatches(*init, *w.initiatingPattern))
                continue;
            reasons << QStringLiteral("the initiating record matches /%1/").arg(w.initiating);
        }
        if (!w.signatures.isEmpty()) {
            if (!incidentMatches(inc, cat, w.signatures))
                continue;
            reasons << QStringLiteral("the incident shows %1").arg(w.signatures.join(QStringLiteral(" or ")));
        }
        if (!w.env.isEmpty()) {
            const auto had = std::find_if(w.env.begin(), w.env.end(), [&](const QString& want) {
                const QString name = want.section(QLatin1Char('='), 0, 0);
                const QString value =
                    want.contains(QLatin1Char('=')) ? want.section(QLatin1Char('='), 1) : QString();
                return std::any_of(inc.envSettings.begin(), inc.envSettings.end(), [&](const EnvSetting& e) {
                    return e.name == name && (value.isEmpty() || e.value == value);
                });
            });
            if (had == w.env.end())
                continue;
            reasons << QStringLiteral("the run had %1 set").arg(*had);
        }
        if (w.mismatchedCollectives) {
            const QString mismatch = mismatchedCollectives(inc);
            if (mismatch.isEmpty())
                continue;
            reasons << mismatch;
        }
        if (w.silentRank) {
            // A rank named only by what it did not print; one the logs name as lagging printed its own lines.
            if (std::none_of(d.suspects.begin(), d.suspects.end(),
                    [](const Suspect& x) { return x.namedBy.isEmpty(); }))
                continue;
            reasons << QStringLiteral("a rank printed no failure while others timed out");
        }
        if (why)
            *why = QStringLiteral("%1, a variant of %2: %3")
                       .arg(v.id, baseId, reasons.join(QStringLiteral("; ")));
        return s;
    }
    return base;
}

} // namespace rankscope::detail
