// SPDX-License-Identifier: MIT
// Search everything: the core search over every file of an incident (literal, regex, case, cancel,
// grouping by rank), the results model, and the window driven by keys and clicks: Ctrl+Shift+F, a pattern
// typed, Enter, the grouped results with counts, a hit clicked opens its line in the Log view, Stop. On a
// generated 1,024-rank incident the longest event-loop stall while a search runs and lands is measured.
#include "file_lines.h"
#include "incident_generator.h"
#include "incident_search.h"
#include "log_panel.h"
#include "log_view.h"
#include "main_window.h"
#include "search_panel.h"
#include "search_results_model.h"
#include "timeline_view.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QCheckBox>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QToolButton>
#include <QTreeView>
#include <QtTest>
#include <algorithm>
#include <time.h>

using namespace rankscope;

namespace {

const QString kDemo = QStringLiteral(RANKSCOPE_SOURCE_DIR "/resources/demo");

bool waitForAnalysis(MainWindow& w)
{
    if (!w.isLoading())
        return true;
    QSignalSpy spy(&w, &MainWindow::analysisFinished);
    return spy.wait(240000);
}

// Matching lines of every file, counted here by reading the files directly.
qint64 countByHand(const Incident& inc, const QRegularExpression& re)
{
    qint64 n = 0;
    for (const FileInfo& f : inc.files) {
        const FileLinesResult opened = FileLines::open(f);
        if (!opened.ok())
            return -1;
        for (qint64 l = 0; l < opened.lines->count(); ++l)
            n += re.match(opened.lines->line(l)).hasMatch() ? 1 : 0;
    }
    return n;
}

qint64 threadCpuMs()
{
    timespec ts {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<qint64>(ts.tv_sec) * 1000 + ts.tv_nsec / 1'000'000;
}

} // namespace

class TestSearchEverything : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void coreSearchCountsAndGroups()
    {
        AnalysisRequest r;
        r.logPaths = { kDemo };
        const Analysis a = analyze(r);
        const AttemptAnalysis* at = a.currentAttempt();
        QVERIFY(at);
        const Incident& inc = at->incident;
        SearchQuery q;
        q.pattern = QStringLiteral("nccl warn");
        const SearchResults res = searchIncident(inc, q);
        QVERIFY(res.error.isEmpty());
        const qint64 expected = countByHand(
            inc, QRegularExpression(QStringLiteral("NCCL WARN"), QRegularExpression::CaseInsensitiveOption));
        QVERIFY(expected > 0);
        QCOMPARE(res.totalHits, expected);
        QCOMPARE(res.filesSearched, static_cast<int>(inc.files.size()));
        // Groups add up to the total, ranks come first in ascending order, and every hit line matches.
        qint64 sum = 0;
        int lastRank = -1;
        bool rankGroupsDone = false;
        for (const SearchGroup& g : res.groups) {
            sum += g.count;
            QCOMPARE(g.count, static_cast<qint64>(g.hits.size()));
            if (g.rank >= 0) {
                QVERIFY(!rankGroupsDone);
                QVERIFY(g.rank > lastRank);
                lastRank = g.rank;
                QVERIFY(g.label.startsWith(QStringLiteral("rank %1").arg(g.rank)));
            } else {
                rankGroupsDone = true;
            }
            for (int h : g.hits)
                QVERIFY(res.hits[static_cast<size_t>(h)].text.contains(QLatin1String("NCCL WARN")));
        }
        QCOMPARE(sum, res.totalHits);
        // The initiating rank 7's WARN is among them.
        const auto seven = std::find_if(
            res.groups.begin(), res.groups.end(), [](const SearchGroup& g) { return g.rank == 7; });
        QVERIFY(seven != res.groups.end());

        // Case: the exact-case search finds none in lower case; a regex works; an invalid one says where.
        q.caseSensitive = true;
        QCOMPARE(searchIncident(inc, q).totalHits, 0);
        q.caseSensitive = false;
        q.regex = true;
        q.pattern = QStringLiteral("NCCL (WARN|INFO) NET/IB");
        QCOMPARE(searchIncident(inc, q).totalHits,
            countByHand(inc, QRegularExpression(q.pattern, QRegularExpression::CaseInsensitiveOption)));
        q.pattern = QStringLiteral("(unclosed");
        const SearchResults bad = searchIncident(inc, q);
        QVERIFY(bad.error.contains(QLatin1String("offset")));
        QCOMPARE(bad.totalHits, 0);
        // A literal with regex characters is taken as written.
        q.regex = false;
        q.pattern = QStringLiteral("(");
        QCOMPARE(
            searchIncident(inc, q).totalHits, countByHand(inc, QRegularExpression(QStringLiteral("\\("))));
        // A cancelled search says so and lists nothing.
        CancelToken token;
        token.cancel();
        q.pattern = QStringLiteral("e");
        const SearchResults stopped = searchIncident(inc, q, &token);
        QVERIFY(stopped.cancelled);
        QVERIFY(stopped.hits.empty());
        // maxHits: every hit counted, the first ones listed.
        q.maxHits = 3;
        const SearchResults cut = searchIncident(inc, q);
        QVERIFY(cut.truncated);
        QCOMPARE(cut.hits.size(), size_t(3));
        QVERIFY(cut.totalHits > 3);

        SearchResultsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        q.maxHits = 20000;
        q.pattern = QStringLiteral("nccl warn");
        QStringList files;
        for (const FileInfo& f : inc.files)
            files << f.displayPath;
        model.setResults(searchIncident(inc, q), files);
        QCOMPARE(model.rowCount(), static_cast<int>(res.groups.size()));
        const QModelIndex g0 = model.index(0, 0);
        QVERIFY(g0.data().toString().endsWith(QStringLiteral("(%1)").arg(res.groups[0].count)));
        QCOMPARE(model.rowCount(g0), static_cast<int>(res.groups[0].hits.size()));
        const QModelIndex h0 = model.index(0, 0, g0);
        QCOMPARE(h0.parent(), g0);
        QVERIFY(h0.data(SearchResultsModel::FileRole).toInt() >= 0);
        QVERIFY(h0.data(SearchResultsModel::LineRole).toLongLong() > 0);
    }

    void windowSearchesOpensAndCounts()
    {
        MainWindow w;
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.openPaths({ kDemo });
        QVERIFY(waitForAnalysis(w));
        // Ctrl+Shift+F focuses the pattern field.
        QTest::keyClick(&w, Qt::Key_F, Qt::ControlModifier | Qt::ShiftModifier);
        auto* pattern = w.findChild<QLineEdit*>(QStringLiteral("searchAllPattern"));
        QVERIFY(pattern);
        QTRY_VERIFY(pattern->hasFocus());
        QTest::keyClicks(pattern, QStringLiteral("NET/IB"));
        QSignalSpy done(&w, &MainWindow::searchFinished);
        QTest::keyClick(pattern, Qt::Key_Return);
        QVERIFY(done.wait(30000));
        SearchResultsModel* model = w.searchPanel()->model();
        const qint64 expected = countByHand(w.currentAttempt()->incident,
            QRegularExpression(QStringLiteral("NET/IB"), QRegularExpression::CaseInsensitiveOption));
        QCOMPARE(model->results().totalHits, expected);
        QVERIFY(w.searchPanel()->summary().contains(QString::number(expected)));
        // Click a hit of rank 7: the Log view shows its file at its line, and the header names it.
        int group = -1;
        for (int g = 0; g < model->rowCount(); ++g) {
            if (model->index(g, 0).data(SearchResultsModel::RankRole).toInt() == 7)
                group = g;
        }
        QVERIFY(group >= 0);
        QTreeView* view = w.searchPanel()->resultsView();
        const QModelIndex gi = model->index(group, 0);
        view->expand(gi);
        // The hit on the initiating line (an event of rank 7): the timeline selects that event too.
        const AttemptAnalysis* demo = w.currentAttempt();
        const int init = demo->diagnosis.initiatingEvent;
        const LogEvent& initEvent = demo->incident.events[static_cast<size_t>(init)];
        QModelIndex hit;
        for (int k = 0; k < model->rowCount(gi); ++k) {
            const QModelIndex h = model->index(k, 0, gi);
            if (h.data(SearchResultsModel::FileRole).toInt() == initEvent.file
                && h.data(SearchResultsModel::LineRole).toLongLong() == initEvent.line)
                hit = h;
        }
        QVERIFY(hit.isValid());
        w.timeline()->selectEvent(-1);
        view->scrollTo(hit);
        const int file = hit.data(SearchResultsModel::FileRole).toInt();
        const qint64 line = hit.data(SearchResultsModel::LineRole).toLongLong();
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(hit).center());
        // A copy: the reference would dangle once the next incident replaces this one.
        const QString firstPath = w.currentAttempt()->incident.files[static_cast<size_t>(file)].path;
        QTRY_COMPARE(w.logView()->filePath(), firstPath);
        QTRY_COMPARE(w.logView()->currentLine(), line);
        QVERIFY(w.logView()->lineText(line).contains(QLatin1String("NET/IB")));
        QVERIFY(w.logHeaderText().contains(QStringLiteral("line %1").arg(line)));
        QVERIFY(w.logHeaderText().contains(QLatin1String("rank 7")));
        QCOMPARE(w.timeline()->selectedEvent(), init);

