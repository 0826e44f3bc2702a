// SPDX-License-Identifier: MIT
// MainWindow: an event shown in the timeline and in its log (the log's file opened off the UI thread),
// the rank list and the status bar's counts.
#include "log_panel.h"
#include "log_view.h"
#include "main_window.h"
#include "timeline_view.h"

#include <QHeaderView>
#include <QLabel>
#include <QToolButton>
#include <QTreeWidget>
#include <QtConcurrent/QtConcurrentRun>

namespace rankscope {

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
    // The list is painted afresh anyway. Told of each column's new width, the tree would repaint the
    // columns once more from a timer of its own, in the turn that shows the diagnosis pane.
    {
        const QSignalBlocker block(m_ranks->header());
        for (int c = 0; c < 4; ++c)
            m_ranks->resizeColumnToContents(c);
    }
    QMetaObject::invokeMethod(m_ranks, "updateGeometries"); // the scroll bars for the new widths
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
        tr("%1 files · %2 ranks · %3 hosts · %4 · %5 events%6")
            .arg(view->files)
            .arg(view->rankCount)
            .arg(view->hostCount)
            .arg(locale().formattedDataSize(view->bytes, 1, QLocale::DataSizeSIFormat))
            .arg(view->events)
            .arg(view->topologyHosts == 0 ? QString()
                                          : tr(" · topology: %1 host(s)").arg(view->topologyHosts)));
    m_statusSkipped->setText(tr("%1 skipped").arg(inc.skipped.size()));
    m_statusSkipped->setVisible(!inc.skipped.empty());
    m_statusWarnings->setText(
        inc.warnings.size() == 1 ? tr("1 warning") : tr("%1 warnings").arg(inc.warnings.size()));
    m_statusWarnings->setVisible(!inc.warnings.isEmpty());
}

} // namespace rankscope
