// SPDX-License-Identifier: MIT
// Issue 22 in the window, driven by keys and clicks: the Log view's badges in the gutter (never over the
// text), the Evidence box at column 0, a new incident clearing the Log view; the first window fitting the
// screen, the timeline getting most of the width, dock state persisting (in a temporary settings
// location); View ▸ Theme (System, Light, Dark) persisted, with measured contrast at the banner, a lane and
// a marker in screenshots of both themes; the control panels' explanations and buttons, Divergence's
// differing characters; Copy says "Copied"; Help ▸ Open Demo Incident and How to Read a Diagnosis.
#include "diagnosis_pane.h"
#include "divergence_view.h"
#include "hub_panel.h"
#include "log_view.h"
#include "main_window.h"
#include "severity_palette.h"
#include "text_block.h"
#include "theme.h"
#include "timeline_view.h"
#include "verify_view.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QDialog>
#include <QDirIterator>
#include <QDockWidget>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QSplitter>
#include <QStandardPaths>
#include <QStyle>
#include <QStyleOptionButton>
#include <QTableWidget>
#include <QTextBlock>
#include <QTextBrowser>
#include <QToolButton>
#include <QtTest>
#include <cmath>

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

double luminance(QRgb p)
{
    const auto lin = [](int c) {
        const double s = c / 255.0;
        return s <= 0.03928 ? s / 12.92 : std::pow((s + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * lin(qRed(p)) + 0.7152 * lin(qGreen(p)) + 0.0722 * lin(qBlue(p));
}

double contrast(QRgb a, QRgb b)
{
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

// The contrast between the most common colour of a region (its background) and the pixel that differs
// most from it (the text's core; anti-aliased edges lie between). `r` is in logical pixels: a grab at a
// scale factor of 2 has twice as many device pixels.
double regionContrast(const QImage& img, const QRect& r, QRgb* background = nullptr)
{
    QHash<QRgb, int> counts;
    const qreal dpr = img.devicePixelRatio();
    const QRect device(QPoint(qRound(r.left() * dpr), qRound(r.top() * dpr)),
        QSize(qRound(r.width() * dpr), qRound(r.height() * dpr)));
    const QRect clipped = device.intersected(img.rect());
    for (int y = clipped.top(); y <= clipped.bottom(); ++y)
        for (int x = clipped.left(); x <= clipped.right(); ++x)
            ++counts[img.pixel(x, y) | 0xff000000];
    QRgb bg = 0;
    int best = -1;
    for (auto it = counts.begin(); it != counts.end(); ++it)
        if (it.value() > best) {
            best = it.value();
            bg = it.key();
        }
    double most = 1;
    for (auto it = counts.begin(); it != counts.end(); ++it)
        most = std::max(most, contrast(bg, it.key()));
    if (background)
        *background = bg;
    return most;
}

QRect rectIn(const QWidget* w, const QWidget* top)
{
    return QRect(w->mapTo(top, QPoint(0, 0)), w->size());
}

} // namespace

class TestWindowFitTheme : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // settings in a test location, never the user's
        QSettings().clear();
    }
    void cleanup() { QSettings().clear(); }

    void logViewBadgesInGutterAndClears()
    {
        MainWindow w;
        w.resize(1600, 1000);
        w.show();
        w.openPaths({ kDemo });
        QVERIFY(waitForAnalysis(w));
        LogView* log = w.logView();
        const qint64 line = log->currentLine();
        QVERIFY(line > 0);
        // The initiating line's signature is named by the badge's tooltip, not painted over the text.
        QVERIFY(log->badgeToolTip(line).contains(QLatin1String("retry counter exceeded")));
        const QImage shot = log->viewport()->grab().toImage();
        // The text area right of the line's text is the plain row colour: no badge drawn at the end.
        const QFontMetrics fm(log->font());
        const int rowH = fm.height() + 2;
        const int row = static_cast<int>(line - log->firstVisibleLine());
        const int y = row * rowH + rowH / 2;
        const int deviceY = qRound(y * shot.devicePixelRatio());
        QVERIFY(deviceY > 0 && deviceY < shot.height());
        const QRgb right = shot.pixel(shot.width() - 6, deviceY);
        const QRgb nearRight = shot.pixel(shot.width() - 60, deviceY);
        QCOMPARE(right, nearRight);
        // The tooltip shows over the gutter.
        QHelpEvent help(QEvent::ToolTip, QPoint(4, y), log->viewport()->mapToGlobal(QPoint(4, y)));
        QApplication::sendEvent(log->viewport(), &help);
        // The Evidence box opens at column 0. It is a child of the pane once shown (two frames after the
        // analysis landed).
        QPlainTextEdit* evidence = nullptr;
        QTRY_VERIFY((evidence = w.diagnosisPane()->findChild<QPlainTextEdit*>(QStringLiteral("evidence"))));
        QCOMPARE(evidence, w.diagnosisPane()->evidenceView());
        QTRY_VERIFY(evidence->isVisible());
        QTest::qWait(50);
        // Its lines are wider than the box (else column 0 would prove nothing), and it shows their start.
        QVERIFY(evidence->horizontalScrollBar()->maximum() > 0);
        QCOMPARE(evidence->horizontalScrollBar()->value(), 0);
        QCOMPARE(evidence->textCursor().positionInBlock(), 0);
        QVERIFY(!evidence->textCursor().block().next().isValid()); // on the last line, the newest
        // A new incident clears the view: an unreadable folder shows nothing of the demo.
        QSignalSpy finished(&w, &MainWindow::analysisFinished);
        w.openPaths({ QStringLiteral("/nonexistent/rankscope-test") });
        QVERIFY(finished.wait(30000));
        QCOMPARE(log->lineCount(), qint64(0));
        QVERIFY(log->filePath().isEmpty());
        QVERIFY(w.logHeaderText().isEmpty());
    }

    void firstWindowFitsAndDocksPersist()
    {
        const QRect avail = QGuiApplication::primaryScreen()->availableGeometry();
        {
            MainWindow w;
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            QVERIFY2(avail.contains(w.frameGeometry()) || avail.size().boundedTo(w.size()) == w.size(),
                qPrintable(QStringLiteral("window %1x%2 on a %3x%4 screen")
                               .arg(w.width())
                               .arg(w.height())
                               .arg(avail.width())
                               .arg(avail.height())));
            QVERIFY(w.width() <= avail.width() && w.height() <= avail.height());
            // Whatever this screen is, the window can shrink to 1600x1000 at a scale factor of 2 (800x500
            // logical pixels, less a frame): the docks' panes scroll instead of forcing the size. So it
            // can with an incident shown, the banner wrapped and every pane filled.
            const QSize scaled2(800 - 16, 500 - 40);
            const auto fitsScaled2 = [&w, scaled2] {
                const QSize min = w.minimumSizeHint().expandedTo(w.minimumSize());
                return min.boundedTo(scaled2) == min;
            };
            QVERIFY2(fitsScaled2(),
                qPrintable(QStringLiteral("minimum %1x%2")
                               .arg(w.minimumSizeHint().width())
                               .arg(w.minimumSizeHint().height())));
            w.openPaths({ kDemo });
            QVERIFY(waitForAnalysis(w));
            QTest::qWait(80); // the diagnosis pane is shown two frames later
            QVERIFY2(fitsScaled2(),
                qPrintable(QStringLiteral("minimum with the demo %1x%2")
                               .arg(w.minimumSizeHint().width())
                               .arg(w.minimumSizeHint().height())));
            QVERIFY(w.width() <= avail.width() && w.height() <= avail.height());
            // At that size every dock still shows its pane, and the pane scrolls to what does not fit.
            w.resize(scaled2);
            QTest::qWait(50);
            QCOMPARE(w.size(), scaled2);
            for (const char* name : { "diagnosis", "ranks", "log" }) {
                auto* d = w.findChild<QDockWidget*>(QLatin1String(name));
                QVERIFY2(d && d->widget()->width() > 40 && d->widget()->height() > 40, name);
            }
            // The Log view's header as shown still names the line and the rank (the path gives way).
            auto* header = w.findChild<QLabel*>(QStringLiteral("logHeader"));
            QVERIFY(header);
            const QString where = QStringLiteral(" · line %1 · rank 7").arg(w.logView()->currentLine());
            QVERIFY2(header->text().contains(where), qPrintable(header->text()));
            // The banner wraps: its headline is wider than the window, and all its lines are shown.
            auto* banner = w.findChild<QLabel*>(QStringLiteral("banner"));
            QVERIFY(banner && banner->wordWrap());
            QVERIFY(banner->fontMetrics().horizontalAdvance(banner->text()) > banner->width());
            QVERIFY2(banner->height() >= banner->heightForWidth(banner->width()),
                qPrintable(QStringLiteral("banner %1 px tall, its text needs %2")
                               .arg(banner->height())
                               .arg(banner->heightForWidth(banner->width()))));
            QVERIFY(banner->height() >= 2 * banner->fontMetrics().height()); // wrapped, every line shown
            // The Diagnosis pane reflows to its width: its text breaks inside words wider than the pane
            // (the demo's commands and paths), so nothing needs a sideways scroll, and every block of text
            // is as tall as its wrapped lines, so nothing is cut off below either.
            DiagnosisPane* pane = w.diagnosisPane();
            QTRY_VERIFY(pane->widget()->findChildren<TextBlock*>().size() > 5);
            QTRY_VERIFY2(pane->widget()->width() <= pane->viewport()->width(),
                qPrintable(QStringLiteral("content %1 px in a %2 px pane")
                               .arg(pane->widget()->width())
                               .arg(pane->viewport()->width())));
            QVERIFY(!pane->horizontalScrollBar()->isVisible());
            QVERIFY(pane->verticalScrollBar()->maximum() > 0);
            int wrappedInsideAWord = 0;
            for (TextBlock* block : pane->widget()->findChildren<TextBlock*>()) {
                if (!block->isVisibleTo(pane->widget()))
                    continue;
                const QRect r(block->mapTo(pane->widget(), QPoint(0, 0)), block->size());
                QVERIFY2(r.right() < pane->widget()->width(), qPrintable(block->text().left(60)));
                QVERIFY2(block->height() >= block->heightForWidth(block->width()),
                    qPrintable(QStringLiteral("%1 px tall, needs %2: %3")
                                   .arg(block->height())
                                   .arg(block->heightForWidth(block->width()))
                                   .arg(block->text().left(60))));
                const QString plain = block->toPlainText();
                const QFontMetrics fm(block->font());
                for (const QString& word : plain.split(QRegularExpression(QStringLiteral("\\s+"))))
                    if (fm.horizontalAdvance(word) > block->viewport()->width())
                        ++wrappedInsideAWord;
            }
            QVERIFY2(wrappedInsideAWord > 0, "the demo at this width has a word wider than its block");
            auto* hub = w.findChild<QDockWidget*>(QStringLiteral("hub"));
            auto* hubScroll = qobject_cast<QScrollArea*>(hub->widget());
            QVERIFY(hubScroll);
            QCOMPARE(hubScroll->widget(), static_cast<QWidget*>(w.hubPanel()));
        }
        // At 1600x1000 the timeline (the central widget) gets most of the width.
        int diagWidth = 0;
        {
            MainWindow w;
            w.resize(1600, 1000);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            QTest::qWait(50);
            QVERIFY2(w.timeline()->width() > w.width() / 2,
                qPrintable(QStringLiteral("timeline %1 of %2").arg(w.timeline()->width()).arg(w.width())));
            auto* diag = w.findChild<QDockWidget*>(QStringLiteral("diagnosis"));
            QVERIFY(diag);
            w.resizeDocks({ diag }, { 600 }, Qt::Horizontal);
            QTest::qWait(20);
            diagWidth = diag->width();
            w.close(); // saves the dock state
        }
        // The Signature Hub's divider, dragged, is kept too.
        QList<int> hubSizes;
        {
            HubPanel hub;
            hub.resize(1200, 500);
            hub.show();
            QVERIFY(QTest::qWaitForWindowExposed(&hub));
            auto* split = hub.findChild<QSplitter*>(QStringLiteral("hubSplit"));
            QVERIFY(split);
            QSplitterHandle* handle = split->handle(1);
            const QPoint from = handle->rect().center();
            QTest::mousePress(handle, Qt::LeftButton, {}, from);
            QTest::mouseMove(handle, from + QPoint(150, 0));
            QTest::mouseRelease(handle, Qt::LeftButton, {}, from + QPoint(150, 0));
            hubSizes = split->sizes();
            QVERIFY2(hubSizes.value(0) > 400, qPrintable(QString::number(hubSizes.value(0))));
        }
        MainWindow again;
        again.resize(1600, 1000);
        again.show();
        QVERIFY(QTest::qWaitForWindowExposed(&again));
        QTest::qWait(50);
        QCOMPARE(again.findChild<QDockWidget*>(QStringLiteral("diagnosis"))->width(), diagWidth);
        HubPanel hubAgain;
        hubAgain.resize(1200, 500);
        hubAgain.show();
        QVERIFY(QTest::qWaitForWindowExposed(&hubAgain));
        QCOMPARE(hubAgain.findChild<QSplitter*>(QStringLiteral("hubSplit"))->sizes(), hubSizes);
    }

    // With an incident loaded, the timeline's time area (the plot, right of the lane names) gets more
    // than half the window on first start: at 1600x1000, and at 784x460 (1600x1000 at a scale factor of
    // 2, less a frame). At the latter it was about 28 %.
    void timelinePlotGetsMostOfTheWidth_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1600x1000") << QSize(1600, 1000);
        QTest::newRow("scale 2") << QSize(784, 460);
    }

    void timelinePlotGetsMostOfTheWidth()
    {
        QFETCH(QSize, size);
        QSettings().clear(); // first start: the default docks
        MainWindow w;
        w.resize(size);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.openPaths({ kDemo });
        QVERIFY(waitForAnalysis(w));
        QTest::qWait(80);
        const int plot = w.timeline()->geometry().plotWidth();
        qInfo("%dx%d: plot %d px of %d (%d %%), lane names %d px", w.width(), w.height(), plot, w.width(),
            100 * plot / w.width(), w.timeline()->geometry().gutterWidth);
        QVERIFY2(plot * 2 > w.width(), qPrintable(QStringLiteral("plot %1 of %2").arg(plot).arg(w.width())));
        // The diagnosis is still one click away (a dock shown or a tab), and the lane names still read.
        auto* diag = w.findChild<QDockWidget*>(QStringLiteral("diagnosis"));
        QVERIFY(diag && !diag->isHidden());
        const TimelineModel& model = w.timeline()->model();
        const int lane = model.laneOfEvent(w.currentAttempt()->diagnosis.initiatingEvent);
        QVERIFY(w.timeline()->shownLaneLabel(lane).startsWith(QLatin1String("rank 7")));
    }

    void themesPersistAndKeepContrast()
    {
        MainWindow w;
        w.resize(1600, 1000);
        w.show();
        w.openPaths({ kDemo });
        QVERIFY(waitForAnalysis(w));
        for (Theme theme : { Theme::Light, Theme::Dark }) {
            QAction* act = w.findChild<QAction*>(QStringLiteral("theme-") + themeName(theme));
            QVERIFY(act);
            act->trigger();
            QCOMPARE(w.theme(), theme);
            QCOMPARE(savedTheme(), theme);
            // At once, before the event loop comes round: the window, a dock's pane and the banner's tint.
            QCOMPARE(isDarkPalette(w.palette()), theme == Theme::Dark);
            QCOMPARE(isDarkPalette(w.logView()->palette()), theme == Theme::Dark);
            QCOMPARE(isDarkPalette(w.diagnosisPane()->palette()), theme == Theme::Dark);
            auto* banner = w.findChild<QLabel*>(QStringLiteral("banner"));
            QVERIFY(banner);
            // The confidence badge takes its colours from the one table, in this theme's variant.
            TextBlock* badge = nullptr;
            QTRY_VERIFY((badge = w.diagnosisPane()->findChild<TextBlock*>(QStringLiteral("confidence"))));
            const ColorPair healthy = toneColors(Tone::Healthy, w.palette());
            QVERIFY2(badge->text().contains(QStringLiteral("background:%1").arg(healthy.background.name())),
                qPrintable(badge->text()));
            QRgb tintNow = 0;
            regionContrast(banner->grab().toImage(), banner->rect(), &tintNow);
            QCOMPARE(luminance(tintNow) < 0.2, theme == Theme::Dark);
            QTest::qWait(50);
            const QImage shot = w.grab().toImage();
            const QString name = themeName(theme);
            // The banner: its text against its own tint.
            QRgb bannerBg = 0;
            const double bannerContrast = regionContrast(shot, rectIn(banner, &w), &bannerBg);
            QVERIFY2(bannerContrast >= 4.5,
                qPrintable(QStringLiteral("%1 banner %2").arg(name).arg(bannerContrast)));
            // A dark theme has no glaring light banner.
            if (theme == Theme::Dark)
                QVERIFY(luminance(bannerBg) < 0.2);
            // A lane: the initiating rank's row label against the lane background.
            const int init = w.currentAttempt()->diagnosis.initiatingEvent;
            const QPoint marker = w.timeline()->eventPosition(init);
            QVERIFY(marker.y() > 0);
            const QPoint origin = w.timeline()->viewport()->mapTo(&w, QPoint(0, 0));
            const QRect label(origin.x(), origin.y() + marker.y() - 6, 120, 12);
            const double laneContrast = regionContrast(shot, label);
            QVERIFY2(laneContrast >= 4.5,
                qPrintable(QStringLiteral("%1 lane label %2").arg(name).arg(laneContrast)));
            // The marker against the lane around it.
            const QRect around(origin.x() + marker.x() - 10, origin.y() + marker.y() - 4, 21, 9);
            const double markerContrast = regionContrast(shot, around);
            QVERIFY2(markerContrast >= 3.0,
                qPrintable(QStringLiteral("%1 marker %2").arg(name).arg(markerContrast)));
            // A check box's indicator (its frame or fill) against the window: it must not vanish in Dark.
            QCheckBox* box = nullptr;
            for (QCheckBox* c : w.findChildren<QCheckBox*>())
                if (c->text() == QLatin1String("WARN+ ranks"))
                    box = c;
            QVERIFY(box);
            QStyleOptionButton option;
            option.initFrom(box);
            const QRect indicator = box->style()
                                        ->subElementRect(QStyle::SE_CheckBoxIndicator, &option, box)
                                        .translated(box->mapTo(&w, QPoint(0, 0)));
            const double boxContrast = regionContrast(shot, indicator);
            QVERIFY2(
                boxContrast >= 3.0, qPrintable(QStringLiteral("%1 check box %2").arg(name).arg(boxContrast)));
            // The Log view: every visible line's text against its row (the tint of a WARN or ERROR
            // record among them), each row sampled inside the current line's frame.
            const LogView* log = w.logView();
            const QFontMetrics fm = log->fontMetrics();
            const int rowHeight = fm.height() + 2; // as LogView paints them
            const int digits =
                static_cast<int>(QString::number(std::max<qint64>(log->lineCount(), 1)).size());
            const int textLeft = fm.height() + fm.horizontalAdvance(QLatin1Char('9')) * (digits + 2);
            const QPoint logOrigin = log->viewport()->mapTo(&w, QPoint(0, 0));
            double worstLog = 100;
            QString worstLine;
            int warnRows = 0;
            for (qint64 line = log->firstVisibleLine(); line > 0 && line <= log->lastVisibleLine(); ++line) {
                const QString text = log->lineText(line);
                if (text.trimmed().isEmpty() || text.startsWith(QLatin1Char(' ')))
                    continue;
                const int y = static_cast<int>(line - log->firstVisibleLine()) * rowHeight;
                const int width =
                    std::min(fm.horizontalAdvance(text), log->viewport()->width() - textLeft - 4);
                const QRect row(logOrigin.x() + textLeft + 1, logOrigin.y() + y + 2, width, rowHeight - 4);
                const double c = regionContrast(shot, row);
                if (text.contains(QLatin1String("WARN")) || text.contains(QLatin1String("Error")))
                    ++warnRows;
                if (c < worstLog) {
                    worstLog = c;
                    worstLine = text;
                }
            }
            QVERIFY2(warnRows > 0, "no WARN or ERROR line in view");
            QVERIFY2(worstLog >= 4.5,
                qPrintable(QStringLiteral("%1 log line %2: %3").arg(name).arg(worstLog).arg(worstLine)));
            qInfo("%s theme: banner contrast %.1f, lane label %.1f, marker %.1f, check box %.1f, log text "
                  "(worst line) %.1f",
                qPrintable(name), bannerContrast, laneContrast, markerContrast, boxContrast, worstLog);
        }
        QAction* system = w.findChild<QAction*>(QStringLiteral("theme-system"));
        system->trigger();
        QCOMPARE(savedTheme(), Theme::System);
        QVERIFY(system->isChecked());
        QCOMPARE(themeFromName(QStringLiteral("DARK")), std::optional<Theme>(Theme::Dark));
        QCOMPARE(themeFromName(QStringLiteral("sepia")), std::nullopt);
    }

    // --theme on the command line, honoured by --screenshot, not persisted; an unknown name is refused.
    void themeOnTheCommandLine()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString shot = dir.filePath(QStringLiteral("dark.png"));
        QProcess gui;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));
        gui.setProcessEnvironment(env);
        gui.start(QStringLiteral(RANKSCOPE_GUI_BINARY),
            { QStringLiteral("--theme"), QStringLiteral("dark"), QStringLiteral("--screenshot"), shot,
                kDemo });
        QVERIFY(gui.waitForFinished(120000));
        QCOMPARE(gui.exitCode(), 0);
        const QImage img(shot);
        QVERIFY(!img.isNull());
        // The window's background (the most common colour of the whole picture) is dark.
        QRgb bg = 0;
        regionContrast(img, QRect(QPoint(0, 0), img.deviceIndependentSize().toSize()), &bg);
        QVERIFY2(luminance(bg) < 0.1, qPrintable(QColor(bg).name()));
        // For this run only: no settings file of the run holds the theme.
        QDirIterator files(dir.filePath(QStringLiteral("config")), QDir::Files, QDirIterator::Subdirectories);
        while (files.hasNext()) {
            QFile f(files.next());
            QVERIFY(f.open(QIODevice::ReadOnly));
            QVERIFY2(!f.readAll().contains("theme"), qPrintable(f.fileName()));
        }
        gui.start(QStringLiteral(RANKSCOPE_GUI_BINARY),
            { QStringLiteral("--theme"), QStringLiteral("sepia"), QStringLiteral("--screenshot"), shot });
        QVERIFY(gui.waitForFinished(60000));
        QVERIFY(gui.exitCode() != 0);
        QVERIFY(QString::fromUtf8(gui.readAllStandardError())
                    .contains(QLatin1String("--theme must be system, light or dark")));
    }

    void controlPanelsExplainAndStart()
    {
        MainWindow w;
        w.resize(1600, 1000);
        w.show();
        auto* verifyExplain = w.verifyView()->findChild<QLabel*>(QStringLiteral("verifyExplanation"));
        auto* divExplain = w.divergenceView()->findChild<QLabel*>(QStringLiteral("divergenceExplanation"));
        QVERIFY(verifyExplain && divExplain);
        QVERIFY(verifyExplain->text().contains(QLatin1String("INCONCLUSIVE")));
        QVERIFY(divExplain->text().contains(QLatin1String("healthy run")));
        // The buttons ask the window for a folder dialog; here only that they ask.
        QObject::disconnect(w.verifyView(), &VerifyView::verifyRequested, &w, nullptr);
        QObject::disconnect(w.divergenceView(), &DivergenceView::compareRequested, &w, nullptr);
        QSignalSpy verifyAsked(w.verifyView(), &VerifyView::verifyRequested);
        QTest::mouseClick(w.verifyView()->verifyButton(), Qt::LeftButton);
        QCOMPARE(verifyAsked.count(), 1);
        QSignalSpy compareAsked(w.divergenceView(), &DivergenceView::compareRequested);
        QTest::mouseClick(w.divergenceView()->compareButton(), Qt::LeftButton);
        QCOMPARE(compareAsked.count(), 1);
        // An INCONCLUSIVE result shows its reason, and rank -1 never shows.
        VerifyResult r;
        r.inconclusive = true;
        r.verdict = QStringLiteral("INCONCLUSIVE");
        r.reason = QStringLiteral("the run after the fix logged no training step");
        SignatureOutcome o;
        o.id = QStringLiteral("x");
        o.ranksBefore = { -1, 7 };
        r.outcomes.push_back(o);
        w.verifyView()->setResult(r);
        QVERIFY(w.verifyView()->banner()->text().contains(QLatin1String("INCONCLUSIVE")));
        QVERIFY(w.verifyView()->banner()->text().contains(r.reason));
        const QString before = w.verifyView()->outcomesTable()->item(0, 2)->text();
        QVERIFY2(!before.contains(QLatin1String("-1")), qPrintable(before));
        QCOMPARE(before, QStringLiteral("7 and unattributed lines"));

        // Divergence: the differing characters of the first differing line are found and scrolled to.
        QCOMPARE(
            differingChars(QStringLiteral("abc NET/IB mlx5_0 xyz"), QStringLiteral("abc NET/IB mlx5_1 xyz"))
                .from,
            16);
        Divergence d;
        d.alignedBy = QStringLiteral("test");
        d.found = true;
        d.firstRow = 0;
        DiffRow row;
        row.kind = DiffRow::Changed;
        row.failingLine = row.controlLine = 7;
        const QString pad(300, QLatin1Char('x'));
        row.failingText = pad + QStringLiteral(" via NET/IB/0");
        row.controlText = pad + QStringLiteral(" via NET/IB/1");
        d.rows.push_back(row);
        QDockWidget* dock = w.findChild<QDockWidget*>(QStringLiteral("divergence"));
        dock->raise();
        w.divergenceView()->setDivergence(d);
        QTest::qWait(20);
        QCOMPARE(w.divergenceView()->firstDifferenceChars().from, 312);
        const int x = w.divergenceView()->firstDifferenceX();
        QVERIFY2(x >= 0 && x < w.divergenceView()->failingEdit()->viewport()->width(),
            qPrintable(QString::number(x)));
        QVERIFY(w.divergenceView()->failingEdit()->horizontalScrollBar()->value() > 0);
    }

    void feedbackAndHelp()
    {
        MainWindow w;
        w.resize(1600, 1000);
        w.show();
        QAction* demo = w.findChild<QAction*>(QStringLiteral("openDemo"));
        QVERIFY(demo);
        demo->trigger();
        QVERIFY(waitForAnalysis(w));
        QVERIFY(w.currentAttempt());
        QVERIFY(w.bannerText().contains(QLatin1String("Rank 7")));
        // Copy says "Copied", then "Copy" again.
        // The pane's content is parented two frames after the analysis lands: wait for the button.
        QToolButton* copy = nullptr;
        QTRY_VERIFY((copy = w.diagnosisPane()->findChild<QToolButton*>(QStringLiteral("copyCommand"))));
        QTRY_VERIFY(copy->isVisible());
        QApplication::clipboard()->clear();
        QTest::mouseClick(copy, Qt::LeftButton);
        QCOMPARE(copy->text(), QStringLiteral("Copied"));
        QVERIFY(!QApplication::clipboard()->text().isEmpty());
        QTRY_COMPARE_WITH_TIMEOUT(copy->text(), QStringLiteral("Copy"), 3000);
        // How to Read a Diagnosis: every part named, with the keys.
        QAction* howTo = w.findChild<QAction*>(QStringLiteral("howToRead"));
        QVERIFY(howTo);
        howTo->trigger();
        auto* dialog = w.findChild<QDialog*>(QStringLiteral("howToReadDialog"));
        QVERIFY(dialog);
        const QString text = dialog->findChild<QTextBrowser*>()->toPlainText();
        for (const char* part :
            { "banner", "Confidence", "Collateral", "Suspects", "hypotheses", "W/S zoom", "Ctrl+Shift+F" })
            QVERIFY2(text.contains(QLatin1String(part)), part);
        QVERIFY(dialog->width() <= QGuiApplication::primaryScreen()->availableGeometry().width());
        dialog->close();
        // Fix and verify agree: the fix binds rank 7 to mlx5_1 (its NUMA-local HCA); the verify checks the
        // link that failed (ibstat mlx5_0) and never pins the rank back on mlx5_0.
        const QString verify = w.diagnosisPane()->verifyCommands().join(QLatin1Char('\n'));
        QVERIFY2(verify.contains(QLatin1String("ibstat mlx5_0")), qPrintable(verify));
        QVERIFY2(!verify.contains(QLatin1String("NCCL_IB_HCA=mlx5_0")), qPrintable(verify));
        QVERIFY(w.diagnosisPane()->fixText().contains(QLatin1String("NCCL_IB_HCA=mlx5_1")));
    }
};

QTEST_MAIN(TestWindowFitTheme)
#include "tst_window_fit_theme.moc"
