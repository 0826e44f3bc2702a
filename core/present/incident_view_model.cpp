// SPDX-License-Identifier: MIT
#include "incident_view_model.h"

#include "log_search.h"

#include <algorithm>

namespace rankscope {

TimelineRoles timelineRoles(const Diagnosis& d, const Incident& incident, const Catalog& catalog)
{
    TimelineRoles roles;
    roles.initiatingEvent = d.initiatingEvent;
    roles.collateralEvents = d.collateralEvents;
    for (const Suspect& s : d.suspects)
        roles.suspectRanks.push_back(s.rank);
    roles.eventRoles.assign(incident.events.size(), -1);
    for (size_t i = 0; i < incident.events.size(); ++i) {
        const int sig = incident.events[i].signature;
        if (sig >= 0 && static_cast<size_t>(sig) < catalog.signatures.size())
            roles.eventRoles[i] =
                static_cast<qint8>(roleRank(catalog.signatures[static_cast<size_t>(sig)].role));
    }
    return roles;
}

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
    log.authors = fileAuthors(incident, file);
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

    vm.timeline.setIncident(&inc, timelineRoles(d, inc, analysis.catalog.catalog));
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
    vm.ranks = buildRankRows(a);
    vm.hosts = inc.hosts();
    vm.files = static_cast<qint64>(inc.files.size());
    vm.rankCount = static_cast<qint64>(inc.ranks.size());
    vm.hostCount = vm.hosts.size();
    vm.bytes = inc.totalBytes;
    vm.events = 0;
    for (const LogEvent& e : inc.events)
        vm.events += 1 + e.repeats; // what the log printed, with the repeats folded while scanning
    vm.topologyHosts = static_cast<qint64>(analysis.topology.hosts.size());
    if (cancel && cancel->isCancelled()) {
        vm.cancelled = true;
        return vm;
    }
    if (d.initiatingEvent >= 0) {
        const LogEvent& e = inc.events[static_cast<size_t>(d.initiatingEvent)];
        vm.log = prepareLog(inc, e.file, e.line, e.rank, vm.signatureTitles, warnOnly, cancel);
    } else if (d.evidence.file >= 0) { // a hang has no initiating line, but its evidence has a place
        vm.log =
            prepareLog(inc, d.evidence.file, d.evidence.fromLine, -1, vm.signatureTitles, warnOnly, cancel);
    }
    vm.cancelled = cancel && cancel->isCancelled();
    return vm;
}

} // namespace rankscope
