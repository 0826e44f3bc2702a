// SPDX-License-Identifier: MIT
// The strip above the timeline's lanes: every lane at once (core/present/timeline_overview), coloured by
// when it first warned (earliest red, latest amber), its bar ending where it went quiet, the visible
// window outlined. A click asks the timeline to scroll to that lane; hovering names it.
#pragma once

#include "timeline_mapping.h"
#include "timeline_overview.h"

#include <QWidget>

namespace rankscope {

class TimelineOverviewStrip : public QWidget
{
    Q_OBJECT

public:
    explicit TimelineOverviewStrip(QWidget* parent = nullptr);

    // Rebuilds the rows from `model` (which must outlive the next call) for the strip's height.
    void setModel(const TimelineModel* model);
    void setVisibleWindow(const TimelineMapping& mapping);
    // The height the strip wants for `lanes` lanes: a few pixels per lane when there are few of them.
    static int preferredHeight(int lanes);
    // Left edge and width of the plot area, so the strip's time axis lines up with the lanes'.
    void setPlotArea(int left, int width);

    const TimelineOverview& overview() const { return m_overview; }
    int rowAt(int y) const; // -1 outside
    int yOfRow(int row) const;

Q_SIGNALS:
    void laneRequested(int lane);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    bool event(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void rebuild();
    int xOf(qint64 t) const;
    QString tooltipFor(int row) const;

    const TimelineModel* m_model = nullptr;
    TimelineOverview m_overview;
    qint64 m_windowStart = 0, m_windowEnd = 0;
    int m_plotLeft = 0, m_plotWidth = 1;
};

} // namespace rankscope
