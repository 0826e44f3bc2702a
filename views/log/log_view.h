// SPDX-License-Identifier: MIT
// A virtualised view of one log file: only the visible lines are read (through FileLines) and
// painted. Line numbers, severity colours, the incident's signature hits marked, regex search,
// a WARN-or-worse filter, jump to line, and Ctrl+C copy of the selected lines.
// Whole-file work (search, the WARN+ filter) has a blocking form for tests and tools and a background
// form (startFind, requestWarnOnly) for the UI: that one runs on its own reader off the UI thread and a
// newer request, or another file, makes an older result stale.
#pragma once

#include "cancel_token.h"
#include "file_lines.h"
#include "incident_view_model.h"
#include "job_tracker.h"
#include "log_marks.h"
#include "log_model.h"

#include <QAbstractScrollArea>
#include <QRegularExpression>
#include <memory>
#include <vector>

namespace rankscope {

class LogView : public QAbstractScrollArea
{
    Q_OBJECT

public:
    explicit LogView(QWidget* parent = nullptr);
    ~LogView() override;

    // The events of `fileIndex` as marks; `signatureTitles[i]` names catalog entry i (else "signature i").
    static std::vector<LogMark> marksFromIncident(
        const Incident& incident, int fileIndex, const QStringList& signatureTitles = {});
    // Opens the file, marks its events, scrolls to and highlights 1-based `line` (0 = top).
    // Returns false and shows the error (naming the file) when it cannot be read.
    bool showFile(
        const Incident& incident, int fileIndex, qint64 line, const QStringList& signatureTitles = {});
    bool openFile(const FileInfo& file, std::vector<LogMark> marks, qint64 line = 0);
    // Shows a file opened off the UI thread (see prepareLog); with the WARN+ filter on and not computed
    // by the job, the filter runs in the background.
    bool showPrepared(PreparedLog log);
    void clear(); // no file: what another incident showed goes away
    QString errorString() const { return m_error; }
    QString filePath() const { return m_lines ? m_lines->path() : QString(); }

    qint64 lineCount() const { return m_lines ? m_lines->count() : 0; }
    qint64 shownLineCount() const; // after the severity filter
    bool isLineShown(qint64 line) const;
    QString lineText(qint64 line) const; // 1-based
    // The signature named on `line`'s badge in the gutter (its tooltip); empty when it has none.
    QString badgeToolTip(qint64 line) const;
    qint64 currentLine() const { return m_current; }
    qint64 firstVisibleLine() const; // 1-based line at the top of the viewport, 0 when empty
    qint64 lastVisibleLine() const;

    // Scrolls to `line` (1-based, clamped; the nearest shown line under the filter) and highlights it.
    void goToLine(qint64 line);
    // Sets the search regex; an invalid one returns false with the message in `error`.
    bool setSearchPattern(const QString& pattern, QString* error = nullptr);
    QString searchPattern() const { return m_search.pattern(); }
    // Next/previous shown line matching the pattern, wrapping; goes there and returns it, or -1.
    // These scan the file on the calling thread.
    qint64 findNext();
    qint64 findPrevious();
    void setWarnOnly(bool warnOnly); // show only WARN-or-worse lines (and marked lines)
    bool warnOnly() const { return m_warnOnly; }

    // The same off the UI thread: findFinished(line or -1) follows; filterApplied() once the filter shows.
    void startFind(int direction);
    void requestWarnOnly(bool warnOnly);
    bool isSearching() const { return m_searchJobs.isRunning(); }
    bool isFiltering() const { return m_filterJobs.isRunning(); }

    // Selected lines (1-based, inclusive), as text joined with '\n'.
    QString selectedText() const;
    void setSelection(qint64 first, qint64 last);
    void copySelection() const;

Q_SIGNALS:
    void currentLineChanged(qint64 line);
    void findFinished(qint64 line); // -1: no match
    // After findFinished of a match: it is match `ordinal` (1-based) of `total` matching shown lines.
    void matchCounted(qint64 ordinal, qint64 total);
    void filterApplied();

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void scrollContentsBy(int dx, int dy) override;
    void changeEvent(QEvent* event) override;
    bool viewportEvent(QEvent* event) override;

private:
    qint64 rowCount() const { return shownLineCount(); }
    qint64 lineOfRow(qint64 row) const; // 1-based line
    qint64 rowOfLine(qint64 line) const; // the row showing `line` or the next shown one
    const LogMark* markAt(qint64 line) const;
    Severity lineSeverity(qint64 line, const QString& text) const;
    void rebuildFilter();
    void startFilterJob();
    void cancelJobs();
    void resetFile();
    void updateScrollBars();
    qint64 find(int direction);
    int lineHeight() const;
    int gutterWidth() const;
    int badgeWidth() const;
    qint64 lineAtY(int y) const;
    void paintLine(QPainter& painter, qint64 line, int y);

    std::shared_ptr<FileLines> m_lines;
    std::vector<LogMark> m_marks; // sorted by line
    // Shown lines when filtering (1-based), shared with background searches; in use when m_filterActive.
    std::shared_ptr<const std::vector<qint64>> m_shown;
    bool m_warnOnly = false; // asked for; applies once m_filterActive
    bool m_filterActive = false;
    JobTracker m_searchJobs, m_filterJobs; // another file or a newer request drops what runs
    QRegularExpression m_search;
    qint64 m_current = 0;
    qint64 m_anchor = 0, m_selFirst = 0, m_selLast = 0;
    int m_maxWidth = 0; // the widest line painted since the file was shown, in pixels
    bool m_widthStale = false; // another file is shown: the next paint measures m_maxWidth afresh
    QString m_error;
};

} // namespace rankscope
