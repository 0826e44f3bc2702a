// SPDX-License-Identifier: MIT
#include "search_panel.h"

#include "search_results_model.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QShortcut>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

namespace rankscope {

SearchPanel::SearchPanel(QWidget* parent)
    : QWidget(parent)
{
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(4, 4, 4, 4);
    v->setSpacing(4);
    m_pattern = new QLineEdit;
    m_pattern->setObjectName(QStringLiteral("searchAllPattern"));
    m_pattern->setPlaceholderText(tr("Search every file of the incident…"));
    m_pattern->setClearButtonEnabled(true);
    m_pattern->setToolTip(tr("Ctrl+Shift+F. Enter searches; Escape or Stop stops a search under way."));
    // Two short rows, not one long one: the dock opens about 220 px wide (it shares its column with the
    // Ranks table), and a single row of pattern options and buttons scrolled Stop out of view there.
    auto* top = new QHBoxLayout;
    m_search = new QToolButton;
    m_search->setObjectName(QStringLiteral("searchAllStart"));
    m_search->setText(tr("Search"));
    m_stop = new QToolButton;
    m_stop->setObjectName(QStringLiteral("searchAllStop"));
    m_stop->setText(tr("Stop"));
    m_stop->setToolTip(tr("Stops the search under way (Escape)"));
    m_stop->setEnabled(false);
    top->addWidget(m_pattern, 1);
    top->addWidget(m_search);
    top->addWidget(m_stop);
    v->addLayout(top);
    auto* options = new QHBoxLayout;
    m_regex = new QCheckBox(tr("Regex"));
    m_regex->setObjectName(QStringLiteral("searchAllRegex"));
    m_case = new QCheckBox(tr("Match case"));
    m_case->setObjectName(QStringLiteral("searchAllCase"));
    options->addWidget(m_regex);
    options->addWidget(m_case);
    options->addStretch(1);
    v->addLayout(options);
    m_progress = new QProgressBar;
    m_progress->setObjectName(QStringLiteral("searchAllProgress"));
    m_progress->setRange(0, 1000);
    m_progress->setTextVisible(false);
    m_progress->setMaximumHeight(m_progress->fontMetrics().height() / 2 + 2);
    m_progress->setVisible(false);
    v->addWidget(m_progress);
    m_summary = new QLabel;
    m_summary->setObjectName(QStringLiteral("searchAllSummary"));
    m_summary->setWordWrap(true);
    v->addWidget(m_summary);
    m_model = new SearchResultsModel(this);
    m_view = new QTreeView;
    m_view->setObjectName(QStringLiteral("searchAllResults"));
    m_view->setModel(m_model);
    m_view->setHeaderHidden(true);
    m_view->setUniformRowHeights(true); // thousands of hit rows are never measured one by one
    m_view->setTextElideMode(Qt::ElideMiddle);
    m_view->setExpandsOnDoubleClick(true);
    v->addWidget(m_view, 1);

    connect(m_pattern, &QLineEdit::returnPressed, this, &SearchPanel::request);
    connect(m_search, &QToolButton::clicked, this, &SearchPanel::request);
    connect(m_stop, &QToolButton::clicked, this, &SearchPanel::stopRequested);
    // Escape anywhere in the panel stops a search under way, as the pattern's tooltip says.
    auto* escape =
        new QShortcut(QKeySequence(Qt::Key_Escape), this, nullptr, nullptr, Qt::WidgetWithChildrenShortcut);
    connect(escape, &QShortcut::activated, this, [this] {
        if (m_stop->isEnabled())
            Q_EMIT stopRequested();
    });
    connect(m_view, &QTreeView::activated, this, &SearchPanel::activate);
    connect(m_view, &QTreeView::clicked, this, &SearchPanel::activate);
}

SearchQuery SearchPanel::query() const
{
    SearchQuery q;
    q.pattern = m_pattern->text();
    q.regex = m_regex->isChecked();
    q.caseSensitive = m_case->isChecked();
    return q;
}

void SearchPanel::setQuery(const QString& pattern, bool regex, bool caseSensitive)
{
    m_pattern->setText(pattern);
    m_regex->setChecked(regex);
    m_case->setChecked(caseSensitive);
}

void SearchPanel::focusPattern()
{
    m_pattern->setFocus(Qt::ShortcutFocusReason);
    m_pattern->selectAll();
}

void SearchPanel::request()
{
    const SearchQuery q = query();
    QString error;
    if (q.pattern.isEmpty())
        return;
    if (!searchExpression(q, &error).isValid()) {
        m_summary->setText(error);
        return;
    }
    Q_EMIT searchRequested(q);
}

void SearchPanel::setRunning(bool running)
{
    m_stop->setEnabled(running);
    m_progress->setVisible(running);
    if (running) {
        m_progress->setValue(0);
        m_summary->setText(tr("Searching…"));
    }
}

void SearchPanel::setProgress(qint64 done, qint64 total)
{
    if (total > 0)
        m_progress->setValue(static_cast<int>(1000 * done / total));
}

void SearchPanel::setResults(SearchResults results, const QStringList& files)
{
    setRunning(false);
    QString text;
    if (!results.error.isEmpty() && results.totalHits == 0)
        text = results.error;
    else if (results.totalHits == 0)
        text = tr("No match in %1 files (%2 lines).").arg(results.filesSearched).arg(results.linesSearched);
    else
        text =
            tr("%1 matches in %2 groups · %3 files searched%4")
                .arg(results.totalHits)
                .arg(results.groups.size())
                .arg(results.filesSearched)
                .arg(results.truncated ? tr(" · the first %1 listed").arg(results.hits.size()) : QString());
    m_summary->setText(text);
    const bool expand = results.groups.size() <= 8; // a few groups open; a thousand stay closed
    m_model->setResults(std::move(results), files);
    if (expand)
        m_view->expandAll();
}

void SearchPanel::setStopped()
{
    setRunning(false);
    m_summary->setText(tr("Search stopped."));
}

void SearchPanel::clearResults()
{
    setRunning(false);
    m_model->clear();
    m_summary->clear();
}

QString SearchPanel::summary() const
{
    return m_summary->text();
}

void SearchPanel::activate(const QModelIndex& index)
{
    const int file = index.data(SearchResultsModel::FileRole).toInt();
    if (file < 0)
        return; // a group row: it opens and closes
    Q_EMIT hitActivated(file, index.data(SearchResultsModel::LineRole).toLongLong(),
        index.data(SearchResultsModel::RankRole).toInt());
}

} // namespace rankscope
