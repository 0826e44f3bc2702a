// SPDX-License-Identifier: MIT
// MainWindow: an analysis and the view of an attempt are built off the UI thread; a finished one is
// swapped in, a stale or cancelled one dropped. The Stop button and the progress bar.
#include "diagnosis_pane.h"
#include "hub_panel.h"
#include "log_view.h"
#include "main_window.h"
#include "pasted_copy.h"
#include "rank_table_model.h"
#include "rediagnose.h"
#include "report_input.h"
#include "severity_palette.h"
#include "timeline_view.h"
#include "topology_view.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QStandardPaths>
#include <QStatusBar>
#include <QToolButton>
#include <QtConcurrent/QtConcurrentRun>

namespace rankscope {

void MainWindow::openPaths(const QStringList& paths, const QStringList& topology)
{
    AnalysisRequest r;
    r.logPaths = paths;
    r.topologyPaths = topology;
    addRecent(paths);
    start(r);
}

void MainWindow::openPastedText(const QString& text)
{
    // Kept as a file first, so the Log view, the evidence links and the rg commands name a real path.
    const QString root =
        QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) + QStringLiteral("/pasted");
    const SavedPaste saved = savePastedText(text, root, QDateTime::currentDateTimeUtc());
    if (!saved.error.isEmpty()) {
        statusBar()->showMessage(tr("Pasted text read from memory (%1)").arg(saved.error));
        AnalysisRequest r;
        r.pastedText = text;
        start(r);
        return;
    }
    statusBar()->showMessage(tr("Pasted text saved as %1").arg(QDir::toNativeSeparators(saved.path)));
    openPaths({ saved.path }, {});
}

void MainWindow::addTopology(const QStringList& paths)
{
    for (const QString& p : paths) {
        if (!m_request.topologyPaths.contains(p))
            m_request.topologyPaths << p;
    }
    // Nothing read yet, or a load under way that would not have the captures: a whole analysis.
    if (!m_analysis || m_analysis->attempts.empty() || m_loadJobs.isRunning()) {
        start(m_request);
        return;
    }
    QStringList captures = m_analysis->topologyPaths;
    for (const QString& p : paths) {
        if (!captures.contains(p))
            captures << p;
    }
    rediagnose(captures);
}

void MainWindow::removeTopology(const QStringList& paths)
{
    m_request.topologyPaths.removeIf([&paths](const QString& p) { return paths.contains(p); });
    if (!m_analysis || m_analysis->attempts.empty() || m_loadJobs.isRunning()) {
        start(m_request);
        return;
    }
    QStringList captures = m_analysis->topologyPaths;
    captures.removeIf([&paths](const QString& p) { return paths.contains(p); });
    rediagnose(captures);
}

void MainWindow::rediagnose(const QStringList& captures)
{
    resetProgress();
    m_banner->setText(tr("Diagnosing again with the topology…"));
    // The scanned incidents are read, never changed, by the job: it diagnoses copies of them.
    std::shared_ptr<const Analysis> scanned = m_analysis;
    const int attempt = m_attempt >= 0 ? m_attempt : m_analysis->current;
    const QString host = m_request.topologyHost;
    const bool warnOnly = logView()->warnOnly();
    const bool timelineWarn = timelineWarnOnly();
    const QString timelineText = m_rankText->text();
    m_loadJobs.startJob(
        this,
        [scanned, captures, host, attempt, warnOnly, timelineWarn, timelineText](const CancelToken& token) {
            Loaded loaded;
            loaded.analysis =
                std::make_shared<Analysis>(rediagnoseWithTopology(*scanned, captures, host, &token));
            if (!loaded.analysis->cancelled && !token.isCancelled()) {
                auto view = std::make_shared<IncidentViewModel>(
                    buildIncidentViewModel(*loaded.analysis, attempt, warnOnly, &token));
                view->timeline.setWarnOnly(timelineWarn);
                view->timeline.setTextFilter(timelineText);
                loaded.view = std::move(view);
            }
            return loaded;
        },
        [this](Loaded loaded) { onFinished(std::move(loaded)); });
    updateBusy();
}

void MainWindow::setLaunchOverride(const QString& launcher, const QString& framework)
{
    m_launcher = launcher;
    m_framework = framework;
}

void MainWindow::setSignatureDirs(const QStringList& dirs)
{
    m_signatureDirs = dirs;
    m_hub->setCatalogDirs(dirs);
}

