// SPDX-License-Identifier: MIT
// TimelinePainter: the initiating-event marker (line across the view, label box, ring).
#include "severity_palette.h"
#include "timeline_painter.h"

#include <QDateTime>
#include <QFileInfo>
#include <QFontMetrics>
#include <QPainter>
#include <algorithm>

namespace rankscope {

void TimelinePainter::paintInitiatingMarker(QPainter& painter)
{
    const int ev = m_model.roles().initiatingEvent;
    if (!m_model.isPlaced(ev))
        return;
    const LogEvent& e = m_model.incident()->events[static_cast<size_t>(ev)];
    const QFontMetrics fm(painter.font());
    const TimelineLane& lane = m_model.lane(m_model.laneOfEvent(ev));
    QString who = e.rank >= 0 ? QStringLiteral("rank %1").arg(e.rank) : lane.label;
    if (lane.kind == TimelineRowKind::Unattributed && e.file >= 0) // the file's name, not its whole path
        who = QFileInfo(m_model.incident()->files[static_cast<size_t>(e.file)].displayPath).fileName();
    const QString when = m_model.axis() == TimelineAxis::LineOrder
        ? QStringLiteral("line %1").arg(e.line)
        : QDateTime::fromMSecsSinceEpoch(e.time.ms, Qt::UTC).toString(QStringLiteral("HH:mm:ss"));
    QString text = QStringLiteral("initiating: %1 %2 %3").arg(who, severityName(e.severity), when);
    const int x = xOf(m_model.eventTime(ev));
    const int plotRight = m_geo.plotLeft() + m_geo.plotWidth();
    const bool inside = x >= m_geo.plotLeft() && x < plotRight;
    if (!inside) // off screen: say where it is
        text = x < m_geo.plotLeft() ? QStringLiteral("◂ ") + text : text + QStringLiteral(" ▸");
    const int bandTop = m_geo.axisHeight - fm.height() - 4;
    const int w = fm.horizontalAdvance(text) + fm.averageCharWidth() * 2;
    int boxLeft = inside ? x + 3 : (x < m_geo.plotLeft() ? m_geo.plotLeft() : plotRight - w);
    if (inside && boxLeft + w > plotRight)
        boxLeft = x - 3 - w; // flip to the left of the line near the right edge
    boxLeft = std::max(boxLeft, m_geo.plotLeft()); // never over the lane names
    const QRect box(boxLeft, bandTop, w, fm.height() + 2);

    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, false);
    const ColorPair badge = initiatingBadge(m_palette);
    const QColor color = badge.background;
    if (inside) {
        const int lineWidth = qMax(2, fm.height() / 8); // a filled rect: the line's pixels must include x
        painter.fillRect(
            QRect(x - (lineWidth - 1) / 2, bandTop, lineWidth, m_geo.viewport.bottom() - bandTop + 1), color);
    }
    painter.fillRect(box, color);
    painter.setPen(badge.text);
    painter.drawText(box, Qt::AlignCenter, text);
    const int row = m_model.rowOfLane(m_model.laneOfEvent(ev));
    const int top = row >= 0 ? m_geo.rowTop(row) : -1;
    if (inside && row >= 0 && top + m_geo.rowHeight > m_geo.axisHeight) {
        painter.setClipRect(
            m_geo.plotLeft(), m_geo.axisHeight, m_geo.plotWidth() + 4, m_geo.viewport.height());
        ring(painter, x, top + m_geo.rowHeight / 2, color, qMax(2, fm.height() / 8));
    }
    painter.restore();
}

} // namespace rankscope
