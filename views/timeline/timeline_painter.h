// SPDX-License-Identifier: MIT
// Painting of the timeline rows (gutter labels, per-pixel strokes, roles), kept apart from the
// widget's interaction code. Everything is sized from the font, so it follows HiDPI and zoom.
#pragma once

#include "timeline_binning.h"
#include "timeline_mapping.h"
#include "timeline_model.h"

#include <QList>
#include <QPalette>
#include <QRect>
#include <array>
#include <vector>

class QFontMetrics;
class QPainter;

namespace rankscope {

struct TimelineGeometry
{
    QRect viewport; // the whole paint area
    int axisHeight = 0; // axis and marker-label band at the top
    int gutterWidth = 0;
    int rowHeight = 0;
    int scrollY = 0; // pixels scrolled

    int plotLeft() const { return gutterWidth; }
    int plotWidth() const { return qMax(1, viewport.width() - gutterWidth - 4); }
    int rowTop(int row) const { return axisHeight + row * rowHeight - scrollY; }
    // The row under viewport y, or -1.
    int rowAt(int y, int rowCount) const;
};

class TimelinePainter
{
public:
    static constexpr int kMinMarkerPixels = 9; // role markers are at least this wide: visible and hittable

    TimelinePainter(const TimelineModel& model, const TimelineMapping& mapping,
        const TimelineGeometry& geometry, const QPalette& palette);

    void paintRows(QPainter& painter, int selectedEvent);
    // The vertical line, its label box in the axis band and a ring on the event.
    void paintInitiatingMarker(QPainter& painter);
    void paintSelectionRing(QPainter& painter, int selectedEvent);

    // Viewport x of `ms` inside the plot.
    int xOf(qint64 ms) const;
    // The gutter label of lane row `row` as painted in font `fm`: whole, or shortened to fit.
    QString laneLabel(int row, const QFontMetrics& fm) const;
    // The host header of row `row` as painted in bold font `fm`: its count dropped first when narrow.
    QString headerLabel(int row, const QFontMetrics& fm) const;

private:
    void paintHeaderRow(QPainter& painter, int row, int top);
    void paintLaneRow(QPainter& painter, int row, int top, int selectedEvent);
    void paintBins(QPainter& painter, int top, bool dim);
    void paintRoleMarkers(QPainter& painter, int top);
    int markerSize() const;
    int laneLabelIndent(int row, const QFontMetrics& fm) const;
    int laneLabelRight(int row, const QFontMetrics& fm) const;
    void ring(QPainter& painter, int x, int yCenter, const QColor& color, int width);

    const TimelineModel& m_model;
    const TimelineMapping& m_mapping;
    const TimelineGeometry& m_geo;
    QPalette m_palette;
    std::vector<PixelBin> m_bins, m_laneBins;
    std::array<QList<QRect>, 4> m_bySeverity; // reused across rows: no allocation per row
    QList<QRect> m_collateral;
};

} // namespace rankscope
