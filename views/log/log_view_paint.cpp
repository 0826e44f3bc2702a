// SPDX-License-Identifier: MIT
// LogView: painting, scrolling, keyboard and mouse.
#include "log_view.h"
#include "severity_palette.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QTextLayout>
#include <QToolTip>
#include <algorithm>
#include <climits>
#include <cmath>
#include <utility>

namespace rankscope {

namespace {
constexpr int kMaxPaintedChars = 4096; // longer lines are painted cut; copy still gets all of it
}

int LogView::lineHeight() const
{
    return fontMetrics().height() + 2;
}

int LogView::badgeWidth() const
{
    return fontMetrics().height();
}

// Left to right: the signature badge column, the line number, a margin. The text starts after it.
int LogView::gutterWidth() const
{
    const int digits = static_cast<int>(QString::number(std::max<qint64>(lineCount(), 1)).size());
    return badgeWidth() + fontMetrics().horizontalAdvance(QLatin1Char('9')) * (digits + 2);
}

QString LogView::badgeToolTip(qint64 line) const
{
    const LogMark* mark = markAt(line);
    if (!mark || mark->title.isEmpty())
        return {};
    return tr("%1 (%2), line %3").arg(mark->title, severityName(mark->severity)).arg(mark->line);
}

bool LogView::viewportEvent(QEvent* event)
{
    // The signature's name is a tooltip over the line's badge or number, never painted over its text.
    if (event->type() == QEvent::ToolTip && m_lines && rowCount() > 0) {
        const auto* help = static_cast<QHelpEvent*>(event);
        const QString tip =
            help->pos().x() < gutterWidth() ? badgeToolTip(lineAtY(help->pos().y())) : QString();
        if (tip.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), tip, viewport());
        return true;
    }
    return QAbstractScrollArea::viewportEvent(event);
}

qint64 LogView::firstVisibleLine() const
{
    return lineOfRow(verticalScrollBar()->value());
}

qint64 LogView::lastVisibleLine() const
{
    const qint64 row = std::min<qint64>(
        rowCount() - 1, verticalScrollBar()->value() + viewport()->height() / lineHeight() - 1);
    return lineOfRow(row);
}

qint64 LogView::lineAtY(int y) const
{
    const qint64 row = verticalScrollBar()->value() + y / lineHeight();
    return lineOfRow(std::clamp<qint64>(row, 0, rowCount() - 1));
}

void LogView::updateScrollBars()
{
    const int page = std::max(1, viewport()->height() / lineHeight());
    // Rows, not pixels: a scroll bar's int range still covers files of billions of lines.
    const qint64 max = std::max<qint64>(0, rowCount() - page);
    verticalScrollBar()->setRange(0, static_cast<int>(std::min<qint64>(max, INT_MAX)));
    verticalScrollBar()->setPageStep(page);
    verticalScrollBar()->setSingleStep(1);
    horizontalScrollBar()->setRange(0, std::max(0, m_maxWidth - (viewport()->width() - gutterWidth()) / 2));
    horizontalScrollBar()->setPageStep(viewport()->width() / 2);
    horizontalScrollBar()->setSingleStep(fontMetrics().averageCharWidth() * 4);
}

void LogView::resizeEvent(QResizeEvent* event)
{
    QAbstractScrollArea::resizeEvent(event);
    updateScrollBars();
}

void LogView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::FontChange)
        updateScrollBars();
    QAbstractScrollArea::changeEvent(event);
}

void LogView::scrollContentsBy(int, int)
{
    viewport()->update();
}

void LogView::paintEvent(QPaintEvent*)
{
    QPainter painter(viewport());
    const QPalette pal = palette();
    painter.fillRect(viewport()->rect(), pal.color(QPalette::Base));
    if (!m_lines) {
        if (std::exchange(m_widthStale, false) && m_maxWidth != 0) {
            m_maxWidth = 0;
            updateScrollBars();
        }
        painter.setPen(pal.color(QPalette::PlaceholderText));
        painter.drawText(viewport()->rect().adjusted(8, 8, -8, -8),
            Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap,
            m_error.isEmpty() ? tr("No file open") : m_error);
        return;
    }
    const int h = lineHeight();
    const qint64 first = verticalScrollBar()->value();
    const int maxBefore = m_maxWidth;
    if (std::exchange(m_widthStale, false))
        m_maxWidth = 0; // measured on this file's lines only
    for (qint64 row = first, y = 0; row < rowCount() && y < viewport()->height(); ++row, y += h)
        paintLine(painter, lineOfRow(row), static_cast<int>(y));
    painter.setPen(pal.color(QPalette::Mid));
    painter.drawLine(gutterWidth() - 4, 0, gutterWidth() - 4, viewport()->height());
    if (m_maxWidth != maxBefore)
        updateScrollBars(); // a longer line came into view, or the file changed
}

