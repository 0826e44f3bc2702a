#include "main_window.h"

#include "control_compare.h"
#include "diagnosis_pane.h"
#include "divergence_view.h"
#include "log_panel.h"
#include "log_view.h"
#include "rank_list_delegate.h"
#include "report_export.h"
#include "timeline_view.h"
#include "topology_view.h"
#include "verify_fix.h"
#include "verify_view.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPointer>
#include <QProgressBar>
#include <QSettings>
#include <QStatusBar>
#include <QToolBar>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace rankscope {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
{
    setWindowTitle(tr("Rankscope"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/rankscope.svg")));
    setAcceptDrops(true);
    setDockOptions(AnimatedDocks | AllowTabbedDocks | AllowNestedDocks);

    auto* central = new QWidget;
    auto* v = new QVBoxLayout(central);
    v->setContentsMargins(0, 0, 0, 0);
    v->setSpacing(0);
    m_banner =
        new QLabel(tr("Drop a log folder, files or a traceback here — or File ▸ Open Log Folder (Ctrl+O)."));
    m_banner->setWordWrap(true);
    m_banner->setMargin(8);
    m_banner->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont bf = m_banner->font();
    bf.setPointSizeF(bf.pointSizeF() * 1.25);
    bf.setBold(true);
    m_banner->setFont(bf);
    v->addWidget(m_banner);
    // Rank filters for the timeline: by host, by having WARN-or-worse events, by text.
    auto* filters = new QHBoxLayout;
    filters->setContentsMargins(6, 2, 6, 2);
    m_hostFilter = new QComboBox;
    m_hostFilter->setToolTip(tr("Show the ranks of one host"));
    auto* withEvents = new QCheckBox(tr("Only ranks with WARN+"));
    auto* text = new QLineEdit;
    m_rankWarnOnly = withEvents;
    m_rankText = text;
    text->setPlaceholderText(tr("Filter ranks (host, rank, text)…"));
    text->setClearButtonEnabled(true);
    text->setMinimumWidth(180);
    text->setToolTip(
        tr("Timeline keys: W/S zoom, A/D pan, F fit, Home initiating event, N/P next/previous WARN"));
    filters->addWidget(new QLabel(tr("Host:")));
    filters->addWidget(m_hostFilter);
    filters->addWidget(withEvents);
    filters->addWidget(text, 1);
    v->addLayout(filters);
    m_timeline = new TimelineView;
    v->addWidget(m_timeline, 1);
    connect(m_hostFilter, &QComboBox::currentIndexChanged, this,
        [this](int i) { m_timeline->setHostFilter(i <= 0 ? QString() : m_hostFilter->itemText(i)); });
    connect(withEvents, &QCheckBox::toggled, m_timeline, &TimelineView::setWarnOnly);
    connect(text, &QLineEdit::textChanged, m_timeline, &TimelineView::setTextFilter);
    setCentralWidget(central);

    buildDocks();
    buildMenus();

    m_progress = new QProgressBar;
    m_progress->setMaximumWidth(220);
    m_progress->setVisible(false);
    m_progress->setObjectName(QStringLiteral("loadProgress"));
    m_stop = new QToolButton;
    m_stop->setObjectName(QStringLiteral("stopLoading"));
    m_stop->setText(tr("Stop"));
    m_stop->setVisible(false);
    connect(m_stop, &QToolButton::clicked, this, [this] {
        if (m_cancel)
            m_cancel->cancel();
    });
    m_statusFiles = new QLabel;
    m_statusSkipped = new QToolButton;
    m_statusSkipped->setAutoRaise(true);
    m_statusSkipped->setVisible(false);
    connect(m_statusSkipped, &QToolButton::clicked, this, &MainWindow::showSkipped);
    m_statusWarnings = new QToolButton;
    m_statusWarnings->setAutoRaise(true);
    m_statusWarnings->setVisible(false);
    connect(m_statusWarnings, &QToolButton::clicked, this, &MainWindow::showWarnings);
    statusBar()->addWidget(m_statusFiles, 1);
    statusBar()->addPermanentWidget(m_statusSkipped);
    statusBar()->addPermanentWidget(m_statusWarnings);
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_stop);

    connect(&m_watcher, &QFutureWatcher<Loaded>::finished, this, &MainWindow::onFinished);
    connect(m_timeline, &TimelineView::eventSelected, this, &MainWindow::showEvent);
    connect(m_diagnosis, &DiagnosisPane::eventActivated, this, &MainWindow::showEvent);

    resize(1500, 950);
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
}

MainWindow::~MainWindow()
{
    for (const auto& token : { m_cancel, m_viewCancel, m_logCancel }) {
        if (token)
            token->cancel();
    }
    if (m_watcher.isRunning())
        m_watcher.waitForFinished();
}

void MainWindow::buildDocks()
{
    auto dock = [this](const QString& title, const QString& name, QWidget* w, Qt::DockWidgetArea area) {
        auto* d = new QDockWidget(title, this);
        d->setObjectName(name);
        d->setWidget(w);
        addDockWidget(area, d);
        return d;
    };
    m_diagnosis = new DiagnosisPane;
    QDockWidget* diag =
        dock(tr("Diagnosis"), QStringLiteral("diagnosis"), m_diagnosis, Qt::RightDockWidgetArea);
    diag->setMinimumWidth(520);

    m_ranks = new QTreeWidget;
    m_ranks->setObjectName(QStringLiteral("ranks"));
    m_ranks->setHeaderLabels({ tr("Rank"), tr("Host"), tr("GPU"), tr("First WARN"), tr("Message") });
    m_ranks->setRootIsDecorated(false);
    m_ranks->setUniformRowHeights(true);
    m_ranks->setItemDelegate(new RankListDelegate(m_ranks));
    m_ranks->setAlternatingRowColors(true);
    m_ranks->header()->setStretchLastSection(true);
    // Fitting the columns samples rows; the rows are alike, and a thousand of them cost a frame.
    m_ranks->header()->setResizeContentsPrecision(64);
    connect(m_ranks, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) {
        const int ev = item->data(0, Qt::UserRole).toInt();
        if (ev >= 0)
            showEvent(ev);
    });
    connect(m_ranks, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem* item) {
        const int ev = item->data(0, Qt::UserRole).toInt();
        if (ev >= 0)
            showEvent(ev);
    });
    QDockWidget* ranks = dock(tr("Ranks"), QStringLiteral("ranks"), m_ranks, Qt::LeftDockWidgetArea);
    ranks->setMinimumWidth(220);
    // First start: the answer (diagnosis) gets the most room, then the timeline.
    resizeDocks({ ranks, diag }, { 260, 760 }, Qt::Horizontal);

    m_log = new LogPanel;
    QDockWidget* log = dock(tr("Log"), QStringLiteral("log"), m_log, Qt::BottomDockWidgetArea);
    m_topology = new TopologyView;
    QDockWidget* topo =
        dock(tr("Topology"), QStringLiteral("topology"), m_topology, Qt::BottomDockWidgetArea);
    tabifyDockWidget(log, topo);
    m_divergence = new DivergenceView;
    QDockWidget* div =
        dock(tr("Divergence"), QStringLiteral("divergence"), m_divergence, Qt::BottomDockWidgetArea);
    tabifyDockWidget(topo, div);
    m_verify = new VerifyView;
    QDockWidget* ver = dock(tr("Verify Fix"), QStringLiteral("verify"), m_verify, Qt::BottomDockWidgetArea);
    tabifyDockWidget(div, ver);
    log->raise();
}

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
    file->addAction(tr("&Compare with Healthy Run…"), this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Healthy run (control)"));
        if (!dir.isEmpty())
            compareWithHealthyRun(dir);
    });
    file->addAction(tr("&Verify Fix With…"), this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Run after the fix"));
        if (!dir.isEmpty())
            verifyFixWith(dir);
    });
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

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Keyboard"), this, [this] {
        QMessageBox::information(this, tr("Keyboard"),
            tr("Timeline: W/S zoom, A/D pan, F fit, Home initiating event, N/P next/previous WARN or worse, "
               "drag to zoom into a range.\nCtrl+O open folder, Ctrl+T open topology, Ctrl+V paste a "
               "traceback, "
               "Ctrl+E export report."));
    });
}

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
    AnalysisRequest r;
    r.pastedText = text;
    start(r);
}

