// SPDX-License-Identifier: MIT
// MainWindow: an event shown in the timeline, in the rank list and in its log (the log's file opened off
// the UI thread), and the status bar's counts.
#include "log_panel.h"
#include "log_view.h"
#include "main_window.h"
#include "rank_table_model.h"
#include "rank_table_proxy.h"
#include "timeline_view.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QToolButton>
#include <algorithm>

namespace rankscope {

void MainWindow::revealEvent(int eventIndex)
{
    const AttemptAnalysis* a = currentAttempt();
    if (!a || eventIndex < 0 || eventIndex >= static_cast<int>(a->incident.events.size()))
        return;
    const LogEvent& e = a->incident.events[static_cast<size_t>(eventIndex)];
    if (m_timeline->selectedEvent() != eventIndex)
        m_timeline->selectEvent(eventIndex); // emits eventSelected, which comes back here once
    selectRank(e.rank);
    openLogAt(e.file, e.line, e.rank);
}

void MainWindow::openLogAt(int file, qint64 line, int rank)
{
    const AttemptAnalysis* a = currentAttempt();
    if (!a || file < 0 || file >= static_cast<int>(a->incident.files.size()))
        return;
    m_logJobs.drop();
    if (file == m_logFile) { // the file shown: only move (a pending switch to another file is dropped)
        m_logRank = rank;
        m_logOpenedLine = line;
        logView()->goToLine(line);
        setLogHeader(logView()->currentLine());
        return;
    }
    // Another file: open it (its line index, marks, the WARN+ filter) off the UI thread.
    std::shared_ptr<Analysis> analysis = m_analysis;
    const int attempt = m_attempt;
    const QStringList titles = m_signatureTitles;
    const bool warnOnly = logView()->warnOnly();
    // A newer event in another file, another attempt or another analysis drops this one.
    m_logJobs.startJob(
        this,
        [analysis, attempt, file, line, rank, titles, warnOnly](const CancelToken& token) {
            return std::make_shared<PreparedLog>(
                prepareLog(analysis->attempts[static_cast<size_t>(attempt)].incident, file, line, rank,
                    titles, warnOnly, &token));
        },
        [this](const std::shared_ptr<PreparedLog>& log) { showLog(std::move(*log)); });
}

void MainWindow::showLog(PreparedLog log)
{
    const AttemptAnalysis* a = currentAttempt();
    if (!a || log.file < 0)
        return;
    m_logFile = log.file;
    m_logRank = log.rank;
    m_logOpenedLine = log.line;
    m_logAuthors = std::move(log.authors);
    const qint64 line = log.line;
    logView()->showPrepared(std::move(log));
    setLogHeader(logView()->currentLine() > 0 ? logView()->currentLine() : line);
}

// The header names the line the view is on: it follows Go to line, the keys and clicks.
void MainWindow::setLogHeader(qint64 line)
{
    const AttemptAnalysis* a = currentAttempt();
    if (!a || m_logFile < 0 || m_logFile >= static_cast<int>(a->incident.files.size())) {
        m_log->setFileLabel(QString());
        return;
    }
    const FileInfo& f = a->incident.files[static_cast<size_t>(m_logFile)];
    // The writer of the line shown, as the incident knows it (rank, host, pid): a Ray "(pid=767)" line of
    // the process the incident maps to rank 0 names rank 0, not "unattributed".
    LineAuthor writer = m_logAuthors.file == m_logFile
        ? authorOfLine(a->incident, m_logAuthors, line, logView()->lineText(line))
        : LineAuthor {};
    if (writer.rank < 0 && line == m_logOpenedLine)
        writer.rank = m_logRank; // the line was opened for that rank (a search hit's group)
    m_log->setFileLabel(f.displayPath, QStringLiteral("line %1 · %2").arg(line).arg(describeAuthor(writer)));
}

QString MainWindow::logHeaderText() const
{
    return m_log->fileLabel();
}

void MainWindow::clearLog()
{
    m_logJobs.drop();
    m_logFile = -1;
    m_logRank = -1;
    m_logOpenedLine = 0;
    m_logAuthors = {};
    logView()->clear();
    m_log->setFileLabel(QString());
}

void MainWindow::showRankEvent(const QModelIndex& index)
{
    const int ev = index.data(RankTableModel::FirstWarnEventRole).toInt();
    if (ev >= 0)
        revealEvent(ev);
    else
        showRankLastLine(index.data(RankTableModel::RankRole).toInt());
}

// A rank that printed no WARN: what it wrote last is what there is to read (a click did nothing before).
// Its own file when it has one (a file no other rank writes), else its first file; the timeline scrolls
// to its lane.
void MainWindow::showRankLastLine(int rank)
{
    const AttemptAnalysis* a = currentAttempt();
    const RankInfo* info = a ? a->incident.rankInfo(rank) : nullptr;
    if (!info || info->files.empty())
        return;
    int file = info->files.front();
    for (int f : info->files) {
        const bool shared =
            std::any_of(a->incident.ranks.begin(), a->incident.ranks.end(), [&](const RankInfo& r) {
                return r.rank != rank && std::find(r.files.begin(), r.files.end(), f) != r.files.end();
            });
        if (!shared) {
            file = f;
            break;
        }
    }
    const TimelineModel& model = m_timeline->model();
    for (int l = 0; l < model.laneCount(); ++l)
        if (model.lane(l).kind == TimelineRowKind::Rank && model.lane(l).rank == rank) {
            m_timeline->scrollToLane(l);
            break;
        }
    const qint64 last = a->incident.files[static_cast<size_t>(file)].lines;
    openLogAt(file, std::max<qint64>(last, 1), rank);
}

// The rank of the event shown is the current row of the rank list (no signal: it is not a click).
void MainWindow::selectRank(int rank)
{
    const int sourceRow = m_rankModel->rowOfRank(rank);
    if (sourceRow < 0) {
        m_ranks->clearSelection();
        return;
    }
    const QModelIndex index = m_rankProxy->mapFromSource(m_rankModel->index(sourceRow, 0));
    if (m_ranks->selectionModel()->isRowSelected(index.row(), {}))
        return;
    m_ranks->selectRow(index.row());
    m_ranks->scrollTo(index);
}

void MainWindow::syncRankFilter()
{
    if (!m_rankProxy)
        return;
    const TimelineModel& model = m_timeline->model();
    if (!model.filtering()) {
        m_rankProxy->setRowFilter({});
        return;
    }
    m_rankProxy->setRowFilter([this](int rank, int firstWarn) {
        const TimelineModel& m = m_timeline->model();
        if (rank >= 0)
            return m.rankShown(rank);
        const int lane = firstWarn >= 0 ? m.laneOfEvent(firstWarn) : -1;
        return lane >= 0 && m.laneShown(lane);
    });
}

void MainWindow::fillRanks(std::vector<RankRow> rows)
{
    m_rankModel->setRows(std::move(rows));
    // The list is painted afresh anyway. Told of each column's new width, the view would repaint the
    // columns once more from a timer of its own, in the turn that shows the diagnosis pane.
    {
        const QSignalBlocker block(m_ranks->horizontalHeader());
        for (int c = 0; c < RankTableModel::MessageColumn; ++c)
            m_ranks->resizeColumnToContents(c);
    }
    QMetaObject::invokeMethod(m_ranks, "updateGeometries"); // the scroll bars for the new widths
}

void MainWindow::updateStatus(const IncidentViewModel* view)
{
    const AttemptAnalysis* a = currentAttempt();
    if (!a || !view) {
        m_statusFiles->clear();
        m_statusSkipped->setVisible(false);
        m_statusWarnings->setVisible(false);
        return;
    }
    const Incident& inc = a->incident;
    m_statusFiles->setText(
        tr("%1 files · %2 ranks · %3 hosts · %4 · %5 events%6")
            .arg(view->files)
            .arg(view->rankCount)
            .arg(view->hostCount)
            .arg(locale().formattedDataSize(view->bytes, 1, QLocale::DataSizeSIFormat))
            .arg(view->events)
            .arg(view->topologyHosts == 0 ? QString()
                                          : tr(" · topology: %1 host(s)").arg(view->topologyHosts)));
    m_statusSkipped->setText(tr("%1 skipped").arg(inc.skipped.size()));
    m_statusSkipped->setVisible(!inc.skipped.empty());
    m_statusWarnings->setText(
        inc.warnings.size() == 1 ? tr("1 warning") : tr("%1 warnings").arg(inc.warnings.size()));
    m_statusWarnings->setVisible(!inc.warnings.isEmpty());
}

} // namespace rankscope
