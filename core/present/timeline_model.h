// SPDX-License-Identifier: MIT
// The rows of the per-rank timeline: one lane per rank grouped under collapsible host headers,
// ranks without a host under "unknown host". Events without a rank get a lane per process, named by
// what the log calls it (host:pid, a Ray worker's "(pid=767)", a runner's tag, "kernel"), and only
// when nothing names the writer, one per file. A log without any time gets a line-order axis.
// Pure Core: filters, collapse state and WARN navigation are tested without a widget.
#pragma once

#include "log_model.h"

#include <QHash>
#include <QSet>
#include <QString>
#include <vector>

namespace rankscope {

// What the diagnosis says about the events and ranks; drawn specially by the timeline.
struct TimelineRoles
{
    int initiatingEvent = -1; // index into Incident::events
    std::vector<int> collateralEvents; // indexes into Incident::events
    std::vector<int> suspectRanks; // global ranks
    // Per event (Incident::events order), what its signature says it is: 0 cause, 1 symptom, 2 context,
    // -1 when no signature matched. Empty = unknown for all.
    std::vector<qint8> eventRoles;
};

enum class TimelineRowKind : quint8
{
    HostHeader,
    Rank, // a lane under a host header (a rank, or a process of that host)
    Unattributed, // a lane listed after the hosts (a process or file whose host is unknown)
    Process // lane kind only: a process or named source without a rank
};

// What the horizontal axis measures: wall-clock milliseconds, or, when no line of the incident has a
// time, line numbers (the order the lines were written in, within their file).
enum class TimelineAxis : quint8
{
    Clock,
    LineOrder
};

// Per-event bits packed next to the lane's times so binning never touches the LogEvents.
namespace EventMark {
constexpr quint8 SeverityMask = 0x3;
constexpr quint8 Initiating = 0x4;
constexpr quint8 Collateral = 0x8;
constexpr quint8 InferredTime = 0x10;
constexpr quint8 Cause = 0x20; // its signature is a cause
constexpr quint8 Symptom = 0x40; // its signature is a symptom
} // namespace EventMark

// One horizontal lane of events: a rank, a process without a rank, or the unattributed lines of one file.
struct TimelineLane
{
    TimelineRowKind kind = TimelineRowKind::Rank; // Rank, Process or Unattributed
    int rank = -1;
    int file = -1; // unattributed lanes only
    qint64 pid = -1; // process lanes with a known pid
    int device = -1;
    QString host; // empty when unknown
    QString label; // "rank 7 · gpu-a02 · GPU3" or "unattributed: nccl.log"
    // Shorter names of an unattributed lane, longest first, for a gutter too narrow for the label: its
    // path, then the fewest trailing path parts that no other unattributed lane ends with
    // ("gpu-a02/console.log" when every host's folder has a console.log). Empty for other lanes.
    QStringList shortLabels;
    bool inferredOnly = false; // no stamped line: all its times are interpolated
    bool suspect = false;
    std::vector<qint64> times; // sorted; line numbers on a line-order axis
    std::vector<int> events; // event indexes, in the order of `times`
    std::vector<quint8> marks; // EventMark bits, in the order of `times`
    int untimedEvents = 0; // events without any time: listed in the label, not placed
    // An event's folded repeats (LogEvent::repeats) ran from its time to the last one's: drawn as a line.
    struct RepeatRun
    {
        qint64 from = 0, to = 0;
        qint8 severity = 0;
    };
    std::vector<RepeatRun> repeatRuns; // sorted by `from`
    int warnEvents = 0; // WARN or worse
};

struct TimelineHostGroup
{
    QString host; // empty = unknown host
    std::vector<int> lanes;
};

// A visible row: a host header (group) or a lane.
struct TimelineRow
{
    TimelineRowKind kind = TimelineRowKind::Rank;
    int lane = -1;
    int group = -1;
};

class TimelineModel
{
public:
    // `incident` must outlive this model's use of it (the model keeps the pointer).
    void setIncident(const Incident* incident, const TimelineRoles& roles);
    const Incident* incident() const { return m_incident; }
    const TimelineRoles& roles() const { return m_roles; }

    int rowCount() const { return static_cast<int>(m_rows.size()); }
    const TimelineRow& row(int index) const { return m_rows[static_cast<size_t>(index)]; }
    int laneCount() const { return static_cast<int>(m_lanes.size()); }
    const TimelineLane& lane(int index) const { return m_lanes[static_cast<size_t>(index)]; }
    int groupCount() const { return static_cast<int>(m_groups.size()); }
    const TimelineHostGroup& group(int index) const { return m_groups[static_cast<size_t>(index)]; }
    QString groupLabel(int group) const; // the host, or "unknown host"
    int groupShownLanes(int group) const; // lanes passing the filters
    int laneOfEvent(int event) const;
    int rowOfLane(int lane) const; // -1 when filtered out or collapsed
    int indexOfEvent(int lane, int event) const; // position in lane.events, -1 when not placed

    bool isCollapsed(const QString& host) const { return m_collapsed.contains(host); }
    void setCollapsed(const QString& host, bool collapsed);

    void setHostFilter(const QString& host); // empty = all hosts
    void setWarnOnly(bool warnOnly); // only lanes with WARN-or-worse events
    void setTextFilter(const QString& text); // case-insensitive in label, host or event text
    bool laneShown(int lane) const { return m_laneShown[static_cast<size_t>(lane)]; }
    // Whether a filter narrows the lanes, and whether one of a rank's lanes passes them: the Ranks table
    // shows the ranks the timeline shows.
    bool filtering() const { return !m_hostFilter.isEmpty() || !m_textFilter.isEmpty() || m_warnOnly; }
    bool rankShown(int rank) const;

    TimelineAxis axis() const { return m_axis; }
    bool hasTimes() const { return m_firstTime <= m_lastTime; }
    qint64 firstTime() const { return m_firstTime; }
    qint64 lastTime() const { return m_lastTime; }

    // WARN-or-worse events of shown lanes, ordered by (time, index): N/P navigation.
    // Returns the first event strictly after / before (ms, event), or -1.
    int nextWarnEvent(qint64 ms, int afterEvent) const;
    int previousWarnEvent(qint64 ms, int beforeEvent) const;
    // ms, or the line number on a line-order axis; meaningful only for placed events.
    qint64 eventTime(int event) const;
    // Whether the event has a place on the axis: a time, or any line on a line-order axis.
    bool isPlaced(int event) const;

private:
    void buildLanes();
    void groupLanes();
    void nameUnattributedLanes(); // TimelineLane::shortLabels
    int processLane(const LogEvent& event, QHash<QString, int>& laneOfKey);
    void applyFilters();
    void rebuildRows();

    const Incident* m_incident = nullptr;
    TimelineRoles m_roles;
    std::vector<TimelineLane> m_lanes;
    std::vector<TimelineHostGroup> m_groups;
    std::vector<int> m_unattributedLanes;
    std::vector<TimelineRow> m_rows;
    std::vector<int> m_rowOfLane;
    std::vector<char> m_laneShown;
    std::vector<int> m_laneOfEvent;
    std::vector<int> m_warnOrder; // event indexes sorted by (time, index)
    QHash<QPair<int, qint64>, QString> m_hostOfPid; // (file, pid) -> host, from the lines that name both
    QSet<QString> m_collapsed;
    QString m_hostFilter, m_textFilter;
    bool m_warnOnly = false;
    qint64 m_firstTime = 1, m_lastTime = 0;
    TimelineAxis m_axis = TimelineAxis::Clock;
};

} // namespace rankscope
