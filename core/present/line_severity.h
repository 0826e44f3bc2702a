// SPDX-License-Identifier: MIT
// A cheap per-line severity guess for display only (the log view colours lines with it).
// The engine's real attribution lives in ingest; this never decides what an incident means.
#pragma once

#include "log_model.h"

#include <QStringView>

namespace rankscope {

// NCCL WARN, c10 "[E…]"/"[W…]"/"[F…]", torch "E0314 …", Python "[ERROR]"/"ERROR:", Traceback,
// "terminate called" → the matching severity; anything else → Info.
Severity classifyLineSeverity(QStringView line);

} // namespace rankscope
