// SPDX-License-Identifier: MIT
// Colours for severities and roles, shared by the timeline, the log view and the topology graph.
// They adapt to the palette so that dark mode stays readable.
#pragma once

#include "log_model.h"

#include <QColor>
#include <QPalette>

namespace rankscope {

bool isDarkPalette(const QPalette& palette); // window darker than mid-grey
QColor severityColor(Severity s, const QPalette& palette);
QColor initiatingColor(); // the initiating event: one unmistakable hue
QColor collateralColor(const QPalette& palette);
QColor sysPathColor(); // SYS (cross-socket) paths

} // namespace rankscope