        // The Log view's own search counts: "k of n" over the file's matching lines.
        auto* logSearch = [&]() -> QLineEdit* {
            for (QLineEdit* e : w.findChildren<QLineEdit*>())
                if (e->placeholderText().startsWith(QLatin1String("Search (regex)")))
                    return e;
            return nullptr;
        }();
        QVERIFY(logSearch);
        QTest::keyClicks(logSearch, QStringLiteral("NCCL INFO"));
        QSignalSpy counted(w.logView(), &LogView::matchCounted);
        QTest::keyClick(logSearch, Qt::Key_Return);
        QVERIFY(counted.wait(10000));
        const qint64 ordinal = counted.at(0).at(0).toLongLong();
        const qint64 total = counted.at(0).at(1).toLongLong();
        qint64 byHand = 0, before = 0;
        for (qint64 l = 1; l <= w.logView()->lineCount(); ++l) {
            if (w.logView()->lineText(l).contains(QLatin1String("NCCL INFO"))) {
                ++byHand;
                if (l <= w.logView()->currentLine())
                    ++before;
            }
        }
        QCOMPARE(total, byHand);
        QCOMPARE(ordinal, before);
        auto* panel = w.findChild<LogPanel*>();
        QVERIFY(panel);
        QCOMPARE(panel->searchMessage(), QStringLiteral("%1 of %2").arg(ordinal).arg(total));
        // Go to line moves the header with it.
        auto* go = [&]() -> QLineEdit* {
            for (QLineEdit* e : w.findChildren<QLineEdit*>())
                if (e->placeholderText() == QLatin1String("line"))
                    return e;
            return nullptr;
        }();
        QVERIFY(go);
        QTest::keyClicks(go, QStringLiteral("3"));
        QTest::keyClick(go, Qt::Key_Return);
        QCOMPARE(w.logView()->currentLine(), qint64(3));
        QVERIFY(w.logHeaderText().contains(QLatin1String("line 3 ")));

