// SPDX-License-Identifier: MIT
// Per-pixel-column summary of one timeline lane, so the view paints at most one stroke per column.
#pragma once

#include "timeline_mapping.h"
#include "timeline_model.h"

#include <vector>

namespace rankscope {

namespace BinFlag {
constexpr quint8 Initiating = 0x1; // the initiating event falls in this column
constexpr quint8 Collateral = 0x2; // a collateral event falls in this column
constexpr quint8 Selected = 0x4; // the selected event falls in this column
constexpr quint8 Inferred = 0x8; // some event here has an interpolated time
constexpr quint8 Cause = 0x10; // an event whose signature is a cause falls in this column
constexpr quint8 Symptom = 0x20; // an event whose signature is a symptom falls in this column
} // namespace BinFlag

struct PixelBin
{
    qint8 severity = -1; // max Severity of the column's non-collateral events; -1 when none
    quint8 flags = 0;
    bool empty() const { return severity < 0 && flags == 0; }
};

// Fills `bins` (resized to mapping.width) for `lane`; binary search finds the first event in the
// window, so the cost is O(log n + events in window + width).
void binLane(
    const TimelineLane& lane, const TimelineMapping& mapping, int selectedEvent, std::vector<PixelBin>& bins);

// The event of `lane` nearest to pixel column `x` within `tolerance` columns, or -1.
int eventNearColumn(const TimelineLane& lane, const TimelineMapping& mapping, double x, double tolerance);

} // namespace rankscope
