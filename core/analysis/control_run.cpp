// SPDX-License-Identifier: MIT
#include "control_run.h"

namespace rankscope {

Divergence compareWithControlRun(const AttemptAnalysis& failing, const AnalysisRequest& control,
    const CancelToken* cancel, const ProgressFn& progress, QString* error)
{
    const Analysis run = analyze(control, cancel, progress);
    if (cancel && cancel->isCancelled())
        return {};
    const AttemptAnalysis* c = run.currentAttempt();
    if (!c) {
        Divergence d;
        d.note = QStringLiteral("the control run could not be read: %1").arg(run.error);
        if (error)
            *error = run.error;
        return d;
    }
    return compareWithControl(failing.incident, failing.diagnosis, c->incident, cancel);
}

} // namespace rankscope