        // A new incident clears the results and the Log view until its own log is shown.
        QSignalSpy finished(&w, &MainWindow::analysisFinished);
        w.openPaths({ QStringLiteral(RANKSCOPE_TEST_DATA "/sample-job") });
        QVERIFY(finished.wait(60000));
        QCOMPARE(model->rowCount(), 0);
        QVERIFY(w.logView()->filePath() != firstPath);
    }

    void stopAndStallOnBigIncident()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        testgen::GenOptions o;
        o.ranks = 1024;
        o.targetBytes = 64LL * 1024 * 1024;
        o.fault = testgen::Fault::IbRetryExceeded;
        o.faultRank = 777;
        o.layout = testgen::Layout::NcclDebugFiles;
        o.seed = 5;
        const testgen::GenResult gen = testgen::generateIncident(o, dir.path());
        QVERIFY2(gen.error.isEmpty(), qPrintable(gen.error));
        MainWindow w;
        w.resize(1600, 1000);
        w.show();
        w.openPaths({ dir.path() });
        QVERIFY(waitForAnalysis(w));
        QTest::qWait(200); // the first paints of the answer are not the search's

        // Stop: clicked while the search runs, it says "stopped" and lists nothing.
        w.findChild<QAction*>(QStringLiteral("searchEverything"))->trigger();
        auto* pattern = w.findChild<QLineEdit*>(QStringLiteral("searchAllPattern"));
        auto* stop = w.findChild<QToolButton*>(QStringLiteral("searchAllStop"));
        QVERIFY(pattern && stop);
        // Stop is in view in the dock as it first opens at 1600x1000 (it was scrolled off to the right of
        // a 224 px dock): the whole button is visible, not clipped by the dock's scroll area.
        QTRY_VERIFY(stop->isVisible());
        QCOMPARE(stop->visibleRegion().boundingRect(), stop->rect());
        auto* searchDock = w.findChild<QDockWidget*>(QStringLiteral("search"));
        QVERIFY(searchDock);
        QVERIFY(searchDock->rect().contains(QRect(stop->mapTo(searchDock, QPoint(0, 0)), stop->size())));
        auto* progress = w.findChild<QProgressBar*>(QStringLiteral("searchAllProgress"));
        QVERIFY(progress);
        pattern->setText(QStringLiteral("no such text in any log"));
        QSignalSpy done(&w, &MainWindow::searchFinished);

        // Escape in the pattern field stops a search under way, once its progress has advanced.
        QTest::keyClick(pattern, Qt::Key_Return);
        QVERIFY(w.isSearching());
        QTRY_VERIFY(progress->isVisible() && progress->value() > 0);
        QVERIFY(w.isSearching());
        QTest::keyClick(pattern, Qt::Key_Escape);
        QVERIFY(done.wait(30000));
        QCOMPARE(w.searchPanel()->summary(), QStringLiteral("Search stopped."));
        QVERIFY(!progress->isVisible() && !stop->isEnabled());

        // And the Stop button, clicked while the search runs.
        done.clear();
        QTest::keyClick(pattern, Qt::Key_Return);
        QVERIFY(w.isSearching());
        QTRY_VERIFY(stop->isEnabled());
        QTest::mouseClick(stop, Qt::LeftButton);
        QVERIFY(done.wait(30000));
        QCOMPARE(w.searchPanel()->summary(), QStringLiteral("Search stopped."));
        QCOMPARE(w.searchPanel()->model()->rowCount(), 0);

        // The stall: a 5 ms timer's longest gap (wall and UI-thread CPU) while a search of every file of
        // 1,024 ranks runs and its results (every rank has NET/IB lines) land in the list.
        QElapsedTimer clock;
        std::vector<qint64> wall, busy;
        QTimer tick;
        tick.setTimerType(Qt::PreciseTimer);
        tick.setInterval(5);
        qint64 cpu = threadCpuMs();
        connect(&tick, &QTimer::timeout, this, [&] {
            wall.push_back(clock.restart());
            const qint64 now = threadCpuMs();
            busy.push_back(now - cpu);
            cpu = now;
        });
        pattern->setText(QStringLiteral("NET/IB"));
        done.clear();
        clock.start();
        tick.start();
        QElapsedTimer took;
        took.start();
        QTest::keyClick(pattern, Qt::Key_Return);
        QVERIFY(done.wait(240000));
        QTest::qWait(100); // the list's first paint
        tick.stop();
        const qint64 maxWall = *std::max_element(wall.begin(), wall.end());
        const qint64 maxBusy = *std::max_element(busy.begin(), busy.end());
        const SearchResults& res = w.searchPanel()->model()->results();
        qInfo("search of %d files (%.1f MB, %lld lines): %lld hits in %zu groups in %lld ms; longest "
              "event-loop "
              "gap %lld ms wall, %lld ms UI-thread CPU",
            res.filesSearched, static_cast<double>(gen.bytes) / 1e6,
            static_cast<long long>(res.linesSearched), static_cast<long long>(res.totalHits),
            res.groups.size(), static_cast<long long>(took.elapsed()), static_cast<long long>(maxWall),
            static_cast<long long>(maxBusy));
        QVERIFY(res.totalHits > 1024);
        QVERIFY(std::count_if(res.groups.begin(), res.groups.end(), [](const SearchGroup& g) {
            return g.rank >= 0;
        }) >= 1024);
        QVERIFY2(maxBusy <= 50, qPrintable(QStringLiteral("UI thread busy %1 ms").arg(maxBusy)));
        // A hit of a rank far down the list (not an event line): the timeline scrolls to that rank's lane.
        const int far = static_cast<int>(res.groups.size()) - 1;
        const QModelIndex farGroup = w.searchPanel()->model()->index(far, 0);
        const int farRank = farGroup.data(SearchResultsModel::RankRole).toInt();
        QVERIFY(farRank > 900);
        QTreeView* results = w.searchPanel()->resultsView();
        results->expand(farGroup);
        const QModelIndex farHit = w.searchPanel()->model()->index(0, 0, farGroup);
        results->scrollTo(farHit);
        TimelineView* timeline = w.timeline();
        int farLane = -1;
        for (int l = 0; l < timeline->model().laneCount(); ++l)
            if (timeline->model().lane(l).rank == farRank)
                farLane = l;
        QVERIFY(farLane >= 0);
        const auto laneInView = [&] {
            const int row = timeline->model().rowOfLane(farLane);
            const int top = row >= 0 ? timeline->geometry().rowTop(row) : -1;
            return row >= 0 && top >= timeline->geometry().axisHeight
                && top + timeline->geometry().rowHeight <= timeline->viewport()->height();
        };
        QVERIFY(!laneInView());
        QTest::mouseClick(results->viewport(), Qt::LeftButton, {}, results->visualRect(farHit).center());
        QTRY_VERIFY(laneInView());
        QTRY_COMPARE(w.logView()->currentLine(), farHit.data(SearchResultsModel::LineRole).toLongLong());
        // RANKSCOPE_SEARCH_SCREENSHOT=FILE: the window with the results open, to be looked at.
        const QByteArray shot = qgetenv("RANKSCOPE_SEARCH_SCREENSHOT");
        if (!shot.isEmpty())
            QVERIFY(w.grab().save(QString::fromLocal8Bit(shot)));
    }
};

QTEST_MAIN(TestSearchEverything)
#include "tst_search_everything.moc"