void MainWindow::start(const AnalysisRequest& request)
{
    m_request = request;
    m_request.launcher = m_launcher;
    m_request.framework = m_framework;
    m_request.signatureDirs = m_signatureDirs;
    // No line offsets kept while scanning (8 bytes a line, a fifth of the scan): the Log view indexes the
    // one file it opens, in the background job that prepares it (prepareLog), as klogg does.
    m_request.lineIndex = false;
    resetProgress();
    m_banner->setText(tr("Loading…"));
    const bool warnOnly = logView()->warnOnly();
    const bool timelineWarn = timelineWarnOnly();
    const QString timelineText = m_rankText->text();
    // The older run, if any, stops; its result is never shown.
    m_loadJobs.startJob(
        this,
        [request = m_request, warnOnly, timelineWarn, timelineText](
            const CancelToken& token, const ProgressFn& progress) {
            Loaded loaded;
            loaded.analysis = std::make_shared<Analysis>(analyze(request, &token, progress));
            if (!loaded.analysis->cancelled && !token.isCancelled() && loaded.analysis->currentAttempt()) {
                auto view = std::make_shared<IncidentViewModel>(
                    buildIncidentViewModel(*loaded.analysis, loaded.analysis->current, warnOnly, &token));
                view->timeline.setWarnOnly(timelineWarn);
                view->timeline.setTextFilter(timelineText);
                loaded.view = std::move(view);
            }
            return loaded;
        },
        [this](Loaded loaded) { onFinished(std::move(loaded)); },
        [this](qint64 done, qint64 total) { setProgress(done, total); });
    updateBusy();
}

void MainWindow::resetProgress()
{
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
}

void MainWindow::setProgress(qint64 done, qint64 total)
{
    if (total > 0)
        m_progress->setValue(static_cast<int>(1000 * done / total));
}

// The progress bar and Stop show while a load, a comparison or a verification runs.
void MainWindow::updateBusy()
{
    const bool busy = m_loadJobs.isRunning() || isComparing();
    m_progress->setVisible(busy);
    m_stop->setVisible(busy);
}

void MainWindow::stopJobs()
{
    // A stopped load still hands back what it has: onFinished drops it and says so.
    if (m_loadJobs.isRunning())
        m_loadJobs.cancel();
    // Of a comparison or a verification nothing partial is worth showing: dropped at once.
    if (isComparing()) {
        statusBar()->showMessage(
            m_compareJobs.isRunning() ? tr("Comparison stopped.") : tr("Verification stopped."), 8000);
        m_compareJobs.drop();
        m_verifyJobs.drop();
        Q_EMIT controlStopped();
    }
    updateBusy();
}

void MainWindow::releaseInBackground(std::shared_ptr<Analysis> analysis)
{
    // Freeing a big incident (millions of strings) takes longer than a frame: let a worker do it.
    if (analysis && analysis.use_count() == 1)
        (void)QtConcurrent::run([a = std::move(analysis)]() mutable { a.reset(); });
}

void MainWindow::onFinished(Loaded loaded)
{
    updateBusy();
    std::shared_ptr<Analysis> result = std::move(loaded.analysis);
    if (!result || result->cancelled || m_loadJobs.isCancelled()) {
        // What was shown stays shown, untouched; the partial result goes away off the UI thread.
        loaded.view.reset();
        releaseInBackground(std::move(result));
        const AttemptAnalysis* shown = currentAttempt();
        m_banner->setText(shown ? shown->diagnosis.headline : tr("Loading stopped."));
        statusBar()->showMessage(tr("Loading stopped."), 8000);
        return;
    }
    // A new analysis replaces everything: what still works on the old one stops and never lands.
    for (JobTracker* jobs : { &m_viewJobs, &m_logJobs, &m_compareJobs, &m_verifyJobs })
        jobs->drop();
    m_comparedDivergence.reset(); // it compared the old analysis' diagnosis
    clearSearch();
    clearLog(); // nothing of the previous incident stays in view
    updateBusy();
    std::shared_ptr<Analysis> old = std::move(m_analysis);
    m_analysis = std::move(result);
    m_signatureTitles.clear();
    m_attempts->clear();
    for (const AttemptAnalysis& a : m_analysis->attempts)
        m_attempts->addItem(a.incident.label);
    m_attempts->parentWidget()->setVisible(m_analysis->attempts.size() > 1);
    if (m_analysis->attempts.empty() || !loaded.view) {
        m_attempt = -1;
        m_timeline->setIncident(nullptr, {});
        // Captures without logs: their topology is the answer, as lstopo would show it.
        const bool topologyOnly = m_analysis->attempts.empty() && !m_analysis->topology.hosts.empty();
        const int hosts = static_cast<int>(m_analysis->topology.hosts.size());
        const QString topologyText =
            tr("Topology only, no logs: %n host(s). The Topology panel shows the path "
               "classes, the NIC and CPU binding they imply, and the findings.",
                nullptr, hosts);
        m_banner->setText(
            topologyOnly ? topologyText : tr("Nothing could be read: %1").arg(m_analysis->error));
        setBannerTone(-1);
        m_diagnosis->clear();
        m_rankModel->clear();
        m_topology->setTopology(topologyOnly ? &m_analysis->topology : nullptr,
            topologyOnly ? &m_analysis->capturesOnly : nullptr, -1);
        if (topologyOnly) {
            // No rank used a path: draw every GPU-NIC path where they stay readable (up to 16 per host).
            bool few = true;
            for (const HostTopology& h : m_analysis->topology.hosts)
                few = few && h.gpus.size() * h.nics.size() <= 16;
            m_topology->setShowAllNicPaths(few);
            if (auto* d = qobject_cast<QDockWidget*>(m_topology->parentWidget())) {
                d->show();
                d->raise();
                resizeDocks({ d }, { height() * 3 / 5 }, Qt::Vertical); // the drawing is the answer
            }
        }
        updateStatus(nullptr);
        releaseInBackground(std::move(old));
        Q_EMIT analysisFinished();
        return;
    }
    m_attempts->setCurrentIndex(m_analysis->current);
    applyView(*loaded.view);
    loaded.view.reset();
    releaseInBackground(std::move(old)); // no view points into it any more
    Q_EMIT analysisFinished();
    Q_EMIT attemptShown(m_attempt);
}

