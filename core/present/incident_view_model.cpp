// SPDX-License-Identifier: MIT
#include "incident_view_model.h"

#include "log_search.h"

#include <algorithm>

namespace rankscope {

namespace {

TimelineRoles rolesOf(const Diagnosis& d)
{
    TimelineRoles roles;
    roles.initiatingEvent = d.initiatingEvent;
    roles.collateralEvents = d.collateralEvents;
    for (const Suspect& s : d.suspects)
        roles.suspectRanks.push_back(s.rank);
    return roles;
}

std::vector<RankRow> rankRows(const AttemptAnalysis& a)
{
    std::vector<RankRow> rows;
    rows.reserve(a.incident.ranks.size());
    for (const RankInfo& r : a.incident.ranks) {
        RankRow row;
        row.rank = r.rank;
        row.host = r.host;
        row.gpu = r.nvmlDev >= 0 ? QString::number(r.nvmlDev)
            : r.cudaDev >= 0     ? QString::number(r.cudaDev)
                                 : QString();
        row.firstWarn = r.firstWarn;
        if (r.firstWarn >= 0 && static_cast<size_t>(r.firstWarn) < a.incident.events.size()) {
            const LogEvent& e = a.incident.events[static_cast<size_t>(r.firstWarn)];
            row.firstWarnTimed = e.time.valid;
            if (e.time.valid)
                row.firstWarnTime =
                    formatTime(e.time).mid(11) + (e.time.inferred ? QStringLiteral(" ~") : QString());
            row.message = e.message.left(200);
            row.tooltip = e.text;
            row.initiating = r.firstWarn == a.diagnosis.initiatingEvent;
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

} // namespace

PreparedLog prepareLog(const Incident& incident, int file, qint64 line, int rank,
    const QStringList& signatureTitles, bool warnOnly, const CancelToken* cancel)
{
    PreparedLog log;
    log.file = file;
    log.line = line;
    log.rank = rank;
    if (file < 0 || static_cast<size_t>(file) >= incident.files.size()) {
        log.error = QStringLiteral("No file %1 in this incident").arg(file);
        return log;
    }
    const FileLinesResult opened = FileLines::open(incident.files[static_cast<size_t>(file)]);
    log.lines = opened.lines;
    log.error = opened.error;
    log.marks = marksForFile(incident, file, signatureTitles);
    if (warnOnly && log.lines) {
        bool cancelled = false;
        log.warnLines = warnOrMarkedLines(*log.lines, log.marks, cancel, {}, &cancelled);
        log.warnFiltered = !cancelled;
    }
    return log;
}

IncidentViewModel buildIncidentViewModel(
    const Analysis& analysis, int attempt, bool warnOnly, const CancelToken* cancel)
{
    IncidentViewModel vm;
    vm.attempt = attempt;
    if (attempt < 0 || static_cast<size_t>(attempt) >= analysis.attempts.size())
        return vm;
    const AttemptAnalysis& a = analysis.attempts[static_cast<size_t>(attempt)];
    const Incident& inc = a.incident;
    const Diagnosis& d = a.diagnosis;
    for (const Signature& sig : analysis.catalog.catalog.signatures)
        vm.signatureTitles << sig.title;

    vm.timeline.setIncident(&inc, rolesOf(d));
    if (cancel && cancel->isCancelled()) {
        vm.cancelled = true;
        return vm;
    }
    // Show the initiating event together with the collateral it caused (often minutes later).
    if (d.initiatingEvent >= 0) {
        const LogEvent& init = inc.events[static_cast<size_t>(d.initiatingEvent)];
        qint64 last = init.time.ms;
        for (int ev : d.collateralEvents) {
            const LogEvent& e = inc.events[static_cast<size_t>(ev)];
            if (e.time.valid)
                last = std::max(last, e.time.ms);
        }
        if (init.time.valid) {
            const qint64 span = std::max<qint64>(last - init.time.ms, 60'000);
            vm.hasRange = true;
            vm.rangeStart = init.time.ms - span / 10;
            vm.rangeEnd = init.time.ms + span + span / 10;
        }
    }
    vm.ranks = rankRows(a);
    vm.hosts = inc.hosts();
    vm.files = static_cast<qint64>(inc.files.size());
    vm.rankCount = static_cast<qint64>(inc.ranks.size());
    vm.hostCount = vm.hosts.size();
    vm.bytes = inc.totalBytes;
    vm.events = static_cast<qint64>(inc.events.size());
    vm.topologyHosts = static_cast<qint64>(analysis.topology.hosts.size());
    if (cancel && cancel->isCancelled()) {
        vm.cancelled = true;
        return vm;
    }
    if (d.initiatingEvent >= 0) {
        const LogEvent& e = inc.events[static_cast<size_t>(d.initiatingEvent)];
        vm.log = prepareLog(inc, e.file, e.line, e.rank, vm.signatureTitles, warnOnly, cancel);
    }
    vm.cancelled = cancel && cancel->isCancelled();
    return vm;
}

} // namespace rankscope