void MainWindow::addTopology(const QStringList& paths)
{
    AnalysisRequest r = m_request;
    r.topologyPaths << paths;
    start(r);
}

LogView* MainWindow::logView() const
{
    return m_log->view();
}

bool MainWindow::isLoading() const
{
    return m_watcher.isRunning() || m_viewCancel != nullptr;
}

const AttemptAnalysis* MainWindow::currentAttempt() const
{
    if (!m_analysis || m_attempt < 0 || m_attempt >= static_cast<int>(m_analysis->attempts.size()))
        return nullptr;
    return &m_analysis->attempts[static_cast<size_t>(m_attempt)];
}

void MainWindow::start(const AnalysisRequest& request)
{
    if (m_cancel)
        m_cancel->cancel(); // the older run stops; its result is never shown
    m_request = request;
    auto token = std::make_shared<CancelToken>();
    m_cancel = token;
    const quint64 generation = ++m_generation;
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    m_progress->setVisible(true);
    m_stop->setVisible(true);
    m_banner->setText(tr("Loading…"));
    QPointer<MainWindow> self(this);
    auto progress = [self, generation](qint64 done, qint64 total) {
        QMetaObject::invokeMethod(
            qApp,
            [self, generation, done, total] {
                if (self && self->m_generation == generation && total > 0)
                    self->m_progress->setValue(static_cast<int>(1000 * done / total));
            },
            Qt::QueuedConnection);
    };
    const bool warnOnly = logView()->warnOnly();
    const bool timelineWarn = timelineWarnOnly();
    const QString timelineText = m_rankText->text();
    m_watcher.setFuture(QtConcurrent::run([request, token, progress, warnOnly, timelineWarn, timelineText] {
        Loaded loaded;
        loaded.analysis = std::make_shared<Analysis>(analyze(request, token.get(), progress));
        if (!loaded.analysis->cancelled && !token->isCancelled() && loaded.analysis->currentAttempt()) {
            auto view = std::make_shared<IncidentViewModel>(
                buildIncidentViewModel(*loaded.analysis, loaded.analysis->current, warnOnly, token.get()));
            view->timeline.setWarnOnly(timelineWarn);
            view->timeline.setTextFilter(timelineText);
            loaded.view = std::move(view);
        }
        return loaded;
    }));
}

