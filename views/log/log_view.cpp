// SPDX-License-Identifier: MIT
#include "log_view.h"

#include "line_severity.h"
#include "log_search.h"

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

LogView::~LogView()
{
    cancelJobs();
}

std::vector<LogMark> LogView::marksFromIncident(
    const Incident& incident, int fileIndex, const QStringList& signatureTitles)
{
    return marksForFile(incident, fileIndex, signatureTitles);
}

bool LogView::showFile(
    const Incident& incident, int fileIndex, qint64 line, const QStringList& signatureTitles)
{
    if (fileIndex < 0 || static_cast<size_t>(fileIndex) >= incident.files.size()) {
        cancelJobs();
        m_lines.reset();
        m_error = tr("No file %1 in this incident").arg(fileIndex);
        resetFile();
        return false;
    }
    return openFile(incident.files[static_cast<size_t>(fileIndex)],
        marksFromIncident(incident, fileIndex, signatureTitles), line);
}

void LogView::cancelJobs()
{
    // Results still under way are stale.
    m_searchJobs.drop();
    m_filterJobs.drop();
}

void LogView::resetFile()
{
    m_current = m_anchor = m_selFirst = m_selLast = 0;
    // The widest line is measured again by the next paint. Until then the horizontal scroll bar keeps
    // its range: hiding it here and showing it again after the paint (log lines are mostly long) would
    // lay the whole window out twice and paint this view twice on every switch of file.
    m_widthStale = true;
    m_shown.reset();
    m_filterActive = false;
    updateScrollBars();
    horizontalScrollBar()->setValue(0);
    verticalScrollBar()->setValue(0);
    viewport()->update();
}

bool LogView::openFile(const FileInfo& file, std::vector<LogMark> marks, qint64 line)
{
    cancelJobs();
    const FileLinesResult opened = FileLines::open(file);
    m_lines = opened.lines;
    m_error = opened.error;
    m_marks = std::move(marks);
    std::stable_sort(
        m_marks.begin(), m_marks.end(), [](const LogMark& a, const LogMark& b) { return a.line < b.line; });
    resetFile();
    rebuildFilter();
    if (m_lines && line > 0)
        goToLine(line);
    return m_lines != nullptr;
}

bool LogView::showPrepared(PreparedLog log)
{
    cancelJobs();
    m_lines = std::move(log.lines);
    m_error = log.error;
    m_marks = std::move(log.marks);
    resetFile();
    if (m_warnOnly && m_lines) {
        if (log.warnFiltered) {
            m_shown = std::make_shared<const std::vector<qint64>>(std::move(log.warnLines));
            m_filterActive = true;
            updateScrollBars();
        } else {
            startFilterJob();
        }
    }
    if (m_lines && log.line > 0)
        goToLine(log.line);
    return m_lines != nullptr;
}

void LogView::clear()
{
    cancelJobs();
    m_lines.reset();
    m_marks.clear();
    m_error.clear();
    resetFile();
}

qint64 LogView::shownLineCount() const
{
    return m_filterActive ? static_cast<qint64>(m_shown->size()) : lineCount();
}

bool LogView::isLineShown(qint64 line) const
{
    if (line < 1 || line > lineCount())
        return false;
    return !m_filterActive || std::binary_search(m_shown->begin(), m_shown->end(), line);
}

QString LogView::lineText(qint64 line) const
{
    return m_lines ? m_lines->line(line - 1) : QString();
}

qint64 LogView::lineOfRow(qint64 row) const
{
    if (row < 0 || row >= rowCount())
        return 0;
    return m_filterActive ? (*m_shown)[static_cast<size_t>(row)] : row + 1;
}

qint64 LogView::rowOfLine(qint64 line) const
{
    if (!m_filterActive)
        return std::clamp<qint64>(line - 1, 0, std::max<qint64>(0, lineCount() - 1));
    const auto it = std::lower_bound(m_shown->begin(), m_shown->end(), line);
    if (it == m_shown->end())
        return std::max<qint64>(0, static_cast<qint64>(m_shown->size()) - 1);
    return static_cast<qint64>(it - m_shown->begin());
}

const LogMark* LogView::markAt(qint64 line) const
{
    return markCovering(m_marks, line);
}

