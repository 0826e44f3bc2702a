// SPDX-License-Identifier: MIT
// MainWindow: the menus and the attempt bar, recent folders, the clipboard and drag and drop, and the
// status bar's lists of skipped inputs and warnings.
#include "input_discovery.h"
#include "main_window.h"
#include "topology_view.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QStatusBar>
#include <QToolBar>

namespace rankscope {

void MainWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* openFolder = file->addAction(tr("Open &Log Folder…"), this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Open Log Folder"));
        if (!dir.isEmpty())
            openPaths({ dir });
    });
    openFolder->setShortcut(QKeySequence::Open);
    QAction* openFile = file->addAction(tr("Open &File…"), this, [this] {
        const QStringList files = QFileDialog::getOpenFileNames(this, tr("Open Log Files"));
        if (!files.isEmpty())
            openPaths(files);
    });
    openFile->setShortcut(QKeySequence(tr("Ctrl+Shift+O")));
    QAction* openTopo = file->addAction(tr("Open &Topology…"), this, [this] {
        const QStringList files = QFileDialog::getOpenFileNames(this, tr("Open Topology Capture"));
        if (!files.isEmpty())
            addTopology(files);
    });
    openTopo->setShortcut(QKeySequence(tr("Ctrl+T")));
    file->addAction(tr("C&lear Topology"), this, [this] {
        if (m_analysis && !m_analysis->topologyPaths.isEmpty())
            removeTopology(m_analysis->topologyPaths);
    });
    file->addAction(tr("&Compare with Healthy Run…"), this, &MainWindow::chooseHealthyRun);
    file->addAction(tr("&Verify Fix With…"), this, &MainWindow::chooseFixedRun);
    m_recentMenu = file->addMenu(tr("&Recent"));
    rebuildRecentMenu();
    file->addSeparator();
    QAction* paste = file->addAction(tr("&Paste Traceback"), this, &MainWindow::pasteFromClipboard);
    paste->setShortcut(QKeySequence::Paste);
    QAction* exportAct = file->addAction(tr("&Export Report…"), this, &MainWindow::exportReportInteractive);
    exportAct->setShortcut(QKeySequence(tr("Ctrl+E")));
    file->addAction(tr("Export &Topology Image…"), this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export Topology Graph"),
            QStringLiteral("topology.svg"), tr("SVG (*.svg);;PNG (*.png)"));
        if (path.isEmpty())
            return;
        QString error;
        const bool ok = path.endsWith(QLatin1String(".png"), Qt::CaseInsensitive)
            ? m_topology->exportPng(path, &error)
            : m_topology->exportSvg(path, &error);
        if (!ok)
            QMessageBox::warning(this, tr("Export Topology Graph"), error);
        else
            statusBar()->showMessage(tr("Topology graph written: %1").arg(path), 8000);
    });
    file->addSeparator();
    file->addAction(tr("&Quit"), this, &QWidget::close)->setShortcut(QKeySequence::Quit);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    QAction* searchAll = view->addAction(tr("&Search Everything…"), this, &MainWindow::showSearch);
    searchAll->setObjectName(QStringLiteral("searchEverything"));
    searchAll->setShortcut(QKeySequence(tr("Ctrl+Shift+F")));
    searchAll->setShortcutContext(Qt::ApplicationShortcut);
    QAction* hub = view->addAction(tr("Signature &Hub"), this, [this] { showSignatureInHub(QString()); });
    hub->setObjectName(QStringLiteral("signatureHub"));
    hub->setShortcut(QKeySequence(tr("Ctrl+Shift+H")));
    hub->setShortcutContext(Qt::ApplicationShortcut);
    buildThemeMenu(view);
    view->addSeparator();
    for (QDockWidget* d : findChildren<QDockWidget*>())
        view->addAction(d->toggleViewAction());

    QToolBar* bar = addToolBar(tr("Attempt"));
    bar->setObjectName(QStringLiteral("attemptbar"));
    m_attempts = new QComboBox;
    m_attempts->setObjectName(QStringLiteral("attempts"));
    m_attempts->setToolTip(tr("Elastic restarts: each attempt is an incident of its own"));
    bar->addWidget(new QLabel(tr(" Attempt: ")));
    bar->addWidget(m_attempts);
    bar->setVisible(false);
    connect(m_attempts, &QComboBox::activated, this, [this](int i) { showAttempt(i); });

    buildHelpMenu();
}

