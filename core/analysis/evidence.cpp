// SPDX-License-Identifier: MIT
#include "analysis.h"
#include "file_lines.h"

namespace rankscope {

void readEvidence(const Incident& incident, Diagnosis& d)
{
    Evidence& ev = d.evidence;
    if (ev.file < 0 || ev.file >= static_cast<int>(incident.files.size()) || !ev.lines.isEmpty())
        return;
    // Indexed only as far as the evidence: the CLI keeps no line offsets, and a 300 MB console would be
    // indexed whole for a few lines near the failure.
    FileLinesResult opened = FileLines::openLazily(incident.files[static_cast<size_t>(ev.file)]);
    if (!opened.ok()) {
        d.notes.push_back(QStringLiteral("evidence not available: %1").arg(opened.error));
        return;
    }
    for (qint64 l = ev.fromLine; l <= ev.toLine; ++l)
        ev.lines.push_back(opened.lines->line(l - 1));
}

} // namespace rankscope
