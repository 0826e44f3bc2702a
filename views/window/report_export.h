// SPDX-License-Identifier: MIT
#pragma once

#include "analysis.h"

#include <QString>

namespace rankscope {

class TimelineView;
class TopologyView;

// Writes basePath.md and basePath.html (self-contained: timeline PNG and topology SVG embedded).
bool writeReportFiles(const QString& basePath, const Analysis& analysis, const AttemptAnalysis& attempt,
    TimelineView* timeline, TopologyView* topology, QString* error);

} // namespace rankscope
