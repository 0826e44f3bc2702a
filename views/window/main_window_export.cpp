// SPDX-License-Identifier: MIT
// MainWindow: the report export, the comparison with a healthy run and the verification of a fix.
#include "control_compare.h"
#include "divergence_view.h"
#include "main_window.h"
#include "report_export.h"
#include "verify_fix.h"
#include "verify_view.h"

#include <QDockWidget>
#include <QFileDialog>
#include <QMessageBox>
#include <QStatusBar>
#include <QtConcurrent/QtConcurrentRun>

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
    QtConcurrent::run([failing, attempt, r] {
        const Analysis control = analyze(r);
        const AttemptAnalysis& a = failing->attempts[static_cast<size_t>(attempt)];
        if (!control.currentAttempt()) {
            Divergence d;
            d.note = QStringLiteral("the control run could not be read: %1").arg(control.error);
            return d;
        }
        return compareWithControl(a.incident, a.diagnosis, control.currentAttempt()->incident);
    }).then(this, [this](const Divergence& d) {
        m_divergence->setDivergence(d);
        if (auto* dock = qobject_cast<QDockWidget*>(m_divergence->parentWidget()))
            dock->raise();
        statusBar()->clearMessage();
        Q_EMIT controlFinished();
    });
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
    QtConcurrent::run([before, r] {
        const Analysis after = analyze(r);
        return verifyFix(*before, after);
    }).then(this, [this](const VerifyResult& v) {
        m_verify->setResult(v);
        if (auto* dock = qobject_cast<QDockWidget*>(m_verify->parentWidget()))
            dock->raise();
        statusBar()->clearMessage();
        Q_EMIT controlFinished();
    });
}

bool MainWindow::exportReport(const QString& basePath, QString* error)
{
    const AttemptAnalysis* a = currentAttempt();
    if (!a) {
        *error = tr("nothing to export: no incident is loaded");
        return false;
    }
    return writeReportFiles(basePath, *m_analysis, *a, m_timeline, m_topology, error);
}

} // namespace rankscope
