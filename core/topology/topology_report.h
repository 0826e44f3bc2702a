// SPDX-License-Identifier: MIT
// Topology as text (the `rankscope topology` command) and as JSON (the "topology" field of
// `rankscope diagnose --format json`).
#pragma once

#include "topology_loader.h"
#include "topology_placement.h"

#include <QJsonObject>
#include <QString>

namespace rankscope {

// Per host: sources, NUMA nodes, the GPU/NIC matrix (derived cells marked '*'), SYS pairs, what the
// capture lacks, notes.
QString topologyText(const TopologySet& set);
// Rank placement, findings and the NCCL_IB_HCA fix.
QString placementText(const TopologySet& set, const PlacementResult& placement);
// Captures without logs (placeCapturesOnly()): the closest NIC per local rank and its NCCL_IB_HCA script,
// the CPU binding as srun --cpu-bind and numactl lines, and the findings.
QString capturesOnlyText(const TopologySet& set, const PlacementResult& placement);

QJsonObject topologyToJson(const TopologySet& set, const PlacementResult* placement = nullptr);

} // namespace rankscope
