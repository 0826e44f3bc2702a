// SPDX-License-Identifier: MIT
// A timeline that leads to the answer, driven through keys and the mouse: zooming keeps the initiating
// event in its column while it is on screen, F shows the minute before the first event, role markers are
// wide enough to hit, hovering shows the line, and the overview strip holds every lane, marks the lanes
// that went quiet, and scrolls to the lane clicked.
#include "timeline_overview.h"
#include "timeline_test_incident.h"
#include "timeline_view.h"

#include <QScrollBar>
#include <QSignalSpy>
#include <QTest>
#include <QToolTip>
#include <memory>

using namespace rankscope;
using rankscope::testing::MadeIncident;
using rankscope::testing::makeIncident;

class TimelineLeadsTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void zoomKeepsInitiatingColumn();
    void fitShowsTheMinuteBefore();
    void collateralMarkerIsHittable();
    void hoverShowsTheLine();
    void overviewHoldsEveryLane();
    void overviewMarksQuietLanes();
    void overviewClickScrollsToLane();

private:
    MadeIncident m_made;
    std::unique_ptr<TimelineView> m_view;
};

void TimelineLeadsTest::init()
{
    m_made = makeIncident(64, 8, 60, 11);
    m_view = std::make_unique<TimelineView>();
    m_view->resize(1400, 700);
    m_view->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_view.get()));
    m_view->setIncident(&m_made.incident, m_made.roles);
}

