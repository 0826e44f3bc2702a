// SPDX-License-Identifier: MIT
#pragma once

#include "analysis.h"
#include "control_compare.h"

#include <QString>

namespace rankscope {

class TimelineView;
class TopologyView;

// Writes basePath.md and basePath.html (self-contained: timeline PNG and topology SVG embedded). What they
// say comes from buildReportInput(), as for `rankscope diagnose`: the attempts, the topology and the
// divergence from a healthy run when one was compared (nullptr: none).
bool writeReportFiles(const QString& basePath, const Analysis& analysis, const AttemptAnalysis& attempt,
    const Divergence* divergence, TimelineView* timeline, TopologyView* topology, QString* error);

} // namespace rankscope
