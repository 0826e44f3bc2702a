// SPDX-License-Identifier: MIT
#include "timeline_overview_strip.h"

#include "severity_palette.h"

#include <QDateTime>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>

namespace rankscope {

namespace {

constexpr int kMaxStripRows = 48; // pixel rows for lanes; more lanes share rows
constexpr int kMaxRowPixels = 6; // a lane's row height when there are few lanes
constexpr int kMargin = 2;

QColor mix(const QColor& a, const QColor& b, float t)
{
    return QColor::fromRgbF(a.redF() + (b.redF() - a.redF()) * t, a.greenF() + (b.greenF() - a.greenF()) * t,
        a.blueF() + (b.blueF() - a.blueF()) * t);
}

} // namespace

TimelineOverviewStrip::TimelineOverviewStrip(QWidget* parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setCursor(Qt::PointingHandCursor);
    setToolTip(tr("Every lane at once: the mark is its first WARN (red earliest, amber latest); a bar that "
                  "stops early went quiet. Click to scroll to that lane."));
}

int TimelineOverviewStrip::preferredHeight(int lanes)
{
    const int perLane = std::clamp(kMaxStripRows / std::max(lanes, 1), 1, kMaxRowPixels);
    return std::min(std::max(lanes, 1) * perLane, kMaxStripRows) + 2 * kMargin;
}

void TimelineOverviewStrip::setModel(const TimelineModel* model)
{
    m_model = model;
    rebuild();
}

void TimelineOverviewStrip::setVisibleWindow(const TimelineMapping& mapping)
{
    m_windowStart = mapping.start;
    m_windowEnd = mapping.end;
    update();
}

void TimelineOverviewStrip::setPlotArea(int left, int width)
{
    m_plotLeft = left;
    m_plotWidth = std::max(width, 1);
    update();
}

void TimelineOverviewStrip::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    rebuild();
}

void TimelineOverviewStrip::rebuild()
{
    const int pixelRows = std::max(1, std::min(height() - 2 * kMargin, kMaxStripRows));
    m_overview = m_model ? buildTimelineOverview(*m_model, pixelRows) : TimelineOverview {};
    update();
}

int TimelineOverviewStrip::xOf(qint64 t) const
{
    const qint64 span = std::max<qint64>(m_overview.end - m_overview.start, 1);
    return m_plotLeft + static_cast<int>((t - m_overview.start) * m_plotWidth / span);
}

int TimelineOverviewStrip::yOfRow(int row) const
{
    const auto rows = static_cast<int>(m_overview.rows.size());
    return rows == 0 ? -1 : kMargin + row * (height() - 2 * kMargin) / rows;
}

int TimelineOverviewStrip::rowAt(int y) const
{
    const auto rows = static_cast<int>(m_overview.rows.size());
    const int inner = height() - 2 * kMargin;
    if (rows == 0 || y < kMargin || y >= kMargin + inner)
        return -1;
    return std::clamp((y - kMargin) * rows / std::max(inner, 1), 0, rows - 1);
}

void TimelineOverviewStrip::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    const QPalette& pal = palette();
    painter.fillRect(rect(), pal.color(QPalette::Window));
    const auto rows = static_cast<int>(m_overview.rows.size());
    if (rows == 0)
        return;
    const QColor early = initiatingColor(pal);
    const QColor late = severityColor(Severity::Warn, pal);
    QColor bar = pal.color(QPalette::Mid);
    bar.setAlpha(110);
    const double warnSpan =
        static_cast<double>(std::max<qint64>(m_overview.lastWarn - m_overview.firstWarn, 1));
    for (int r = 0; r < rows; ++r) {
        const OverviewRow& row = m_overview.rows[static_cast<size_t>(r)];
        const int y = yOfRow(r);
        const int rowH = r + 1 < rows ? std::max(1, yOfRow(r + 1) - y) : std::max(1, height() - kMargin - y);
        if (row.lastSeen >= 0)
            painter.fillRect(QRect(m_plotLeft, y, std::max(1, xOf(row.lastSeen) - m_plotLeft), rowH), bar);
        if (row.quiet) // where it went quiet: a dark cap at its last line
            painter.fillRect(QRect(xOf(row.lastSeen), y, 2, rowH), pal.color(QPalette::WindowText));
        if (row.firstWarn >= 0) {
            const double t = static_cast<double>(row.firstWarn - m_overview.firstWarn) / warnSpan;
            painter.fillRect(QRect(xOf(row.firstWarn) - 1, y, 3, rowH),
                mix(early, late, static_cast<float>(std::clamp(t, 0.0, 1.0))));
        }
        if (row.initiating)
            painter.fillRect(QRect(m_plotLeft - 4, y, 3, rowH), early);
    }
    if (m_windowEnd > m_windowStart) { // the lanes' visible window
        const int x0 = std::clamp(xOf(m_windowStart), m_plotLeft, m_plotLeft + m_plotWidth);
        const int x1 = std::clamp(xOf(m_windowEnd), m_plotLeft, m_plotLeft + m_plotWidth);
        painter.setPen(QPen(pal.color(QPalette::Highlight), 1));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(QRect(x0, 0, std::max(2, x1 - x0), height() - 1));
    }
    painter.setPen(pal.color(QPalette::PlaceholderText));
    painter.drawText(QRect(4, 0, std::max(0, m_plotLeft - 10), height()), Qt::AlignLeft | Qt::AlignVCenter,
        tr("all %1 lanes").arg(m_model ? m_model->laneCount() : 0));
}

QString TimelineOverviewStrip::tooltipFor(int r) const
{
    const OverviewRow& row = m_overview.rows[static_cast<size_t>(r)];
    if (!m_model || row.lanes.empty())
        return {};
    const bool lines = m_model->axis() == TimelineAxis::LineOrder;
    const auto at = [lines](qint64 t) {
        return lines ? QStringLiteral("line %1").arg(t)
                     : QDateTime::fromMSecsSinceEpoch(t, Qt::UTC).toString(QStringLiteral("HH:mm:ss"));
    };
    QString text = m_model->lane(row.lanes.front()).label;
    if (row.lanes.size() > 1)
        text += tr(" and %1 more").arg(row.lanes.size() - 1);
    text += row.firstWarn >= 0 ? tr("\nfirst WARN or worse: %1").arg(at(row.firstWarn)) : tr("\nno WARN");
    if (row.quiet)
        text += tr("\nwent quiet: last line at %1").arg(at(row.lastSeen));
    return text;
}

bool TimelineOverviewStrip::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int r = rowAt(help->pos().y());
        if (r >= 0)
            QToolTip::showText(help->globalPos(), tooltipFor(r), this);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

void TimelineOverviewStrip::mousePressEvent(QMouseEvent* event)
{
    const int r = rowAt(event->position().toPoint().y());
    if (event->button() == Qt::LeftButton && r >= 0
        && !m_overview.rows[static_cast<size_t>(r)].lanes.empty()) {
        Q_EMIT laneRequested(m_overview.rows[static_cast<size_t>(r)].lanes.front());
        event->accept();
        return;
    }
    QWidget::mousePressEvent(event);
}

} // namespace rankscope