void TimelineLeadsTest::zoomKeepsInitiatingColumn()
{
    // Off centre but visible: a quarter span to the right moves it to the left quarter.
    QTest::keyClick(m_view.get(), Qt::Key_D);
    const int x0 = m_view->initiatingMarkerX();
    QVERIFY(x0 >= 0);
    const int centre = m_view->geometry().plotLeft() + m_view->geometry().plotWidth() / 2;
    QVERIFY(qAbs(x0 - centre) > 50);
    for (Qt::Key key : { Qt::Key_W, Qt::Key_W, Qt::Key_S }) {
        QTest::keyClick(m_view.get(), key);
        QVERIFY2(qAbs(m_view->initiatingMarkerX() - x0) <= 1,
            qPrintable(QStringLiteral("%1 -> %2").arg(x0).arg(m_view->initiatingMarkerX())));
    }
    // Ctrl+wheel far from it zooms around it too.
    const QPoint far(m_view->geometry().plotLeft() + m_view->geometry().plotWidth() - 10, 200);
    QWheelEvent wheel(far, m_view->viewport()->mapToGlobal(far), QPoint(), QPoint(0, 120), Qt::NoButton,
        Qt::ControlModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(m_view->viewport(), &wheel);
    QVERIFY(qAbs(m_view->initiatingMarkerX() - x0) <= 1);
}

void TimelineLeadsTest::fitShowsTheMinuteBefore()
{
    QTest::keyClick(m_view.get(), Qt::Key_F);
    const TimelineModel& model = m_view->model();
    QVERIFY(m_view->visibleStart() <= model.firstTime() - 60000);
    QVERIFY(m_view->visibleEnd() > model.lastTime());
    QVERIFY(m_view->initiatingMarkerX() >= 0);
}

void TimelineLeadsTest::collateralMarkerIsHittable()
{
    // A collateral event alone in its column: a click 4 px beside it still selects it.
    for (int ev : m_made.roles.collateralEvents) {
        const QPoint at = m_view->eventPosition(ev);
        if (at.x() < 0)
            continue;
        QTest::mouseClick(m_view->viewport(), Qt::LeftButton, Qt::NoModifier, at + QPoint(4, 0));
        QVERIFY(m_view->selectedEvent() >= 0);
        QCOMPARE(m_view->model().laneOfEvent(m_view->selectedEvent()), m_view->model().laneOfEvent(ev));
        return;
    }
    QFAIL("no collateral event on screen: the fixture puts some there");
}

void TimelineLeadsTest::hoverShowsTheLine()
{
    const int ev = m_made.roles.initiatingEvent;
    const QPoint at = m_view->eventPosition(ev);
    QVERIFY(at.x() >= 0);
    QHelpEvent help(QEvent::ToolTip, at, m_view->viewport()->mapToGlobal(at));
    QApplication::sendEvent(m_view->viewport(), &help);
    QVERIFY(QToolTip::isVisible());
    QVERIFY(QToolTip::text().contains(m_made.incident.events[static_cast<size_t>(ev)].text.left(30)));
    QVERIFY(QToolTip::text().contains(QStringLiteral("initiating event")));
    QToolTip::hideText();
}

void TimelineLeadsTest::overviewHoldsEveryLane()
{
    const TimelineOverviewStrip* strip = m_view->overviewStrip();
    QVERIFY(strip && strip->isVisible());
    const TimelineOverview& o = strip->overview();
    QVERIFY(!o.rows.empty());
    size_t lanes = 0;
    bool initiating = false;
    for (const OverviewRow& row : o.rows) {
        lanes += row.lanes.size();
        initiating = initiating || row.initiating;
    }
    QCOMPARE(static_cast<int>(lanes), m_view->model().laneCount());
    QVERIFY(initiating);
    // The initiating lane's row warned no later than the initiating event, and the ramp spans it.
    const qint64 initiatingAt = m_view->model().eventTime(m_made.roles.initiatingEvent);
    for (const OverviewRow& row : o.rows) {
        if (row.initiating)
            QVERIFY(row.firstWarn >= 0 && row.firstWarn <= initiatingAt);
    }
    QVERIFY(o.firstWarn <= initiatingAt && initiatingAt <= o.lastWarn + 1);
    // The strip sits above the axis, inside the view, and does not cover the lanes.
    QVERIFY(strip->geometry().bottom() < m_view->viewport()->geometry().top());
}

void TimelineLeadsTest::overviewMarksQuietLanes()
{
    // Rank 2 stops printing ten minutes before the others: it went quiet.
    Incident inc;
    const qint64 t0 = rankscope::testing::baseTimeMs();
    for (int r = 0; r < 3; ++r) {
        RankInfo info;
        info.rank = r;
        info.host = QStringLiteral("node1");
        info.timesKnown = true;
        info.firstTime = { t0, true, false };
        info.lastTime = { t0 + (r == 2 ? 60000 : 15 * 60000), true, false };
        inc.ranks.push_back(info);
        LogEvent e;
        e.rank = r;
        e.file = 0;
        e.severity = r == 1 ? Severity::Warn : Severity::Info;
        e.time = { t0 + (r == 1 ? 14 * 60000 : 30000), true, false };
        e.text = QStringLiteral("line of rank %1").arg(r);
        inc.events.push_back(e);
    }
    inc.files.emplace_back();
    TimelineModel model;
    model.setIncident(&inc, {});
    const TimelineOverview o = buildTimelineOverview(model, 48);
    QCOMPARE(o.rows.size(), size_t { 3 });
    QVERIFY(!o.rows[0].quiet);
    QVERIFY(!o.rows[1].quiet);
    QVERIFY(o.rows[2].quiet);
    QCOMPARE(o.rows[1].firstWarn, t0 + 14 * 60000);
    QCOMPARE(o.rows[0].firstWarn, qint64 { -1 });
    // More lanes than pixel rows: lanes share rows, none is lost.
    const TimelineOverview two = buildTimelineOverview(model, 2);
    QCOMPARE(two.rows.size(), size_t { 2 });
    QCOMPARE(two.rows[0].lanes.size() + two.rows[1].lanes.size(), size_t { 3 });
}

void TimelineLeadsTest::overviewClickScrollsToLane()
{
    TimelineOverviewStrip* strip = const_cast<TimelineOverviewStrip*>(m_view->overviewStrip());
    QSignalSpy requested(strip, &TimelineOverviewStrip::laneRequested);
    const auto rows = static_cast<int>(strip->overview().rows.size());
    const int last = rows - 1;
    const int y = strip->yOfRow(last);
    QTest::mouseClick(strip, Qt::LeftButton, Qt::NoModifier, QPoint(strip->width() / 2, y));
    QCOMPARE(requested.count(), 1);
    const int lane = requested.front().front().toInt();
    const int row = m_view->model().rowOfLane(lane);
    QVERIFY(row >= 0);
    const int top = m_view->geometry().rowTop(row);
    QVERIFY2(top >= m_view->geometry().axisHeight && top < m_view->viewport()->height(),
        qPrintable(QStringLiteral("row %1 at y %2").arg(row).arg(top)));
}

QTEST_MAIN(TimelineLeadsTest)
#include "tst_timeline_leads.moc"
