// SPDX-License-Identifier: MIT
// A healthy run as a control, read and compared in one call: `rankscope diagnose --control` and the
// window's Compare with Healthy Run both use it.
#pragma once

#include "analysis.h"
#include "control_compare.h"

namespace rankscope {

// Analyses the control run that `control` names and compares `failing` with its current attempt. When the
// control gives no incident, the result compares nothing and its note says why; `error` (when given) gets
// that reason too. A cancelled comparison returns an empty Divergence.
Divergence compareWithControlRun(const AttemptAnalysis& failing, const AnalysisRequest& control,
    const CancelToken* cancel = nullptr, const ProgressFn& progress = {}, QString* error = nullptr);

} // namespace rankscope