void MainWindow::chooseHealthyRun()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Healthy run (control)"));
    if (!dir.isEmpty())
        compareWithHealthyRun(dir);
}

void MainWindow::chooseFixedRun()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Run after the fix"));
    if (!dir.isEmpty())
        verifyFixWith(dir);
}

void MainWindow::addRecent(const QStringList& paths)
{
    QSettings settings;
    QStringList recent = settings.value(QStringLiteral("recent")).toStringList();
    for (const QString& p : paths) {
        const QString abs = QFileInfo(p).absoluteFilePath();
        recent.removeAll(abs);
        recent.prepend(abs);
    }
    settings.setValue(QStringLiteral("recent"), recent.mid(0, 10));
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu()
{
    if (!m_recentMenu)
        return;
    m_recentMenu->clear();
    const QStringList recent = QSettings().value(QStringLiteral("recent")).toStringList();
    for (const QString& p : recent)
        m_recentMenu->addAction(p, this, [this, p] { openPaths({ p }); });
    m_recentMenu->setEnabled(!recent.isEmpty());
}

void MainWindow::pasteFromClipboard()
{
    const QString text = QApplication::clipboard()->text();
    if (!text.trimmed().isEmpty())
        openPastedText(text);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls() || event->mimeData()->hasText())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    const QMimeData* mime = event->mimeData();
    QStringList paths;
    for (const QUrl& url : mime->urls()) {
        if (url.isLocalFile())
            paths << url.toLocalFile();
    }
    if (!paths.isEmpty()) {
        // Topology captures dropped on an open incident join it; anything else starts a new one. Input
        // discovery tells a capture from a log, as it does for the analysis; a folder is always logs (the
        // analysis finds the captures in it), so only the files dropped on their own are looked at here.
        QStringList files;
        for (const QString& p : paths) {
            if (QFileInfo(p).isFile())
                files << p;
        }
        QStringList captures;
        for (const InputFile& f : discoverInputs(files, {}, nullptr).topology)
            captures << QFileInfo(f.path).absoluteFilePath();
        QStringList logs, topo;
        for (const QString& p : paths)
            (captures.contains(QFileInfo(p).absoluteFilePath()) ? topo : logs) << p;
        if (logs.isEmpty() && m_analysis)
            addTopology(topo);
        else
            openPaths(logs + topo);
    } else if (mime->hasText()) {
        openPastedText(mime->text());
    }
    event->acceptProposedAction();
}

void MainWindow::showSkipped()
{
    const AttemptAnalysis* a = currentAttempt();
    if (!a)
        return;
    QStringList lines;
    for (const SkippedInput& s : a->incident.skipped)
        lines << QStringLiteral("%1 — %2").arg(s.path, s.reason);
    QMessageBox box(QMessageBox::Information, tr("Skipped inputs"),
        tr("%1 input(s) were not analysed:").arg(lines.size()), QMessageBox::Ok, this);
    box.setDetailedText(lines.join(QLatin1Char('\n')));
    box.exec();
}

void MainWindow::showWarnings()
{
    const AttemptAnalysis* a = currentAttempt();
    if (!a)
        return;
    QMessageBox box(QMessageBox::Information, tr("Warnings"),
        tr("%1 warning(s) about this incident:").arg(a->incident.warnings.size()), QMessageBox::Ok, this);
    box.setDetailedText(a->incident.warnings.join(QLatin1Char('\n')));
    box.exec();
}

} // namespace rankscope
