// SPDX-License-Identifier: MIT
#include "severity_palette.h"
#include "timeline_axis.h"
#include "timeline_binning.h"
#include "timeline_painter.h"
#include "timeline_test_incident.h"
#include "timeline_view.h"

#include <QElapsedTimer>
#include <QImage>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTest>
#include <memory>

using namespace rankscope;
using rankscope::testing::MadeIncident;
using rankscope::testing::makeIncident;

class TimelineViewTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void loadShowsInitiatingMarker();
    void keysChangeRange_data();
    void keysChangeRange();
    void nextPreviousSelectWarnEvents();
    void clickSelectsEvent();
    void rubberBandZooms();
    void headerClickCollapses();
    void textFilterLimitsRows();
    void followsDarkPalette();
    void roleMarkersAreClosedShapes();
    void fileLanesStayApartWhenNarrow_data();
    void fileLanesStayApartWhenNarrow();
    void offsetLabelsCarryUnits_data();
    void offsetLabelsCarryUnits();
    void benchmarkRepaint();

private:
    QImage renderView();
    // The viewport's offset inside the widget, for pixel checks on a rendered image.
    QPoint viewportOffset() const { return m_view->viewport()->mapTo(m_view.get(), QPoint(0, 0)); }

    MadeIncident m_made;
    std::unique_ptr<TimelineView> m_view;
    std::unique_ptr<MadeIncident> m_big;
    std::unique_ptr<TimelineView> m_bigView; // declared after m_big: destroyed before it
    QImage m_bigImage;
};

void TimelineViewTest::init()
{
    m_made = makeIncident(64, 8, 60, 11);
    m_view = std::make_unique<TimelineView>();
    m_view->resize(1400, 900);
    m_view->show(); // lays out the viewport, so geometry accessors match what is painted
    QVERIFY(QTest::qWaitForWindowExposed(m_view.get()));
    m_view->setIncident(&m_made.incident, m_made.roles);
}

QImage TimelineViewTest::renderView()
{
    QImage image(m_view->size(), QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::black);
    m_view->render(&image);
    return image;
}

void TimelineViewTest::loadShowsInitiatingMarker()
{
    const int ev = m_made.roles.initiatingEvent;
    const qint64 t = m_made.incident.events[static_cast<size_t>(ev)].time.ms;
    QVERIFY(m_view->visibleStart() < t && t < m_view->visibleEnd());
    // Centred on it, and its row scrolled into view.
    QVERIFY(qAbs((m_view->visibleStart() + m_view->visibleEnd()) / 2 - t) <= 1);
    const QPoint at = m_view->eventPosition(ev);
    QVERIFY(at.x() >= 0);
    const int x = m_view->initiatingMarkerX();
    QCOMPARE(x, at.x());
    const QImage image = renderView();
    if (qEnvironmentVariableIsSet("RANKSCOPE_TIMELINE_SNAPSHOT")) // for looking at it by eye
        image.save(qEnvironmentVariable("RANKSCOPE_TIMELINE_SNAPSHOT"));
    const QPoint off = viewportOffset();
    // The marker line runs down the whole plot, over the rows.
    const QRgb marker = initiatingColor(m_view->palette()).rgb();
    const int bottom = m_view->viewport()->height() - 2;
    for (int y : { m_view->geometry().axisHeight + 2, bottom / 2, bottom }) {
        const QColor c = image.pixel(off.x() + x, off.y() + y);
        QVERIFY2(c.rgb() == marker, qPrintable(QStringLiteral("y %1: %2").arg(y).arg(c.name())));
    }
    // Left of the line (no event there in the marker's own column band) is not the marker colour.
    QVERIFY(QColor(image.pixel(off.x() + x - 40, off.y() + bottom)).rgb() != marker);
}

void TimelineViewTest::keysChangeRange_data()
{
    QTest::addColumn<int>("key");
    QTest::addColumn<double>("spanFactor");
    QTest::addColumn<double>("centerShiftInSpans"); // of the old span
    QTest::newRow("W zooms in") << int(Qt::Key_W) << 0.5 << 0.0;
    QTest::newRow("S zooms out") << int(Qt::Key_S) << 2.0 << 0.0;
    QTest::newRow("A pans left") << int(Qt::Key_A) << 1.0 << -0.25;
    QTest::newRow("D pans right") << int(Qt::Key_D) << 1.0 << 0.25;
}

