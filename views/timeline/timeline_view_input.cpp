// SPDX-License-Identifier: MIT
// TimelineView: mouse, wheel and tooltip handling, and hit testing.
#include "timeline_axis.h"
#include "timeline_binning.h"
#include "timeline_painter.h"
#include "timeline_view.h"

#include <QApplication>
#include <QDateTime>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QToolTip>
#include <QWheelEvent>
#include <cmath>

namespace rankscope {

int TimelineView::eventAt(const QPoint& pos) const
{
    const int row = m_geo.rowAt(pos.y(), m_model.rowCount());
    if (row < 0 || pos.x() < m_geo.plotLeft() || m_model.row(row).kind == TimelineRowKind::HostHeader)
        return -1;
    // A few pixels of slack (from the font, so it scales with HiDPI) make 1 px strokes clickable.
    // As wide as a role marker: a marker that can be seen can be hit.
    const double tolerance =
        std::max(TimelinePainter::kMinMarkerPixels / 2 + 1, fontMetrics().averageCharWidth() / 2);
    return eventNearColumn(
        m_model.lane(m_model.row(row).lane), m_mapping, pos.x() - m_geo.plotLeft() + 0.5, tolerance);
}

QPoint TimelineView::eventPosition(int event) const
{
    if (!m_model.isPlaced(event))
        return { -1, -1 };
    const int row = m_model.rowOfLane(m_model.laneOfEvent(event));
    const qint64 t = m_model.eventTime(event);
    if (row < 0 || t < m_mapping.start || t > m_mapping.end)
        return { -1, -1 };
    const int y = m_geo.rowTop(row) + m_geo.rowHeight / 2;
    if (y < m_geo.axisHeight || y >= m_geo.viewport.height())
        return { -1, -1 };
    return { xForTime(t), y };
}

QString TimelineView::shownLaneLabel(int lane) const
{
    const int row = m_model.rowOfLane(lane);
    if (row < 0)
        return {};
    QFont f = font();
    f.setItalic(m_model.lane(lane).inferredOnly);
    return TimelinePainter(m_model, m_mapping, m_geo, palette()).laneLabel(row, QFontMetrics(f));
}

QString TimelineView::shownHeaderLabel(int group) const
{
    for (int row = 0; row < m_model.rowCount(); ++row)
        if (m_model.row(row).kind == TimelineRowKind::HostHeader && m_model.row(row).group == group) {
            QFont bold = font();
            bold.setBold(true);
            return TimelinePainter(m_model, m_mapping, m_geo, palette()).headerLabel(row, QFontMetrics(bold));
        }
    return {};
}

int TimelineView::initiatingMarkerX() const
{
    const int ev = m_model.roles().initiatingEvent;
    if (!m_model.isPlaced(ev))
        return -1;
    const qint64 t = m_model.eventTime(ev);
    return t < m_mapping.start || t > m_mapping.end ? -1 : xForTime(t);
}

QString TimelineView::tooltipFor(int event) const
{
    const Incident& inc = *m_model.incident();
    const LogEvent& e = inc.events[static_cast<size_t>(event)];
    const TimelineLane& lane = m_model.lane(m_model.laneOfEvent(event));
    const int ref = m_model.roles().initiatingEvent;
    QString when;
    if (m_model.axis() == TimelineAxis::LineOrder) {
        when = tr("line %1 (the log has no times)").arg(e.line);
    } else {
        when = QDateTime::fromMSecsSinceEpoch(e.time.ms, Qt::UTC)
                   .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz"));
        if (e.time.inferred)
            when += tr(" (inferred)");
        if (m_model.isPlaced(ref))
            when += QStringLiteral("  ") + formatOffset(e.time.ms - m_model.eventTime(ref), 1);
    }
    QString file;
    if (e.file >= 0 && static_cast<size_t>(e.file) < inc.files.size())
        file = inc.files[static_cast<size_t>(e.file)].displayPath + QStringLiteral(":%1").arg(e.line);
    QString role;
    if (event == ref)
        role = tr("initiating event") + QStringLiteral("\n");
    else if (std::find(
                 m_model.roles().collateralEvents.begin(), m_model.roles().collateralEvents.end(), event)
        != m_model.roles().collateralEvents.end())
        role = tr("collateral") + QStringLiteral("\n");
    return role + lane.label + QStringLiteral("\n") + when + QStringLiteral("  ") + severityName(e.severity)
        + QStringLiteral("\n") + file + QStringLiteral("\n") + e.text.left(400);
}

bool TimelineView::viewportEvent(QEvent* event)
{
    if (event->type() == QEvent::ToolTip && m_model.incident()) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int e = eventAt(help->pos());
        const int row = m_geo.rowAt(help->pos().y(), m_model.rowCount());
        if (e >= 0)
            QToolTip::showText(help->globalPos(), tooltipFor(e), viewport());
        else if (row >= 0 && m_model.row(row).kind == TimelineRowKind::HostHeader
            && help->pos().x() < m_geo.plotLeft())
            QToolTip::showText(help->globalPos(), tr("Click to collapse or expand this host"), viewport());
        else
            QToolTip::hideText();
        return true;
    }
    return QAbstractScrollArea::viewportEvent(event);
}

