// SPDX-License-Identifier: MIT
// The window on the bundled demo incident, offscreen: what the user sees first, and every way in.
#include "diagnosis_pane.h"
#include "hub_panel.h"
#include "incident_generator.h"
#include "log_view.h"
#include "main_window.h"
#include "rank_list_delegate.h"
#include "rank_table_model.h"
#include "severity_palette.h"
#include "timeline_view.h"
#include "topology_view.h"

#include <QApplication>
#include <QClipboard>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMimeData>
#include <QRegularExpression>
#include <QSet>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>

using namespace rankscope;

namespace {

const QString kDemo = QStringLiteral(RANKSCOPE_SOURCE_DIR "/resources/demo");

bool waitForAnalysis(MainWindow& w)
{
    if (!w.isLoading())
        return true;
    QSignalSpy spy(&w, &MainWindow::analysisFinished);
    return spy.wait(60000);
}

void drop(MainWindow& w, QMimeData* mime)
{
    const QPoint at(w.width() / 2, w.height() / 2);
    QDragEnterEvent enter(at, Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&w, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent dropEvent(QPointF(at), Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&w, &dropEvent);
}

} // namespace

class TestMainWindow : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void demoHighlightsInitiatingEvent()
    {
        MainWindow w;
        w.resize(1600, 1000);
        w.show();
        w.openPaths({ kDemo });
        QVERIFY(waitForAnalysis(w));
        const AttemptAnalysis* a = w.currentAttempt();
        QVERIFY(a);
        const int init = a->diagnosis.initiatingEvent;
        QVERIFY(init >= 0);
        const LogEvent& e = a->incident.events[static_cast<size_t>(init)];
        QCOMPARE(e.rank, 7);
        QVERIFY(
            e.text.contains(QLatin1String("with status=12 opcode=0 len=0 vendor err 129 (Send) hca mlx5_0")));
        QCOMPARE(a->incident.files[static_cast<size_t>(e.file)].displayPath,
            QStringLiteral("nccl.gpu-a02.52117.log"));
        // The timeline draws the marker for it, and the log view shows its line.
        QVERIFY(w.timeline()->initiatingMarkerX() >= 0);
        QCOMPARE(w.logView()->currentLine(), e.line);
        QVERIFY(w.diagnosisPane()->headlineText().contains(QLatin1String("Rank 7")));
        // The status bar sizes a small incident in kB (it said "0.0 MB"), and counts in the singular.
        const auto* summary = w.findChild<QLabel*>(QStringLiteral("statusSummary"));
        QVERIFY(summary);
        const QRegularExpression shape(QStringLiteral(
            R"(^4 files · 5 ranks · 2 hosts · \d+(\.\d)? kB · 62 events · topology: 1 host\(s\)$)"));
        QVERIFY2(shape.match(summary->text()).hasMatch(), qPrintable(summary->text()));
        const auto* warnings = w.findChild<QToolButton*>(QStringLiteral("statusWarnings"));
        QVERIFY(warnings);
        QCOMPARE(warnings->text(),
            a->incident.warnings.size() == 1
                ? QStringLiteral("1 warning")
                : QStringLiteral("%1 warnings").arg(a->incident.warnings.size()));
    }

