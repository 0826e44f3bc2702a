// SPDX-License-Identifier: MIT
#include "topology_analysis.h"

namespace rankscope {

PlacementResult currentPlacement(const Analysis& analysis)
{
    if (const AttemptAnalysis* a = analysis.currentAttempt())
        return a->placement;
    return analysis.capturesOnly; // placeCapturesOnly(): the binding and findings need no logs
}

} // namespace rankscope
