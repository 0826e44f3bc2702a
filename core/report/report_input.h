// SPDX-License-Identifier: MIT
// The one place that turns an analysis into what a report shows. The CLI, the window's export and the
// tests all build their ReportInput here, so that a report says the same thing whichever front end wrote
// it: the attempts, the topology and, when a healthy run was compared, the divergence from it.
#pragma once

#include "analysis.h"
#include "control_compare.h"
#include "report.h"

namespace rankscope {

// The idiom the typed fix actions are written in, from the launchers and framework the logs showed (or
// --launcher/--framework gave): the outermost launcher sets the environment (srun's --export for torchrun
// under Slurm, a pod's env: under Kubernetes), the framework raises the timeout.
FixIdiom fixIdiomFor(const LaunchInfo& launch);

// The attempt labelled attempt_N (N >= 0), or nullptr when no attempt has that label.
const AttemptAnalysis* attemptByNumber(const Analysis& analysis, int number);

// What the report of one attempt of `analysis` shows. The pointers of the result point into `analysis`
// and `divergence` (nullptr: no healthy run was compared), which must outlive it.
ReportInput buildReportInput(
    const Analysis& analysis, const AttemptAnalysis& attempt, const Divergence* divergence = nullptr);

} // namespace rankscope
