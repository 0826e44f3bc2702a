// SPDX-License-Identifier: MIT
#include "timeline_view.h"

#include "timeline_axis.h"

#include <QEvent>
#include <QKeyEvent>
#include <QPainter>
#include <QScrollBar>
#include <algorithm>
#include <climits>
#include <numeric>

namespace rankscope {

namespace {

constexpr qint64 kMinClockSpanMs = 60000; // Home shows at least a minute around the initiating event
constexpr qint64 kMinLineSpan = 200; // ... or, without times, at least this many lines

} // namespace

TimelineView::TimelineView(QWidget* parent)
    : QAbstractScrollArea(parent)
{
    setFocusPolicy(Qt::StrongFocus);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    viewport()->setAttribute(Qt::WA_OpaquePaintEvent);
    setMinimumSize(fontMetrics().averageCharWidth() * 40, fontMetrics().height() * 8);
    m_strip = new TimelineOverviewStrip(this);
    connect(m_strip, &TimelineOverviewStrip::laneRequested, this, &TimelineView::scrollToLane);
    updateLayout();
}

void TimelineView::scrollToLane(int lane)
{
    if (lane < 0 || lane >= m_model.laneCount())
        return;
    if (m_model.rowOfLane(lane) < 0 && m_model.laneShown(lane)) { // inside a collapsed host: open it
        m_model.setCollapsed(m_model.lane(lane).host, false);
        updateLayout();
    }
    scrollToRow(m_model.rowOfLane(lane));
}

void TimelineView::refreshStrip()
{
    const int h = TimelineOverviewStrip::preferredHeight(m_model.laneCount());
    setViewportMargins(0, h, 0, 0);
    m_strip->setGeometry(frameWidth(), frameWidth(), viewport()->width(), h);
    m_strip->setModel(&m_model);
}

void TimelineView::setIncident(const Incident* incident, const TimelineRoles& roles)
{
    TimelineModel model;
    model.setIncident(incident, roles);
    setModel(std::move(model));
}

void TimelineView::setModel(TimelineModel model)
{
    m_model = std::move(model);
    m_selected = -1;
    measureLabels();
    refreshStrip();
    updateLayout();
    m_mapping = TimelineMapping {};
    m_mapping.width = m_geo.plotWidth();
    if (m_model.axis() == TimelineAxis::LineOrder)
        m_mapping.useLineUnits();
    if (m_model.hasTimes())
        m_mapping.setDataRange(m_model.firstTime(), m_model.lastTime());
    else
        m_mapping.setDataRange(0, 1000);
    zoomToInitiating();
}

void TimelineView::measureLabels()
{
    const QFontMetrics fm(font());
    QFont bold = font();
    bold.setBold(true);
    const QFontMetrics boldFm(bold);
    int widest = fm.horizontalAdvance(QStringLiteral("rank 000 · gpu-a00"));
    // Thousands of lanes: measure only the labels with the most characters (they are all alike).
    constexpr size_t kMeasured = 48;
    std::vector<int> lanes(static_cast<size_t>(m_model.laneCount()));
    std::iota(lanes.begin(), lanes.end(), 0);
    const auto weight = [this](int l) {
        return m_model.lane(l).label.size() + (m_model.lane(l).suspect ? 12 : 0);
    };
    if (lanes.size() > kMeasured) {
        std::nth_element(lanes.begin(), lanes.begin() + kMeasured, lanes.end(),
            [&](int a, int b) { return weight(a) > weight(b); });
        lanes.resize(kMeasured);
    }
    for (int l : lanes) {
        const TimelineLane& lane = m_model.lane(l);
        int w = fm.horizontalAdvance(lane.label)
            + (lane.kind == TimelineRowKind::Rank || !lane.host.isEmpty() ? fm.averageCharWidth() * 3 : 0);
        if (lane.suspect)
            w += fm.horizontalAdvance(QStringLiteral("suspect")) + fm.averageCharWidth() + 4;
        widest = std::max(widest, w);
    }
    for (int g = 0; g < m_model.groupCount(); ++g)
        widest = std::max(widest,
            boldFm.horizontalAdvance(
                QStringLiteral("▾ ") + m_model.groupLabel(g) + QStringLiteral("  (0000 ranks)")));
    m_labelWidth = widest + fm.averageCharWidth() * 2;
}

void TimelineView::updateLayout()
{
    const QFontMetrics fm(font());
    m_geo.viewport = viewport()->rect();
    m_geo.rowHeight = fm.height() + 4;
    m_geo.axisHeight = 3 * fm.height() + 10; // absolute time, offset, marker label band
    // The lane names get at most a fifth of the view: the time area is what the view is
    // for (with 40 % it got about a quarter of a scaled-2 window). Longer names shorten to fit
    // (TimelinePainter::laneLabel), and the tooltip has them whole.
    m_geo.gutterWidth = std::clamp(m_labelWidth, fm.averageCharWidth() * 12,
        std::max(fm.averageCharWidth() * 12, m_geo.viewport.width() / 5));
    m_mapping.width = m_geo.plotWidth();
    if (m_strip) {
        m_strip->setGeometry(frameWidth(), frameWidth(), viewport()->width(), m_strip->height());
        m_strip->setPlotArea(m_geo.plotLeft(), m_geo.plotWidth());
    }
    const int page = std::max(0, m_geo.viewport.height() - m_geo.axisHeight);
    QScrollBar* bar = verticalScrollBar();
    bar->setRange(0, std::max(0, m_model.rowCount() * m_geo.rowHeight - page));
    bar->setPageStep(page);
    bar->setSingleStep(m_geo.rowHeight);
    m_geo.scrollY = bar->value();
    viewport()->update();
}

void TimelineView::setHostCollapsed(const QString& host, bool collapsed)
{
    m_model.setCollapsed(host, collapsed);
    updateLayout();
}

void TimelineView::setHostFilter(const QString& host)
{
    m_model.setHostFilter(host);
    m_strip->setModel(&m_model);
    updateLayout();
}

void TimelineView::setWarnOnly(bool warnOnly)
{
    m_model.setWarnOnly(warnOnly);
    m_strip->setModel(&m_model);
    updateLayout();
}

void TimelineView::setTextFilter(const QString& text)
{
    m_model.setTextFilter(text);
    m_strip->setModel(&m_model);
    updateLayout();
}

void TimelineView::setVisibleRange(qint64 start, qint64 end)
{
    m_mapping.setWindow(start, end);
    rangeChanged();
}

void TimelineView::rangeChanged()
{
    viewport()->update();
    m_strip->setVisibleWindow(m_mapping);
    Q_EMIT visibleRangeChanged(m_mapping.start, m_mapping.end);
}

qint64 TimelineView::zoomAnchor(qint64 fallback) const
{
    // Zooming must not lose the answer: while the initiating event is on screen, it keeps its column.
    const int ev = m_model.roles().initiatingEvent;
    if (m_model.isPlaced(ev)) {
        const qint64 t = m_model.eventTime(ev);
        if (t >= m_mapping.start && t <= m_mapping.end)
            return t;
    }
    return fallback;
}

void TimelineView::zoomIn()
{
    m_mapping.zoom(0.5, zoomAnchor(m_mapping.start + m_mapping.span() / 2));
    rangeChanged();
}

void TimelineView::zoomOut()
{
    m_mapping.zoom(2.0, zoomAnchor(m_mapping.start + m_mapping.span() / 2));
    rangeChanged();
}

void TimelineView::panLeft()
{
    m_mapping.pan(-m_mapping.span() / 4);
    rangeChanged();
}

void TimelineView::panRight()
{
    m_mapping.pan(m_mapping.span() / 4);
    rangeChanged();
}

void TimelineView::fitAll()
{
    m_mapping.fitAll();
    rangeChanged();
}

void TimelineView::zoomToInitiating()
{
    const int ev = m_model.roles().initiatingEvent;
    if (!m_model.isPlaced(ev)) {
        fitAll();
        return;
    }
    // Enough context to see what came before and what followed: a twentieth of the job, at least a
    // minute, or on a line-order axis at least a screenful of lines.
    const bool lines = m_model.axis() == TimelineAxis::LineOrder;
    const qint64 span = std::max<qint64>(
        lines ? kMinLineSpan : kMinClockSpanMs, (m_mapping.dataEnd - m_mapping.dataStart) / 20);
    m_mapping.centerOn(m_model.eventTime(ev), span);
    scrollToRow(m_model.rowOfLane(m_model.laneOfEvent(ev)));
    rangeChanged();
}

void TimelineView::selectEvent(int event)
{
    const Incident* inc = m_model.incident();
    if (!inc || event < 0 || static_cast<size_t>(event) >= inc->events.size())
        event = -1;
    const bool changed = event != m_selected;
    m_selected = event;
    if (event >= 0) {
        const int lane = m_model.laneOfEvent(event);
        if (m_model.rowOfLane(lane) < 0 && m_model.laneShown(lane)) { // inside a collapsed host: open it
            m_model.setCollapsed(m_model.lane(lane).host, false);
            updateLayout();
        }
        if (m_model.isPlaced(event)) {
            const qint64 t = m_model.eventTime(event);
            if (t < m_mapping.start || t > m_mapping.end) {
                m_mapping.centerOn(t, m_mapping.span());
                rangeChanged();
            }
        }
        scrollToRow(m_model.rowOfLane(lane));
    }
    viewport()->update();
    if (changed && event >= 0)
        Q_EMIT eventSelected(event);
}

void TimelineView::selectNextWarn()
{
    const bool from =
        m_selected >= 0 && m_model.incident()->events[static_cast<size_t>(m_selected)].time.valid;
    const int e = from ? m_model.nextWarnEvent(m_model.eventTime(m_selected), m_selected)
                       : m_model.nextWarnEvent(m_mapping.start - 1, INT_MAX);
    if (e >= 0)
        selectEvent(e);
}

void TimelineView::selectPreviousWarn()
{
    const bool from =
        m_selected >= 0 && m_model.incident()->events[static_cast<size_t>(m_selected)].time.valid;
    const int e = from ? m_model.previousWarnEvent(m_model.eventTime(m_selected), m_selected)
                       : m_model.previousWarnEvent(m_mapping.end + 1, -1);
    if (e >= 0)
        selectEvent(e);
}

void TimelineView::scrollToRow(int row)
{
    if (row < 0)
        return;
    const int page = verticalScrollBar()->pageStep();
    const int y = row * m_geo.rowHeight;
    QScrollBar* bar = verticalScrollBar();
    if (y < bar->value() || y + m_geo.rowHeight > bar->value() + page)
        bar->setValue(y - page / 2 + m_geo.rowHeight / 2);
    m_geo.scrollY = bar->value();
}

void TimelineView::scrollContentsBy(int, int)
{
    m_geo.scrollY = verticalScrollBar()->value();
    viewport()->update();
}

int TimelineView::xForTime(qint64 ms) const
{
    return TimelinePainter(m_model, m_mapping, m_geo, palette()).xOf(ms);
}

void TimelineView::paintEvent(QPaintEvent*)
{
    QPainter painter(viewport());
    painter.setFont(font());
    const QPalette pal = palette();
    painter.fillRect(m_geo.viewport, pal.color(QPalette::Base));
    if (!m_model.incident()) {
        painter.setPen(pal.color(QPalette::PlaceholderText));
        painter.drawText(m_geo.viewport, Qt::AlignCenter, tr("No incident loaded"));
        return;
    }
    TimelinePainter tp(m_model, m_mapping, m_geo, pal);
    tp.paintRows(painter, m_selected);
    painter.fillRect(QRect(0, 0, m_geo.viewport.width(), m_geo.axisHeight), pal.color(QPalette::Window));
    const int ev = m_model.roles().initiatingEvent;
    const bool lines = m_model.axis() == TimelineAxis::LineOrder;
    const bool hasRef = m_model.isPlaced(ev);
    const QRect axisRect(m_geo.plotLeft(), 0, m_geo.plotWidth() + 4, m_geo.axisHeight);
    if (lines)
        paintLineAxis(painter, axisRect, m_mapping, hasRef ? m_model.eventTime(ev) : -1, pal);
    else
        paintTimeAxis(painter, axisRect, m_mapping, hasRef ? m_model.eventTime(ev) : -1, pal);
    painter.setPen(pal.color(QPalette::PlaceholderText));
    const QFontMetrics fm(font());
    painter.drawText(QRect(4, 2, m_geo.gutterWidth - 8, fm.height()), Qt::AlignLeft,
        lines ? tr("line (no times in the log)") : tr("time (UTC)"));
    if (hasRef)
        painter.drawText(QRect(4, 2 + fm.height(), m_geo.gutterWidth - 8, fm.height()), Qt::AlignLeft,
            tr("from initiating"));
    tp.paintSelectionRing(painter, m_selected);
    tp.paintInitiatingMarker(painter);
    if (m_rubberBand) {
        QColor fill = pal.color(QPalette::Highlight);
        fill.setAlpha(60);
        const int x0 = std::min(m_pressPos.x(), m_dragPos.x());
        const int x1 = std::max(m_pressPos.x(), m_dragPos.x());
        painter.fillRect(QRect(x0, m_geo.axisHeight, x1 - x0, m_geo.viewport.height()), fill);
    }
}

void TimelineView::resizeEvent(QResizeEvent* event)
{
    QAbstractScrollArea::resizeEvent(event);
    updateLayout();
}

void TimelineView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::FontChange || event->type() == QEvent::PaletteChange) {
        measureLabels();
        updateLayout();
    }
    QAbstractScrollArea::changeEvent(event);
}

void TimelineView::keyPressEvent(QKeyEvent* event)
{
    switch (event->key()) {
    case Qt::Key_W:
        zoomIn();
        break;
    case Qt::Key_S:
        zoomOut();
        break;
    case Qt::Key_A:
        panLeft();
        break;
    case Qt::Key_D:
        panRight();
        break;
    case Qt::Key_F:
        fitAll();
        break;
    case Qt::Key_Home:
        zoomToInitiating();
        break;
    case Qt::Key_N:
        selectNextWarn();
        break;
    case Qt::Key_P:
        selectPreviousWarn();
        break;
    default:
        QAbstractScrollArea::keyPressEvent(event);
        return;
    }
    event->accept();
}

} // namespace rankscope
