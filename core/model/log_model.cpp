// SPDX-License-Identifier: MIT
#include "log_model.h"

#include <QDateTime>
#include <algorithm>

namespace rankscope {

QString severityName(Severity s)
{
    switch (s) {
    case Severity::Info:
        return QStringLiteral("INFO");
    case Severity::Warn:
        return QStringLiteral("WARN");
    case Severity::Error:
        return QStringLiteral("ERROR");
    case Severity::Fatal:
        return QStringLiteral("FATAL");
    }
    return QStringLiteral("INFO");
}

QString formatTime(const EventTime& t)
{
    if (!t.valid)
        return {};
    const QDateTime dt = QDateTime::fromMSecsSinceEpoch(t.ms, Qt::UTC);
    if (t.ms % 1000 == 0)
        return dt.toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss"));
    return dt.toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss.zzz"));
}

const RankInfo* Incident::rankInfo(int rank) const
{
    auto it = std::lower_bound(
        ranks.begin(), ranks.end(), rank, [](const RankInfo& r, int value) { return r.rank < value; });
    if (it == ranks.end() || it->rank != rank)
        return nullptr;
    return &*it;
}

QStringList Incident::hosts() const
{
    QStringList out;
    for (const RankInfo& r : ranks) {
        if (!r.host.isEmpty() && !out.contains(r.host))
            out.push_back(r.host);
    }
    return out;
}

QString Incident::launchSentence() const
{
    QStringList names;
    for (const FileInfo& f : files)
        names << f.displayPath;
    return describeLaunch(launch, names);
}

} // namespace rankscope
