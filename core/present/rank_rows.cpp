// SPDX-License-Identifier: MIT
#include "rank_rows.h"

#include <QRegularExpression>
#include <QSet>

namespace rankscope {

namespace {

// RankInfo::lastStep holds the digits, or a whole "step N" line when the scanner kept one.
qint64 stepNumber(const QString& lastStep)
{
    static const QRegularExpression stepRe(
        QStringLiteral("^(?:.*\\bstep\\s*[:=]?\\s*)?(\\d+)"), QRegularExpression::CaseInsensitiveOption);
    if (lastStep.isEmpty())
        return -1;
    const QRegularExpressionMatch m = stepRe.match(lastStep);
    bool ok = false;
    const qint64 step = m.hasMatch() ? m.captured(1).toLongLong(&ok) : -1;
    return ok ? step : -1;
}

} // namespace

QString rankStatusName(RankStatus status)
{
    switch (status) {
    case RankStatus::Initiating:
        return QStringLiteral("initiating");
    case RankStatus::Suspect:
        return QStringLiteral("suspect");
    case RankStatus::Collateral:
        return QStringLiteral("collateral");
    case RankStatus::None:
        break;
    }
    return {};
}

std::vector<RankRow> buildRankRows(const AttemptAnalysis& a)
{
    const Incident& inc = a.incident;
    const Diagnosis& d = a.diagnosis;
    const auto eventCount = static_cast<int>(inc.events.size());
    const int initRank = d.initiatingEvent >= 0 && d.initiatingEvent < eventCount
        ? inc.events[static_cast<size_t>(d.initiatingEvent)].rank
        : -1;
    QSet<int> suspects, collateral;
    for (const Suspect& s : d.suspects)
        suspects.insert(s.rank);
    for (int ev : d.collateralEvents) {
        if (ev >= 0 && ev < eventCount)
            collateral.insert(inc.events[static_cast<size_t>(ev)].rank);
    }

    std::vector<RankRow> rows;
    rows.reserve(inc.ranks.size());
    for (const RankInfo& r : inc.ranks) {
        RankRow row;
        row.rank = r.rank;
        row.host = r.host;
        row.localRank = r.localRank;
        row.gpu = r.nvmlDev >= 0 ? r.nvmlDev : r.cudaDev;
        row.firstWarn = r.firstWarn;
        row.severityCounts = r.severityCounts;
        row.lastStep = stepNumber(r.lastStep);
        if (r.firstWarn >= 0 && r.firstWarn < eventCount) {
            const LogEvent& e = inc.events[static_cast<size_t>(r.firstWarn)];
            row.firstWarnTimed = e.time.valid;
            if (e.time.valid) {
                row.firstWarnMs = e.time.ms;
                row.firstWarnTime =
                    formatTime(e.time).mid(11) + (e.time.inferred ? QStringLiteral(" ~") : QString());
            }
            row.message = e.message.left(200);
            row.tooltip = e.text;
            row.signature = e.signature;
            row.initiating = r.firstWarn == d.initiatingEvent;
        }
        row.status = initRank >= 0 && r.rank == initRank ? RankStatus::Initiating
            : suspects.contains(r.rank)                  ? RankStatus::Suspect
            : collateral.contains(r.rank)                ? RankStatus::Collateral
                                                         : RankStatus::None;
        rows.push_back(std::move(row));
    }
    return rows;
}

} // namespace rankscope
