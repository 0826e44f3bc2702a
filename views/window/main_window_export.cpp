// SPDX-License-Identifier: MIT
// MainWindow: the report export, the comparison with a healthy run and the verification of a fix.
#include "control_run.h"
#include "divergence_view.h"
#include "main_window.h"
#include "report_export.h"
#include "verify_fix.h"
#include "verify_view.h"

#include <QDockWidget>
#include <QFileDialog>
#include <QMessageBox>
#include <QStatusBar>

namespace rankscope {

void MainWindow::exportReportInteractive()
{
    if (!currentAttempt())
        return;
    const QString base = QFileDialog::getSaveFileName(
        this, tr("Export Report (writes .md and .html)"), QStringLiteral("rankscope-report"));
    if (base.isEmpty())
        return;
    QString error;
    if (!exportReport(base, &error))
        QMessageBox::warning(this, tr("Export Report"), error);
    else
        statusBar()->showMessage(tr("Report written: %1.md and %1.html").arg(base), 8000);
}

void MainWindow::compareWithHealthyRun(const QString& path)
{
    if (!currentAttempt())
        return;
    // The analysis outlives the comparison: it is held by the shared pointer captured here.
    std::shared_ptr<Analysis> failing = m_analysis;
    const int attempt = m_attempt;
    AnalysisRequest r;
    r.logPaths << path;
    r.signatureDirs = m_request.signatureDirs;
    statusBar()->showMessage(tr("Comparing with %1…").arg(path));
    if (!m_loadJobs.isRunning()) // the load's progress comes first
        resetProgress();
    // Stop, a newer comparison or another analysis drops it; the token stops both the reading of the
    // control run and the comparison of the two files.
    m_compareJobs.startJob(
        this,
        [failing, attempt, r](const CancelToken& token, const ProgressFn& progress) {
            return compareWithControlRun(
                failing->attempts[static_cast<size_t>(attempt)], r, &token, progress);
        },
        [this, attempt](const Divergence& d) {
            m_divergence->setDivergence(d);
            // The export reports it with the attempt it was compared for (exportReport()).
            m_comparedDivergence = std::make_shared<const Divergence>(d);
            m_comparedAttempt = attempt;
            controlShown(m_divergence);
        },
        [this](qint64 done, qint64 total) { showControlProgress(done, total); });
    updateBusy();
}

void MainWindow::verifyFixWith(const QString& path)
{
    if (!m_analysis)
        return;
    std::shared_ptr<Analysis> before = m_analysis;
    AnalysisRequest r;
    r.logPaths << path;
    r.signatureDirs = m_request.signatureDirs;
    statusBar()->showMessage(tr("Verifying the fix with %1…").arg(path));
    if (!m_loadJobs.isRunning()) // the load's progress comes first
        resetProgress();
    // The token stops the reading of the run after the fix. verifyFix() itself takes no token: stopped
    // while it runs, its result is simply dropped (it is quick next to the reading).
    m_verifyJobs.startJob(
        this,
        [before, r](const CancelToken& token, const ProgressFn& progress) {
            const Analysis after = analyze(r, &token, progress);
            return token.isCancelled() ? VerifyResult {} : verifyFix(*before, after);
        },
        [this](const VerifyResult& v) {
            m_verify->setResult(v);
            controlShown(m_verify);
        },
        [this](qint64 done, qint64 total) { showControlProgress(done, total); });
    updateBusy();
}

void MainWindow::showControlProgress(qint64 done, qint64 total)
{
    if (!m_loadJobs.isRunning())
        setProgress(done, total);
}

void MainWindow::controlShown(QWidget* pane)
{
    if (auto* dock = qobject_cast<QDockWidget*>(pane->parentWidget()))
        dock->raise();
    statusBar()->clearMessage();
    updateBusy();
    Q_EMIT controlFinished();
}

bool MainWindow::exportReport(const QString& basePath, QString* error)
{
    const AttemptAnalysis* a = currentAttempt();
    if (!a) {
        *error = tr("nothing to export: no incident is loaded");
        return false;
    }
    const Divergence* divergence =
        m_comparedDivergence && m_comparedAttempt == m_attempt ? m_comparedDivergence.get() : nullptr;
    return writeReportFiles(basePath, *m_analysis, *a, divergence, m_timeline, m_topology, error);
}

} // namespace rankscope
