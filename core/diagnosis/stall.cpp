// SPDX-License-Identifier: MIT
// Hangs with no error line, told apart by how far NCCL got:
// - setup started ("NCCL version", "Bootstrap", "Init START") and no "Init COMPLETE" anywhere: the job
//   stopped inside communicator init;
// - a communicator completed init and no training step followed: the job stopped in its first collective,
//   where data first moves between the GPUs over the paths init chose;
// - a launcher (torchrun, DeepSpeed's, Accelerate) started the job and the log ends soon after with no NCCL
//   line at all: the workers never got past rendezvous or init_process_group.
// No rank says why, so the catalog's stall entry for the phase names the usual reasons and the experiments
// that tell them apart.
#include "diagnosis_parts.h"
#include "template_render.h"

#include <QDir>
#include <QFileInfo>

namespace rankscope::detail {

namespace {

// A job that went on past its first collective prints on: results, evaluation, more communicators. A log
// that ends within this many lines of its last Init COMPLETE stopped there; one that goes on did not
// (a healthy run whose progress lines the scanner does not know is no hang).
constexpr qint64 kStallTailLines = 50;

int stallEntry(const Catalog& cat, QLatin1String phase)
{
    for (int s = 0; s < static_cast<int>(cat.signatures.size()); ++s) {
        if (cat.signatures[static_cast<size_t>(s)].stall == phase)
            return s;
    }
    return -1;
}

// The first line of a launcher that starts workers itself (torchrun, DeepSpeed's, Accelerate), in a file
// that ends within kStallTailLines of it: a log that goes on is no stall at the launch.
const LaunchEvidence* launcherNearTheEnd(const Incident& inc)
{
    for (const LaunchItem& l : inc.launch.launchers) {
        if (l.given
            || (l.id != QLatin1String("torchrun") && l.id != QLatin1String("deepspeed")
                && l.id != QLatin1String("accelerate")))
            continue;
        for (const LaunchEvidence& e : l.evidence) {
            if (e.file >= 0 && static_cast<size_t>(e.file) < inc.files.size()
                && inc.files[static_cast<size_t>(e.file)].lines - e.line <= kStallTailLines)
                return &e;
        }
    }
    return nullptr;
}

} // namespace

bool diagnoseStall(const Incident& inc, const Catalog& cat, Diagnosis& d)
{
    if (inc.progressSeen)
        return false; // training steps ran: not a stall before the first step
    // Where it stopped, and the line that shows it: setup without Init COMPLETE; Init COMPLETE near the end
    // of every log; or (nccl-tests and rccl-tests print their results header before the first collective and
    // a row after it) a header with no row, NCCL_DEBUG or not.
    enum class Phase
    {
        Init,
        AfterInit,
        Benchmark,
        Launch
    } phase;
    int file = -1;
    qint64 line = 0;
    if (inc.ncclInitFile >= 0 && !inc.ncclInitCompleted) {
        phase = Phase::Init;
        file = inc.ncclInitFile;
        line = inc.ncclInitLine;
    } else if (inc.ncclInitCompleteFile >= 0 && inc.linesAfterInitComplete <= kStallTailLines) {
        phase = Phase::AfterInit;
        file = inc.ncclInitCompleteFile;
        line = inc.ncclInitCompleteLine;
    } else if (inc.benchTableFile >= 0) {
        phase = Phase::Benchmark;
        file = inc.benchTableFile;
        line = inc.benchTableLine;
    } else if (const LaunchEvidence* started = launcherNearTheEnd(inc);
               started && inc.ncclInitFile < 0 && inc.ncclInitCompleteFile < 0) {
        phase = Phase::Launch;
        file = started->file;
        line = started->line;
    } else {
        return false; // no NCCL setup, or the logs go on well past init: nothing tells where it stopped
    }
    const QString at =
        QStringLiteral("%1:%2").arg(inc.files[static_cast<size_t>(file)].displayPath).arg(line);
    int stall = stallEntry(cat,
        phase == Phase::Init         ? QLatin1String("nccl-init")
            : phase == Phase::Launch ? QLatin1String("launch")
                                     : QLatin1String("nccl-first-collective"));
    switch (phase) {
    case Phase::Init:
        d.confidenceReasons << QStringLiteral("no line reports an error; NCCL's setup began at %1 and no "
                                              "communicator printed Init COMPLETE")
                                   .arg(at);
        d.headline =
            QStringLiteral("No error line, but the job hung in NCCL initialisation: setup began (%1) "
                           "and no communicator completed init.")
                .arg(at);
        break;
    case Phase::AfterInit:
        d.confidenceReasons << QStringLiteral("no line reports an error; a communicator completed init (%1), "
                                              "no training step was logged and no log goes on more than %2 "
                                              "lines after its last Init COMPLETE")
                                   .arg(at)
                                   .arg(inc.linesAfterInitComplete);
        d.headline =
            QStringLiteral("No error line, but the job hung after NCCL initialisation: init completed "
                           "(%1) and the log ends %2 line(s) later with no training step, so the first "
                           "collective never finished.")
                .arg(at)
                .arg(inc.linesAfterInitComplete);
        break;
    case Phase::Launch: {
        const qint64 after = inc.files[static_cast<size_t>(file)].lines - line;
        d.confidenceReasons << QStringLiteral("no line reports an error; a launcher started the job (%1), no "
                                              "NCCL line follows, and the log ends %2 line(s) later")
                                   .arg(at)
                                   .arg(after);
        d.headline =
            QStringLiteral("No error line, and the log ends %1 line(s) after the launcher started the "
                           "job (%2) with no NCCL line: the workers never got past rendezvous or "
                           "process-group setup (or the log was cut there).")
                .arg(after)
                .arg(at);
        break;
    }
    case Phase::Benchmark:
        d.confidenceReasons << QStringLiteral("no line reports an error; the benchmark printed its results "
                                              "header (%1) and no result row")
                                   .arg(at);
        d.headline =
            QStringLiteral("No error line, but the benchmark hung in its first collective: it printed "
                           "its results header (%1) and no result row.")
                .arg(at);
        break;
    }
    d.failureFound = true;
    d.signature = stall;
    // A variant of the phase's entry that the rest of the incident tells apart (EFA chosen, then silence).
    QString variant;
    d.signature = refineSignature(inc, cat, d, &variant);
    if (!variant.isEmpty())
        d.confidenceReasons << variant;
    stall = d.signature;
    d.confidence = QStringLiteral("low");
    d.evidence.file = file;
    d.evidence.fromLine = line;
    d.evidence.toLine = line;
    if (stall < 0)
        return true;
    const Signature& sig = cat.signatures[static_cast<size_t>(stall)];
    RenderContext ctx;
    ctx.logFolder = d.logFolder;
    ctx.logs = d.logs;
    ctx.runSettings = runSettingsOf(inc);
    renderSignatureTexts(sig, ctx, d);
    return true;
}

} // namespace rankscope::detail
