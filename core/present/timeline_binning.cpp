// SPDX-License-Identifier: MIT
#include "timeline_binning.h"

#include <algorithm>
#include <cmath>

namespace rankscope {

MarkerRole markerRole(bool initiating, bool cause, bool collateral, bool symptom)
{
    if (initiating)
        return MarkerRole::Initiating;
    if (cause) // a cause on another rank is still a cause: it beats collateral
        return MarkerRole::Cause;
    if (collateral)
        return MarkerRole::Collateral;
    if (symptom)
        return MarkerRole::Symptom;
    return MarkerRole::None;
}

MarkerRole markerRoleOfEvent(quint8 mark)
{
    return markerRole(mark & EventMark::Initiating, mark & EventMark::Cause, mark & EventMark::Collateral,
        mark & EventMark::Symptom);
}

void binLane(
    const TimelineLane& lane, const TimelineMapping& mapping, int selectedEvent, std::vector<PixelBin>& bins)
{
    bins.assign(static_cast<size_t>(qMax(mapping.width, 0)), PixelBin {});
    if (bins.empty())
        return;
    auto first = std::lower_bound(lane.times.begin(), lane.times.end(), mapping.start);
    for (auto k = static_cast<size_t>(first - lane.times.begin()); k < lane.times.size(); ++k) {
        const qint64 t = lane.times[k];
        if (t > mapping.end)
            break;
        const int col = mapping.columnOf(t);
        if (col < 0)
            continue;
        PixelBin& bin = bins[static_cast<size_t>(col)];
        const quint8 mark = lane.marks[k];
        if (mark & EventMark::Collateral) {
            bin.flags |= BinFlag::Collateral;
        } else {
            const auto sev = static_cast<qint8>(mark & EventMark::SeverityMask);
            bin.severity = qMax(bin.severity, sev);
        }
        if (mark & EventMark::Initiating)
            bin.flags |= BinFlag::Initiating;
        if (mark & EventMark::InferredTime)
            bin.flags |= BinFlag::Inferred;
        if (mark & EventMark::Cause)
            bin.flags |= BinFlag::Cause;
        if (mark & EventMark::Symptom)
            bin.flags |= BinFlag::Symptom;
        if (lane.events[k] == selectedEvent)
            bin.flags |= BinFlag::Selected;
    }
    // Repeats folded into an event while scanning: the columns they ran through, after the event's own.
    for (const TimelineLane::RepeatRun& run : lane.repeatRuns) {
        if (run.from > mapping.end)
            break;
        if (run.to < mapping.start)
            continue;
        const int from = std::max(mapping.columnOf(std::max(run.from, mapping.start)) + 1, 0);
        const int to = std::min(mapping.columnOf(std::min(run.to, mapping.end)), mapping.width - 1);
        for (int c = from; c <= to; ++c) {
            PixelBin& bin = bins[static_cast<size_t>(c)];
            bin.repeats = qMax(bin.repeats, run.severity);
        }
    }
}

int eventNearColumn(const TimelineLane& lane, const TimelineMapping& mapping, double x, double tolerance)
{
    const qint64 from = mapping.mapXToTime(x - tolerance);
    const qint64 to = mapping.mapXToTime(x + tolerance + 1);
    auto it = std::lower_bound(lane.times.begin(), lane.times.end(), from);
    int best = -1;
    double bestDistance = tolerance + 1;
    int bestSeverity = -1;
    for (auto k = static_cast<size_t>(it - lane.times.begin()); k < lane.times.size() && lane.times[k] <= to;
         ++k) {
        const double distance = std::abs(std::floor(mapping.mapTimeToX(lane.times[k])) + 0.5 - x);
        const int sev = lane.marks[k] & EventMark::SeverityMask;
        // Prefer the closest column; within a column prefer the worst event, then the earliest.
        const bool closer = distance < bestDistance - 0.5;
        const bool sameColumnWorse = std::abs(distance - bestDistance) <= 0.5 && sev > bestSeverity;
        if (best < 0 || closer || sameColumnWorse) {
            best = lane.events[k];
            bestDistance = distance;
            bestSeverity = sev;
        }
    }
    return best;
}

} // namespace rankscope
