// SPDX-License-Identifier: MIT
// One call from inputs to answers: load the catalog, read the logs, place ranks on the topology and
// diagnose every attempt. The CLI and the window both run exactly this (the window off the UI thread).
#pragma once

#include "cancel_token.h"
#include "diagnosis.h"
#include "log_model.h"
#include "node_evidence.h"
#include "signature_catalog.h"
#include "topology_loader.h"
#include "topology_placement.h"

#include <QStringList>
#include <vector>

namespace rankscope {

struct AnalysisRequest
{
    QStringList logPaths; // folders, files, "-"
    QString pastedText; // a traceback pasted or dropped as text
    QStringList topologyPaths; // captures; also picked out of logPaths by content when named like one
    QStringList signatureDirs; // user catalogs
    QString topologyHost; // host to give captures that do not name one
    // False for a caller that never shows a file's lines (the CLI): the scan then keeps no per-line offsets,
    // and a file is indexed when something opens it (FileLines), which the evidence of a diagnosis does.
    bool lineIndex = true;
    // What launched the job and the framework, when the user knows better than the logs (`rankscope
    // diagnose --launcher ID --framework ID`): an id of kLauncherIds / kFrameworkIds (launch_info.h), or
    // empty to keep what the logs show. The caller validates the ids.
    QString launcher;
    QString framework;
};

struct AttemptAnalysis
{
    Incident incident;
    Diagnosis diagnosis;
    PlacementResult placement;
};

struct Analysis
{
    CatalogLoadResult catalog;
    TopologySet topology;
    std::vector<NodeCapture> nodeEvidence; // dmesg, ibstat, ... found among the inputs (by content)
    PlacementResult capturesOnly; // with no attempt (captures without logs): what they imply on their own
    QStringList topologyPaths; // the captures `topology` was read from: those given and those found
    std::vector<AttemptAnalysis> attempts; // oldest first
    int current = -1; // the latest attempt
    QString error; // set when no log could be read
    bool cancelled = false;

    const AttemptAnalysis* currentAttempt() const
    {
        return current >= 0 && current < static_cast<int>(attempts.size())
            ? &attempts[static_cast<size_t>(current)]
            : nullptr;
    }
};

Analysis analyze(
    const AnalysisRequest& request, const CancelToken* cancel = nullptr, const ProgressFn& progress = {});

// Reads the evidence lines the diagnosis points at (Diagnosis::evidence) from the file itself; a file that
// cannot be opened any more gives a note instead.
void readEvidence(const Incident& incident, Diagnosis& diagnosis);

// Diagnoses an incident with a topology: findings become notes, the NIC mapping joins the fix; node
// evidence captures, when given, become node findings (node_evidence_join.h).
void diagnoseAttempt(AttemptAnalysis& attempt, const Catalog& catalog, const TopologySet& topology,
    const std::vector<NodeCapture>& nodeEvidence = {});

} // namespace rankscope
