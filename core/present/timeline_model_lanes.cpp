// SPDX-License-Identifier: MIT
// TimelineModel: the lanes of events that carry no rank, and the host groups of all lanes.
#include "timeline_model.h"

#include <algorithm>

namespace rankscope {

namespace {

constexpr QChar kKeySeparator = u'\x1f';

QString processLabel(const QString& source, qint64 pid)
{
    if (pid < 0)
        return source;
    const QString p = QStringLiteral("pid %1").arg(pid);
    return source.isEmpty() ? p : source + QLatin1Char(' ') + p;
}

} // namespace

// A lane per writer that the log names: a pid (with its host when any line of the file gives it), else a
// wrapper's tag or "kernel", else only the file. Two files never share a file lane; one process's lines
// spread over two files (a console and its tee) share its pid lane.
int TimelineModel::processLane(const LogEvent& e, QHash<QString, int>& laneOfKey)
{
    const Incident& inc = *m_incident;
    QString host = e.host;
    if (host.isEmpty() && e.pid >= 0)
        host = m_hostOfPid.value(qMakePair(e.file, e.pid));
    QString key;
    if (e.pid >= 0)
        key = QStringLiteral("pid") + kKeySeparator + host + kKeySeparator + QString::number(e.pid);
    else if (!e.source.isEmpty())
        key = QStringLiteral("source") + kKeySeparator + host + kKeySeparator + e.source;
    else
        key = QStringLiteral("file") + kKeySeparator + host + kKeySeparator + QString::number(e.file);
    if (const auto it = laneOfKey.constFind(key); it != laneOfKey.cend())
        return it.value();

    TimelineLane lane;
    lane.host = host;
    lane.file = e.file;
    const bool known = e.file >= 0 && static_cast<size_t>(e.file) < inc.files.size();
    if (e.pid >= 0 || !e.source.isEmpty()) {
        lane.kind = TimelineRowKind::Process;
        lane.pid = e.pid;
        lane.label = processLabel(e.source, e.pid);
    } else {
        lane.kind = TimelineRowKind::Unattributed;
        const QString name = known ? inc.files[static_cast<size_t>(e.file)].displayPath : QString();
        lane.label = QStringLiteral("unattributed: ") + (name.isEmpty() ? QStringLiteral("?") : name);
    }
    lane.inferredOnly =
        m_axis == TimelineAxis::Clock && known && !inc.files[static_cast<size_t>(e.file)].hasTimestamps;
    const int index = static_cast<int>(m_lanes.size());
    laneOfKey.insert(key, index);
    m_lanes.push_back(std::move(lane));
    return index;
}

// Host groups in the order of their lowest rank, then hosts that only have processes without a rank;
// "unknown host" (ranks without a host) last. Rankless lanes without a host are listed after the groups.
void TimelineModel::groupLanes()
{
    nameUnattributedLanes();
    QHash<QString, int> groupOfHost;
    std::vector<int> rankLanes, otherLanes;
    for (int l = 0; l < laneCount(); ++l) {
        const TimelineLane& ln = lane(l);
        if (ln.kind == TimelineRowKind::Rank)
            rankLanes.push_back(l);
        else if (!ln.host.isEmpty())
            otherLanes.push_back(l);
        else
            m_unattributedLanes.push_back(l);
    }
    std::sort(rankLanes.begin(), rankLanes.end(), [&](int a, int b) { return lane(a).rank < lane(b).rank; });
    rankLanes.insert(rankLanes.end(), otherLanes.begin(), otherLanes.end());
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

void TimelineModel::nameUnattributedLanes()
{
    const QString prefix = QStringLiteral("unattributed: ");
    std::vector<QStringList> parts; // each unattributed lane's path, split at '/'
    std::vector<int> lanes;
    for (int l = 0; l < laneCount(); ++l) {
        const TimelineLane& ln = m_lanes[static_cast<size_t>(l)];
        if (ln.kind != TimelineRowKind::Unattributed || !ln.label.startsWith(prefix))
            continue;
        lanes.push_back(l);
        parts.push_back(ln.label.mid(prefix.size()).split(QLatin1Char('/'), Qt::SkipEmptyParts));
    }
    const auto tail = [](const QStringList& p, qsizetype n) {
        return p.mid(p.size() - n).join(QLatin1Char('/'));
    };
    std::vector<QString> tails; // each lane's shortest unique tail
    for (size_t i = 0; i < lanes.size(); ++i) {
        const QStringList& mine = parts[i];
        if (mine.isEmpty()) {
            tails.emplace_back();
            continue;
        }
        qsizetype n = 1;
        for (; n < mine.size(); ++n) {
            const QString t = tail(mine, n);
            const bool shared = std::any_of(parts.begin(), parts.end(), [&](const QStringList& other) {
                return &other != &mine && other.size() >= n && tail(other, n) == t;
            });
            if (!shared)
                break;
        }
        TimelineLane& ln = m_lanes[static_cast<size_t>(lanes[i])];
        ln.shortLabels = QStringList { ln.label.mid(prefix.size()) };
        if (n < mine.size())
            ln.shortLabels << tail(mine, n);
        tails.push_back(ln.shortLabels.last());
    }
    // Then the part where the names start to differ, to their end: "…a01.console.log" for
    // "torchrun.gpu-a01.console.log" beside "torchrun.gpu-a02.console.log" (cut at a separator).
    for (size_t i = 0; i < lanes.size(); ++i) {
        if (tails[i].isEmpty())
            continue;
        qsizetype shared = 0;
        for (size_t j = 0; j < lanes.size(); ++j) {
            if (j == i)
                continue;
            qsizetype k = 0;
            while (k < tails[i].size() && k < tails[j].size() && tails[i][k] == tails[j][k])
                ++k;
            shared = std::max(shared, k);
        }
        while (shared > 0 && QStringLiteral("/.-_ ").indexOf(tails[i][shared - 1]) < 0)
            --shared; // back to the start of the part that differs
        if (shared > 0)
            m_lanes[static_cast<size_t>(lanes[i])].shortLabels << QChar(0x2026) + tails[i].mid(shared);
    }
}

} // namespace rankscope