void LogView::paintLine(QPainter& painter, qint64 line, int y)
{
    const QPalette pal = palette();
    const QFontMetrics fm = fontMetrics();
    const int h = lineHeight();
    const int textLeft = gutterWidth() - horizontalScrollBar()->value();
    QString text = lineText(line).left(kMaxPaintedChars);
    text.replace(u'\t', QStringLiteral("    "));
    const LogMark* mark = markAt(line);
    const Severity sev = lineSeverity(line, text);
    const QRect rowRect(0, y, viewport()->width(), h);
    if (mark) { // a signature hit or event: tinted by its severity
        QColor tint = severityColor(mark->severity, pal);
        tint.setAlpha(mark->title.isEmpty() ? 35 : 60);
        painter.fillRect(rowRect, tint);
    }
    const bool selected = m_selFirst > 0 && line >= m_selFirst && line <= m_selLast;
    if (selected)
        painter.fillRect(rowRect, pal.color(QPalette::Highlight));
    if (line == m_current) {
        painter.setPen(pal.color(QPalette::Highlight).darker(120));
        painter.drawRect(rowRect.adjusted(0, 0, -1, -1));
    }
    // One shaping of the line serves its width, the search hits' positions and the drawing (a long
    // line shaped twice was most of a repaint).
    QTextLayout layout(text, font());
    layout.beginLayout();
    QTextLine shaped = layout.createLine();
    shaped.setLineWidth(1e9);
    layout.endLayout();
    // Search hits get a background under the matched characters.
    if (!m_search.pattern().isEmpty()) {
        QColor hit = pal.color(QPalette::Highlight);
        hit.setAlpha(selected ? 255 : 90);
        auto it = m_search.globalMatch(text);
        for (int n = 0; it.hasNext() && n < 64; ++n) {
            const auto m = it.next();
            if (m.capturedLength() == 0)
                continue;
            const qreal x0 = shaped.cursorToX(static_cast<int>(m.capturedStart()));
            const qreal x1 = shaped.cursorToX(static_cast<int>(m.capturedEnd()));
            painter.fillRect(QRectF(textLeft + x0, y, x1 - x0, h), selected ? hit.lighter(130) : hit);
        }
    }
    painter.setClipRect(gutterWidth() - 2, y, viewport()->width(), h);
    painter.setPen(selected         ? pal.color(QPalette::HighlightedText)
            : sev >= Severity::Warn ? severityTextColor(sev, pal)
                                    : pal.color(QPalette::Text));
    // The baseline where drawText() put it: one pixel down, then the font's ascent.
    shaped.draw(&painter, QPointF(textLeft, y + 1 + fm.ascent() - shaped.ascent()));
    m_maxWidth = std::max(m_maxWidth, static_cast<int>(std::ceil(shaped.naturalTextWidth())));
    painter.setClipping(false);
    // The gutter is opaque: text scrolled left never shows under the badge or the number.
    painter.fillRect(QRect(0, y, gutterWidth() - 2, h), pal.color(QPalette::Base));
    if (mark && !mark->title.isEmpty() && mark->line == line) { // a signature's first line: its badge
        const int b = badgeWidth();
        painter.fillRect(QRect(2, y + 2, b - 4, h - 4), severityColor(mark->severity, pal));
    }
    painter.setPen(line == m_current ? pal.color(QPalette::Text) : pal.color(QPalette::PlaceholderText));
    painter.drawText(QRect(badgeWidth(), y, gutterWidth() - badgeWidth() - 8, h),
        Qt::AlignRight | Qt::AlignVCenter, QString::number(line));
}

void LogView::keyPressEvent(QKeyEvent* event)
{
    if (event->matches(QKeySequence::Copy)) {
        copySelection();
        return;
    }
    if (event->matches(QKeySequence::FindNext)) {
        startFind(1);
        return;
    }
    if (event->matches(QKeySequence::FindPrevious)) {
        startFind(-1);
        return;
    }
    const qint64 row = m_current > 0 ? rowOfLine(m_current) : verticalScrollBar()->value();
    qint64 target = -1;
    switch (event->key()) {
    case Qt::Key_Down:
        target = row + 1;
        break;
    case Qt::Key_Up:
        target = row - 1;
        break;
    case Qt::Key_PageDown:
        target = row + verticalScrollBar()->pageStep();
        break;
    case Qt::Key_PageUp:
        target = row - verticalScrollBar()->pageStep();
        break;
    case Qt::Key_Home:
        target = 0;
        break;
    case Qt::Key_End:
        target = rowCount() - 1;
        break;
    default:
        QAbstractScrollArea::keyPressEvent(event);
        return;
    }
    const qint64 line = lineOfRow(std::clamp<qint64>(target, 0, rowCount() - 1));
    const qint64 anchor = m_anchor;
    goToLine(line);
    if (event->modifiers() & Qt::ShiftModifier && anchor > 0) {
        m_anchor = anchor;
        setSelection(anchor, line);
    }
}

void LogView::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton || rowCount() == 0)
        return;
    const qint64 line = lineAtY(static_cast<int>(event->position().y()));
    const qint64 anchor = m_anchor;
    m_current = line;
    if (event->modifiers() & Qt::ShiftModifier && anchor > 0) {
        setSelection(anchor, line);
    } else {
        m_anchor = line;
        setSelection(line, line);
    }
    Q_EMIT currentLineChanged(line);
}

void LogView::mouseMoveEvent(QMouseEvent* event)
{
    if (!(event->buttons() & Qt::LeftButton) || m_anchor <= 0 || rowCount() == 0)
        return;
    const int y = static_cast<int>(event->position().y());
    if (y < 0)
        verticalScrollBar()->triggerAction(QAbstractSlider::SliderSingleStepSub);
    else if (y > viewport()->height())
        verticalScrollBar()->triggerAction(QAbstractSlider::SliderSingleStepAdd);
    m_current = lineAtY(std::clamp(y, 0, viewport()->height() - 1));
    setSelection(m_anchor, m_current);
}

void LogView::mouseReleaseEvent(QMouseEvent* event)
{
    event->accept(); // the press already selected; nothing to finish
}

} // namespace rankscope
