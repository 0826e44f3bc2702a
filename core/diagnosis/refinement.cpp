// SPDX-License-Identifier: MIT
// Variants told apart by the rest of the incident (Signature::refines): a watchdog timeout on the first
// collective, next to long CPU work, or after training finished, means different things and needs a
// different fix. The first variant in catalog order whose conditions all hold is shown.
#include "diagnosis_parts.h"

#include <algorithm>
#include <map>
#include <re2/re2.h>

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

// Two watchdog timeouts at the same SeqNum of one process group that name different collectives (OpType or
// element count): each rank is in a different call, so the ranks took different code paths. A SeqNum names a
// call only within its group: a line that names no group is compared only with others that name none, and
// only past the first few calls, where every new group's SeqNum 1 or 2 would meet by chance.
QString mismatchedCollectives(const Incident& inc)
{
    static const RE2 watchdog(
        R"((?:\[PG (?:ID )?(\d+)[^\]]*\] )?Watchdog caught collective operation timeout: )"
        R"(WorkNCCL\(SeqNum=(\d+), OpType=(\w+)(?:, NumelIn=(\d+))?)");
    struct Call
    {
        QString op;
        int rank;
    };
    std::map<std::pair<std::string, long long>, Call> seen;
    for (const LogEvent& e : inc.events) {
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
        const auto [it, fresh] = seen.try_emplace({ pg, seq }, Call { call, e.rank });
        if (!fresh && it->second.op != call)
            return QStringLiteral("at SeqNum %1 %2 waits in %3 and %4 in %5")
                .arg(seq)
                .arg(it->second.rank >= 0 ? QStringLiteral("rank %1").arg(it->second.rank)
                                          : QStringLiteral("one rank"))
                .arg(it->second.op)
                .arg(e.rank >= 0 ? QStringLiteral("rank %1").arg(e.rank) : QStringLiteral("another"))
                .arg(call);
    }
    return {};
}

} // namespace

int refineSignature(const Incident& inc, const Catalog& cat, const Diagnosis& d, QString* why)
{
    const int base = d.signature;
    if (base < 0 || d.initiatingEvent < 0)
        return base;
    Q_ASSERT(base < static_cast<int>(cat.signatures.size())
        && d.initiatingEvent < static_cast<int>(inc.events.size()));
    const QString& baseId = cat.signatures[static_cast<size_t>(base)].id;
    const LogEvent& init = inc.events[static_cast<size_t>(d.initiatingEvent)];
    for (int s = 0; s < static_cast<int>(cat.signatures.size()); ++s) {
        const Signature& v = cat.signatures[static_cast<size_t>(s)];
        if (v.refines != baseId)
            continue;
        const RefineConditions& w = v.when;
        QStringList reasons;
        if (!w.initiating.isEmpty()) {
            if (!w.initiatingPattern || !recordMatches(init, *w.initiatingPattern))
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
            if (d.suspects.empty())
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