void MainWindow::showAttempt(int index)
{
    if (!m_analysis || index < 0 || index >= static_cast<int>(m_analysis->attempts.size()))
        return;
    // Build the attempt's view off the UI thread; a newer switch makes this one stale, and so does another
    // analysis (onFinished drops the job).
    std::shared_ptr<Analysis> analysis = m_analysis;
    const bool warnOnly = logView()->warnOnly();
    const bool timelineWarn = timelineWarnOnly();
    const QString timelineText = m_rankText->text();
    statusBar()->showMessage(tr("Showing %1…").arg(m_attempts->itemText(index)));
    m_viewJobs.startJob(
        this,
        [analysis, index, warnOnly, timelineWarn, timelineText](const CancelToken& token) {
            auto view = std::make_shared<IncidentViewModel>(
                buildIncidentViewModel(*analysis, index, warnOnly, &token));
            view->timeline.setWarnOnly(timelineWarn);
            view->timeline.setTextFilter(timelineText);
            return view;
        },
        [this](const std::shared_ptr<IncidentViewModel>& view) {
            statusBar()->clearMessage();
            if (view->cancelled)
                return;
            applyView(*view);
            Q_EMIT attemptShown(m_attempt);
        });
}

void MainWindow::applyView(IncidentViewModel& view)
{
    m_attempt = view.attempt;
    const AttemptAnalysis* a = currentAttempt();
    if (!a)
        return;
    {
        const QSignalBlocker block(m_attempts);
        m_attempts->setCurrentIndex(m_attempt);
    }
    const Diagnosis& d = a->diagnosis;
    m_signatureTitles = view.signatureTitles;
    m_timeline->setModel(std::move(view.timeline));
    if (view.hasRange)
        m_timeline->setVisibleRange(view.rangeStart, view.rangeEnd);
    m_diagnosis->setFixIdiom(fixIdiomFor(a->incident.launch));
    m_diagnosis->setDiagnosis(&a->incident, &d, &m_analysis->catalog.catalog);
    const int initRank =
        d.initiatingEvent >= 0 ? a->incident.events[static_cast<size_t>(d.initiatingEvent)].rank : -1;
    m_topology->setTopology(&m_analysis->topology, &a->placement, initRank);
    m_banner->setText(d.headline);
    setBannerTone(static_cast<int>(d.failureFound ? Tone::Failure : Tone::Healthy));
    fillRanks(std::move(view.ranks));
    {
        const QSignalBlocker block(m_hostFilter);
        m_hostFilter->clear();
        m_hostFilter->addItem(tr("all hosts"));
        m_hostFilter->addItems(view.hosts);
    }
    // The log of the initiating event was opened by the job; a pending switch of file is stale now.
    if (view.attempt != m_searchAttempt)
        clearSearch();
    m_searchAttempt = view.attempt;
    clearLog();
    if (view.log.file >= 0) {
        showLog(std::move(view.log));
        if (m_timeline->selectedEvent() != d.initiatingEvent)
            m_timeline->selectEvent(d.initiatingEvent);
    }
    updateStatus(&view);
}

} // namespace rankscope
