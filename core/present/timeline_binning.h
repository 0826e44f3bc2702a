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

// The role a marker shows when an event (or a pixel column) has several: the initiating event, then a
// cause, then collateral, then a symptom. The one order for the window and the report's SVG.
enum class MarkerRole : quint8
{
    Initiating,
    Cause,
    Collateral,
    Symptom,
    None, // a plain stroke
};
MarkerRole markerRole(bool initiating, bool cause, bool collateral, bool symptom);
MarkerRole markerRoleOfEvent(quint8 eventMark); // EventMark bits of a lane's event

struct PixelBin
{
    qint8 severity = -1; // max Severity of the column's non-collateral events; -1 when none
    quint8 flags = 0;
    qint8 repeats = -1; // max Severity of folded repeats that ran through this column; -1 when none
    bool empty() const { return severity < 0 && flags == 0; }
    MarkerRole role() const
    {
        return markerRole(flags & BinFlag::Initiating, flags & BinFlag::Cause, flags & BinFlag::Collateral,
            flags & BinFlag::Symptom);
    }
};

// Fills `bins` (resized to mapping.width) for `lane`; binary search finds the first event in the
// window, so the cost is O(log n + events in window + width).
void binLane(
    const TimelineLane& lane, const TimelineMapping& mapping, int selectedEvent, std::vector<PixelBin>& bins);

// The event of `lane` nearest to pixel column `x` within `tolerance` columns, or -1.
int eventNearColumn(const TimelineLane& lane, const TimelineMapping& mapping, double x, double tolerance);

} // namespace rankscope
