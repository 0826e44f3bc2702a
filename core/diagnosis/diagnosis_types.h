// SPDX-License-Identifier: MIT
// The answer as plain values: which rank failed first and why, what else is collateral, who hung, how
// sure we are, and the fix and verification filled in with the incident's own values. diagnose() fills
// them (diagnosis.h); reports and views only read them.
#pragma once

#include "log_model.h"
#include "signature_catalog.h"
#include "template_render.h"
#include "text_util.h"

#include <QString>
#include <QStringList>
#include <vector>

namespace rankscope {

struct CollateralGroup
{
    int signature = -1; // catalog index, -1 for failures no signature matched
    QString label; // "watchdog timeout at SeqNum 4812"
    int rankCount = 0;
    QString ranks; // "0-3,5"
    int eventCount = 0;
    int firstEvent = -1;
    QString pointsTo; // a peer named by the symptom ("peer 10.10.0.11 = gpu-a01, ranks 0-3")
    // Who wrote a group without a rank: "launcher" when its signature is a launcher's (torchrun, srun,
    // mpirun, the DeepSpeed launcher), else what the lines identify: "pid 9821 on H100-1", "kernel",
    // "gpu-a02", "launcher.log". Empty for a group of ranks.
    QString writer;
    bool sameProcess = false; // the initiating process's own later failures (no rank known)
};

struct Suspect
{
    int rank = -1;
    QString host;
    QString reason;
    // What in the logs names this rank as the one the others waited for ("PyTorch's desync report", "the
    // watchdog's completed-work counts"); empty when the rank is only suspected (silent, no line at all).
    QString namedBy;
};

struct Hypothesis
{
    int signature = -1;
    QString reason;
    int score = 0; // higher first
};

struct TorchrunNote
{
    QString host;
    int rank = -1;
    QString text;
};

// A fact from a node's own capture (dmesg, ibstat, ibv_devinfo, nvidia-smi -q, ip addr) about this
// incident, with the capture line it comes from.
struct NodeFinding
{
    QString host; // "" for a capture of no host of the incident
    QString source; // "dmesg.gpu-a01.txt:12"
    QString text;
    bool confirms = false; // it confirms (or settles) the diagnosis rather than adding to it
};

struct Evidence
{
    int file = -1;
    qint64 fromLine = 0, toLine = 0; // 1-based, inclusive
    QStringList lines;
};

struct Diagnosis
{
    bool failureFound = false;
    QString headline; // one sentence for the top of the window and the terminal
    int initiatingEvent = -1; // index into Incident::events
    int signature = -1; // catalog index of the initiating event's signature
    // The event whose match gave the signature when it is not the initiating one: the next line of the same
    // thread that names the failure an unrecognised first line only reports ("Call to open failed" then
    // "Error while attaching to shared memory segment"); -1 when the initiating event's own match is used.
    int signatureEvent = -1;
    QString confidence; // high | medium | low; empty when there is no failure
    QStringList confidenceReasons;
    QString summary; // the signature's summary, rendered
    QString fix; // rendered
    QStringList verify, checklist, evidenceCommands, siblings;
    // The values the fix was rendered with, so a report or view can render the signature's typed actions
    // (fix_render.h) in whichever launcher and framework idiom it shows.
    RenderContext fixContext;
    std::vector<CollateralGroup> collateral;
    std::vector<int> collateralEvents; // every event counted in collateral
    std::vector<Suspect> suspects;
    std::vector<Hypothesis> hypotheses;
    std::vector<TorchrunNote> torchrun; // one per node whose torchrun printed a Root Cause
    // The same for people: nodes that name another rank with the same time and exit code share one line
    // (a 128-node job printed 127 near-identical ones).
    QStringList torchrunSummary;
    Evidence evidence;
    QString logFolder;
    QString logs; // what a search reads: the one plain log file given, else logFolder
    QStringList notes; // topology findings and other remarks that confirm or contradict
    std::vector<NodeFinding> nodeFindings; // from node evidence captures, confirming ones first
};

} // namespace rankscope
