// SPDX-License-Identifier: MIT
#include "timeline_model.h"

#include <QFileInfo>
#include <QHash>
#include <algorithm>
#include <numeric>

namespace rankscope {

namespace {

constexpr qint8 kCauseRole = 0; // TimelineRoles::eventRoles values
constexpr qint8 kSymptomRole = 1;

QString rankLabel(int rank, const QString& host, int device)
{
    QString label = QStringLiteral("rank %1").arg(rank);
    if (!host.isEmpty())
        label += QStringLiteral(" · ") + host;
    if (device >= 0)
        label += QStringLiteral(" · GPU%1").arg(device);
    return label;
}

} // namespace

void TimelineModel::setIncident(const Incident* incident, const TimelineRoles& roles)
{
    m_incident = incident;
    m_roles = roles;
    m_collapsed.clear();
    buildLanes();
    applyFilters();
}

void TimelineModel::buildLanes()
{
    m_lanes.clear();
    m_groups.clear();
    m_unattributedLanes.clear();
    m_laneOfEvent.clear();
    m_warnOrder.clear();
    m_hostOfPid.clear();
    m_firstTime = 1;
    m_lastTime = 0;
    m_axis = TimelineAxis::Clock;
    if (!m_incident)
        return;
    const Incident& inc = *m_incident;
    const QSet<int> suspects(m_roles.suspectRanks.begin(), m_roles.suspectRanks.end());
    QSet<int> collateral(m_roles.collateralEvents.begin(), m_roles.collateralEvents.end());
    // No line with a time at all (a paste, a bare NCCL excerpt, a hang with no event): order by line, never
    // by an invented clock.
    const bool anyTime =
        std::any_of(inc.events.begin(), inc.events.end(), [](const LogEvent& e) { return e.time.valid; });
    if (!anyTime)
        m_axis = TimelineAxis::LineOrder;
    const bool lineOrder = m_axis == TimelineAxis::LineOrder;
    // "(pid=767)" lines next to "host:767:767 ... NCCL" lines of the same file are one process.
    for (const LogEvent& e : inc.events) {
        if (e.rank < 0 && e.pid >= 0 && !e.host.isEmpty())
            m_hostOfPid.insert(qMakePair(e.file, e.pid), e.host);
    }

    QHash<int, int> laneOfRank;
    QHash<QString, int> laneOfKey;
    auto addRankLane = [&](int rank, const QString& host, int device, bool inferredOnly) {
        TimelineLane lane;
        lane.rank = rank;
        lane.host = host;
        lane.device = device;
        lane.label = rankLabel(rank, host, device);
        lane.inferredOnly = inferredOnly && !lineOrder;
        lane.suspect = suspects.contains(rank);
        laneOfRank.insert(rank, static_cast<int>(m_lanes.size()));
        m_lanes.push_back(std::move(lane));
        return static_cast<int>(m_lanes.size()) - 1;
    };
    for (const RankInfo& r : inc.ranks)
        addRankLane(r.rank, r.host, r.nvmlDev >= 0 ? r.nvmlDev : r.cudaDev, !r.timesKnown);

    m_laneOfEvent.assign(inc.events.size(), -1);
    for (size_t i = 0; i < inc.events.size(); ++i) {
        const LogEvent& e = inc.events[i];
        int laneIndex = -1;
        if (e.rank >= 0) {
            laneIndex = laneOfRank.value(e.rank, -1);
            if (laneIndex < 0) // a rank the merge did not list: keep its events visible anyway
                laneIndex = addRankLane(e.rank, e.host, e.device, true);
        } else {
            laneIndex = processLane(e, laneOfKey);
        }
        m_laneOfEvent[i] = laneIndex;
        TimelineLane& lane = m_lanes[static_cast<size_t>(laneIndex)];
        if (e.severity >= Severity::Warn)
            ++lane.warnEvents;
        if (!e.time.valid && !lineOrder) {
            ++lane.untimedEvents;
            continue;
        }
        const qint64 at = lineOrder ? e.line : e.time.ms;
        quint8 mark = static_cast<quint8>(e.severity);
        if (static_cast<int>(i) == m_roles.initiatingEvent)
            mark |= EventMark::Initiating;
        if (collateral.contains(static_cast<int>(i)))
            mark |= EventMark::Collateral;
        if (e.time.inferred && !lineOrder)
            mark |= EventMark::InferredTime;
        if (i < m_roles.eventRoles.size()) {
            if (m_roles.eventRoles[i] == kCauseRole)
                mark |= EventMark::Cause;
            else if (m_roles.eventRoles[i] == kSymptomRole)
                mark |= EventMark::Symptom;
        }
        lane.times.push_back(at);
        lane.events.push_back(static_cast<int>(i));
        lane.marks.push_back(mark);
        m_firstTime = m_firstTime > m_lastTime ? at : qMin(m_firstTime, at);
        m_lastTime = qMax(m_lastTime, at);
        const qint64 until = e.repeats <= 0 ? at
            : lineOrder                     ? e.lastRepeatLine
            : e.lastRepeatTime.valid        ? e.lastRepeatTime.ms
                                            : at;
        if (until > at) {
            lane.repeatRuns.push_back({ at, until, static_cast<qint8>(e.severity) });
            m_lastTime = qMax(m_lastTime, until);
        }
        if (e.severity >= Severity::Warn)
            m_warnOrder.push_back(static_cast<int>(i));
    }
    if (m_firstTime > m_lastTime && !m_warnOrder.empty())
        m_lastTime = m_firstTime;
    if (m_firstTime > m_lastTime && lineOrder) {
        // No event at all (a hang that printed nothing wrong): the axis spans the files' lines.
        qint64 lines = 1;
        for (const FileInfo& f : inc.files)
            lines = qMax(lines, f.lines);
        m_firstTime = 1;
        m_lastTime = lines;
    }

    for (TimelineLane& lane : m_lanes) {
        // Events are mostly in time order already; sort lanes whose order differs.
        if (std::is_sorted(lane.times.begin(), lane.times.end()))
            continue;
        std::vector<size_t> order(lane.times.size());
        std::iota(order.begin(), order.end(), size_t { 0 });
        std::stable_sort(
            order.begin(), order.end(), [&](size_t a, size_t b) { return lane.times[a] < lane.times[b]; });
        TimelineLane sorted;
        for (size_t k : order) {
            sorted.times.push_back(lane.times[k]);
            sorted.events.push_back(lane.events[k]);
            sorted.marks.push_back(lane.marks[k]);
        }
        std::sort(lane.repeatRuns.begin(), lane.repeatRuns.end(),
            [](const TimelineLane::RepeatRun& a, const TimelineLane::RepeatRun& b) {
                return a.from < b.from;
            });
        lane.times.swap(sorted.times);
        lane.events.swap(sorted.events);
        lane.marks.swap(sorted.marks);
    }
    for (TimelineLane& lane : m_lanes) {
        const bool listedRank = lane.kind == TimelineRowKind::Rank && inc.rankInfo(lane.rank) != nullptr;
        if (!listedRank && !lane.marks.empty() && !lineOrder) {
            lane.inferredOnly = std::all_of(lane.marks.begin(), lane.marks.end(),
                [](quint8 m) { return (m & EventMark::InferredTime) != 0; });
        }
    }
    std::sort(m_warnOrder.begin(), m_warnOrder.end(), [&](int a, int b) {
        const qint64 ta = eventTime(a);
        const qint64 tb = eventTime(b);
        return ta != tb ? ta < tb : a < b;
    });
    groupLanes();
}

QString TimelineModel::groupLabel(int g) const
{
    const QString& host = group(g).host;
    return host.isEmpty() ? QStringLiteral("unknown host") : host;
}

int TimelineModel::groupShownLanes(int g) const
{
    const auto& lanes = group(g).lanes;
    return static_cast<int>(std::count_if(lanes.begin(), lanes.end(), [&](int l) { return laneShown(l); }));
}

int TimelineModel::laneOfEvent(int event) const
{
    if (event < 0 || static_cast<size_t>(event) >= m_laneOfEvent.size())
        return -1;
    return m_laneOfEvent[static_cast<size_t>(event)];
}

int TimelineModel::rowOfLane(int l) const
{
    if (l < 0 || static_cast<size_t>(l) >= m_rowOfLane.size())
        return -1;
    return m_rowOfLane[static_cast<size_t>(l)];
}

int TimelineModel::indexOfEvent(int l, int event) const
{
    if (l < 0 || l >= laneCount() || event < 0)
        return -1;
    const TimelineLane& ln = lane(l);
    const qint64 t = eventTime(event);
    auto it = std::lower_bound(ln.times.begin(), ln.times.end(), t);
    for (auto k = static_cast<size_t>(it - ln.times.begin()); k < ln.times.size() && ln.times[k] == t; ++k) {
        if (ln.events[k] == event)
            return static_cast<int>(k);
    }
    return -1;
}

bool TimelineModel::isPlaced(int event) const
{
    if (!m_incident || event < 0 || static_cast<size_t>(event) >= m_incident->events.size())
        return false;
    return m_axis == TimelineAxis::LineOrder || m_incident->events[static_cast<size_t>(event)].time.valid;
}

qint64 TimelineModel::eventTime(int event) const
{
    const LogEvent& e = m_incident->events[static_cast<size_t>(event)];
    return m_axis == TimelineAxis::LineOrder ? e.line : e.time.ms;
}

} // namespace rankscope
