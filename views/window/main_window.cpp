// SPDX-License-Identifier: MIT
#include "main_window.h"

#include "diagnosis_pane.h"
#include "divergence_view.h"
#include "hub_panel.h"
#include "log_panel.h"
#include "log_view.h"
#include "rank_list_delegate.h"
#include "rank_table_model.h"
#include "rank_table_proxy.h"
#include "search_panel.h"
#include "severity_palette.h"
#include "timeline_view.h"
#include "topology_view.h"
#include "verify_view.h"

#include <QCheckBox>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QEvent>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>

namespace rankscope {

namespace {

// A pane whose own minimum is more than a small screen can give it scrolls inside its dock, instead of
// forcing the whole window past the screen: at a scale factor of 2 a 1600x1000 screen is 800x500 logical
// pixels, and the Hub, Topology and Verify panes alone wanted 457, 279 and 247 of them. A pane that is a
// scroll area already (the diagnosis, the rank table) shrinks as it is.
QWidget* scrollsWhenSmall(QWidget* pane)
{
    if (qobject_cast<QAbstractScrollArea*>(pane))
        return pane;
    auto* area = new QScrollArea;
    area->setObjectName(pane->objectName() + QStringLiteral("Scroll"));
    area->setFrameShape(QFrame::NoFrame);
    area->setWidgetResizable(true); // the pane gets the whole dock when the dock is larger than its minimum
    area->setWidget(pane);
    return area;
}

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
{
    setWindowTitle(tr("Rankscope"));
    setAcceptDrops(true);
    setDockOptions(AnimatedDocks | AllowTabbedDocks | AllowNestedDocks);

    auto* central = new QWidget;
    auto* v = new QVBoxLayout(central);
    v->setContentsMargins(0, 0, 0, 0);
    v->setSpacing(0);
    m_banner =
        new QLabel(tr("Drop a log folder, files or a traceback here — or File ▸ Open Log Folder (Ctrl+O)."));
    m_banner->setObjectName(QStringLiteral("banner"));
    m_banner->setWordWrap(true); // a long headline takes the lines it needs
    m_banner->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Minimum);
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
    // A long host name must not widen the window's minimum: the list pops up as wide as it needs.
    m_hostFilter->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_hostFilter->setMinimumContentsLength(8);
    // Short labels: the row's minimum is the central widget's, and with the docks beside it that must fit
    // in 800 logical pixels (1600 at a scale factor of 2).
    auto* withEvents = new QCheckBox(tr("WARN+ ranks"));
    withEvents->setToolTip(tr("Show only the ranks with WARN-or-worse events"));
    auto* text = new QLineEdit;
    m_rankWarnOnly = withEvents;
    m_rankText = text;
    text->setPlaceholderText(tr("Filter ranks (host, rank, text)…"));
    text->setClearButtonEnabled(true);
    text->setMinimumWidth(80);
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
    // After the timeline applied a filter (connected first, so called first), the Ranks table follows.
    connect(m_hostFilter, &QComboBox::currentIndexChanged, this, &MainWindow::syncRankFilter);
    connect(withEvents, &QCheckBox::toggled, this, &MainWindow::syncRankFilter);
    connect(text, &QLineEdit::textChanged, this, &MainWindow::syncRankFilter);
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
    connect(m_stop, &QToolButton::clicked, this, &MainWindow::stopJobs);
    m_statusFiles = new QLabel;
    m_statusFiles->setObjectName(QStringLiteral("statusSummary"));
    m_statusSkipped = new QToolButton;
    m_statusSkipped->setAutoRaise(true);
    m_statusSkipped->setVisible(false);
    connect(m_statusSkipped, &QToolButton::clicked, this, &MainWindow::showSkipped);
    m_statusWarnings = new QToolButton;
    m_statusWarnings->setObjectName(QStringLiteral("statusWarnings"));
    m_statusWarnings->setAutoRaise(true);
    m_statusWarnings->setVisible(false);
    connect(m_statusWarnings, &QToolButton::clicked, this, &MainWindow::showWarnings);
    statusBar()->addWidget(m_statusFiles, 1);
    statusBar()->addPermanentWidget(m_statusSkipped);
    statusBar()->addPermanentWidget(m_statusWarnings);
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_stop);
    // The bar keeps the height it has while loading. The progress bar is a pixel taller than a label:
    // hiding it at the end of a load would otherwise resize every dock by that pixel, and lay out and
    // paint the whole window again in the same turn as the new incident's first paint.
    m_progress->setVisible(true);
    m_stop->setVisible(true);
    statusBar()->setMinimumHeight(statusBar()->sizeHint().height());
    m_progress->setVisible(false);
    m_stop->setVisible(false);