void TimelineViewTest::keysChangeRange()
{
    QFETCH(int, key);
    QFETCH(double, spanFactor);
    QFETCH(double, centerShiftInSpans);
    const qint64 start = m_view->visibleStart(), end = m_view->visibleEnd();
    const double span = static_cast<double>(end - start);
    QTest::keyClick(m_view.get(), static_cast<Qt::Key>(key));
    const double newSpan = static_cast<double>(m_view->visibleEnd() - m_view->visibleStart());
    QVERIFY(qAbs(newSpan - span * spanFactor) <= 2);
    const auto center = static_cast<double>(start + end) / 2.0;
    const auto newCenter = static_cast<double>(m_view->visibleStart() + m_view->visibleEnd()) / 2.0;
    QVERIFY(qAbs(newCenter - center - centerShiftInSpans * span) <= 2);

    // F fits everything; Home returns to the initiating event's window.
    QTest::keyClick(m_view.get(), Qt::Key_F);
    QVERIFY(m_view->visibleStart() <= m_view->model().firstTime());
    QVERIFY(m_view->visibleEnd() >= m_view->model().lastTime());
    QTest::keyClick(m_view.get(), Qt::Key_Home);
    QCOMPARE(m_view->visibleStart(), start);
    QCOMPARE(m_view->visibleEnd(), end);
}

void TimelineViewTest::nextPreviousSelectWarnEvents()
{
    // Expected: WARN-or-worse events at or after the visible start, by (time, index).
    const Incident& inc = m_made.incident;
    std::vector<int> expected;
    for (size_t i = 0; i < inc.events.size(); ++i) {
        if (inc.events[i].severity >= Severity::Warn && inc.events[i].time.ms >= m_view->visibleStart())
            expected.push_back(static_cast<int>(i));
    }
    std::stable_sort(expected.begin(), expected.end(), [&](int a, int b) {
        return inc.events[static_cast<size_t>(a)].time.ms < inc.events[static_cast<size_t>(b)].time.ms;
    });
    QVERIFY(expected.size() > 3);
    QSignalSpy spy(m_view.get(), &TimelineView::eventSelected);
    for (int k = 0; k < 3; ++k) {
        QTest::keyClick(m_view.get(), Qt::Key_N);
        QCOMPARE(m_view->selectedEvent(), expected[static_cast<size_t>(k)]);
        QCOMPARE(spy.takeFirst().at(0).toInt(), expected[static_cast<size_t>(k)]);
        QVERIFY(m_view->eventPosition(m_view->selectedEvent()).x() >= 0); // brought into view
    }
    QTest::keyClick(m_view.get(), Qt::Key_P);
    QCOMPARE(m_view->selectedEvent(), expected[1]);
    QTest::keyClick(m_view.get(), Qt::Key_P);
    QCOMPARE(m_view->selectedEvent(), expected[0]);
    QCOMPARE(spy.size(), 2);
}

void TimelineViewTest::clickSelectsEvent()
{
    // Pick visible events that are alone within 10 px in their lane, so the click is unambiguous.
    const TimelineModel& model = m_view->model();
    std::vector<int> targets { m_made.roles.initiatingEvent };
    for (int l = 0; l < model.laneCount() && targets.size() < 4; ++l) {
        const TimelineLane& lane = model.lane(l);
        for (size_t k = 1; k + 1 < lane.times.size(); ++k) {
            const QPoint p = m_view->eventPosition(lane.events[k]);
            if (p.x() < 0 || lane.events[k] == m_made.roles.initiatingEvent)
                continue;
            if (m_view->xForTime(lane.times[k + 1]) - p.x() > 10
                && p.x() - m_view->xForTime(lane.times[k - 1]) > 10) {
                targets.push_back(lane.events[k]);
                break;
            }
        }
    }
    QVERIFY(targets.size() >= 3);
    QSignalSpy spy(m_view.get(), &TimelineView::eventSelected);
    for (int target : targets) {
        const QPoint p = m_view->eventPosition(target);
        QVERIFY(p.x() >= 0);
        QTest::mouseClick(m_view->viewport(), Qt::LeftButton, {}, p + QPoint(1, 0));
        QCOMPARE(spy.size(), 1);
        QCOMPARE(spy.takeFirst().at(0).toInt(), target);
        QCOMPARE(m_view->selectedEvent(), target);
    }
}

