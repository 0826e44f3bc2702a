// SPDX-License-Identifier: MIT
#include "report_input.h"

#include "topology_report.h"

namespace rankscope {

const AttemptAnalysis* attemptByNumber(const Analysis& analysis, int number)
{
    if (number < 0)
        return nullptr;
    const QString label = QStringLiteral("attempt_%1").arg(number);
    for (const AttemptAnalysis& a : analysis.attempts) {
        if (a.incident.label == label)
            return &a;
    }
    return nullptr;
}

ReportInput buildReportInput(
    const Analysis& analysis, const AttemptAnalysis& attempt, const Divergence* divergence)
{
    ReportInput in;
    in.incident = &attempt.incident;
    in.diagnosis = &attempt.diagnosis;
    in.catalog = &analysis.catalog.catalog;
    in.divergence = divergence;
    // One attempt needs no list: the report's "attempt" field names it.
    if (analysis.attempts.size() > 1) {
        for (const AttemptAnalysis& a : analysis.attempts)
            in.attempts << a.incident.label;
    }
    if (!analysis.topology.hosts.empty()) {
        in.topology = topologyToJson(analysis.topology, &attempt.placement);
        in.topologyText = placementText(analysis.topology, attempt.placement);
    }
    return in;
}

} // namespace rankscope