    connect(m_timeline, &TimelineView::eventSelected, this, &MainWindow::revealEvent);
    connect(m_diagnosis, &DiagnosisPane::eventActivated, this, &MainWindow::revealEvent);

    setTheme(savedTheme(), false);
    QSettings settings;
    fitToScreen(QSize(1500, 950));
    if (restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray()))
        fitToScreen(size()); // a geometry saved on a bigger screen, or at a smaller scale, still fits
    if (!restoreState(settings.value(QStringLiteral("window/state")).toByteArray())) {
        // First start: once the window has its size, the timeline gets most of it, the diagnosis a column
        // and the Ranks table a narrower one. Below 1,200 px (a laptop, a scale factor of 2) two columns
        // left the time area about a quarter of the window: Ranks and Search are then tabs beside the
        // Diagnosis, in one column, the Diagnosis in front.
        QTimer::singleShot(0, this, [this] {
            auto* ranks = findChild<QDockWidget*>(QStringLiteral("ranks"));
            auto* search = findChild<QDockWidget*>(QStringLiteral("search"));
            auto* diag = findChild<QDockWidget*>(QStringLiteral("diagnosis"));
            if (!ranks || !diag)
                return;
            if (width() < 1200) {
                tabifyDockWidget(diag, ranks);
                if (search)
                    tabifyDockWidget(diag, search);
                diag->raise();
                resizeDocks({ diag }, { width() * 28 / 100 }, Qt::Horizontal);
            } else {
                resizeDocks({ ranks, diag }, { width() * 11 / 100, width() * 22 / 100 }, Qt::Horizontal);
            }
        });
    }
}

QSize MainWindow::fitSize(QSize preferred) const
{
    const QScreen* s = screen() ? screen() : QGuiApplication::primaryScreen();
    if (!s)
        return preferred;
    // Logical pixels: at a scale factor of 2 a 1600x1000 screen is 800x500 of them. The frame takes some.
    const QSize avail = s->availableGeometry().size() - QSize(16, 40);
    return preferred.boundedTo(avail).expandedTo(QSize(320, 240));
}

void MainWindow::fitToScreen(QSize preferred)
{
    const QScreen* s = screen() ? screen() : QGuiApplication::primaryScreen();
    resize(fitSize(preferred));
    if (!s)
        return;
    const QRect avail = s->availableGeometry();
    QRect frame(pos(), size() + QSize(16, 40));
    if (!avail.contains(frame)) {
        frame.moveCenter(avail.center());
        move(std::max(frame.left(), avail.left()), std::max(frame.top(), avail.top()));
    }
}

QString MainWindow::bannerText() const
{
    return m_banner->text();
}

void MainWindow::setBannerTone(int tone)
{
    m_bannerTone = tone;
    if (tone < 0) {
        m_banner->setStyleSheet(QString());
        return;
    }
    const ColorPair c = toneColors(static_cast<Tone>(tone), palette());
    m_banner->setStyleSheet(
        QStringLiteral("QLabel { background: %1; color: %2; border-bottom: 1px solid %2; }")
            .arg(c.background.name(), c.text.name()));
}

void MainWindow::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::PaletteChange)
        setBannerTone(m_bannerTone); // the theme changed: the banner's tint follows
    QMainWindow::changeEvent(event);
}

MainWindow::~MainWindow()
{
    // Nothing lands on a window being destroyed. The analysis under way stops at its next look at the
    // token and is waited for, so that no load outlives its window on the thread pool.
    for (JobTracker* jobs :
        { &m_loadJobs, &m_viewJobs, &m_logJobs, &m_compareJobs, &m_verifyJobs, &m_searchJobs })
        jobs->drop();
    m_loadJobs.waitForFinished();
}