void TimelineView::wheelEvent(QWheelEvent* event)
{
    if (!(event->modifiers() & Qt::ControlModifier)) {
        QAbstractScrollArea::wheelEvent(event); // scrolls rows
        return;
    }
    const double steps = event->angleDelta().y() / 120.0;
    if (steps == 0.0)
        return;
    const double x = event->position().x() - m_geo.plotLeft();
    m_mapping.zoom(
        std::pow(0.8, steps), zoomAnchor(m_mapping.mapXToTime(std::clamp(x, 0.0, double(m_mapping.width)))));
    rangeChanged();
    event->accept();
}

void TimelineView::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton || !m_model.incident())
        return;
    const QPoint pos = event->position().toPoint();
    const int row = m_geo.rowAt(pos.y(), m_model.rowCount());
    if (row >= 0 && m_model.row(row).kind == TimelineRowKind::HostHeader && pos.x() < m_geo.plotLeft()) {
        const QString host = m_model.group(m_model.row(row).group).host;
        setHostCollapsed(host, !m_model.isCollapsed(host));
        return;
    }
    if (pos.x() < m_geo.plotLeft() || pos.y() < m_geo.axisHeight)
        return;
    m_pressed = true;
    m_rubberBand = false;
    m_pressPos = pos;
}

void TimelineView::mouseMoveEvent(QMouseEvent* event)
{
    if (!m_pressed)
        return;
    m_dragPos = event->position().toPoint();
    m_dragPos.setX(std::clamp(m_dragPos.x(), m_geo.plotLeft(), m_geo.plotLeft() + m_geo.plotWidth()));
    if (!m_rubberBand && std::abs(m_dragPos.x() - m_pressPos.x()) >= QApplication::startDragDistance())
        m_rubberBand = true;
    if (m_rubberBand)
        viewport()->update();
}

void TimelineView::mouseReleaseEvent(QMouseEvent* event)
{
    if (!m_pressed || event->button() != Qt::LeftButton)
        return;
    m_pressed = false;
    if (m_rubberBand) {
        m_rubberBand = false;
        const int x0 = std::min(m_pressPos.x(), m_dragPos.x()) - m_geo.plotLeft();
        const int x1 = std::max(m_pressPos.x(), m_dragPos.x()) - m_geo.plotLeft();
        if (x1 - x0 >= 2)
            setVisibleRange(m_mapping.mapXToTime(x0), m_mapping.mapXToTime(x1));
        viewport()->update();
        return;
    }
    const int e = eventAt(event->position().toPoint());
    if (e >= 0)
        selectEvent(e);
}

} // namespace rankscope
