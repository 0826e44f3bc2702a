// SPDX-License-Identifier: MIT
// Builds realistic incidents in memory for the timeline tests: N ranks over H hosts, M events per
// rank with a WARN-heavy tail after an initiating NCCL WARN, collateral errors on other ranks,
// one rank with inferred times only, ranks without a host, and unattributed launcher lines.
#pragma once

#include "log_model.h"
#include "timeline_model.h"

#include <QDateTime>
#include <algorithm>
#include <random>

namespace rankscope::testing {

struct MadeIncident
{
    Incident incident;
    TimelineRoles roles;
    int initiatingRank = -1;
};

inline qint64 baseTimeMs()
{
    return QDateTime(QDate(2026, 3, 14), QTime(2, 5, 11), Qt::UTC).toMSecsSinceEpoch();
}

// ranks >= 8; the initiating event is rank 7's WARN at 02:17:44 (12:33 after the start).
inline MadeIncident makeIncident(
    int ranks, int hosts, int eventsPerRank, unsigned seed = 7, int hostlessRanks = 0)
{
    MadeIncident made;
    Incident& inc = made.incident;
    inc.label = QStringLiteral("attempt_0");
    std::mt19937 rng(seed);
    const int perHost = std::max(1, (ranks - hostlessRanks) / std::max(1, hosts));
    const qint64 t0 = baseTimeMs();
    const qint64 failAt = t0 + (12 * 60 + 33) * 1000;
    const qint64 endAt = failAt + 10 * 60 * 1000;
    // A small pool of texts keeps a million events cheap (QString shares the data).
    const QString infoText = QStringLiteral("NCCL INFO Channel 00/0 : via NET/IB/0");
    const QString warnText = QStringLiteral("NCCL WARN NET/IB : Got completion from peer with status=12");
    const QString errText =
        QStringLiteral("[E314 ProcessGroupNCCL.cpp:593] Watchdog caught collective timeout");
    const QString fatalText =
        QStringLiteral("terminate called after throwing an instance of 'c10::DistBackendError'");
    for (int r = 0; r < ranks; ++r) {
        RankInfo info;
        info.rank = r;
        const bool hostless = r >= ranks - hostlessRanks;
        info.host =
            hostless ? QString() : QStringLiteral("gpu-a%1").arg(r / perHost + 1, 2, 10, QLatin1Char('0'));
        info.localRank = r % perHost;
        info.nvmlDev = hostless ? -1 : r % perHost;
        info.timesKnown = r != 3; // rank 3's file had no stamps
        info.files = { static_cast<int>(inc.files.size()) };
        inc.ranks.push_back(info);
        FileInfo file;
        file.displayPath = QStringLiteral("nccl.rank%1.log").arg(r);
        file.path = QStringLiteral("/nonexistent/") + file.displayPath;
        file.hasTimestamps = r != 3;
        inc.files.push_back(file);
    }
    FileInfo console;
    console.displayPath = QStringLiteral("torchrun.console.log");
    console.hasTimestamps = true;
    const int consoleFile = static_cast<int>(inc.files.size());
    inc.files.push_back(console);

    std::uniform_int_distribution<qint64> before(t0, failAt - 1);
    std::uniform_int_distribution<qint64> after(failAt + 1, endAt);
    std::uniform_int_distribution<int> pct(0, 99);
    // Draw small records first and sort those: moving a million LogEvents around is slow.
    struct Draw
    {
        qint64 ms;
        int rank;
        int line;
        Severity severity;
    };
    std::vector<Draw> draws;
    draws.reserve(static_cast<size_t>(ranks) * static_cast<size_t>(eventsPerRank));
    for (int r = 0; r < ranks; ++r) {
        for (int k = 0; k < eventsPerRank; ++k) {
            const bool late = pct(rng) < 30;
            const qint64 ms = late ? after(rng) : before(rng);
            const int p = pct(rng);
            const Severity s = !late ? (p < 97 ? Severity::Info : Severity::Warn)
                                     : (p < 40        ? Severity::Info
                                             : p < 70 ? Severity::Warn
                                             : p < 95 ? Severity::Error
                                                      : Severity::Fatal);
            draws.push_back({ ms, r, k + 1, s });
        }
    }
    // rank -1: the initiating WARN of rank 7; rank -2: launcher lines nobody claimed.
    draws.push_back({ failAt, -1, eventsPerRank + 1, Severity::Warn });
    for (int k = 0; k < 5; ++k)
        draws.push_back({ endAt - 1000 + k, -2, k + 1, k == 4 ? Severity::Error : Severity::Info });
    // Ordered by time, then file order, like the engine does.
    std::stable_sort(draws.begin(), draws.end(), [](const Draw& a, const Draw& b) { return a.ms < b.ms; });
    inc.events.reserve(draws.size());
    for (const Draw& d : draws) {
        LogEvent e;
        e.line = d.line;
        e.severity = d.severity;
        e.time = { d.ms, true, d.rank == 3 };
        if (d.rank == -2) {
            e.file = consoleFile;
            e.text = QStringLiteral(
                "E0314 02:27:44.000000 52090 torch/distributed/elastic/multiprocessing/api.py:874] failed");
        } else {
            e.rank = d.rank == -1 ? 7 : d.rank;
            e.file = e.rank;
            e.host = inc.ranks[static_cast<size_t>(e.rank)].host;
            e.text = d.rank == -1
                ? QStringLiteral("[2026-03-14 02:17:44] gpu-a02:52117:52203 [3] NCCL WARN NET/IB: initiating")
                : e.severity == Severity::Info  ? infoText
                : e.severity == Severity::Warn  ? warnText
                : e.severity == Severity::Error ? errText
                                                : fatalText;
        }
        inc.events.push_back(std::move(e));
    }
    for (size_t i = 0; i < inc.events.size(); ++i) {
        const LogEvent& e = inc.events[i];
        if (e.time.ms == failAt && e.rank == 7 && e.text.contains(QLatin1String("initiating")))
            made.roles.initiatingEvent = static_cast<int>(i);
        else if (e.time.ms > failAt && e.rank >= 0 && e.rank != 7 && e.severity >= Severity::Error
            && made.roles.collateralEvents.size() < 2000)
            made.roles.collateralEvents.push_back(static_cast<int>(i));
        if (e.severity >= Severity::Warn && inc.firstWarn < 0)
            inc.firstWarn = static_cast<int>(i);
    }
    made.roles.suspectRanks = { 7, 6 };
    made.initiatingRank = 7;
    return made;
}

// One event per rank, a minute apart, each of one role: rank 0 a cause, rank 1 collateral, rank 2 a
// symptom, rank 3 a cause that is also collateral (a cause on another rank after the initiating one),
// rank 4 the initiating WARN. Each marker stands alone in its lane, for pixel checks of its shape.
struct RoleIncident
{
    MadeIncident made;
    int cause = -1, collateral = -1, symptom = -1, causeAndCollateral = -1;
};

inline RoleIncident makeRoleIncident()
{
    RoleIncident out;
    Incident& inc = out.made.incident;
    inc.label = QStringLiteral("roles");
    const qint64 t0 = baseTimeMs();
    for (int r = 0; r < 5; ++r) {
        RankInfo info;
        info.rank = r;
        info.host = QStringLiteral("gpu-a01");
        info.localRank = r;
        info.timesKnown = true;
        info.files = { r };
        inc.ranks.push_back(info);
        FileInfo file;
        file.displayPath = QStringLiteral("nccl.rank%1.log").arg(r);
        file.path = QStringLiteral("/nonexistent/") + file.displayPath;
        file.hasTimestamps = true;
        inc.files.push_back(file);
    }
    // In time order: the initiating event first, then one of each role.
    const int order[] = { 4, 0, 1, 2, 3 };
    for (int k = 0; k < 5; ++k) {
        LogEvent e;
        e.rank = order[k];
        e.file = e.rank;
        e.host = QStringLiteral("gpu-a01");
        e.line = 1;
        e.severity = e.rank == 2 ? Severity::Warn : Severity::Error;
        e.time = { t0 + k * 60'000, true, false };
        e.text = QStringLiteral("NCCL WARN rank %1").arg(e.rank);
        inc.events.push_back(std::move(e));
    }
    inc.firstWarn = 0;
    TimelineRoles& roles = out.made.roles;
    roles.initiatingEvent = 0;
    roles.eventRoles = { 0, 0, -1, 1, 0 }; // cause, cause, none, symptom, cause
    roles.collateralEvents = { 2, 4 };
    out.made.initiatingRank = 4;
    out.cause = 1;
    out.collateral = 2;
    out.symptom = 3;
    out.causeAndCollateral = 4;
    return out;
}

} // namespace rankscope::testing
