#include "log_view.h"

#include "line_severity.h"

#include <QApplication>
#include <QClipboard>
#include <QFontDatabase>
#include <QKeyEvent>
#include <QScrollBar>
#include <algorithm>

namespace rankscope {

LogView::LogView(QWidget* parent)
    : QAbstractScrollArea(parent)
{
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setFocusPolicy(Qt::StrongFocus);
    viewport()->setCursor(Qt::IBeamCursor);
    updateScrollBars();
}

std::vector<LogMark> LogView::marksFromIncident(
    const Incident& incident, int fileIndex, const QStringList& signatureTitles)
{
    std::vector<LogMark> marks;
    for (const LogEvent& e : incident.events) {
        if (e.file != fileIndex)
            continue;
        LogMark m { e.line, std::max(1, e.lineCount), e.severity, {} };
        if (e.signature >= 0)
            m.title = e.signature < signatureTitles.size() ? signatureTitles.at(e.signature)
                                                           : QStringLiteral("signature %1").arg(e.signature);
        marks.push_back(std::move(m));
    }
    return marks;
}

bool LogView::showFile(
    const Incident& incident, int fileIndex, qint64 line, const QStringList& signatureTitles)
{
    if (fileIndex < 0 || static_cast<size_t>(fileIndex) >= incident.files.size()) {
        m_lines.reset();
        m_error = tr("No file %1 in this incident").arg(fileIndex);
        updateScrollBars();
        return false;
    }
    return openFile(incident.files[static_cast<size_t>(fileIndex)],
        marksFromIncident(incident, fileIndex, signatureTitles), line);
}

bool LogView::openFile(const FileInfo& file, std::vector<LogMark> marks, qint64 line)
{
    const FileLinesResult opened = FileLines::open(file);
    m_lines = opened.lines;
    m_error = opened.error;
    m_marks = std::move(marks);
    std::sort(
        m_marks.begin(), m_marks.end(), [](const LogMark& a, const LogMark& b) { return a.line < b.line; });
    m_current = m_anchor = m_selFirst = m_selLast = 0;
    m_maxWidth = 0;
    rebuildFilter();
    horizontalScrollBar()->setValue(0);
    verticalScrollBar()->setValue(0);
    if (m_lines && line > 0)
        goToLine(line);
    viewport()->update();
    return m_lines != nullptr;
}

qint64 LogView::shownLineCount() const
{
    return m_warnOnly ? static_cast<qint64>(m_shown.size()) : lineCount();
}

bool LogView::isLineShown(qint64 line) const
{
    if (line < 1 || line > lineCount())
        return false;
    return !m_warnOnly || std::binary_search(m_shown.begin(), m_shown.end(), line);
}

QString LogView::lineText(qint64 line) const
{
    return m_lines ? m_lines->line(line - 1) : QString();
}

qint64 LogView::lineOfRow(qint64 row) const
{
    if (row < 0 || row >= rowCount())
        return 0;
    return m_warnOnly ? m_shown[static_cast<size_t>(row)] : row + 1;
}

qint64 LogView::rowOfLine(qint64 line) const
{
    if (!m_warnOnly)
        return std::clamp<qint64>(line - 1, 0, std::max<qint64>(0, lineCount() - 1));
    const auto it = std::lower_bound(m_shown.begin(), m_shown.end(), line);
    if (it == m_shown.end())
        return std::max<qint64>(0, static_cast<qint64>(m_shown.size()) - 1);
    return static_cast<qint64>(it - m_shown.begin());
}

const LogMark* LogView::markAt(qint64 line) const
{
    // Marks are sorted by first line; records are short, so look back a little for a covering one.
    auto it = std::upper_bound(
        m_marks.begin(), m_marks.end(), line, [](qint64 l, const LogMark& m) { return l < m.line; });
    const LogMark* best = nullptr;
    for (int back = 0; it != m_marks.begin() && back < 64; ++back) {
        --it;
        if (it->line <= line && line < it->line + it->lineCount && (!best || it->severity > best->severity))
            best = &*it;
    }
    return best;
}

Severity LogView::lineSeverity(qint64 line, const QString& text) const
{
    const LogMark* mark = markAt(line);
    const Severity guessed = classifyLineSeverity(text);
    return mark && mark->severity > guessed ? mark->severity : guessed;
}

void LogView::rebuildFilter()
{
    m_shown.clear();
    if (m_warnOnly && m_lines) {
        // One pass over the file; marked lines (signature hits, record continuations) stay visible.
        for (qint64 l = 1; l <= lineCount(); ++l) {
            if (markAt(l) || classifyLineSeverity(m_lines->line(l - 1)) >= Severity::Warn)
                m_shown.push_back(l);
        }
    }
    updateScrollBars();
}

void LogView::setWarnOnly(bool warnOnly)
{
    if (warnOnly == m_warnOnly)
        return;
    const qint64 keep = m_current > 0 ? m_current : firstVisibleLine();
    m_warnOnly = warnOnly;
    rebuildFilter();
    if (keep > 0)
        verticalScrollBar()->setValue(static_cast<int>(rowOfLine(keep)));
    viewport()->update();
}

void LogView::goToLine(qint64 line)
{
    if (!m_lines || rowCount() == 0)
        return;
    const qint64 row = rowOfLine(std::clamp<qint64>(line, 1, lineCount()));
    m_current = lineOfRow(row);
    m_anchor = m_selFirst = m_selLast = m_current;
    const int page = verticalScrollBar()->pageStep();
    const int value = verticalScrollBar()->value();
    if (row < value || row >= value + page)
        verticalScrollBar()->setValue(static_cast<int>(std::max<qint64>(0, row - page / 3)));
    viewport()->update();
    Q_EMIT currentLineChanged(m_current);
}

bool LogView::setSearchPattern(const QString& pattern, QString* error)
{
    QRegularExpression re(pattern);
    if (!re.isValid()) {
        if (error)
            *error = tr("Invalid regular expression at offset %1: %2")
                         .arg(re.patternErrorOffset())
                         .arg(re.errorString());
        return false;
    }
    m_search = re;
    viewport()->update();
    return true;
}

qint64 LogView::find(int direction)
{
    if (!m_lines || rowCount() == 0 || m_search.pattern().isEmpty())
        return -1;
    const qint64 rows = rowCount();
    const qint64 start = m_current > 0 ? rowOfLine(m_current) : (direction > 0 ? -1 : rows);
    for (qint64 step = 1; step <= rows; ++step) {
        const qint64 row = ((start + direction * step) % rows + rows) % rows;
        const qint64 line = lineOfRow(row);
        if (m_search.match(m_lines->line(line - 1)).hasMatch()) {
            goToLine(line);
            return line;
        }
    }
    return -1;
}

qint64 LogView::findNext()
{
    return find(1);
}

qint64 LogView::findPrevious()
{
    return find(-1);
}

void LogView::setSelection(qint64 first, qint64 last)
{
    m_selFirst = std::min(first, last);
    m_selLast = std::max(first, last);
    viewport()->update();
}

QString LogView::selectedText() const
{
    if (!m_lines || m_selFirst <= 0)
        return {};
    QStringList out;
    for (qint64 row = rowOfLine(m_selFirst); row < rowCount() && lineOfRow(row) <= m_selLast; ++row)
        out.push_back(m_lines->line(lineOfRow(row) - 1));
    return out.join(u'\n');
}

void LogView::copySelection() const
{
    const QString text = selectedText();
    if (!text.isEmpty())
        QApplication::clipboard()->setText(text);
}

} // namespace rankscope
