// SPDX-License-Identifier: MIT
// Variants told apart by the rest of the incident (Signature::refines): a watchdog timeout on the first
// collective, next to long CPU work, or after training finished, means different things and needs a
// different fix. The first variant in catalog order whose conditions all hold is shown.
#include "diagnosis_parts.h"

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
// glued to a watchdog line is one event with two meanings).
bool incidentMatches(const Incident& inc, const Catalog& cat, const QStringList& ids)
{
    for (const QString& id : ids) {
        const int s = cat.indexOf(id);
        if (s < 0)
            continue;
        const Signature& sig = cat.signatures[static_cast<size_t>(s)];
        for (const LogEvent& e : inc.events) {
            if (e.signature == s)
                return true;
            for (const auto& re : sig.compiledPatterns) {
                if (re && recordMatches(e, *re))
                    return true;
            }
        }
    }
    return false;
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
