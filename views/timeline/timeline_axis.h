// SPDX-License-Identifier: MIT
// The time axis above the timeline: absolute wall-clock ticks and, under them, the offset from
// the initiating event ("02:17:44" over "+10:00").
#pragma once

#include "timeline_mapping.h"

#include <QString>

class QPainter;
class QPalette;
class QRect;

namespace rankscope {

// A "nice" tick step (1, 2, 5 × 10^k ms, then seconds, minutes, hours) giving ticks at least
// `minPixels` apart across `width` pixels showing `spanMs`.
qint64 chooseTickStep(qint64 spanMs, int width, int minPixels);

// "02:17:44", with ".250" when the step is below a second (UTC, as log stamps are read).
QString formatAxisTime(qint64 ms, qint64 stepMs);
// "+10m", "-5s", "+1h02m03s", "+0.250s" relative to the initiating event: seconds when the step is
// under a minute or the offset not whole minutes, milliseconds when the step is under a second.
QString formatOffset(qint64 deltaMs, qint64 stepMs);

// Paints ticks and labels into `rect` (two text lines); plot x = rect.left() + mapping.mapTimeToX.
// `referenceMs` is the initiating event's time, or -1 to omit the offset line.
void paintTimeAxis(QPainter& painter, const QRect& rect, const TimelineMapping& mapping, qint64 referenceMs,
    const QPalette& palette);

// The same for a log without times: the mapping's unit is a line number ("line 1 ... line 240"), and the
// second text line is the distance from the initiating line ("+12 lines"). `referenceLine` -1 omits it.
void paintLineAxis(QPainter& painter, const QRect& rect, const TimelineMapping& mapping, qint64 referenceLine,
    const QPalette& palette);
// A 1, 2, 5 x 10^k line step giving ticks at least `minPixels` apart.
qint64 chooseLineStep(qint64 spanLines, int width, int minPixels);

} // namespace rankscope
