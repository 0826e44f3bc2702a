// SPDX-License-Identifier: MIT
// TimelineModel: filters, collapse state, visible rows and WARN navigation.
#include "timeline_model.h"

#include <algorithm>

namespace rankscope {

void TimelineModel::setCollapsed(const QString& host, bool collapsed)
{
    if (collapsed == m_collapsed.contains(host))
        return;
    if (collapsed)
        m_collapsed.insert(host);
    else
        m_collapsed.remove(host);
    rebuildRows();
}

void TimelineModel::setHostFilter(const QString& host)
{
    m_hostFilter = host;
    applyFilters();
}

void TimelineModel::setWarnOnly(bool warnOnly)
{
    m_warnOnly = warnOnly;
    applyFilters();
}

void TimelineModel::setTextFilter(const QString& text)
{
    m_textFilter = text.trimmed();
    applyFilters();
}

void TimelineModel::applyFilters()
{
    m_laneShown.assign(m_lanes.size(), 1);
    // The text filter scans all events once, noting which lanes have a hit.
    std::vector<char> textHit(m_lanes.size(), m_textFilter.isEmpty() ? 1 : 0);
    if (!m_textFilter.isEmpty() && m_incident) {
        for (size_t l = 0; l < m_lanes.size(); ++l) {
            const TimelineLane& ln = m_lanes[l];
            textHit[l] = ln.label.contains(m_textFilter, Qt::CaseInsensitive)
                || ln.host.contains(m_textFilter, Qt::CaseInsensitive);
        }
        for (size_t i = 0; i < m_laneOfEvent.size(); ++i) {
            const auto l = static_cast<size_t>(m_laneOfEvent[i]);
            if (!textHit[l] && m_incident->events[i].text.contains(m_textFilter, Qt::CaseInsensitive))
                textHit[l] = 1;
        }
    }
    for (size_t l = 0; l < m_lanes.size(); ++l) {
        const TimelineLane& ln = m_lanes[l];
        bool shown = textHit[l] != 0;
        if (!m_hostFilter.isEmpty() && ln.host != m_hostFilter)
            shown = false;
        if (m_warnOnly && ln.warnEvents == 0)
            shown = false;
        m_laneShown[l] = shown ? 1 : 0;
    }
    rebuildRows();
}

bool TimelineModel::rankShown(int rank) const
{
    for (size_t l = 0; l < m_lanes.size(); ++l) {
        if (m_lanes[l].rank == rank && m_laneShown[l])
            return true;
    }
    return false;
}

void TimelineModel::rebuildRows()
{
    m_rows.clear();
    m_rowOfLane.assign(m_lanes.size(), -1);
    for (int g = 0; g < groupCount(); ++g) {
        if (groupShownLanes(g) == 0)
            continue;
        m_rows.push_back({ TimelineRowKind::HostHeader, -1, g });
        if (isCollapsed(group(g).host))
            continue;
        for (int l : group(g).lanes) {
            if (!laneShown(l))
                continue;
            m_rowOfLane[static_cast<size_t>(l)] = rowCount();
            m_rows.push_back({ TimelineRowKind::Rank, l, g });
        }
    }
    for (int l : m_unattributedLanes) {
        if (!laneShown(l))
            continue;
        m_rowOfLane[static_cast<size_t>(l)] = rowCount();
        m_rows.push_back({ TimelineRowKind::Unattributed, l, -1 });
    }
}

int TimelineModel::nextWarnEvent(qint64 ms, int afterEvent) const
{
    auto it = std::upper_bound(m_warnOrder.begin(), m_warnOrder.end(), std::pair(ms, afterEvent),
        [&](const std::pair<qint64, int>& key, int e) {
            const qint64 t = eventTime(e);
            return key.first != t ? key.first < t : key.second < e;
        });
    for (; it != m_warnOrder.end(); ++it) {
        if (laneShown(laneOfEvent(*it)))
            return *it;
    }
    return -1;
}

int TimelineModel::previousWarnEvent(qint64 ms, int beforeEvent) const
{
    auto it = std::lower_bound(m_warnOrder.begin(), m_warnOrder.end(), std::pair(ms, beforeEvent),
        [&](int e, const std::pair<qint64, int>& key) {
            const qint64 t = eventTime(e);
            return t != key.first ? t < key.first : e < key.second;
        });
    while (it != m_warnOrder.begin()) {
        --it;
        if (laneShown(laneOfEvent(*it)))
            return *it;
    }
    return -1;
}

} // namespace rankscope
