// SPDX-License-Identifier: MIT
// The timeline drawn for the exported report, from the model rather than captured from the screen (a
// capture is as small as the widget and cuts its labels): one lane per rank or process with its whole
// label, markers shaped and coloured by role (initiating, cause, symptom, collateral, other), an axis with
// time or line labels, and a legend. A page cannot hold 1,024 lanes: the lanes that matter come first
// (the initiating one, collateral, suspects, then by first WARN), and a note counts the others.
#pragma once

#include "timeline_model.h"

#include <QByteArray>

namespace rankscope {

struct Analysis;

inline constexpr int kReportTimelineLanes = 40; // lanes drawn at most

// SVG 1.1 text (UTF-8); empty when the model has no lane or no placed event.
QByteArray timelineSvg(const TimelineModel& model);
// The same for one attempt of an analysis, building its model (the CLI's `--format html`).
QByteArray timelineSvg(const Analysis& analysis, int attempt);

} // namespace rankscope
