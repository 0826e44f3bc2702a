// SPDX-License-Identifier: MIT
// The topology side of an analysis, for `rankscope topology`: which placement to show.
#pragma once

#include "analysis.h"

namespace rankscope {

// The placement of the current attempt's ranks on the analysis' topology. With no incident (captures
// given without logs) it is what the captures imply on their own (placeCapturesOnly()): the closest NIC
// per local rank of every host and its NCCL_IB_HCA script, the CPU binding, the findings.
PlacementResult currentPlacement(const Analysis& analysis);

} // namespace rankscope
