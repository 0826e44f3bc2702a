// SPDX-License-Identifier: MIT
#include "timeline_overview.h"

#include <algorithm>

namespace rankscope {

namespace {

struct LaneSummary
{
    qint64 firstWarn = -1;
    qint64 lastSeen = -1;
};

LaneSummary summarise(const TimelineModel& model, int l)
{
    const TimelineLane& lane = model.lane(l);
    LaneSummary s;
    for (size_t k = 0; k < lane.times.size(); ++k) {
        const auto severity = static_cast<int>(lane.marks[k] & EventMark::SeverityMask);
        if (severity >= static_cast<int>(Severity::Warn)) {
            s.firstWarn = lane.times[k];
            break;
        }
    }
    if (!lane.times.empty())
        s.lastSeen = lane.times.back();
    // A rank's last line of any level is known from the scan, not only its events.
    if (model.axis() == TimelineAxis::Clock && lane.kind == TimelineRowKind::Rank && model.incident()) {
        if (const RankInfo* r = model.incident()->rankInfo(lane.rank);
            r && r->timesKnown && r->lastTime.valid)
            s.lastSeen = std::max(s.lastSeen, r->lastTime.ms);
    }
    return s;
}

// Lanes in the order the timeline lists them (host groups, then lanes without a host), collapsed or not.
std::vector<int> lanesInDisplayOrder(const TimelineModel& model)
{
    std::vector<int> order;
    for (int g = 0; g < model.groupCount(); ++g) {
        for (int l : model.group(g).lanes) {
            if (model.laneShown(l))
                order.push_back(l);
        }
    }
    std::vector<char> listed(static_cast<size_t>(model.laneCount()), 0);
    for (int l : order)
        listed[static_cast<size_t>(l)] = 1;
    for (int l = 0; l < model.laneCount(); ++l) {
        if (!listed[static_cast<size_t>(l)] && model.laneShown(l))
            order.push_back(l);
    }
    return order;
}

} // namespace

TimelineOverview buildTimelineOverview(const TimelineModel& model, int pixelRows)
{
    Q_ASSERT(pixelRows > 0);
    TimelineOverview o;
    if (!model.incident() || !model.hasTimes())
        return o;
    const std::vector<int> lanes = lanesInDisplayOrder(model);
    if (lanes.empty())
        return o;
    std::vector<LaneSummary> summary;
    summary.reserve(lanes.size());
    qint64 end = model.lastTime();
    for (int l : lanes) {
        summary.push_back(summarise(model, l));
        end = std::max(end, summary.back().lastSeen);
    }
    o.start = model.firstTime();
    o.end = std::max(end, o.start + 1);
    const bool clock = model.axis() == TimelineAxis::Clock;
    o.quietGap = clock ? std::max(kQuietMinGapMs, (o.end - o.start) / 10) : 0;
    const int initiatingLane = model.laneOfEvent(model.roles().initiatingEvent);

    const auto count = static_cast<int>(lanes.size());
    const int rows = std::min(count, pixelRows);
    o.rows.resize(static_cast<size_t>(rows));
    for (int i = 0; i < count; ++i) {
        // Lane i goes to row i * rows / count: consecutive lanes share a row when there are too many.
        OverviewRow& row = o.rows[static_cast<size_t>(static_cast<qint64>(i) * rows / count)];
        const LaneSummary& s = summary[static_cast<size_t>(i)];
        row.lanes.push_back(lanes[static_cast<size_t>(i)]);
        if (s.firstWarn >= 0 && (row.firstWarn < 0 || s.firstWarn < row.firstWarn))
            row.firstWarn = s.firstWarn;
        row.lastSeen = std::max(row.lastSeen, s.lastSeen);
        if (clock && s.lastSeen >= 0 && o.end - s.lastSeen > o.quietGap)
            row.quiet = true;
        if (lanes[static_cast<size_t>(i)] == initiatingLane)
            row.initiating = true;
    }
    for (const OverviewRow& row : o.rows) {
        if (row.firstWarn < 0)
            continue;
        o.firstWarn = o.firstWarn < 0 ? row.firstWarn : std::min(o.firstWarn, row.firstWarn);
        o.lastWarn = std::max(o.lastWarn, row.firstWarn);
    }
    return o;
}

} // namespace rankscope
