// SPDX-License-Identifier: MIT
// The visible time window of the timeline and its mapping to pixel columns (after hotspot's
// TimeLineData): a pure value type so zoom, pan and fit are tested without a widget.
#pragma once

#include <QtGlobal>

namespace rankscope {

struct TimelineMapping
{
    static constexpr qint64 kMinSpanMs = 10;

    qint64 dataStart = 0; // the span of all placed events
    qint64 dataEnd = 0;
    qint64 start = 0; // the visible window [start, end]
    qint64 end = 0;
    int width = 1; // pixel columns of the plot area
    // Room kept before the first event by fitAll() and the window's clamp: a minute of clock (what led up
    // to the failure), none on a line-order axis. `minPadding` is the least margin at either end.
    qint64 leadIn = 60000;
    qint64 minPadding = 500;

    qint64 span() const { return end - start; }
    double mapTimeToX(qint64 ms) const;
    qint64 mapXToTime(double x) const;
    // The column (0..width-1) a time falls in, or -1 when outside the window.
    int columnOf(qint64 ms) const;

    void setDataRange(qint64 first, qint64 last);
    void setWindow(qint64 from, qint64 to); // keeps at least kMinSpanMs, clamps to the padded data
    void fitAll(); // all the data, the lead-in before it and a margin
    // Units on a line-order axis: line numbers, no lead-in, a margin of a few lines.
    void useLineUnits();
    // factor < 1 zooms in; `anchorMs` keeps its pixel column.
    void zoom(double factor, qint64 anchorMs);
    void pan(qint64 deltaMs);
    // A window of `spanMs` centred on `ms` (clamped like setWindow).
    void centerOn(qint64 ms, qint64 spanMs);

private:
    qint64 padding() const;
};

} // namespace rankscope
