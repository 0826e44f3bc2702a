// SPDX-License-Identifier: MIT
// The window: timeline in the middle, diagnosis on the right, log and topology below, ranks on the left.
// Analyses run off the UI thread with a progress bar and a Stop button; a newer request makes an older
// result stale and it is dropped. So does everything else that scales with the incident: the view of an
// attempt (timeline lanes, rank rows, the opened log) is built by the same background job, or by one of
// its own when the attempt or the log file changes; the UI thread only swaps finished values in. Each kind
// of job has its JobTracker, which cancels the job it supersedes and never lets a stale result land; a
// comparison with a healthy run and a verification stop with the Stop button too.
#pragma once

#include "analysis.h"
#include "incident_view_model.h"
#include "job_tracker.h"
#include "theme.h"

#include <QMainWindow>
#include <memory>

class QLabel;
class QProgressBar;
class QToolButton;
class QModelIndex;
class QTableView;
class QComboBox;
class QMenu;
class QCheckBox;
class QLineEdit;
class QDockWidget;
class QActionGroup;
class QTemporaryDir;

namespace rankscope {

class TimelineView;
class DiagnosisPane;
class LogView;
class TopologyView;
class LogPanel;
class DivergenceView;
class VerifyView;
class RankTableModel;
class RankTableProxy;
struct Divergence;
class SearchPanel;
class HubPanel;
struct SearchQuery;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Starts an analysis of the given inputs (log folders/files, topology captures found by content).
    void openPaths(const QStringList& paths, const QStringList& topology = {});
    // What launched the job and its framework, when the user knows better than the logs (ids of
    // launch_info.h; empty: what the logs show). Applies to the analyses started after it.
    void setLaunchOverride(const QString& launcher, const QString& framework);
    // User catalog folders over the built-in one (--signatures DIR): every analysis and the Hub use them.
    void setSignatureDirs(const QStringList& dirs);
    void openPastedText(const QString& text);
    // A capture added or removed re-runs only the diagnosis of the incident read already (rediagnose.h).
    void addTopology(const QStringList& paths);
    void removeTopology(const QStringList& paths);
    bool isLoading() const; // an analysis or the view of an attempt is being built
    bool isComparing() const; // a comparison or a verification runs
    const Analysis* analysis() const { return m_analysis.get(); }
    const AttemptAnalysis* currentAttempt() const;

    TimelineView* timeline() const { return m_timeline; }
    DiagnosisPane* diagnosisPane() const { return m_diagnosis; }
    LogView* logView() const;
    TopologyView* topologyView() const { return m_topology; }
    bool exportReport(const QString& basePath, QString* error); // writes basePath.md and basePath.html
    // A healthy run as control (side-by-side divergence) and a run after the fix (PASS/FAIL).
    void compareWithHealthyRun(const QString& path);
    void verifyFixWith(const QString& path);
    DivergenceView* divergenceView() const { return m_divergence; }
    VerifyView* verifyView() const { return m_verify; }
    // Search everything (Ctrl+Shift+F): every file of the incident, off the UI thread, with Stop.
    SearchPanel* searchPanel() const { return m_searchPanel; }
    void searchEverything(const SearchQuery& query);
    bool isSearching() const { return m_searchJobs.isRunning(); }
    QString logHeaderText() const; // the Log view's header: file, line, rank
    // View ▸ Signature Hub (Ctrl+Shift+H): the catalog by family, one entry, and a line explained; a
    // diagnosis's signature links open it on their entry.
    HubPanel* hubPanel() const { return m_hub; }
    bool showSignatureInHub(const QString& id); // the hub raised on that entry; false for an unknown id

