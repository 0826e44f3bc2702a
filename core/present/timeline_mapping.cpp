// SPDX-License-Identifier: MIT
#include "timeline_mapping.h"

#include <algorithm>
#include <cmath>

namespace rankscope {

double TimelineMapping::mapTimeToX(qint64 ms) const
{
    const qint64 s = qMax<qint64>(span(), 1);
    return static_cast<double>(ms - start) * static_cast<double>(width) / static_cast<double>(s);
}

qint64 TimelineMapping::mapXToTime(double x) const
{
    const double s = static_cast<double>(qMax<qint64>(span(), 1));
    return start + static_cast<qint64>(std::llround(x * s / static_cast<double>(qMax(width, 1))));
}

int TimelineMapping::columnOf(qint64 ms) const
{
    if (ms < start || ms > end)
        return -1;
    // Integer arithmetic: the column of an event must not depend on rounding.
    const qint64 col = (ms - start) * qMax(width, 1) / qMax<qint64>(span(), 1);
    return static_cast<int>(std::clamp<qint64>(col, 0, qMax(width, 1) - 1));
}

qint64 TimelineMapping::padding() const
{
    // A little room around the data so the first and last events are not glued to the edges: a fiftieth of
    // what fitAll() shows, lead-in included, so that a burst of seconds after the minute's lead-in still
    // leaves its last marker whole at the right edge (real case 115's hang: 2.5 s of data).
    return qMax<qint64>((dataEnd - dataStart + leadIn) / 50, minPadding);
}

void TimelineMapping::useLineUnits()
{
    leadIn = 0;
    minPadding = 2;
}

void TimelineMapping::setDataRange(qint64 first, qint64 last)
{
    dataStart = first;
    dataEnd = qMax(first, last);
    fitAll();
}

void TimelineMapping::setWindow(qint64 from, qint64 to)
{
    if (to < from)
        std::swap(from, to);
    const qint64 lo = dataStart - leadIn - padding();
    const qint64 hi = dataEnd + padding();
    const qint64 maxSpan = qMax(hi - lo, kMinSpanMs);
    const qint64 s = std::clamp<qint64>(to - from, kMinSpanMs, maxSpan);
    from = std::clamp<qint64>(from, lo, qMax(lo, hi - s));
    start = from;
    end = from + s;
}

void TimelineMapping::fitAll()
{
    setWindow(dataStart - leadIn - padding(), dataEnd + padding());
}

void TimelineMapping::zoom(double factor, qint64 anchorMs)
{
    const double s = static_cast<double>(span());
    const double newSpan = std::max(s * factor, static_cast<double>(kMinSpanMs));
    const double ratio = s > 0 ? static_cast<double>(anchorMs - start) / s : 0.5;
    const qint64 from = anchorMs - static_cast<qint64>(std::llround(ratio * newSpan));
    setWindow(from, from + static_cast<qint64>(std::llround(newSpan)));
}

void TimelineMapping::pan(qint64 deltaMs)
{
    setWindow(start + deltaMs, end + deltaMs);
}

void TimelineMapping::centerOn(qint64 ms, qint64 spanMs)
{
    spanMs = qMax(spanMs, kMinSpanMs);
    setWindow(ms - spanMs / 2, ms - spanMs / 2 + spanMs);
}

} // namespace rankscope
