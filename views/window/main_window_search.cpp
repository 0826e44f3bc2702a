// SPDX-License-Identifier: MIT
// MainWindow: search everything. The search runs in its own JobTracker, so a newer search, Stop, another
// attempt or another incident drops the one under way; a hit opens its line in the Log view.
#include "main_window.h"
#include "search_panel.h"

#include <QDockWidget>

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
