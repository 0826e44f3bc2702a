// SPDX-License-Identifier: MIT
#include "fix_agreement.h"

#include <QRegularExpression>

namespace rankscope {

QString boundNicOfInitiatingRank(
    const Incident& incident, const Diagnosis& diagnosis, const PlacementResult& placement)
{
    if (diagnosis.initiatingEvent < 0
        || diagnosis.initiatingEvent >= static_cast<int>(incident.events.size()))
        return {};
    const LogEvent& e = incident.events[static_cast<size_t>(diagnosis.initiatingEvent)];
    const RankInfo* info = incident.rankInfo(e.rank);
    const QString host = info && !info->host.isEmpty() ? info->host : e.host;
    const int localRank = info && info->localRank >= 0 ? info->localRank : e.localRank;
    if (host.isEmpty() || localRank < 0)
        return {};
    for (const HcaChoice& c : placement.hca)
        if (c.host == host && c.localRank == localRank)
            return c.nic;
    return {};
}

int alignVerifyWithBinding(const Incident& incident, Diagnosis& diagnosis, const PlacementResult& placement)
{
    const QString nic = boundNicOfInitiatingRank(incident, diagnosis, placement);
    if (nic.isEmpty())
        return 0;
    // The value of an assignment, quoted or not: up to a blank, a quote or the end (one HCA or a list).
    static const QRegularExpression hca(QStringLiteral("\\bNCCL_IB_HCA=['\"]?([^\\s'\";]+)"));
    int changed = 0;
    for (QString& command : diagnosis.verify) {
        QString out;
        qsizetype from = 0;
        for (auto it = hca.globalMatch(command); it.hasNext();) {
            const QRegularExpressionMatch m = it.next();
            out += command.mid(from, m.capturedStart(1) - from) + nic;
            from = m.capturedEnd(1);
            changed += m.captured(1) != nic ? 1 : 0;
        }
        if (from > 0)
            command = out + command.mid(from);
    }
    return changed;
}

} // namespace rankscope
