// SPDX-License-Identifier: MIT
// Search everything: the pattern (regex or literal, case option), Search and Stop, the progress of the
// search under way, and its results grouped by rank or host with their counts. The search itself runs
// in the window's JobTracker (core/present/incident_search); this panel asks for it and shows what lands.
// Activating a hit (click, Enter) asks for its line in the Log view.
#pragma once

#include "incident_search.h"

#include <QWidget>

class QLineEdit;
class QCheckBox;
class QToolButton;
class QProgressBar;
class QLabel;
class QTreeView;

namespace rankscope {

class SearchResultsModel;

class SearchPanel : public QWidget
{
    Q_OBJECT
public:
    explicit SearchPanel(QWidget* parent = nullptr);

    SearchQuery query() const;
    void setQuery(const QString& pattern, bool regex = false, bool caseSensitive = false);
    void focusPattern(); // the pattern field gets the focus, its text selected
    void setRunning(bool running);
    void setProgress(qint64 done, qint64 total);
    void setResults(SearchResults results, const QStringList& files);
    void setStopped(); // the search was stopped: nothing of it is listed
    void clearResults(); // another incident: the old hits point at nothing
    QString summary() const;
    SearchResultsModel* model() const { return m_model; }
    QTreeView* resultsView() const { return m_view; }

Q_SIGNALS:
    void searchRequested(const rankscope::SearchQuery& query);
    void stopRequested();
    void hitActivated(int file, qint64 line, int rank);

private:
    void request();
    void activate(const QModelIndex& index);

    QLineEdit* m_pattern = nullptr;
    QCheckBox* m_regex = nullptr;
    QCheckBox* m_case = nullptr;
    QToolButton* m_search = nullptr;
    QToolButton* m_stop = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_summary = nullptr;
    QTreeView* m_view = nullptr;
    SearchResultsModel* m_model = nullptr;
};

} // namespace rankscope
