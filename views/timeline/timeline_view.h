// SPDX-License-Identifier: MIT
// The per-rank timeline: host groups and rank lanes with per-pixel severity strokes, the
// initiating event marked across the view, collateral and suspects flagged, a time axis with the
// offset from the initiating event. Keys: W/S zoom (around the initiating event while it is visible),
// A/D pan, F fit (with the minute before the first event), Home initiating event,
// N/P next/previous WARN-or-worse event; drag to zoom; Ctrl+wheel zooms, wheel scrolls rows.
#pragma once

#include "timeline_mapping.h"
#include "timeline_model.h"
#include "timeline_overview_strip.h"
#include "timeline_painter.h"

#include <QAbstractScrollArea>

namespace rankscope {

class TimelineView : public QAbstractScrollArea
{
    Q_OBJECT

public:
    explicit TimelineView(QWidget* parent = nullptr);

    // The view keeps the pointer: `incident` must stay alive and unchanged until the next
    // setIncident() (pass nullptr to clear) or the view's destruction. Zooms to the initiating event.
    void setIncident(const Incident* incident, const TimelineRoles& roles);
    // The same with a model built off the UI thread (TimelineModel::setIncident on a worker): the view
    // only swaps it in. Its incident must stay alive as above.
    void setModel(TimelineModel model);

    const TimelineModel& model() const { return m_model; }
    const TimelineMapping& mapping() const { return m_mapping; }
    const TimelineOverviewStrip* overviewStrip() const { return m_strip; }
    qint64 visibleStart() const { return m_mapping.start; }
    qint64 visibleEnd() const { return m_mapping.end; }
    int rowCount() const { return m_model.rowCount(); }
    int selectedEvent() const { return m_selected; }
    bool isHostCollapsed(const QString& host) const { return m_model.isCollapsed(host); }

    void setHostCollapsed(const QString& host, bool collapsed);
    void setHostFilter(const QString& host);
    void setWarnOnly(bool warnOnly);
    void setTextFilter(const QString& text);
    void setVisibleRange(qint64 start, qint64 end);
    // Selects `event` (or clears with -1), brings it into view, emits eventSelected when it changed.
    void selectEvent(int event);

    // Geometry in viewport coordinates, for tests and overlays.
    const TimelineGeometry& geometry() const { return m_geo; }
    int xForTime(qint64 ms) const;
    // The centre of an event's stroke, or (-1, -1) when it is not on screen.
    QPoint eventPosition(int event) const;
    // The initiating marker's x, or -1 when there is none or it is outside the visible window.
    int initiatingMarkerX() const;
    // The gutter label of `lane` as painted now (shortened to the gutter); empty when it has no row.
    QString shownLaneLabel(int lane) const;
    QString shownHeaderLabel(int group) const; // the host group's header row as painted; empty when none

public Q_SLOTS:
    void zoomIn();
    void zoomOut();
    void panLeft();
    void panRight();
    void fitAll();
    void zoomToInitiating();
    void selectNextWarn();
    void selectPreviousWarn();
    // Scrolls the lanes to `lane` (opening its host when collapsed): what a click on the overview does.
    void scrollToLane(int lane);

Q_SIGNALS:
    void eventSelected(int eventIndex);
    void visibleRangeChanged(qint64 start, qint64 end);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;
    bool viewportEvent(QEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void scrollContentsBy(int dx, int dy) override;

private:
    void updateLayout();
    void refreshStrip(); // the overview strip's rows and height, after the lanes or filters changed
    void measureLabels();
    void rangeChanged();
    void scrollToRow(int row);
    int eventAt(const QPoint& pos) const;
    // The time zooming keeps in its column: the initiating event while it is visible, else `fallback`.
    qint64 zoomAnchor(qint64 fallback) const;
    QString tooltipFor(int event) const;

    TimelineModel m_model;
    TimelineOverviewStrip* m_strip = nullptr; // child; every lane at once, above the axis
    TimelineMapping m_mapping;
    TimelineGeometry m_geo;
    int m_selected = -1;
    int m_labelWidth = 0; // widest gutter label, from the font
    QPoint m_pressPos;
    bool m_pressed = false;
    bool m_rubberBand = false;
    QPoint m_dragPos;
};

} // namespace rankscope
