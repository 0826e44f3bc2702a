// SPDX-License-Identifier: MIT
// The rows of the rank list: one per global rank, with what the diagnosis says about it. Built off the UI
// thread with the rest of an attempt's view (incident_view_model.h); RankTableModel shows them.
#pragma once

#include "analysis.h"

#include <QString>
#include <array>
#include <vector>

namespace rankscope {

// The rank's part in the failure, most telling first: the numeric order is the sort order.
enum class RankStatus : quint8
{
    Initiating, // it logged the initiating event
    Suspect, // the diagnosis names it (a hang, a missing rank)
    Collateral, // it only failed because another rank did
    None
};
QString rankStatusName(RankStatus status); // "initiating", "suspect", "collateral", ""

struct RankRow
{
    int rank = -1;
    QString host;
    int localRank = -1; // -1 when unknown
    int gpu = -1; // NVML index, else CUDA device, else -1
    int firstWarn = -1; // event index, -1 when none
    qint64 firstWarnMs = 0; // meaningful when firstWarnTimed
    QString firstWarnTime; // "02:17:44.123" (" ~" when inferred), "" when untimed or no WARN
    bool firstWarnTimed = false;
    QString message; // the first WARN's message, cut to 200 characters
    QString tooltip; // its whole text
    int signature = -1; // catalog index of the first WARN's signature, -1 when none
    bool initiating = false; // the first WARN is the initiating event
    RankStatus status = RankStatus::None;
    std::array<qint64, 4> severityCounts {}; // lines by Severity
    qint64 lastStep = -1; // the last training step the rank logged, -1 when unknown
};

// One row per rank of `a.incident`, in rank order.
std::vector<RankRow> buildRankRows(const AttemptAnalysis& a);

} // namespace rankscope