void TimelineViewTest::rubberBandZooms()
{
    const int left = m_view->geometry().plotLeft();
    const int y = m_view->geometry().axisHeight + 30;
    const qint64 t0 = m_view->mapping().mapXToTime(100);
    const qint64 t1 = m_view->mapping().mapXToTime(300);
    QTest::mousePress(m_view->viewport(), Qt::LeftButton, {}, QPoint(left + 100, y));
    QTest::mouseMove(m_view->viewport(), QPoint(left + 200, y));
    QTest::mouseMove(m_view->viewport(), QPoint(left + 300, y));
    QTest::mouseRelease(m_view->viewport(), Qt::LeftButton, {}, QPoint(left + 300, y));
    QCOMPARE(m_view->visibleStart(), t0);
    QCOMPARE(m_view->visibleEnd(), t1);
}

void TimelineViewTest::headerClickCollapses()
{
    m_view->verticalScrollBar()->setValue(0);
    const int rows = m_view->rowCount();
    const QPoint header(10, m_view->geometry().rowTop(0) + m_view->geometry().rowHeight / 2);
    QTest::mouseClick(m_view->viewport(), Qt::LeftButton, {}, header);
    QVERIFY(m_view->isHostCollapsed(QStringLiteral("gpu-a01")));
    QCOMPARE(m_view->rowCount(), rows - 8);
    for (int r = 0; r < m_view->rowCount(); ++r) {
        if (m_view->model().row(r).kind != TimelineRowKind::HostHeader)
            QVERIFY(m_view->model().lane(m_view->model().row(r).lane).host != QLatin1String("gpu-a01"));
    }
    renderView(); // painting a collapsed header (union of its lanes) must work
    QTest::mouseClick(m_view->viewport(), Qt::LeftButton, {}, header);
    QVERIFY(!m_view->isHostCollapsed(QStringLiteral("gpu-a01")));
    QCOMPARE(m_view->rowCount(), rows);
}

void TimelineViewTest::textFilterLimitsRows()
{
    m_view->setTextFilter(QStringLiteral("NET/IB: initiating"));
    QCOMPARE(m_view->rowCount(), 2); // gpu-a01 header + rank 7
    QCOMPARE(m_view->model().lane(m_view->model().row(1).lane).rank, 7);
    QVERIFY(m_view->eventPosition(m_made.roles.initiatingEvent).x() >= 0);
    m_view->setTextFilter(QStringLiteral("gpu-a03"));
    QCOMPARE(m_view->rowCount(), 9);
    m_view->setTextFilter(QString());
    QCOMPARE(m_view->rowCount(), 8 + 64 + 1);
}

void TimelineViewTest::followsDarkPalette()
{
    QPalette dark;
    dark.setColor(QPalette::Window, QColor(0x20, 0x20, 0x24));
    dark.setColor(QPalette::Base, QColor(0x18, 0x18, 0x1c));
    dark.setColor(QPalette::AlternateBase, QColor(0x1e, 0x1e, 0x22));
    dark.setColor(QPalette::Text, Qt::white);
    dark.setColor(QPalette::WindowText, Qt::white);
    m_view->setPalette(dark);
    const QImage image = renderView();
    const QPoint off = viewportOffset();
    // Bottom-right corner of the plot: below or beside the strokes, it is the dark base.
    const QColor c =
        image.pixel(off.x() + m_view->viewport()->width() - 2, off.y() + m_view->geometry().axisHeight / 2);
    QVERIFY2(c.lightness() < 80, qPrintable(c.name()));
}

