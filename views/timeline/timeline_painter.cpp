// SPDX-License-Identifier: MIT
#include "timeline_painter.h"

#include "severity_palette.h"

#include <QDateTime>
#include <QFontMetrics>
#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <array>
#include <cmath>

namespace rankscope {

int TimelineGeometry::rowAt(int y, int rowCount) const
{
    if (y < axisHeight || rowHeight <= 0)
        return -1;
    const int row = (y - axisHeight + scrollY) / rowHeight;
    return row < rowCount ? row : -1;
}

TimelinePainter::TimelinePainter(const TimelineModel& model, const TimelineMapping& mapping,
    const TimelineGeometry& geometry, const QPalette& palette)
    : m_model(model)
    , m_mapping(mapping)
    , m_geo(geometry)
    , m_palette(palette)
{
}

int TimelinePainter::xOf(qint64 ms) const
{
    return m_geo.plotLeft() + static_cast<int>(std::floor(m_mapping.mapTimeToX(ms)));
}

void TimelinePainter::paintRows(QPainter& painter, int selectedEvent)
{
    const int plotHeight = m_geo.viewport.height() - m_geo.axisHeight;
    painter.save();
    painter.setClipRect(0, m_geo.axisHeight, m_geo.viewport.width(), plotHeight);
    painter.setRenderHint(QPainter::Antialiasing, false);
    // Only the rows intersecting the viewport are touched.
    const int first = qMax(0, m_geo.scrollY / qMax(1, m_geo.rowHeight));
    const int last = qMin(m_model.rowCount() - 1, (m_geo.scrollY + plotHeight) / qMax(1, m_geo.rowHeight));
    for (int r = first; r <= last; ++r) {
        const int top = m_geo.rowTop(r);
        if (m_model.row(r).kind == TimelineRowKind::HostHeader)
            paintHeaderRow(painter, r, top);
        else
            paintLaneRow(painter, r, top, selectedEvent);
    }
    painter.setPen(m_palette.color(QPalette::Mid));
    painter.drawLine(m_geo.gutterWidth - 1, m_geo.axisHeight, m_geo.gutterWidth - 1, m_geo.viewport.bottom());
    painter.restore();
}

QString TimelinePainter::headerLabel(int row, const QFontMetrics& fm) const
{
    const int g = m_model.row(row).group;
    const TimelineHostGroup& group = m_model.group(g);
    const bool collapsed = m_model.isCollapsed(group.host);
    const int shown = m_model.groupShownLanes(g);
    const bool onlyRanks = std::all_of(group.lanes.begin(), group.lanes.end(),
        [this](int l) { return m_model.lane(l).kind == TimelineRowKind::Rank; });
    const QString noun = onlyRanks ? QStringLiteral("rank") : QStringLiteral("lane");
    const QString head = (collapsed ? QStringLiteral("▸ ") : QStringLiteral("▾ ")) + m_model.groupLabel(g);
    const QString text = head
        + QStringLiteral("  (%1 %2%3)").arg(shown).arg(noun, shown == 1 ? QString() : QStringLiteral("s"));
    // Narrow, the count goes first and the host stays ("▾ gpu-… rank)" named no host at all).
    const int width = m_geo.gutterWidth - 8;
    return fm.horizontalAdvance(text) <= width ? text : fm.elidedText(head, Qt::ElideMiddle, width);
}

void TimelinePainter::paintHeaderRow(QPainter& painter, int row, int top)
{
    const int g = m_model.row(row).group;
    const TimelineHostGroup& group = m_model.group(g);
    const bool collapsed = m_model.isCollapsed(group.host);
    painter.fillRect(
        QRect(0, top, m_geo.viewport.width(), m_geo.rowHeight), m_palette.color(QPalette::Button));
    const QFont plain = painter.font();
    QFont bold = plain;
    bold.setBold(true);
    painter.setFont(bold);
    painter.setPen(m_palette.color(QPalette::ButtonText));
    const int width = m_geo.gutterWidth - 8;
    painter.drawText(QRect(4, top, width, m_geo.rowHeight), Qt::AlignVCenter | Qt::AlignLeft,
        headerLabel(row, QFontMetrics(bold)));
    painter.setFont(plain);
    if (!collapsed)
        return;
    // A collapsed host shows the union of its ranks' strokes.
    m_bins.assign(static_cast<size_t>(m_mapping.width), PixelBin {});
    for (int l : group.lanes) {
        if (!m_model.laneShown(l))
            continue;
        binLane(m_model.lane(l), m_mapping, -1, m_laneBins);
        for (size_t c = 0; c < m_bins.size(); ++c) {
            m_bins[c].severity = qMax(m_bins[c].severity, m_laneBins[c].severity);
            m_bins[c].flags |= m_laneBins[c].flags;
        }
    }
    paintBins(painter, top, false);
}

void TimelinePainter::paintLaneRow(QPainter& painter, int row, int top, int selectedEvent)
{
    const TimelineLane& lane = m_model.lane(m_model.row(row).lane);
    const QRect rowRect(0, top, m_geo.viewport.width(), m_geo.rowHeight);
    if (row % 2)
        painter.fillRect(rowRect, m_palette.color(QPalette::AlternateBase));
    if (lane.inferredOnly) { // a lighter tint: these times are guesses
        QColor tint = m_palette.color(QPalette::Mid);
        tint.setAlpha(40);
        painter.fillRect(rowRect, tint);
    }
    if (lane.suspect) { // hatched: the diagnosis points here
        QColor hatch = initiatingColor(m_palette);
        hatch.setAlpha(60);
        painter.fillRect(rowRect, QBrush(hatch, Qt::BDiagPattern));
    }
    // Gutter: label, then the "suspect" badge at its right end.
    const QFontMetrics fm(painter.font());
    if (lane.suspect) {
        const QString badge = QStringLiteral("suspect");
        const int w = fm.horizontalAdvance(badge) + fm.averageCharWidth();
        const QRect box(m_geo.gutterWidth - 6 - w, top + 1, w, m_geo.rowHeight - 2);
        const ColorPair colors = initiatingBadge(m_palette);
        painter.fillRect(box, colors.background);
        painter.setPen(colors.text);
        painter.drawText(box, Qt::AlignCenter, badge);
    }
    const int indent = laneLabelIndent(row, fm);
    QFont font = painter.font();
    const QFont plain = font;
    font.setItalic(lane.inferredOnly);
    painter.setFont(font);
    painter.setPen(m_palette.color(lane.inferredOnly ? QPalette::PlaceholderText : QPalette::Text));
    const QString elided = laneLabel(row, QFontMetrics(font));
    painter.drawText(QRect(indent, top, qMax(0, laneLabelRight(row, fm) - indent), m_geo.rowHeight),
        Qt::AlignVCenter | Qt::AlignLeft, elided);
    if (lane.inferredOnly) { // dashed underline: "inferred times"
        QPen dash(m_palette.color(QPalette::PlaceholderText), 1, Qt::DashLine);
        painter.setPen(dash);
        const int y = top + m_geo.rowHeight - 2;
        painter.drawLine(indent, y, indent + QFontMetrics(font).horizontalAdvance(elided), y);
    }
    painter.setFont(plain);
    binLane(lane, m_mapping, selectedEvent, m_bins);
    paintBins(painter, top, lane.inferredOnly);
    paintRoleMarkers(painter, top);
}

int TimelinePainter::laneLabelIndent(int row, const QFontMetrics& fm) const
{
    return m_model.row(row).kind == TimelineRowKind::Rank ? fm.averageCharWidth() * 3 : 4; // under a header
}

int TimelinePainter::laneLabelRight(int row, const QFontMetrics& fm) const
{
    const TimelineLane& lane = m_model.lane(m_model.row(row).lane);
    const int right = m_geo.gutterWidth - 6;
    if (!lane.suspect)
        return right;
    return right - fm.horizontalAdvance(QStringLiteral("suspect")) - fm.averageCharWidth() - 4;
}

QString TimelinePainter::laneLabel(int row, const QFontMetrics& fm) const
{
    const TimelineLane& lane = m_model.lane(m_model.row(row).lane);
    const int width = qMax(0, laneLabelRight(row, fm) - laneLabelIndent(row, fm));
    const QString untimed =
        lane.untimedEvents > 0 ? QStringLiteral(" (+%1 untimed)").arg(lane.untimedEvents) : QString();
    QString label = lane.label;
    if (lane.kind == TimelineRowKind::Rank && !lane.host.isEmpty())
        label.remove(QStringLiteral(" · ") + lane.host); // the host group's header above names it
    // The whole label when it fits; else, for a file's lane, its path without "unattributed:", then the
    // fewest trailing parts that tell it from the other files' lanes (the host folder or file name, not
    // the shared start of the paths), then from where they differ ("…a01.console.log"). The last one
    // tried is elided: at its end when it starts where the names differ, else in the middle.
    QStringList candidates { label + untimed };
    for (const QString& s : lane.shortLabels)
        candidates << s + untimed;
    for (const QString& c : std::as_const(candidates))
        if (fm.horizontalAdvance(c) <= width)
            return c;
    // A rank's label keeps its start ("rank 7 · GP…"): in the middle, the rank number went first.
    const QString& last = candidates.last();
    const bool keepStart = last.startsWith(QChar(0x2026)) || lane.rank >= 0;
    return fm.elidedText(last, keepStart ? Qt::ElideRight : Qt::ElideMiddle, width);
}

int TimelinePainter::markerSize() const
{
    return qMax(kMinMarkerPixels, m_geo.rowHeight - 6);
}

void TimelinePainter::paintRoleMarkers(QPainter& painter, int top)
{
    // A shape per role over the strokes, at most one per marker width so they stay apart and hittable:
    // cause a filled diamond, collateral a hollow diamond, symptom a triangle. The initiating event has
    // its own ring and line (paintInitiatingMarker); context lines stay plain strokes.
    const int size = markerSize();
    const double half = size / 2.0;
    const double cy = top + m_geo.rowHeight / 2.0;
    QPainterPath cause, collateral, symptom;
    // Each shape a closed subpath of its own: addPolygon() leaves a subpath open, and a stroked open
    // diamond lacks its last edge (the hollow collateral diamond was drawn with three).
    const auto addClosed = [](QPainterPath& path, const QPolygonF& shape) {
        path.addPolygon(shape);
        path.closeSubpath();
    };
    int lastMarker = -size;
    for (size_t c = 0; c < m_bins.size(); ++c) {
        const MarkerRole role = m_bins[c].role();
        if (role == MarkerRole::Initiating || role == MarkerRole::None)
            continue;
        const int col = static_cast<int>(c);
        if (col - lastMarker < size)
            continue;
        lastMarker = col;
        const double cx = m_geo.plotLeft() + col + 0.5;
        const QPolygonF diamond({ QPointF(cx, cy - half), QPointF(cx + half, cy), QPointF(cx, cy + half),
            QPointF(cx - half, cy) });
        if (role == MarkerRole::Cause)
            addClosed(cause, diamond);
        else if (role == MarkerRole::Collateral)
            addClosed(collateral, diamond);
        else
            addClosed(symptom,
                QPolygonF({ QPointF(cx, cy - half), QPointF(cx + half, cy + half),
                    QPointF(cx - half, cy + half) }));
    }
    if (cause.isEmpty() && collateral.isEmpty() && symptom.isEmpty())
        return;
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setPen(QPen(m_palette.color(QPalette::Base), 1));
    painter.setBrush(severityColor(Severity::Error, m_palette));
    painter.drawPath(cause);
    painter.setBrush(severityColor(Severity::Warn, m_palette));
    painter.drawPath(symptom);
    painter.setPen(QPen(collateralColor(m_palette), 2));
    painter.setBrush(m_palette.color(QPalette::Base));
    painter.drawPath(collateral);
    painter.restore();
}

void TimelinePainter::paintBins(QPainter& painter, int top, bool dim)
{
    // One list per colour, one drawRects call per list: at most one primitive per column.
    auto& bySeverity = m_bySeverity;
    auto& collateral = m_collateral;
    for (auto& list : bySeverity)
        list.clear();
    collateral.clear();
    const int h = qMax(2, m_geo.rowHeight - 4);
    const int y = top + 2;
    const int left = m_geo.plotLeft();
    // An isolated event would be a 1-pixel hairline: widen it into its empty neighbour columns.
    auto empty = [this](size_t c) {
        return c >= m_bins.size() || (m_bins[c].severity < 0 && !(m_bins[c].flags & BinFlag::Collateral));
    };
    for (size_t c = 0; c < m_bins.size(); ++c) {
        const PixelBin& bin = m_bins[c];
        const bool alone = (c == 0 || empty(c - 1)) && empty(c + 1);
        const int x = left + static_cast<int>(c) - (alone ? 1 : 0);
        const int w = alone ? 3 : 1;
        if (bin.severity >= 0) {
            const auto sev = static_cast<size_t>(static_cast<quint8>(bin.severity)); // >= 0 here
            // INFO strokes are half height so that problems stand out.
            if (sev == 0)
                bySeverity[0].push_back(QRect(x, y + h / 4, w, qMax(1, h / 2)));
            else
                bySeverity[sev].push_back(QRect(x, y, w, h));
        } else if (bin.flags & BinFlag::Collateral) {
            // Hollow: only the ends of the stroke, so collateral reads as "consequence".
            collateral.push_back(QRect(x, y, w, qMax(1, h / 3)));
            collateral.push_back(QRect(x, y + h - qMax(1, h / 3), w, qMax(1, h / 3)));
        } else if (bin.repeats >= 0 && !(c > 0 && m_bins[c - 1].severity >= 0 && (c == 1 || empty(c - 2)))) {
            // Repeats folded into the event before: a thin line through the columns they ran through (not
            // the column an event left alone was widened into).
            const auto sev = static_cast<size_t>(static_cast<quint8>(bin.repeats));
            bySeverity[sev].push_back(QRect(left + static_cast<int>(c), y + h / 2 - 1, 1, 2));
        }
    }
    painter.setPen(Qt::NoPen);
    for (size_t s = 0; s < bySeverity.size(); ++s) {
        if (bySeverity[s].isEmpty())
            continue;
        QColor color = severityColor(static_cast<Severity>(s), m_palette);
        if (dim)
            color.setAlpha(130);
        painter.setBrush(color);
        painter.drawRects(bySeverity[s]);
    }
    if (!collateral.isEmpty()) {
        painter.setBrush(collateralColor(m_palette));
        painter.drawRects(collateral);
    }
    painter.setBrush(Qt::NoBrush);
}

void TimelinePainter::ring(QPainter& painter, int x, int yCenter, const QColor& color, int width)
{
    const int r = qMax(3, m_geo.rowHeight / 2);
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setPen(QPen(color, width));
    painter.setBrush(Qt::NoBrush);
    painter.drawEllipse(QPointF(x + 0.5, yCenter), r, r);
    painter.restore();
}

void TimelinePainter::paintSelectionRing(QPainter& painter, int selectedEvent)
{
    const int row = m_model.rowOfLane(m_model.laneOfEvent(selectedEvent));
    if (row < 0 || !m_model.isPlaced(selectedEvent))
        return;
    const int x = xOf(m_model.eventTime(selectedEvent));
    if (x < m_geo.plotLeft() || x >= m_geo.plotLeft() + m_geo.plotWidth())
        return;
    painter.save();
    painter.setClipRect(m_geo.plotLeft(), m_geo.axisHeight, m_geo.plotWidth() + 4, m_geo.viewport.height());
    ring(painter, x, m_geo.rowTop(row) + m_geo.rowHeight / 2, m_palette.color(QPalette::Highlight), 2);
    painter.restore();
}
} // namespace rankscope
