// SPDX-License-Identifier: MIT
// Hangs with no error line. A log that shows NCCL's setup starting ("NCCL version", "Bootstrap", "Init
// START") and no "Init COMPLETE" anywhere stopped inside communicator init: no rank says why, so the
// catalog's stall entry names the usual reasons and the experiments that tell them apart.
#include "diagnosis_parts.h"
#include "template_render.h"

#include <QDir>
#include <QFileInfo>

namespace rankscope::detail {

bool diagnoseStall(const Incident& inc, const Catalog& cat, Diagnosis& d)
{
    if (inc.ncclInitFile < 0 || inc.ncclInitCompleted || inc.progressSeen)
        return false; // no NCCL setup, or it completed, or training steps ran: not a stall in init
    int stall = -1;
    for (int s = 0; s < static_cast<int>(cat.signatures.size()) && stall < 0; ++s) {
        if (cat.signatures[static_cast<size_t>(s)].stall == QLatin1String("nccl-init"))
            stall = s;
    }
    const FileInfo& file = inc.files[static_cast<size_t>(inc.ncclInitFile)];
    d.failureFound = true;
    d.signature = stall;
    d.confidence = QStringLiteral("low");
    d.confidenceReasons << QStringLiteral("no line reports an error; NCCL's setup began at %1:%2 and no "
                                          "communicator printed Init COMPLETE")
                               .arg(file.displayPath)
                               .arg(inc.ncclInitLine);
    d.headline = QStringLiteral("No error line, but the job hung in NCCL initialisation: setup began (%1:%2) "
                                "and no communicator completed init.")
                     .arg(file.displayPath)
                     .arg(inc.ncclInitLine);
    d.evidence.file = inc.ncclInitFile;
    d.evidence.fromLine = inc.ncclInitLine;
    d.evidence.toLine = inc.ncclInitLine;
    if (stall < 0)
        return true;
    const Signature& sig = cat.signatures[static_cast<size_t>(stall)];
    RenderContext ctx;
    ctx.logFolder = d.logFolder;
    ctx.logs = d.logs;
    renderSignatureTexts(sig, ctx, d);
    return true;
}

} // namespace rankscope::detail