// Each role's marker is a whole shape: the hollow collateral diamond has all four edges (its last one
// was missing: an open subpath), the cause diamond is filled, the symptom triangle has its base; a
// cause that is also collateral shows as a cause. Checked on the rendered widget, in the middle of each
// edge, where the 2 px outline is solid.
void TimelineViewTest::roleMarkersAreClosedShapes()
{
    const testing::RoleIncident roles = testing::makeRoleIncident();
    m_view->setIncident(&roles.made.incident, roles.made.roles);
    m_view->setVisibleRange(testing::baseTimeMs() - 60'000, testing::baseTimeMs() + 5 * 60'000);
    const QImage image = renderView();
    const QPoint off = viewportOffset();
    const QPalette& pal = m_view->palette();
    const int half = qMax(TimelinePainter::kMinMarkerPixels, m_view->geometry().rowHeight - 6) / 2;
    const auto near = [](QColor a, QColor b) {
        return qAbs(a.red() - b.red()) + qAbs(a.green() - b.green()) + qAbs(a.blue() - b.blue()) <= 60;
    };
    const auto at = [&](int ev, double dx, double dy) {
        const QPoint c = m_view->eventPosition(ev);
        return QColor(image.pixel(off.x() + c.x() + qRound(dx), off.y() + c.y() + qRound(dy)));
    };
    for (int ev : { roles.cause, roles.collateral, roles.symptom, roles.causeAndCollateral })
        QVERIFY2(m_view->eventPosition(ev).x() >= 0, qPrintable(QString::number(ev)));

    // Collateral: the four edge midpoints in the outline colour, the middle hollow (the lane's base).
    const QColor outline = collateralColor(pal);
    const double q = half / 2.0;
    for (const auto& [dx, dy] : { std::pair { -q, -q }, { q, -q }, { q, q }, { -q, q } }) {
        const QColor c = at(roles.collateral, dx, dy);
        QVERIFY2(near(c, outline),
            qPrintable(QStringLiteral("collateral edge at (%1,%2): %3").arg(dx).arg(dy).arg(c.name())));
    }
    QVERIFY(!near(at(roles.collateral, 0, 0), outline));

    // Cause, and a cause that is also collateral: filled diamonds; the corners of their box stay clear.
    const QColor error = severityColor(Severity::Error, pal);
    for (int ev : { roles.cause, roles.causeAndCollateral }) {
        QVERIFY2(near(at(ev, 0, 0), error), qPrintable(at(ev, 0, 0).name()));
        QVERIFY2(near(at(ev, -q, -q + 1), error), qPrintable(at(ev, -q, -q + 1).name()));
        QVERIFY(!near(at(ev, -half + 1, -half + 1), error));
    }

    // Symptom: a filled triangle, its base row coloured across, its top corners clear.
    const QColor warn = severityColor(Severity::Warn, pal);
    QVERIFY2(near(at(roles.symptom, 0, q), warn), qPrintable(at(roles.symptom, 0, q).name()));
    QVERIFY(near(at(roles.symptom, -q, half - 2), warn));
    QVERIFY(near(at(roles.symptom, q, half - 2), warn));
    QVERIFY(!near(at(roles.symptom, -half + 1, -half + 1), warn));
}

void TimelineViewTest::fileLanesStayApartWhenNarrow_data()
{
    QTest::addColumn<QString>("first");
    QTest::addColumn<QString>("second");
    QTest::addColumn<QString>("tellsApart"); // what the first lane's shown label must keep
    QTest::newRow("host in the file name") << "/data/runs/job-41/torchrun.gpu-a01.console.log"
                                           << "/data/runs/job-41/torchrun.gpu-a02.console.log"
                                           << "a01";
    QTest::newRow("host in the folder") << "/data/runs/job-41/gpu-a01/console.log"
                                        << "/data/runs/job-41/gpu-a02/console.log"
                                        << "a01";
}