void MainWindow::buildDocks()
{
    auto dock = [this](const QString& title, const QString& name, QWidget* w, Qt::DockWidgetArea area) {
        auto* d = new QDockWidget(title, this);
        d->setObjectName(name);
        d->setWidget(scrollsWhenSmall(w));
        addDockWidget(area, d);
        return d;
    };
    m_diagnosis = new DiagnosisPane;
    QDockWidget* diag =
        dock(tr("Diagnosis"), QStringLiteral("diagnosis"), m_diagnosis, Qt::RightDockWidgetArea);
    // Small minimums, so that the window fits an 800-pixel-wide screen (1600 at a scale factor of 2).
    diag->setMinimumWidth(240);

    // The rank list: a table model of core/present, sorted (by rank at first) and dressed by the proxy.
    m_rankModel = new RankTableModel(this);
    m_rankProxy = new RankTableProxy(this);
    m_rankProxy->setSourceModel(m_rankModel);
    m_ranks = new QTableView;
    m_ranks->setObjectName(QStringLiteral("ranks"));
    m_ranks->setModel(m_rankProxy);
    m_ranks->setItemDelegate(new RankListDelegate(m_ranks));
    m_ranks->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_ranks->setSelectionMode(QAbstractItemView::SingleSelection);
    m_ranks->setAlternatingRowColors(true);
    m_ranks->setShowGrid(false);
    m_ranks->setWordWrap(false);
    m_ranks->setTextElideMode(Qt::ElideMiddle); // "unattributed: …/rank-0007.log" keeps the file name
    m_ranks->setSortingEnabled(true);
    m_ranks->sortByColumn(RankTableModel::RankColumn, Qt::AscendingOrder);
    // Rows of one text line, all alike: fixed heights, so a thousand ranks are never measured row by row.
    m_ranks->verticalHeader()->hide();
    m_ranks->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_ranks->verticalHeader()->setMinimumSectionSize(1);
    m_ranks->verticalHeader()->setDefaultSectionSize(m_ranks->fontMetrics().height() + 4);
    m_ranks->horizontalHeader()->setStretchLastSection(true);
    m_ranks->horizontalHeader()->setHighlightSections(false);
    // Fitting the columns samples rows; the rows are alike, and a thousand of them cost a frame.
    m_ranks->horizontalHeader()->setResizeContentsPrecision(64);
    m_ranks->verticalHeader()->setResizeContentsPrecision(64);
    connect(m_ranks, &QTableView::activated, this, &MainWindow::showRankEvent);
    connect(m_ranks, &QTableView::clicked, this, &MainWindow::showRankEvent);
    QDockWidget* ranks = dock(tr("Ranks"), QStringLiteral("ranks"), m_ranks, Qt::LeftDockWidgetArea);
    ranks->setMinimumWidth(150);
    // First start: the timeline in the middle gets most of the width, the diagnosis a readable column.
    resizeDocks({ ranks, diag }, { 240, 480 }, Qt::Horizontal);

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
    // The hub is wide (a list and an entry side by side): a tab of the bottom row, behind the Log view.
    m_hub = new HubPanel;
    QDockWidget* hub = dock(tr("Signature Hub"), QStringLiteral("hub"), m_hub, Qt::BottomDockWidgetArea);
    tabifyDockWidget(ver, hub);
    // The bottom row is short for a list beside an entry: the first time the hub is in front it gets more
    // than half of the height (a user's own resize is kept after that).
    connect(hub, &QDockWidget::visibilityChanged, this, [this, hub](bool visible) {
        if (!visible || m_hubSized)
            return;
        m_hubSized = true;
        resizeDocks({ hub }, { height() * 55 / 100 }, Qt::Vertical);
    });
    log->raise();

    // Search everything sits beside the rank list: its results stay in sight while the Log view shows a hit.
    m_searchPanel = new SearchPanel;
    QDockWidget* search = dock(tr("Search"), QStringLiteral("search"), m_searchPanel, Qt::LeftDockWidgetArea);
    tabifyDockWidget(ranks, search);
    ranks->raise();
    connect(m_searchPanel, &SearchPanel::searchRequested, this, &MainWindow::searchEverything);
    connect(m_searchPanel, &SearchPanel::stopRequested, this, &MainWindow::stopSearch);
    connect(m_searchPanel, &SearchPanel::hitActivated, this, &MainWindow::revealSearchHit);
    connect(logView(), &LogView::currentLineChanged, this, &MainWindow::setLogHeader);
    connect(m_diagnosis, &DiagnosisPane::signatureActivated, this, &MainWindow::showSignatureInHub);
    connect(m_divergence, &DivergenceView::compareRequested, this, &MainWindow::chooseHealthyRun);
    connect(m_verify, &VerifyView::verifyRequested, this, &MainWindow::chooseFixedRun);
}

bool MainWindow::showSignatureInHub(const QString& id)
{
    auto* dock = findChild<QDockWidget*>(QStringLiteral("hub"));
    dock->show();
    dock->raise();
    return id.isEmpty() || m_hub->showSignature(id);
}

LogView* MainWindow::logView() const
{
    return m_log->view();
}

bool MainWindow::isLoading() const
{
    return m_loadJobs.isRunning() || m_viewJobs.isRunning();
}

bool MainWindow::isComparing() const
{
    return m_compareJobs.isRunning() || m_verifyJobs.isRunning();
}

const AttemptAnalysis* MainWindow::currentAttempt() const
{
    if (!m_analysis || m_attempt < 0 || m_attempt >= static_cast<int>(m_analysis->attempts.size()))
        return nullptr;
    return &m_analysis->attempts[static_cast<size_t>(m_attempt)];
}

bool MainWindow::timelineWarnOnly() const
{
    return m_rankWarnOnly->isChecked();
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    QMainWindow::closeEvent(event);
}

} // namespace rankscope
