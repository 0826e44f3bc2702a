// SPDX-License-Identifier: MIT
#include "report_input.h"

#include "topology_report.h"

#include <algorithm>

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

FixIdiom fixIdiomFor(const LaunchInfo& launch)
{
    FixIdiom idiom;
    if (!launch.launchers.empty())
        idiom.launcher = launch.launchers.back().id;
    const QString& framework = launch.framework.id;
    if (framework == QLatin1String("torch"))
        idiom.framework = QStringLiteral("pytorch"); // the adapters' name for plain torch.distributed
    else
        idiom.framework = framework;
    // Accelerate launches and also owns the process group: its InitProcessGroupKwargs raises the timeout.
    const bool accelerate = std::any_of(launch.launchers.begin(), launch.launchers.end(),
        [](const LaunchItem& l) { return l.id == QLatin1String("accelerate"); });
    if (accelerate && (idiom.framework.isEmpty() || idiom.framework == QLatin1String("pytorch")))
        idiom.framework = QStringLiteral("accelerate");
    return idiom;
}

ReportInput buildReportInput(
    const Analysis& analysis, const AttemptAnalysis& attempt, const Divergence* divergence)
{
    ReportInput in;
    in.incident = &attempt.incident;
    in.diagnosis = &attempt.diagnosis;
    in.catalog = &analysis.catalog.catalog;
    in.divergence = divergence;
    in.idiom = fixIdiomFor(attempt.incident.launch);
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