// Two lanes of unattributed lines at a narrow width (a scale factor of 2 halves the logical width):
// the shown labels still differ and keep what tells the files apart. Elided as a whole they read
// "unattribut…onsole.log" twice.
void TimelineViewTest::fileLanesStayApartWhenNarrow()
{
    QFETCH(QString, first);
    QFETCH(QString, second);
    QFETCH(QString, tellsApart);
    MadeIncident made = makeIncident(8, 2, 5, 3);
    Incident& inc = made.incident;
    for (const QString& path : { first, second }) {
        FileInfo f;
        f.displayPath = path;
        f.path = path;
        f.hasTimestamps = true;
        inc.files.push_back(f);
        LogEvent e;
        e.file = static_cast<int>(inc.files.size()) - 1;
        e.line = 3;
        e.severity = Severity::Error;
        e.time = { testing::baseTimeMs() + 60'000, true, false };
        e.text = QStringLiteral("Traceback (most recent call last):");
        inc.events.push_back(e);
    }
    TimelineView view;
    view.resize(420, 600);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setIncident(&inc, made.roles);
    std::vector<int> lanes;
    for (int l = 0; l < view.model().laneCount(); ++l)
        if (view.model().lane(l).kind == TimelineRowKind::Unattributed
            && view.model().lane(l).label.endsWith(QLatin1String("console.log"))
            && view.model().lane(l).label.contains(QLatin1String("/data/runs/")))
            lanes.push_back(l);
    QCOMPARE(lanes.size(), size_t(2));
    const QFontMetrics fm(view.font());
    QVERIFY2(fm.horizontalAdvance(view.model().lane(lanes[0]).label) > view.geometry().gutterWidth,
        "the whole label fits: nothing to check");
    const QString a = view.shownLaneLabel(lanes[0]);
    const QString b = view.shownLaneLabel(lanes[1]);
    QVERIFY2(a != b, qPrintable(a));
    QVERIFY2(!a.startsWith(QLatin1String("unattribut")), qPrintable(a));
    QVERIFY2(a.contains(tellsApart), qPrintable(a));
    QVERIFY(fm.horizontalAdvance(a) <= view.geometry().gutterWidth);
    // The host headers keep their hosts: the count gives way first.
    for (int g = 0; g < view.model().groupCount(); ++g) {
        const QString host = view.model().groupLabel(g);
        QVERIFY2(view.shownHeaderLabel(g).contains(host), qPrintable(view.shownHeaderLabel(g)));
    }
}

// The second axis line counts from the initiating event; "+05:00" there read as a UTC offset.
void TimelineViewTest::offsetLabelsCarryUnits_data()
{
    QTest::addColumn<qint64>("deltaMs");
    QTest::addColumn<qint64>("stepMs");
    QTest::addColumn<QString>("label");
    QTest::newRow("reference") << qint64(0) << qint64(300000) << "+0s";
    QTest::newRow("five-minutes") << qint64(300000) << qint64(300000) << "+5m";
    QTest::newRow("seconds-step") << qint64(307000) << qint64(1000) << "+5m07s";
    QTest::newRow("whole-minute-seconds-step") << qint64(300000) << qint64(30000) << "+5m00s";
    QTest::newRow("before") << qint64(-5000) << qint64(5000) << "-5s";
    QTest::newRow("sub-second") << qint64(250) << qint64(50) << "+0.250s";
    QTest::newRow("minutes-and-ms") << qint64(62500) << qint64(500) << "+1m02.500s";
    QTest::newRow("hours") << qint64(3600000 + 120000) << qint64(600000) << "+1h02m";
    QTest::newRow("whole-hour") << qint64(7200000) << qint64(3600000) << "+2h";
    QTest::newRow("hours-seconds") << qint64(3600000 + 3000) << qint64(1000) << "+1h00m03s";
    QTest::newRow("hover-exact") << qint64(45123) << qint64(1) << "+45.123s";
}

void TimelineViewTest::offsetLabelsCarryUnits()
{
    QFETCH(qint64, deltaMs);
    QFETCH(qint64, stepMs);
    QFETCH(QString, label);
    QCOMPARE(formatOffset(deltaMs, stepMs), label);
}

void TimelineViewTest::benchmarkRepaint()
{
    // 4096 ranks on 512 hosts, 244 events each: ~1M events. Built once: QBENCHMARK re-enters.
    auto& big = m_big;
    auto& view = m_bigView;
    QImage& image = m_bigImage;
    if (!big) {
        QElapsedTimer build;
        build.start();
        big = std::make_unique<MadeIncident>(makeIncident(4096, 512, 244, 3));
        const qint64 made = build.restart();
        view = std::make_unique<TimelineView>();
        view->resize(1400, 900);
        view->show();
        QVERIFY(QTest::qWaitForWindowExposed(view.get()));
        view->setIncident(&big->incident, big->roles);
        qInfo("4096 ranks / %zu events: generated in %lld ms, loaded in %lld ms", big->incident.events.size(),
            static_cast<long long>(made), static_cast<long long>(build.elapsed()));
        image = QImage(view->size(), QImage::Format_ARGB32_Premultiplied);
        view->render(&image); // warm up (font and glyph caches)
        for (const bool fitted : { false, true }) {
            if (fitted)
                view->fitAll();
            QElapsedTimer frames;
            frames.start();
            for (int i = 0; i < 10; ++i)
                view->render(&image);
            qInfo("full repaint 1400x900 (%s): %.1f ms", fitted ? "fitted to all" : "at the initiating event",
                static_cast<double>(frames.nsecsElapsed()) / 1e7);
        }
        view->zoomToInitiating();
    }
    QVERIFY(big->incident.events.size() > 990000);
    QVERIFY(view->initiatingMarkerX() >= 0);
    QBENCHMARK
    {
        view->render(&image);
    }
}

QTEST_MAIN(TimelineViewTest)
#include "tst_timeline_view.moc"