    // Real case 115: every line carries Ray's "(pid=N)" and each worker says its rank ("[rank=N]"). The Log
    // view opens on the hang's evidence (line 9, an INFO line of pid 767, no event): its header names
    // rank 0, the host and the pid (it said "unattributed"), and follows Go to line.
    void logHeaderNamesTheLinesWriter()
    {
        MainWindow w;
        w.resize(1600, 1000);
        w.show();
        w.openPaths({ QStringLiteral(
            RANKSCOPE_TEST_DATA "/real/115-ray-sgd-hang-p2p-broken-in-vm-libibverbs-distractor/log.txt") });
        QVERIFY(waitForAnalysis(w));
        const AttemptAnalysis* a = w.currentAttempt();
        QVERIFY(a);
        QCOMPARE(a->diagnosis.initiatingEvent, -1); // a hang: the log opens at the evidence
        // Its fix and verify commands show although no line initiated it (the pane showed neither).
        QVERIFY(!a->diagnosis.fix.isEmpty());
        QTRY_VERIFY(w.diagnosisPane()->fixText().contains(QLatin1String("NCCL_P2P_DISABLE=1")));
        QCOMPARE(w.diagnosisPane()->verifyCommands(), a->diagnosis.verify);
        QVERIFY(w.diagnosisPane()->checklistCount() > 0);
        // And so does the exported report.
        QTemporaryDir out;
        QString error;
        QVERIFY2(w.exportReport(out.filePath(QStringLiteral("r")), &error), qPrintable(error));
        QFile html(out.filePath(QStringLiteral("r.html")));
        QVERIFY(html.open(QIODevice::ReadOnly));
        const QByteArray page = html.readAll();
        QVERIFY(page.contains("<h2>Fix</h2>") && page.contains("NCCL_P2P_DISABLE=1"));
        QVERIFY(page.contains("Signature <b>nccl-init-hang</b>"));
        QTRY_COMPARE(w.logView()->currentLine(), qint64(9));
        const QString host = QStringLiteral("ray-608788daf515e90a03e090eb-ray-worker-0");
        QVERIFY2(w.logHeaderText().endsWith(QStringLiteral("line 9 · rank 0 · %1 · pid 767").arg(host)),
            qPrintable(w.logHeaderText()));
        auto* go = [&]() -> QLineEdit* {
            for (QLineEdit* e : w.findChildren<QLineEdit*>())
                if (e->placeholderText() == QLatin1String("line"))
                    return e;
            return nullptr;
        }();
        QVERIFY(go);
        const auto goTo = [&](int line) {
            go->clear();
            QTest::keyClicks(go, QString::number(line));
            QTest::keyClick(go, Qt::Key_Return);
        };
        goTo(11); // a bare "(pid=767)": the rank-0 worker, by its pid alone
        QCOMPARE(w.logView()->currentLine(), qint64(11));
        QVERIFY2(w.logHeaderText().endsWith(QStringLiteral("line 11 · rank 0 · %1 · pid 767").arg(host)),
            qPrintable(w.logHeaderText()));
        goTo(12); // the benign WARN, an event of rank 0
        QVERIFY2(w.logHeaderText().endsWith(QStringLiteral("line 12 · rank 0 · %1 · pid 767").arg(host)),
            qPrintable(w.logHeaderText()));
        goTo(5); // "(pid=764) NCCL DEBUG SET": the process that said "[rank=1]" on line 6 is rank 1's
        QVERIFY2(w.logHeaderText().endsWith(QStringLiteral("line 5 · rank 1 · %1 · pid 764").arg(host)),
            qPrintable(w.logHeaderText()));
        goTo(1); // the shell prompt: nobody the incident knows
        QVERIFY2(w.logHeaderText().endsWith(QStringLiteral("line 1 · unattributed")),
            qPrintable(w.logHeaderText()));
    }

    // --signatures DIR in the window: the folder's entry replaces the built-in one in the diagnosis, and
    // the Hub says which catalog it shows.
    void userCatalogReachesTheDiagnosisAndTheHub()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QFile ib(QStringLiteral(RANKSCOPE_SOURCE_DIR "/signatures/ib.json"));
        QVERIFY(ib.open(QIODevice::ReadOnly));
        QJsonObject doc = QJsonDocument::fromJson(ib.readAll()).object();
        QJsonObject entry;
        for (const QJsonValue v : doc.value(QStringLiteral("signatures")).toArray())
            if (v.toObject().value(QStringLiteral("id")).toString()
                == QLatin1String("nccl-ib-completion-retry-exceeded"))
                entry = v.toObject();
        QVERIFY(!entry.isEmpty());
        entry.insert(
            QStringLiteral("title"), QStringLiteral("Our racks: the HCA link gave up (reseat the cable)"));
        doc.insert(QStringLiteral("signatures"), QJsonArray { entry });
        QFile out(dir.filePath(QStringLiteral("team.json")));
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(QJsonDocument(doc).toJson());
        out.close();

