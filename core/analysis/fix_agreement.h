// SPDX-License-Identifier: MIT
// The fix and the verify commands must not contradict each other. A signature's verify commands are
// templates filled from the failing line: "NCCL_IB_HCA={nic}" pins the NIC the rank used, which is the NIC
// that failed when the fix is to bind the rank elsewhere. When the topology gives the initiating rank a
// computed binding (each GPU to its closest NIC), every NCCL_IB_HCA=... a verify command sets for that rank
// is made to name the bound NIC instead, so running the verify tests the fix.
#pragma once

#include "diagnosis.h"
#include "log_model.h"
#include "topology_placement.h"

namespace rankscope {

// The NIC the placement binds the initiating rank to; empty when none is computed for it.
QString boundNicOfInitiatingRank(
    const Incident& incident, const Diagnosis& diagnosis, const PlacementResult& placement);

// Rewrites the NCCL_IB_HCA values of `diagnosis.verify` to the bound NIC; returns how many it changed.
int alignVerifyWithBinding(const Incident& incident, Diagnosis& diagnosis, const PlacementResult& placement);

} // namespace rankscope
