// SPDX-License-Identifier: MIT
#include "analysis.h"

#include "background_release.h"
#include "fix_agreement.h"
#include "ingest.h"
#include "node_evidence_join.h"
#include "signature_matcher.h"

#include <QFileInfo>
#include <future>
#include <memory>

namespace rankscope {

void diagnoseAttempt(AttemptAnalysis& a, const Catalog& catalog, const TopologySet& topology,
    const std::vector<NodeCapture>& nodeEvidence)
{
    DiagnoseOptions options;
    if (!topology.hosts.empty()) {
        a.placement = placeRanks(a.incident.ranks, topology);
        if (!a.placement.hcaScripts.isEmpty()) {
            options.extraFixLines
                << QString()
                << QStringLiteral("NIC binding computed from the topology (each GPU to its closest NIC):");
            for (const HcaChoice& c : a.placement.hca)
                options.extraFixLines << QStringLiteral("  %1: %2").arg(c.host, c.text());
            options.extraFixLines << a.placement.hcaScripts;
        }
    }
    a.diagnosis = diagnose(a.incident, catalog, options);
    alignVerifyWithBinding(a.incident, a.diagnosis, a.placement); // verify tests the computed binding
    readEvidence(a.incident, a.diagnosis);
    for (const TopologyFinding& f : a.placement.findings)
        a.diagnosis.notes << f.detail;
    for (const QString& e : topology.errors)
        a.diagnosis.notes << QStringLiteral("topology not read: %1").arg(e);
    joinNodeEvidence(a.incident, catalog, topology, nodeEvidence, a.diagnosis);
}

namespace {

// A latest attempt without an error line (only the agent's restart lines, a run that went on, or a hang
// read from where the log stops) does not hide the attempt that failed with one: the latest such attempt is
// shown, and both say so.
QString withoutFinalStop(QString text)
{
    while (text.endsWith(u'.'))
        text.chop(1);
    return text;
}

void showLatestFailure(Analysis& out)
{
    if (out.current < 0 || out.current >= static_cast<int>(out.attempts.size()))
        return;
    AttemptAnalysis& latest = out.attempts[static_cast<size_t>(out.current)];
    if (latest.diagnosis.failureFound && latest.diagnosis.initiatingEvent >= 0)
        return;
    for (int i = out.current - 1; i >= 0; --i) {
        AttemptAnalysis& failed = out.attempts[static_cast<size_t>(i)];
        if (!failed.diagnosis.failureFound || failed.diagnosis.initiatingEvent < 0)
            continue;
        failed.diagnosis.notes.push_back(
            QStringLiteral("This is %1, the latest attempt with an error line; the attempt after it (%2) %3.")
                .arg(failed.incident.label, latest.incident.label,
                    latest.diagnosis.failureFound
                        ? QStringLiteral("has none: %1").arg(withoutFinalStop(latest.diagnosis.headline))
                        : QStringLiteral("shows no failure")));
        latest.diagnosis.notes.push_back(
            QStringLiteral("No error line in this attempt; %1 failed before it.").arg(failed.incident.label));
        out.current = i;
        return;
    }
}

} // namespace

Analysis analyze(const AnalysisRequest& request, const CancelToken* cancel, const ProgressFn& progress)
{
    // Declared first, destroyed last: what it frees in the background is freed before analyze() returns.
    BackgroundRelease release;
    Analysis out;
    // Listing a folder of a thousand files takes as long as compiling the catalog: both at once.
    std::future<Discovery> listing = std::async(
        std::launch::async, [&] { return discoverInputs(request.logPaths, request.pastedText, cancel); });
    out.catalog = loadDefaultCatalog(request.signatureDirs);
    auto matcher = std::make_unique<SignatureMatcher>(out.catalog.catalog);
    if (!matcher->errorString().isEmpty())
        out.catalog.errors << matcher->errorString();

    LoadOptions options;
    options.paths = request.logPaths;
    options.pastedText = request.pastedText;
    options.discovered = listing.get();
    out.nodeEvidence = loadNodeEvidence(options.discovered->nodeEvidence);
    options.catalog = &out.catalog.catalog;
    options.matcher = matcher.get();
    options.lineIndex = request.lineIndex;
    options.release = &release;
    LoadResult loaded = loadIncidents(options, cancel, progress);
    options.matcher = nullptr;
    release.release(std::move(matcher));
    // Captures given explicitly, plus those found among the log inputs.
    QStringList captures = request.topologyPaths;
    for (const QString& f : loaded.topologyFiles) {
        if (!captures.contains(f))
            captures << f;
    }
    if (!captures.isEmpty()) {
        out.topology = loadTopologyFiles(captures, request.topologyHost);
        std::vector<RankInfo> ranks; // a capture belongs to a host of the logs, or is used for nothing
        for (const Incident& inc : loaded.incidents)
            ranks.insert(ranks.end(), inc.ranks.begin(), inc.ranks.end());
        attributeCaptures(out.topology, ranks);
    }
    out.topologyPaths = captures;
    out.cancelled = loaded.cancelled;
    out.error = loaded.error;
    for (Incident& inc : loaded.incidents) {
        AttemptAnalysis a;
        a.incident = std::move(inc);
        overrideLaunch(a.incident.launch, request.launcher, request.framework);
        diagnoseAttempt(a, out.catalog.catalog, out.topology, out.nodeEvidence);
        out.attempts.push_back(std::move(a));
    }
    out.current = loaded.current;
    showLatestFailure(out);
    if (out.attempts.empty() && !out.topology.hosts.empty())
        out.capturesOnly = placeCapturesOnly(out.topology);
    return out;
}

} // namespace rankscope