    // View ▸ Theme; `persist` keeps the choice for the next start (the command line's --theme does not).
    void setTheme(Theme theme, bool persist);
    Theme theme() const { return m_theme; }
    // The window (or a dialog) at `preferred` size, shrunk to the screen's available geometry.
    QSize fitSize(QSize preferred) const;
    void fitToScreen(QSize preferred); // resized with fitSize and moved inside the available geometry
    void openDemo(); // Help ▸ Open Demo Incident
    void showHowToRead(); // Help ▸ How to Read a Diagnosis
    QString howToReadHtml() const;
    QString keyboardHelp() const;
    QString bannerText() const;

Q_SIGNALS:
    void analysisFinished(); // the answer is on screen
    void attemptShown(int attempt); // after analysisFinished and after every switch of attempt
    void controlFinished(); // a comparison or a verification has been shown
    void controlStopped(); // one was stopped (Stop) before it finished; nothing of it is shown
    void searchFinished(); // a search of everything has been listed, or was stopped

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void closeEvent(QCloseEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void buildMenus();
    void buildThemeMenu(QMenu* view);
    void buildHelpMenu();
    QString demoFolder();
    void setBannerTone(int tone); // a Tone, or -1 for the palette's own colours
    void buildDocks();
    struct Loaded; // below
    void start(const AnalysisRequest& request);
    void rediagnose(const QStringList& captures);
    void onFinished(Loaded loaded);
    void stopJobs();
    void updateBusy();
    void resetProgress();
    void setProgress(qint64 done, qint64 total);
    void showControlProgress(qint64 done, qint64 total);
    void controlShown(QWidget* pane); // its dock raised, controlFinished emitted
    void showAttempt(int index);
    void applyView(IncidentViewModel& view);
    void revealEvent(int eventIndex);
    void showRankEvent(const QModelIndex& index);
    void showRankLastLine(int rank); // a rank without a WARN: its log's last line, its lane in view
    void revealSearchHit(int file, qint64 line, int rank); // the log line, the rank and the timeline lane
    void selectRank(int rank);
    void syncRankFilter(); // the Ranks table shows the ranks that pass the timeline's filters
    void showLog(PreparedLog log);
    void openLogAt(int file, qint64 line, int rank); // opens the file off the UI thread unless shown
    void setLogHeader(qint64 line);
    void clearLog();
    void showSearch(); // the search dock raised, its pattern focused
    void stopSearch();
    void clearSearch(); // another incident or attempt: the old hits point at nothing
    void fillRanks(std::vector<RankRow> rows);
    void updateStatus(const IncidentViewModel* view);
    void releaseInBackground(std::shared_ptr<Analysis> analysis);
    bool timelineWarnOnly() const;
    void addRecent(const QStringList& paths);
    void rebuildRecentMenu();
    void pasteFromClipboard();
    void chooseHealthyRun(); // a folder dialog, then compareWithHealthyRun
    void chooseFixedRun(); // a folder dialog, then verifyFixWith
    void showSkipped();
    void showWarnings();
    void exportReportInteractive();

    TimelineView* m_timeline = nullptr;
    DiagnosisPane* m_diagnosis = nullptr;
    LogPanel* m_log = nullptr;
    TopologyView* m_topology = nullptr;
    DivergenceView* m_divergence = nullptr;
    VerifyView* m_verify = nullptr;
    SearchPanel* m_searchPanel = nullptr;
    HubPanel* m_hub = nullptr;
    QTableView* m_ranks = nullptr;
    RankTableModel* m_rankModel = nullptr;
    RankTableProxy* m_rankProxy = nullptr;
    QLabel* m_banner = nullptr;
    QComboBox* m_attempts = nullptr;
    QComboBox* m_hostFilter = nullptr;
    QProgressBar* m_progress = nullptr;
    QToolButton* m_stop = nullptr;
    QLabel* m_statusFiles = nullptr;
    QToolButton* m_statusSkipped = nullptr;
    QToolButton* m_statusWarnings = nullptr;
    QMenu* m_recentMenu = nullptr;
    QCheckBox* m_rankWarnOnly = nullptr;
    QLineEdit* m_rankText = nullptr;
    QActionGroup* m_themeGroup = nullptr;
    Theme m_theme = Theme::System;
    int m_bannerTone = -1;
    bool m_hubSized = false; // the hub's dock was given its first height
    std::unique_ptr<QTemporaryDir> m_demoDir; // the demo incident, copied out of the resources

    // What a load hands back: the analysis and the view of its latest attempt, both built off the UI thread.
    struct Loaded
    {
        std::shared_ptr<Analysis> analysis;
        std::shared_ptr<IncidentViewModel> view;
    };

    std::shared_ptr<Analysis> m_analysis;
    AnalysisRequest m_request; // what the current analysis was asked for (topology can be added to it)
    QString m_launcher, m_framework; // setLaunchOverride()
    QStringList m_signatureDirs; // setSignatureDirs()
    int m_attempt = -1;
    // The last comparison with a healthy run and the attempt it was for; a new analysis forgets it.
    std::shared_ptr<const Divergence> m_comparedDivergence;
    int m_comparedAttempt = -1;
    QStringList m_signatureTitles;
    int m_logFile = -1; // the file the log view shows or is opening
    int m_searchAttempt = -1; // the attempt the search results are of
    int m_logRank = -1; // the rank of the line the log view was opened for (a search hit's group)
    qint64 m_logOpenedLine = 0; // that line
    FileAuthors m_logAuthors; // who wrote the shown file's lines: the header names the current line's
    JobTracker m_loadJobs; // analyses
    JobTracker m_viewJobs; // the view of another attempt
    JobTracker m_logJobs; // another log file opened
    JobTracker m_compareJobs; // a healthy run compared with the failing one
    JobTracker m_verifyJobs; // a run after the fix verified
    JobTracker m_searchJobs; // a search of every file
};

} // namespace rankscope
