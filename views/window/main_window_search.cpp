// SPDX-License-Identifier: MIT
// MainWindow: search everything. The search runs in its own JobTracker, so a newer search, Stop, another
// attempt or another incident drops the one under way; a hit opens its line in the Log view.
#include "main_window.h"
#include "search_panel.h"
#include "timeline_view.h"

#include <QDockWidget>
#include <cstdlib>
#include <limits>

namespace rankscope {

void MainWindow::searchEverything(const SearchQuery& query)
{
    const AttemptAnalysis* a = currentAttempt();
    if (!a)
        return;
    QStringList files;
    for (const FileInfo& f : a->incident.files)
        files << f.displayPath;
    std::shared_ptr<Analysis> analysis = m_analysis;
    const int attempt = m_attempt;
    m_searchPanel->setRunning(true);
    m_searchJobs.startJob(
        this,
        [analysis, attempt, query](const CancelToken& token, const ProgressFn& progress) {
            return std::make_shared<SearchResults>(searchIncident(
                analysis->attempts[static_cast<size_t>(attempt)].incident, query, &token, progress));
        },
        [this, files](const std::shared_ptr<SearchResults>& results) {
            if (results->cancelled || m_searchJobs.isCancelled())
                m_searchPanel->setStopped();
            else
                m_searchPanel->setResults(std::move(*results), files);
            Q_EMIT searchFinished();
        },
        [this](qint64 done, qint64 total) { m_searchPanel->setProgress(done, total); });
}

// A hit opens its line and selects its rank, and the timeline follows: a hit on an event's line selects
// that event; any other hit scrolls to the lane of the nearest event of that file and rank.
void MainWindow::revealSearchHit(int file, qint64 line, int rank)
{
    const AttemptAnalysis* a = currentAttempt();
    if (!a)
        return;
    int exact = -1, nearest = -1;
    qint64 nearestDistance = std::numeric_limits<qint64>::max();
    const auto& events = a->incident.events;
    for (size_t i = 0; i < events.size(); ++i) {
        const LogEvent& e = events[i];
        if (e.file != file || (rank >= 0 && e.rank != rank))
            continue;
        if (line >= e.line && line < e.line + e.lineCount)
            exact = static_cast<int>(i);
        const qint64 distance = std::abs(e.line - line);
        if (distance < nearestDistance) {
            nearestDistance = distance;
            nearest = static_cast<int>(i);
        }
    }
    if (exact >= 0) {
        m_timeline->selectEvent(exact); // and the log, at the event's first line
    } else if (nearest >= 0) {
        m_timeline->scrollToLane(m_timeline->model().laneOfEvent(nearest));
    } else if (rank >= 0) {
        const TimelineModel& model = m_timeline->model();
        for (int l = 0; l < model.laneCount(); ++l)
            if (model.lane(l).kind == TimelineRowKind::Rank && model.lane(l).rank == rank) {
                m_timeline->scrollToLane(l);
                break;
            }
    }
    selectRank(rank);
    openLogAt(file, line, rank);
}

void MainWindow::showSearch()
{
    if (auto* dock = findChild<QDockWidget*>(QStringLiteral("search"))) {
        dock->show();
        dock->raise();
    }
    m_searchPanel->focusPattern();
}

void MainWindow::stopSearch()
{
    if (!m_searchJobs.isRunning())
        return;
    m_searchJobs.cancel(); // its (empty) result lands and says "stopped"
}

void MainWindow::clearSearch()
{
    m_searchJobs.drop();
    m_searchPanel->clearResults();
}

} // namespace rankscope