        MainWindow w;
        w.setSignatureDirs({ dir.path() });
        w.resize(1600, 1000);
        w.show();
        w.openPaths({ QStringLiteral(RANKSCOPE_SOURCE_DIR "/resources/demo") });
        QVERIFY(waitForAnalysis(w));
        const AttemptAnalysis* a = w.currentAttempt();
        QVERIFY(a);
        QVERIFY2(a->diagnosis.headline.contains(
                     QLatin1String("Our racks: the HCA link gave up (reseat the cable)")),
            qPrintable(a->diagnosis.headline));
        QTRY_VERIFY(w.hubPanel()->hasCatalog());
        QVERIFY2(w.hubPanel()->catalogText().contains(dir.path()), qPrintable(w.hubPanel()->catalogText()));
    }

    void topologyMarksSysEdge()
    {
        MainWindow w;
        w.show();
        w.openPaths({ kDemo });
        QVERIFY(waitForAnalysis(w));
        QCOMPARE(w.topologyView()->currentHost(), QStringLiteral("gpu-a02"));
        bool sys = false;
        for (const auto& edge : w.topologyView()->edges()) {
            if (edge.isSys && edge.highlighted && edge.dashed)
                sys = true;
        }
        QVERIFY(sys);
        QVERIFY(w.topologyView()->gpuBoxText(3).contains(QLatin1String("rank 7")));
    }

    void diagnosisShowsFixAndVerify()
    {
        MainWindow w;
        w.show();
        w.openPaths({ kDemo });
        QVERIFY(waitForAnalysis(w));
        QVERIFY(!w.diagnosisPane()->fixText().isEmpty());
        QVERIFY(w.diagnosisPane()->fixText().contains(
            QLatin1String("NCCL_IB_HCA=mlx5_1"))); // the per-local-rank mapping
        const QString verify = w.diagnosisPane()->verifyCommands().join(QLatin1Char('\n'));
        QVERIFY2(verify.contains(QLatin1String("rg -n -F --")), qPrintable(verify));
        QVERIFY(w.diagnosisPane()->checklistCount() >= 4);
    }

    void dropFolderLoadsIt()
    {
        MainWindow w;
        w.show();
        auto* mime = new QMimeData;
        mime->setUrls({ QUrl::fromLocalFile(QStringLiteral(RANKSCOPE_TEST_DATA "/sample-job")) });
        drop(w, mime);
        QVERIFY(waitForAnalysis(w));
        QVERIFY(w.currentAttempt());
        QCOMPARE(w.currentAttempt()->incident.files.size(), size_t(4));
        delete mime;
    }

    void dropTextBecomesIncident()
    {
        MainWindow w;
        w.show();
        QFile f(QStringLiteral(RANKSCOPE_TEST_DATA "/diagnosis/pasted-oom-traceback.txt"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        auto* mime = new QMimeData;
        mime->setText(QString::fromUtf8(f.readAll()));
        drop(w, mime);
        QVERIFY(waitForAnalysis(w));
        QVERIFY(w.currentAttempt());
        QVERIFY(w.currentAttempt()->diagnosis.failureFound);
        delete mime;
    }

    void pasteTraceback()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QApplication::clipboard()->setText(
            QStringLiteral("[rank3]:[E314 02:17:44.791203518 ProcessGroupNCCL.cpp:593] [Rank 3] Watchdog "
                           "caught collective operation timeout: "
                           "WorkNCCL(SeqNum=12, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) "
                           "ran for 600012 milliseconds before timing out.\n"));
        QTest::keyClick(&w, Qt::Key_V, Qt::ControlModifier);
        QVERIFY(waitForAnalysis(w));
        QVERIFY(w.currentAttempt());
        const Incident& inc = w.currentAttempt()->incident;
        // Kept as a file of its own first, so the Log view and the rg commands name a real path.
        const QString saved = inc.files.front().path;
        QVERIFY2(saved.endsWith(QLatin1String("/pasted.log")), qPrintable(saved));
        QFile copy(saved);
        QVERIFY(copy.open(QIODevice::ReadOnly));
        QVERIFY(copy.readAll().contains("Watchdog caught collective operation timeout"));
        QCOMPARE(inc.events.front().rank, 3);
    }

    // The rank list cuts a long message from a head about twice the cell's width: the same text as
    // eliding the whole message.
    void rankCellsElideLikeTheWholeText_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("width");
        const QString message = QStringLiteral(
            "[Rank 7] NCCL WARN NET/IB : Got completion from peer 10.0.0.12<45123> with error 12, opcode 0, "
            "len 0, vendor err 129 (Recv) localGid ::ffff:10.0.0.11 remoteGid ::ffff:10.0.0.12 after a "
            "transport retry count exceeded on mlx5_0:1, hca mlx5_0, qp 0x1a2b, cq 0x3c4d");
        QTest::newRow("narrow") << message << 30;
        QTest::newRow("a few words") << message << 160;
        QTest::newRow("most of it") << message << 900;
        QTest::newRow("all of it") << message << 4000;
        QTest::newRow("wide glyphs") << QString(120, QChar(0x6F22)) << 200;
        QTest::newRow("narrow glyphs") << QString(200, u'i') << 300;
        QTest::newRow("short") << QStringLiteral("timeout") << 20;
    }
    void rankCellsElideLikeTheWholeText()
    {
        QFETCH(QString, text);
        QFETCH(int, width);
        const QFontMetrics fm(QApplication::font());
        QCOMPARE(RankListDelegate::elided(fm, text, Qt::ElideRight, width),
            fm.elidedText(text, Qt::ElideRight, width));
    }

    // The rank list is a sorted table: the initiating rank in bold with its status coloured, the row of the
    // event shown selected, and a click on a rank shows its first WARN.
    // The fix actions are written for the job's launcher and framework: here given (as --launcher and
    // --framework give them), on a real watchdog case whose remedy raises the process-group timeout.
    void actionsFollowTheLaunchOverride()
    {
        MainWindow w;
        w.resize(1600, 1000);
        w.setLaunchOverride(QStringLiteral("slurm"), QStringLiteral("hf-trainer"));
        w.show();
        w.openPaths({ QStringLiteral(
            RANKSCOPE_TEST_DATA "/real/114-watchdog-tokenization-on-rank0-exceeds-30min/log.txt") });
        QVERIFY(waitForAnalysis(w));
        const QString actions = w.diagnosisPane()->actionTexts().join(QLatin1Char('\n'));
        QVERIFY2(actions.contains(QLatin1String("--ddp_timeout")), qPrintable(actions));
        QVERIFY(!actions.contains(QLatin1String("init_process_group(")));
    }

    void rankTableFollowsTheEvent()
    {
        MainWindow w;
        w.resize(1600, 1000);
        w.show();
        w.openPaths({ kDemo });
        QVERIFY(waitForAnalysis(w));
        auto* table = w.findChild<QTableView*>(QStringLiteral("ranks"));
        QVERIFY(table);
        const QAbstractItemModel* model = table->model();
        QCOMPARE(model->rowCount(), 5);
        auto rankAt = [&](int row) { return model->index(row, 0).data(RankTableModel::RankRole).toInt(); };
        for (int row = 1; row < model->rowCount(); ++row)
            QVERIFY(rankAt(row - 1) < rankAt(row)); // by rank at first
        // The initiating event is shown: rank 7's row is the selected one.
        QTRY_VERIFY(table->selectionModel()->hasSelection());
        const int selected = table->selectionModel()->selectedRows().front().row();
        QCOMPARE(rankAt(selected), 7);
        QVERIFY(model->index(selected, 0).data(Qt::FontRole).value<QFont>().bold());
        QCOMPARE(model->index(selected, RankTableModel::StatusColumn).data().toString(),
            QStringLiteral("initiating"));
        QCOMPARE(model->index(selected, RankTableModel::StatusColumn)
                     .data(Qt::ForegroundRole)
                     .value<QBrush>()
                     .color(),
            initiatingColor(QGuiApplication::palette()));
        // A click on another rank with a WARN shows that WARN.
        int other = -1;
        for (int row = 0; row < model->rowCount() && other < 0; ++row) {
            if (row != selected && model->index(row, 0).data(RankTableModel::FirstWarnEventRole).toInt() >= 0)
                other = row;
        }
        QVERIFY(other >= 0);
        const int ev = model->index(other, 0).data(RankTableModel::FirstWarnEventRole).toInt();
        const QModelIndex cell = model->index(other, RankTableModel::HostColumn);
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(cell).center());
        QCOMPARE(w.timeline()->selectedEvent(), ev);
        QTRY_COMPARE(
            w.logView()->currentLine(), w.currentAttempt()->incident.events[static_cast<size_t>(ev)].line);
        QCOMPARE(table->selectionModel()->selectedRows().front().row(), other);
        // Sorted by first WARN, the initiating rank's (the earliest) comes first.
        table->sortByColumn(RankTableModel::FirstWarnColumn, Qt::AscendingOrder);
        QCOMPARE(rankAt(0), 7);
        // The timeline's filters narrow the table too: the text filter keeps the ranks whose lanes pass it.
        QLineEdit* filter = nullptr;
        for (auto* e : w.findChildren<QLineEdit*>()) {
            if (e->placeholderText().startsWith(QLatin1String("Filter ranks")))
                filter = e;
        }
        QVERIFY(filter);
        filter->setText(QStringLiteral("rank 7 "));
        const TimelineModel& lanes = w.timeline()->model();
        QSet<int> shownRanks;
        for (int l = 0; l < lanes.laneCount(); ++l) {
            if (lanes.laneShown(l) && lanes.lane(l).rank >= 0)
                shownRanks.insert(lanes.lane(l).rank);
        }
        QVERIFY(!shownRanks.isEmpty() && shownRanks.size() < 5);
        QCOMPARE(model->rowCount(), shownRanks.size());
        QCOMPARE(rankAt(0), 7);
        filter->clear();
        QCOMPARE(model->rowCount(), 5);
    }

    // A click on a rank without any WARN (the rank that hung, in a generated hang: it printed no error)
    // shows the last line it wrote, and its lane in the timeline. It did nothing before.
    void quietRankShowsItsLastLine()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        testgen::GenOptions o;
        o.ranks = 8;
        o.gpusPerNode = 4;
        o.fault = testgen::Fault::Hang;
        o.faultRank = 5;
        o.layout = testgen::Layout::PerRankFiles;
        o.seed = 9;
        const testgen::GenResult gen = testgen::generateIncident(o, dir.path());
        QVERIFY2(gen.error.isEmpty(), qPrintable(gen.error));
        MainWindow w;
        w.resize(1600, 1000);
        w.show();
        w.openPaths({ dir.path() });
        QVERIFY(waitForAnalysis(w));
        auto* table = w.findChild<QTableView*>(QStringLiteral("ranks"));
        QVERIFY(table);
        const QAbstractItemModel* model = table->model();
        int quiet = -1;
        for (int row = 0; row < model->rowCount() && quiet < 0; ++row) {
            if (model->index(row, 0).data(RankTableModel::FirstWarnEventRole).toInt() < 0)
                quiet = row;
        }
        QVERIFY(quiet >= 0);
        const int rank = model->index(quiet, 0).data(RankTableModel::RankRole).toInt();
        const RankInfo* info = w.currentAttempt()->incident.rankInfo(rank);
        QVERIFY(info && info->files.size() == 1);
        const FileInfo& file = w.currentAttempt()->incident.files[static_cast<size_t>(info->files.front())];
        QVERIFY(w.logView()->filePath() != file.path);
        QTest::mouseClick(
            table->viewport(), Qt::LeftButton, {}, table->visualRect(model->index(quiet, 0)).center());
        QTRY_COMPARE(w.logView()->filePath(), file.path);
        QTRY_COMPARE(w.logView()->currentLine(), w.logView()->lineCount());
        QCOMPARE(w.logView()->lineCount(), file.lines);
        QVERIFY2(
            w.logHeaderText().contains(QStringLiteral("rank %1").arg(rank)), qPrintable(w.logHeaderText()));
    }

    // Stop drops a comparison with a healthy run, or a verification, under way: nothing of it is shown,
    // and the next one still runs to the end.
    void stopDropsComparisonAndVerification()
    {
        MainWindow w;
        w.show();
        w.openPaths({ kDemo });
        QVERIFY(waitForAnalysis(w));
        auto* stop = w.findChild<QToolButton*>(QStringLiteral("stopLoading"));
        QVERIFY(stop);
        QSignalSpy shown(&w, &MainWindow::controlFinished);
        QSignalSpy stopped(&w, &MainWindow::controlStopped);
        const QString control = QStringLiteral(RANKSCOPE_TEST_DATA "/sample-job");

        w.compareWithHealthyRun(control);
        QVERIFY(w.isComparing());
        QVERIFY(!stop->isHidden());
        stop->click();
        QCOMPARE(stopped.size(), 1);
        QVERIFY(!w.isComparing());
        QVERIFY(stop->isHidden());
        QCOMPARE(w.statusBar()->currentMessage(), QStringLiteral("Comparison stopped."));

        w.verifyFixWith(control);
        QVERIFY(w.isComparing());
        stop->click();
        QCOMPARE(stopped.size(), 2);
        QCOMPARE(w.statusBar()->currentMessage(), QStringLiteral("Verification stopped."));
        QTest::qWait(1500); // long enough for both to have finished had they not been dropped
        QCOMPARE(shown.size(), 0);

        w.compareWithHealthyRun(control);
        QVERIFY(shown.wait(60000));
        QVERIFY(!w.isComparing());
        QCOMPARE(shown.size(), 1);
    }

    void exportWritesBothFiles()
    {
        MainWindow w;
        w.show();
        w.openPaths({ kDemo });
        QVERIFY(waitForAnalysis(w));
        QTemporaryDir dir;
        QString error;
        QVERIFY2(w.exportReport(dir.filePath(QStringLiteral("report")), &error), qPrintable(error));
        QFile md(dir.filePath(QStringLiteral("report.md")));
        QFile html(dir.filePath(QStringLiteral("report.html")));
        QVERIFY(md.open(QIODevice::ReadOnly) && html.open(QIODevice::ReadOnly));
        QVERIFY(md.readAll().contains("Rank 7"));
        const QByteArray page = html.readAll();
        // Two SVG drawings: the timeline, drawn for the page from the model (no screen capture), and the
        // topology. The timeline has every lane's whole label, the initiating marker and a legend.
        QVERIFY(!page.contains("data:image/png"));
        const QRegularExpression img(QStringLiteral("<h2>Timeline</h2><img alt=\"timeline\"[^>]*"
                                                    "src=\"data:image/svg\\+xml;base64,([A-Za-z0-9+/=]+)\""));
        const QRegularExpressionMatch m = img.match(QString::fromUtf8(page));
        QVERIFY(m.hasMatch());
        const QByteArray svg = QByteArray::fromBase64(m.captured(1).toLatin1());
        QVERIFY(svg.startsWith("<svg "));
        const LogEvent& init =
            w.currentAttempt()
                ->incident.events[static_cast<size_t>(w.currentAttempt()->diagnosis.initiatingEvent)];
        const TimelineModel& model = w.timeline()->model();
        const QString label =
            model.lane(model.laneOfEvent(w.currentAttempt()->diagnosis.initiatingEvent)).label;
        QCOMPARE(init.rank, 7);
        QVERIFY2(svg.contains(label.toHtmlEscaped().toUtf8()), qPrintable(label)); // whole, in its tooltip
        QVERIFY(svg.contains("fill='#e01e5a'")); // the initiating diamond
        QVERIFY(svg.contains(">initiating</text>") && svg.contains(">collateral</text>"));
        QCOMPARE(svg.count("<svg"), 1);
        QVERIFY(page.count("data:image/svg+xml;base64,") == 2); // and the topology
        // torchrun's summary is collateral without a rank: a launcher line, named as such.
        QVERIFY(page.contains("launcher (no rank): torchrun: ChildFailedError summary"));
        QVERIFY(!page.contains("0 rank(s)"));
    }

    // A capture added to an open incident, and taken away again, re-runs the diagnosis only: the logs are
    // moved away first, so a new scan would read nothing, yet the incident stays and gets the placement.
    void topologyChangeDoesNotRescan()
    {
        QTemporaryDir tmp;
        const QString logs = tmp.filePath(QStringLiteral("job"));
        QVERIFY(QDir().mkpath(logs));
        const QDir sample(QStringLiteral(RANKSCOPE_TEST_DATA "/sample-job"));
        for (const QString& name : sample.entryList(QDir::Files))
            QVERIFY(QFile::copy(sample.filePath(name), logs + QLatin1Char('/') + name));
        MainWindow w;
        w.show();
        w.openPaths({ logs });
        QVERIFY(waitForAnalysis(w));
        QVERIFY(w.currentAttempt());
        const size_t events = w.currentAttempt()->incident.events.size();
        QVERIFY(QDir().rename(logs, tmp.filePath(QStringLiteral("moved"))));

        const QString capture = QStringLiteral(RANKSCOPE_TEST_DATA "/topology/nvidia-smi-topo.gpu-a02.txt");
        w.addTopology({ capture });
        QVERIFY(waitForAnalysis(w));
        QVERIFY(w.currentAttempt());
        QCOMPARE(w.currentAttempt()->incident.events.size(), events);
        QCOMPARE(w.analysis()->topologyPaths, QStringList { capture });
        QCOMPARE(w.analysis()->topology.hosts.size(), size_t(1));
        QVERIFY(!w.currentAttempt()->placement.hca.empty());

        w.removeTopology({ capture });
        QVERIFY(waitForAnalysis(w));
        QVERIFY(w.currentAttempt());
        QCOMPARE(w.currentAttempt()->incident.events.size(), events);
        QVERIFY(w.analysis()->topology.hosts.empty());
        QVERIFY(w.currentAttempt()->placement.hca.empty());
    }

    // The export says what `rankscope diagnose --control` says: the comparison is part of the report.
    void exportCarriesTheComparison()
    {
        MainWindow w;
        w.show();
        w.openPaths({ kDemo });
        QVERIFY(waitForAnalysis(w));
        QSignalSpy shown(&w, &MainWindow::controlFinished);
        w.compareWithHealthyRun(QStringLiteral(RANKSCOPE_TEST_DATA "/sample-job"));
        QVERIFY(shown.wait(60000));
        QTemporaryDir dir;
        QString error;
        QVERIFY2(w.exportReport(dir.filePath(QStringLiteral("report")), &error), qPrintable(error));
        QFile md(dir.filePath(QStringLiteral("report.md")));
        QFile html(dir.filePath(QStringLiteral("report.html")));
        QVERIFY(md.open(QIODevice::ReadOnly) && html.open(QIODevice::ReadOnly));
        QVERIFY(md.readAll().contains("## Divergence from the healthy run"));
        QVERIFY(html.readAll().contains("<h2>Divergence from the healthy run</h2>"));
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_main_window.moc"
