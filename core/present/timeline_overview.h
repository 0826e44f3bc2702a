// SPDX-License-Identifier: MIT
// The overview strip above the timeline's lanes: every lane at once, one pixel row per lane (or per run
// of lanes when there are more lanes than rows), with when it first warned and whether it went quiet
// (its last line long before the end of the job). Pure Core, so the strip's view only paints.
#pragma once

#include "timeline_model.h"

#include <vector>

namespace rankscope {

struct OverviewRow
{
    std::vector<int> lanes; // in display order; the first is where a click scrolls to
    qint64 firstWarn = -1; // earliest WARN-or-worse of these lanes, -1 when none
    qint64 lastSeen = -1; // latest line of these lanes (time or line number), -1 when unknown
    bool quiet = false; // some lane's last line is long before the end of the job
    bool initiating = false; // holds the initiating event's lane
};

struct TimelineOverview
{
    std::vector<OverviewRow> rows;
    qint64 start = 0; // the span the strip draws
    qint64 end = 0;
    qint64 firstWarn = -1; // earliest and latest first-WARN over all rows, for the colour ramp
    qint64 lastWarn = -1;
    qint64 quietGap = 0; // how far before the end a last line must be to count as quiet
};

// A lane went quiet when its last line is this long before the job's end, or a tenth of the job's span.
constexpr qint64 kQuietMinGapMs = 60000;

// The overview of the lanes the model shows, in `pixelRows` rows at most (> 0).
TimelineOverview buildTimelineOverview(const TimelineModel& model, int pixelRows);

} // namespace rankscope