Severity LogView::lineSeverity(qint64 line, const QString& text) const
{
    const LogMark* mark = markAt(line);
    const Severity guessed = classifyLineSeverity(text);
    return mark && mark->severity > guessed ? mark->severity : guessed;
}

void LogView::rebuildFilter()
{
    m_shown.reset();
    m_filterActive = false;
    if (m_warnOnly && m_lines) {
        m_shown = std::make_shared<const std::vector<qint64>>(warnOrMarkedLines(*m_lines, m_marks));
        m_filterActive = true;
    }
    updateScrollBars();
}

void LogView::setWarnOnly(bool warnOnly)
{
    if (warnOnly == m_warnOnly && warnOnly == m_filterActive)
        return;
    m_filterJobs.drop();
    const qint64 keep = m_current > 0 ? m_current : firstVisibleLine();
    m_warnOnly = warnOnly;
    rebuildFilter();
    if (keep > 0)
        verticalScrollBar()->setValue(static_cast<int>(rowOfLine(keep)));
    viewport()->update();
}

void LogView::requestWarnOnly(bool warnOnly)
{
    if (!warnOnly || !m_lines) { // turning it off costs nothing
        setWarnOnly(warnOnly);
        Q_EMIT filterApplied();
        return;
    }
    if (m_warnOnly && (m_filterActive || m_filterJobs.isRunning()))
        return;
    m_warnOnly = true;
    startFilterJob();
}

void LogView::startFilterJob()
{
    std::shared_ptr<FileLines> lines = m_lines;
    std::vector<LogMark> marks = m_marks;
    m_filterJobs.startJob(
        this,
        [lines, marks = std::move(marks)](const CancelToken& token) {
            const FileLinesResult reader = lines->reopen();
            bool cancelled = !reader.ok();
            auto kept = std::make_shared<const std::vector<qint64>>(reader.ok()
                    ? warnOrMarkedLines(*reader.lines, marks, &token, {}, &cancelled)
                    : std::vector<qint64>());
            return cancelled ? std::shared_ptr<const std::vector<qint64>>() : kept;
        },
        [this](std::shared_ptr<const std::vector<qint64>> kept) {
            if (!kept || !m_warnOnly)
                return;
            const qint64 keep = m_current > 0 ? m_current : firstVisibleLine();
            m_shown = std::move(kept);
            m_filterActive = true;
            updateScrollBars();
            if (keep > 0)
                verticalScrollBar()->setValue(static_cast<int>(rowOfLine(keep)));
            viewport()->update();
            Q_EMIT filterApplied();
        });
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
    const qint64 start = m_current > 0 ? rowOfLine(m_current) : (direction > 0 ? -1 : rowCount());
    const qint64 line =
        findMatchingLine(*m_lines, m_search, m_filterActive ? m_shown.get() : nullptr, start, direction);
    if (line > 0)
        goToLine(line);
    return line > 0 ? line : -1;
}

void LogView::startFind(int direction)
{
    m_searchJobs.drop(); // superseded, whether or not this one runs
    if (!m_lines || rowCount() == 0 || m_search.pattern().isEmpty()) {
        Q_EMIT findFinished(-1);
        return;
    }
    const qint64 start = m_current > 0 ? rowOfLine(m_current) : (direction > 0 ? -1 : rowCount());
    std::shared_ptr<const std::vector<qint64>> shown = m_filterActive ? m_shown : nullptr;
    std::shared_ptr<FileLines> lines = m_lines;
    const QRegularExpression re = m_search;
    struct Found
    {
        qint64 line = -1;
        MatchCount count;
    };
    m_searchJobs.startJob(
        this,
        [lines, shown, re, start, direction](const CancelToken& token) {
            Found found;
            const FileLinesResult reader = lines->reopen();
            if (!reader.ok())
                return found;
            found.line = findMatchingLine(*reader.lines, re, shown.get(), start, direction, &token);
            // The count ("3 of 41") reads the file once more; a match found is shown before it is known.
            if (found.line > 0)
                found.count = countMatchingLines(*reader.lines, re, shown.get(), found.line, &token);
            return found;
        },
        [this](const Found& found) {
            if (found.line > 0)
                goToLine(found.line);
            Q_EMIT findFinished(found.line > 0 ? found.line : -1);
            if (found.line > 0 && !found.count.cancelled)
                Q_EMIT matchCounted(found.count.ordinal, found.count.total);
        });
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
