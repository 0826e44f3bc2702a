// SPDX-License-Identifier: MIT
#include "timeline_model.h"

#include <QFileInfo>
#include <QHash>
#include <algorithm>
#include <numeric>

namespace rankscope {

namespace {

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
    m_firstTime = 1;
    m_lastTime = 0;
    if (!m_incident)
        return;
    const Incident& inc = *m_incident;
    const QSet<int> suspects(m_roles.suspectRanks.begin(), m_roles.suspectRanks.end());
    QSet<int> collateral(m_roles.collateralEvents.begin(), m_roles.collateralEvents.end());

    QHash<int, int> laneOfRank, laneOfFile;
    auto addRankLane = [&](int rank, const QString& host, int device, bool inferredOnly) {
        TimelineLane lane;
        lane.rank = rank;
        lane.host = host;
        lane.device = device;
        lane.label = rankLabel(rank, host, device);
        lane.inferredOnly = inferredOnly;
        lane.suspect = suspects.contains(rank);
        laneOfRank.insert(rank, static_cast<int>(m_lanes.size()));
        m_lanes.push_back(std::move(lane));
        return static_cast<int>(m_lanes.size()) - 1;
    };
    for (const RankInfo& r : inc.ranks)
        addRankLane(r.rank, r.host, r.nvmlDev >= 0 ? r.nvmlDev : r.cudaDev, !r.timesKnown);

    std::vector<char> stampedLane; // for lanes made from events alone: any stamped time seen
    m_laneOfEvent.assign(inc.events.size(), -1);
    for (size_t i = 0; i < inc.events.size(); ++i) {
        const LogEvent& e = inc.events[i];
        int laneIndex = -1;
        if (e.rank >= 0) {
            laneIndex = laneOfRank.value(e.rank, -1);
            if (laneIndex < 0) // a rank the merge did not list: keep its events visible anyway
                laneIndex = addRankLane(e.rank, e.host, e.device, true);
        } else {
            laneIndex = laneOfFile.value(e.file, -1);
            if (laneIndex < 0) {
                TimelineLane lane;
                lane.kind = TimelineRowKind::Unattributed;
                lane.file = e.file;
                const bool known = e.file >= 0 && static_cast<size_t>(e.file) < inc.files.size();
                const QString name = known ? inc.files[static_cast<size_t>(e.file)].displayPath : QString();
                lane.label = QStringLiteral("unattributed: ") + (name.isEmpty() ? QStringLiteral("?") : name);
                lane.inferredOnly = known && !inc.files[static_cast<size_t>(e.file)].hasTimestamps;
                laneIndex = static_cast<int>(m_lanes.size());
                laneOfFile.insert(e.file, laneIndex);
                m_unattributedLanes.push_back(laneIndex);
                m_lanes.push_back(std::move(lane));
            }
        }
        m_laneOfEvent[i] = laneIndex;
        TimelineLane& lane = m_lanes[static_cast<size_t>(laneIndex)];
        if (e.severity >= Severity::Warn)
            ++lane.warnEvents;
        if (!e.time.valid) {
            ++lane.untimedEvents;
            continue;
        }
        quint8 mark = static_cast<quint8>(e.severity);
        if (static_cast<int>(i) == m_roles.initiatingEvent)
            mark |= EventMark::Initiating;
        if (collateral.contains(static_cast<int>(i)))
            mark |= EventMark::Collateral;
        if (e.time.inferred)
            mark |= EventMark::InferredTime;
        lane.times.push_back(e.time.ms);
        lane.events.push_back(static_cast<int>(i));
        lane.marks.push_back(mark);
        m_firstTime = m_firstTime > m_lastTime ? e.time.ms : qMin(m_firstTime, e.time.ms);
        m_lastTime = qMax(m_lastTime, e.time.ms);
        if (e.severity >= Severity::Warn)
            m_warnOrder.push_back(static_cast<int>(i));
    }
    if (m_firstTime > m_lastTime && !m_warnOrder.empty())
        m_lastTime = m_firstTime;

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
        lane.times.swap(sorted.times);
        lane.events.swap(sorted.events);
        lane.marks.swap(sorted.marks);
    }
    for (TimelineLane& lane : m_lanes) {
        if (lane.kind == TimelineRowKind::Rank && !lane.marks.empty() && lane.inferredOnly
            && inc.rankInfo(lane.rank) == nullptr) {
            lane.inferredOnly = std::all_of(lane.marks.begin(), lane.marks.end(),
                [](quint8 m) { return (m & EventMark::InferredTime) != 0; });
        }
    }
    std::sort(m_warnOrder.begin(), m_warnOrder.end(), [&](int a, int b) {
        const qint64 ta = inc.events[static_cast<size_t>(a)].time.ms;
        const qint64 tb = inc.events[static_cast<size_t>(b)].time.ms;
        return ta != tb ? ta < tb : a < b;
    });

    // Host groups in the order of their lowest rank; "unknown host" last.
    QHash<QString, int> groupOfHost;
    std::vector<int> rankLanes;
    for (int l = 0; l < laneCount(); ++l) {
        if (m_lanes[static_cast<size_t>(l)].kind == TimelineRowKind::Rank)
            rankLanes.push_back(l);
    }
    std::sort(rankLanes.begin(), rankLanes.end(), [&](int a, int b) { return lane(a).rank < lane(b).rank; });
    for (int l : rankLanes) {
        const QString& host = lane(l).host;
        int g = groupOfHost.value(host, -1);
        if (g < 0) {
            g = static_cast<int>(m_groups.size());
            groupOfHost.insert(host, g);
            m_groups.push_back({ host, {} });
        }
        m_groups[static_cast<size_t>(g)].lanes.push_back(l);
    }
    std::stable_partition(
        m_groups.begin(), m_groups.end(), [](const TimelineHostGroup& g) { return !g.host.isEmpty(); });
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

qint64 TimelineModel::eventTime(int event) const
{
    return m_incident->events[static_cast<size_t>(event)].time.ms;
}

} // namespace rankscope