bool MainWindow::timelineWarnOnly() const
{
    return m_rankWarnOnly->isChecked();
}

void MainWindow::releaseInBackground(std::shared_ptr<Analysis> analysis)
{
    // Freeing a big incident (millions of strings) takes longer than a frame: let a worker do it.
    if (analysis && analysis.use_count() == 1)
        (void)QtConcurrent::run([a = std::move(analysis)]() mutable { a.reset(); });
}

void MainWindow::onFinished()
{
    Loaded loaded = m_watcher.future().takeResult();
    m_progress->setVisible(false);
    m_stop->setVisible(false);
    std::shared_ptr<Analysis> result = std::move(loaded.analysis);
    if (!result || result->cancelled || m_cancel->isCancelled()) {
        // What was shown stays shown, untouched; the partial result goes away off the UI thread.
        loaded.view.reset();
        releaseInBackground(std::move(result));
        const AttemptAnalysis* shown = currentAttempt();
        m_banner->setText(shown ? shown->diagnosis.headline : tr("Loading stopped."));
        statusBar()->showMessage(tr("Loading stopped."), 8000);
        return;
    }
    // A new analysis replaces everything: cancel what still works on the old one.
    for (auto* token : { &m_viewCancel, &m_logCancel }) {
        if (*token)
            (*token)->cancel();
        token->reset();
    }
    ++m_viewGeneration;
    ++m_logGeneration;
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
        m_banner->setText(tr("Nothing could be read: %1").arg(m_analysis->error));
        m_banner->setStyleSheet(QString());
        m_diagnosis->clear();
        m_ranks->clear();
        m_topology->setTopology(nullptr, nullptr, -1);
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
    // Build the attempt's view off the UI thread; a newer switch makes this one stale.
    if (m_viewCancel)
        m_viewCancel->cancel();
    auto token = std::make_shared<CancelToken>();
    m_viewCancel = token;
    const quint64 generation = ++m_viewGeneration;
    std::shared_ptr<Analysis> analysis = m_analysis;
    const bool warnOnly = logView()->warnOnly();
    const bool timelineWarn = timelineWarnOnly();
    const QString timelineText = m_rankText->text();
    statusBar()->showMessage(tr("Showing %1…").arg(m_attempts->itemText(index)));
    QtConcurrent::run([analysis, index, warnOnly, timelineWarn, timelineText, token] {
        auto view = std::make_shared<IncidentViewModel>(
            buildIncidentViewModel(*analysis, index, warnOnly, token.get()));
        view->timeline.setWarnOnly(timelineWarn);
        view->timeline.setTextFilter(timelineText);
        return view;
    }).then(this, [this, generation, analysis](std::shared_ptr<IncidentViewModel> view) {
        if (generation != m_viewGeneration || analysis != m_analysis)
            return; // a newer switch or another analysis since
        m_viewCancel.reset();
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
    m_diagnosis->setDiagnosis(&a->incident, &d, &m_analysis->catalog.catalog);
    const int initRank =
        d.initiatingEvent >= 0 ? a->incident.events[static_cast<size_t>(d.initiatingEvent)].rank : -1;
    m_topology->setTopology(&m_analysis->topology, &a->placement, initRank);
    m_banner->setText(d.headline);
    const QString bg = d.failureFound ? QStringLiteral("#fdecef") : QStringLiteral("#e8f5e9");
    const QString fg = d.failureFound ? QStringLiteral("#8a0f2e") : QStringLiteral("#1b5e20");
    m_banner->setStyleSheet(
        QStringLiteral("QLabel { background: %1; color: %2; border-bottom: 1px solid %2; }").arg(bg, fg));
    fillRanks(view.ranks);
    {
        const QSignalBlocker block(m_hostFilter);
        m_hostFilter->clear();
        m_hostFilter->addItem(tr("all hosts"));
        m_hostFilter->addItems(view.hosts);
    }
    // The log of the initiating event was opened by the job; a pending switch of file is stale now.
    if (m_logCancel)
        m_logCancel->cancel();
    m_logCancel.reset();
    ++m_logGeneration;
    m_logFile = -1;
    if (view.log.file >= 0) {
        showLog(std::move(view.log));
        if (m_timeline->selectedEvent() != d.initiatingEvent)
            m_timeline->selectEvent(d.initiatingEvent);
    }
    updateStatus(&view);
}

void MainWindow::showEvent(int eventIndex)
{
    const AttemptAnalysis* a = currentAttempt();
    if (!a || eventIndex < 0 || eventIndex >= static_cast<int>(a->incident.events.size()))
        return;
    const LogEvent& e = a->incident.events[static_cast<size_t>(eventIndex)];
    if (m_timeline->selectedEvent() != eventIndex)
        m_timeline->selectEvent(eventIndex); // emits eventSelected, which comes back here once
    if (m_logCancel)
        m_logCancel->cancel();
    m_logCancel.reset();
    const quint64 generation = ++m_logGeneration;
    if (e.file == m_logFile) { // the file shown: only move (a pending switch to another file is dropped)
        logView()->goToLine(e.line);
        m_log->setFileLabel(
            QStringLiteral("<b>%1</b> · line %2 · rank %3")
                .arg(a->incident.files[static_cast<size_t>(e.file)].displayPath.toHtmlEscaped())
                .arg(e.line)
                .arg(e.rank >= 0 ? QString::number(e.rank) : tr("unattributed")));
        return;
    }
    // Another file: open it (its line index, marks, the WARN+ filter) off the UI thread.
    auto token = std::make_shared<CancelToken>();
    m_logCancel = token;
    std::shared_ptr<Analysis> analysis = m_analysis;
    const int attempt = m_attempt;
    const QStringList titles = m_signatureTitles;
    const bool warnOnly = logView()->warnOnly();
    const int file = e.file;
    const qint64 line = e.line;
    const int rank = e.rank;
    QtConcurrent::run([analysis, attempt, file, line, rank, titles, warnOnly, token] {
        return std::make_shared<PreparedLog>(
            prepareLog(analysis->attempts[static_cast<size_t>(attempt)].incident, file, line, rank, titles,
                warnOnly, token.get()));
    }).then(this, [this, generation, analysis](std::shared_ptr<PreparedLog> log) {
        if (generation != m_logGeneration || analysis != m_analysis)
            return;
        m_logCancel.reset();
        showLog(std::move(*log));
    });
}

void MainWindow::showLog(PreparedLog log)
{
    const AttemptAnalysis* a = currentAttempt();
    if (!a || log.file < 0)
        return;
    m_logFile = log.file;
    const FileInfo& f = a->incident.files[static_cast<size_t>(log.file)];
    m_log->setFileLabel(QStringLiteral("<b>%1</b> · line %2 · rank %3")
                            .arg(f.displayPath.toHtmlEscaped())
                            .arg(log.line)
                            .arg(log.rank >= 0 ? QString::number(log.rank) : tr("unattributed")));
    logView()->showPrepared(std::move(log));
}

void MainWindow::fillRanks(const std::vector<RankRow>& rows)
{
    m_ranks->clear();
    QList<QTreeWidgetItem*> items;
    items.reserve(static_cast<qsizetype>(rows.size()));
    for (const RankRow& r : rows) {
        auto* item = new QTreeWidgetItem;
        item->setData(0, Qt::DisplayRole, r.rank);
        item->setText(1, r.host);
        item->setText(2, r.gpu);
        item->setData(0, Qt::UserRole, r.firstWarn);
        if (r.firstWarn >= 0) {
            item->setText(3, r.firstWarnTimed ? r.firstWarnTime : tr("no time"));
            item->setText(4, r.message);
            item->setToolTip(4, r.tooltip);
            if (r.initiating) {
                QFont f = item->font(0);
                f.setBold(true);
                for (int c = 0; c < 5; ++c)
                    item->setFont(c, f);
            }
        }
        items << item;
    }
    m_ranks->addTopLevelItems(items);
    for (int c = 0; c < 4; ++c)
        m_ranks->resizeColumnToContents(c);
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
        tr("%1 files · %2 ranks · %3 hosts · %4 MB · %5 events%6")
            .arg(view->files)
            .arg(view->rankCount)
            .arg(view->hostCount)
            .arg(static_cast<double>(view->bytes) / 1e6, 0, 'f', 1)
            .arg(view->events)
            .arg(view->topologyHosts == 0 ? QString()
                                          : tr(" · topology: %1 host(s)").arg(view->topologyHosts)));
    m_statusSkipped->setText(tr("%1 skipped").arg(inc.skipped.size()));
    m_statusSkipped->setVisible(!inc.skipped.empty());
    m_statusWarnings->setText(tr("%1 warnings").arg(inc.warnings.size()));
    m_statusWarnings->setVisible(!inc.warnings.isEmpty());
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
        // Topology captures dropped on an open incident join it; anything else starts a new one.
        QStringList logs, topo;
        for (const QString& p : paths) {
            QFile f(p);
            if (QFileInfo(p).isFile() && f.open(QIODevice::ReadOnly)
                && detectTopologyFormat(f.read(65536)) != TopologyFormat::Unknown)
                topo << p;
            else
                logs << p;
        }
        if (logs.isEmpty() && m_analysis)
            addTopology(topo);
        else
            openPaths(logs + topo);
    } else if (mime->hasText()) {
        openPastedText(mime->text());
    }
    event->acceptProposedAction();
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    QMainWindow::closeEvent(event);
}

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
