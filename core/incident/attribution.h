// SPDX-License-Identifier: MIT
// Joins what every file said about who wrote it (NCCL identity lines, [rankN]: and [defaultN]: prefixes,
// file names, torchrun summaries, nccl-tests headers) into one RankInfo per rank, and resolves each
// event to its rank. Disagreements between sources become warnings on the incident, never silent choices.
#pragma once

#include "log_model.h"
#include "scan_records.h"

#include <vector>

namespace rankscope {

// Builds the incident's files, ranks and events from the scans of one attempt. Scans are consumed.
void buildIncident(std::vector<FileScan>& scans, Incident& incident);

} // namespace rankscope
