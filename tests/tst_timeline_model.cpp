// SPDX-License-Identifier: MIT
#include "timeline_binning.h"
#include "timeline_mapping.h"
#include "timeline_model.h"
#include "timeline_test_incident.h"

#include <QTest>
#include <algorithm>

using namespace rankscope;
using rankscope::testing::makeIncident;

class TimelineModelTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void rowsGroupByHost();
    void collapseHidesRanks();
    void filters_data();
    void filters();
    void rolesAreMarked();
    void mappingOperations_data();
    void mappingOperations();
    void shortBurstFitsWholeMarkers();
    void binningMatchesBruteForce();
    void warnNavigation();
    void hangWithoutEventsHasALineAxis();
    void foldedRepeatsRunAsALine();
};

void TimelineModelTest::rowsGroupByHost()
{
    const auto made = makeIncident(16, 2, 20, 1, 4); // 12 ranks on 2 hosts (6 each), 4 without host
    TimelineModel model;
    model.setIncident(&made.incident, made.roles);
    QCOMPARE(model.groupCount(), 3);
    QCOMPARE(model.groupLabel(0), QStringLiteral("gpu-a01"));
    QCOMPARE(model.groupLabel(1), QStringLiteral("gpu-a02"));
    QCOMPARE(model.groupLabel(2), QStringLiteral("unknown host"));
    // 3 headers + 16 ranks + 1 unattributed file
    QCOMPARE(model.rowCount(), 3 + 16 + 1);
    QCOMPARE(model.row(0).kind, TimelineRowKind::HostHeader);
    QCOMPARE(model.row(1).kind, TimelineRowKind::Rank);
    QCOMPARE(model.lane(model.row(1).lane).rank, 0);
    QCOMPARE(model.lane(model.row(1).lane).label, QStringLiteral("rank 0 · gpu-a01 · GPU0"));
    const TimelineLane& last = model.lane(model.row(model.rowCount() - 1).lane);
    QCOMPARE(last.kind, TimelineRowKind::Unattributed);
    QCOMPARE(last.label, QStringLiteral("unattributed: torchrun.console.log"));
    QCOMPARE(static_cast<int>(last.times.size()), 5);
    const TimelineLane& hostless = model.lane(model.row(model.rowCount() - 2).lane);
    QCOMPARE(hostless.rank, 15);
    QCOMPARE(hostless.label, QStringLiteral("rank 15"));
    // Every event is placed in exactly one lane.
    size_t placed = 0;
    for (int l = 0; l < model.laneCount(); ++l)
        placed += model.lane(l).times.size();
    QCOMPARE(placed, made.incident.events.size());
}

void TimelineModelTest::collapseHidesRanks()
{
    const auto made = makeIncident(16, 2, 20);
    TimelineModel model;
    model.setIncident(&made.incident, made.roles);
    const int before = model.rowCount();
    const int lane9 = model.laneOfEvent(made.roles.initiatingEvent);
    QVERIFY(model.rowOfLane(lane9) >= 0);
    model.setCollapsed(QStringLiteral("gpu-a01"), true);
    QVERIFY(model.isCollapsed(QStringLiteral("gpu-a01")));
    QCOMPARE(model.rowCount(), before - 8);
    QCOMPARE(model.row(0).kind, TimelineRowKind::HostHeader);
    QCOMPARE(model.row(1).kind, TimelineRowKind::HostHeader); // gpu-a02 follows directly
    QCOMPARE(model.groupShownLanes(0), 8); // the header still counts its ranks
    model.setCollapsed(QStringLiteral("gpu-a02"), true);
    QCOMPARE(model.rowOfLane(lane9), -1);
    model.setCollapsed(QStringLiteral("gpu-a01"), false);
    QCOMPARE(model.rowCount(), before - 8);
}

void TimelineModelTest::filters_data()
{
    QTest::addColumn<QString>("host");
    QTest::addColumn<bool>("warnOnly");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QList<int>>("expectedRanks"); // -1 = the unattributed lane
    QTest::newRow("host") << QStringLiteral("gpu-a02") << false << QString() << QList<int> { 4, 5, 6, 7 };
    QTest::newRow("text in label") << QString() << false << QStringLiteral("rank 1") << QList<int> { 1 };
    QTest::newRow("text in host") << QString() << false << QStringLiteral("A02") << QList<int> { 4, 5, 6, 7 };
    QTest::newRow("text in event") << QString() << false << QStringLiteral("NET/IB: initiating")
                                   << QList<int> { 7 };
    QTest::newRow("text in unattributed")
        << QString() << false << QStringLiteral("elastic/multiprocessing") << QList<int> { -1 };
    QTest::newRow("warn only") << QString() << true << QString() << QList<int> { 0, 1, 2, 3, 4, 5, 6, 7, -1 };
    QTest::newRow("no match") << QString() << false << QStringLiteral("no such text") << QList<int> {};
}

void TimelineModelTest::filters()
{
    QFETCH(QString, host);
    QFETCH(bool, warnOnly);
    QFETCH(QString, text);
    QFETCH(QList<int>, expectedRanks);
    auto made = makeIncident(8, 2, 30);
    if (warnOnly) { // rank 2 gets no WARN at all: demote its events
        for (LogEvent& e : made.incident.events) {
            if (e.rank == 2)
                e.severity = Severity::Info;
        }
        expectedRanks.removeOne(2);
    }
    TimelineModel model;
    model.setIncident(&made.incident, made.roles);
    model.setHostFilter(host);
    model.setWarnOnly(warnOnly);
    model.setTextFilter(text);
    QList<int> shown;
    for (int r = 0; r < model.rowCount(); ++r) {
        if (model.row(r).kind != TimelineRowKind::HostHeader)
            shown.push_back(model.lane(model.row(r).lane).rank);
    }
    QCOMPARE(shown, expectedRanks);
}

void TimelineModelTest::rolesAreMarked()
{
    const auto made = makeIncident(8, 2, 30);
    TimelineModel model;
    model.setIncident(&made.incident, made.roles);
    const int lane = model.laneOfEvent(made.roles.initiatingEvent);
    QCOMPARE(model.lane(lane).rank, 7);
    QVERIFY(model.lane(lane).suspect);
    for (int l = 0; l < model.laneCount(); ++l)
        QCOMPARE(model.lane(l).suspect, model.lane(l).rank == 6 || model.lane(l).rank == 7);
    const int k = model.indexOfEvent(lane, made.roles.initiatingEvent);
    QVERIFY(k >= 0);
    QVERIFY(model.lane(lane).marks[static_cast<size_t>(k)] & EventMark::Initiating);
    QVERIFY(!made.roles.collateralEvents.empty());
    const int c = made.roles.collateralEvents.front();
    const int cl = model.laneOfEvent(c);
    QVERIFY(model.lane(cl).marks[static_cast<size_t>(model.indexOfEvent(cl, c))] & EventMark::Collateral);
    int inferredLanes = 0;
    for (int l = 0; l < model.laneCount(); ++l) {
        if (model.lane(l).inferredOnly) {
            ++inferredLanes;
            QCOMPARE(model.lane(l).rank, 3);
        }
    }
    QCOMPARE(inferredLanes, 1);
}

void TimelineModelTest::mappingOperations_data()
{
    QTest::addColumn<QString>("op");
    QTest::addColumn<qint64>("expectedStart");
    QTest::addColumn<qint64>("expectedEnd");
    // Data 100 000..200 000 ms (padding 3 200: a fiftieth of the data and the minute's lead-in); window
    // 140 000..160 000.
    QTest::newRow("zoom in around center") << QStringLiteral("zoomIn") << qint64(145000) << qint64(155000);
    QTest::newRow("zoom out around left edge")
        << QStringLiteral("zoomOutLeft") << qint64(140000) << qint64(180000);
    QTest::newRow("pan right") << QStringLiteral("pan") << qint64(145000) << qint64(165000);
    QTest::newRow("pan clamps") << QStringLiteral("panFar") << qint64(183200) << qint64(203200);
    // Fit shows the minute before the first event (leadIn) as well as the padding.
    QTest::newRow("fit") << QStringLiteral("fit") << qint64(36800) << qint64(203200);
    QTest::newRow("center") << QStringLiteral("center") << qint64(110000) << qint64(130000);
    QTest::newRow("min span") << QStringLiteral("tiny") << qint64(150000) << qint64(150010);
}

void TimelineModelTest::mappingOperations()
{
    QFETCH(QString, op);
    QFETCH(qint64, expectedStart);
    QFETCH(qint64, expectedEnd);
    TimelineMapping m;
    m.width = 1000;
    m.setDataRange(100000, 200000);
    m.setWindow(140000, 160000);
    if (op == QLatin1String("zoomIn"))
        m.zoom(0.5, 150000);
    else if (op == QLatin1String("zoomOutLeft"))
        m.zoom(2.0, 140000);
    else if (op == QLatin1String("pan"))
        m.pan(5000);
    else if (op == QLatin1String("panFar"))
        m.pan(500000);
    else if (op == QLatin1String("fit"))
        m.fitAll();
    else if (op == QLatin1String("center"))
        m.centerOn(120000, 20000);
    else if (op == QLatin1String("tiny"))
        m.setWindow(150000, 150001);
    QCOMPARE(m.start, expectedStart);
    QCOMPARE(m.end, expectedEnd);
    QCOMPARE(m.mapXToTime(m.mapTimeToX(m.start + m.span() / 3)), m.start + m.span() / 3);
}

// A few seconds of data after the minute's lead-in (real case 115's hang): fitAll() leaves the last event
// far enough from the right edge for its 8 px marker to show whole on a 400 px plot.
void TimelineModelTest::shortBurstFitsWholeMarkers()
{
    TimelineMapping m;
    m.width = 400;
    m.setDataRange(1'000'000, 1'002'500);
    m.fitAll();
    QVERIFY(m.width - m.mapTimeToX(1'002'500) >= 5.0);
    QVERIFY(m.mapTimeToX(1'000'000) >= 5.0);
}

void TimelineModelTest::binningMatchesBruteForce()
{
    const auto made = makeIncident(8, 2, 400, 3);
    TimelineModel model;
    model.setIncident(&made.incident, made.roles);
    TimelineMapping m;
    m.width = 333;
    m.setDataRange(model.firstTime(), model.lastTime());
    const int selected = made.roles.initiatingEvent;
    for (int zoomStep = 0; zoomStep < 5; ++zoomStep) {
        for (int l = 0; l < model.laneCount(); ++l) {
            const TimelineLane& lane = model.lane(l);
            std::vector<PixelBin> bins;
            binLane(lane, m, selected, bins);
            std::vector<PixelBin> expected(static_cast<size_t>(m.width));
            for (size_t k = 0; k < lane.times.size(); ++k) { // every event, no search
                const LogEvent& e = made.incident.events[static_cast<size_t>(lane.events[k])];
                if (e.time.ms < m.start || e.time.ms > m.end)
                    continue;
                const auto col = static_cast<size_t>(
                    std::clamp(static_cast<int>((e.time.ms - m.start) * m.width / m.span()), 0, m.width - 1));
                const bool collateral = std::find(made.roles.collateralEvents.begin(),
                                            made.roles.collateralEvents.end(), lane.events[k])
                    != made.roles.collateralEvents.end();
                if (collateral)
                    expected[col].flags |= BinFlag::Collateral;
                else
                    expected[col].severity = std::max(expected[col].severity, static_cast<qint8>(e.severity));
                if (lane.events[k] == made.roles.initiatingEvent)
                    expected[col].flags |= BinFlag::Initiating | BinFlag::Selected;
                if (e.time.inferred)
                    expected[col].flags |= BinFlag::Inferred;
            }
            for (size_t c = 0; c < bins.size(); ++c) {
                QCOMPARE(bins[c].severity, expected[c].severity);
                QCOMPARE(bins[c].flags, expected[c].flags);
            }
        }
        m.zoom(0.37, model.eventTime(made.roles.initiatingEvent) + 1234);
    }
}

void TimelineModelTest::warnNavigation()
{
    const auto made = makeIncident(8, 2, 50, 5);
    TimelineModel model;
    model.setIncident(&made.incident, made.roles);
    model.setHostFilter(QStringLiteral("gpu-a02"));
    // Expected order: WARN+ events of shown lanes by (time, index).
    std::vector<int> expected;
    for (size_t i = 0; i < made.incident.events.size(); ++i) {
        const LogEvent& e = made.incident.events[i];
        if (e.severity >= Severity::Warn && e.host == QLatin1String("gpu-a02"))
            expected.push_back(static_cast<int>(i));
    }
    std::stable_sort(expected.begin(), expected.end(), [&](int a, int b) {
        return made.incident.events[static_cast<size_t>(a)].time.ms
            < made.incident.events[static_cast<size_t>(b)].time.ms;
    });
    QVERIFY(expected.size() > 10);
    std::vector<int> forward;
    for (int e = model.nextWarnEvent(model.firstTime() - 1, -1); e >= 0;
         e = model.nextWarnEvent(model.eventTime(e), e))
        forward.push_back(e);
    QCOMPARE(forward, expected);
    std::vector<int> backward;
    for (int e = model.previousWarnEvent(model.lastTime() + 1, -1); e >= 0;
         e = model.previousWarnEvent(model.eventTime(e), e))
        backward.push_back(e);
    std::reverse(backward.begin(), backward.end());
    QCOMPARE(backward, expected);
}

// A hang diagnosed from NCCL's progress alone has no event: the axis spans the file's lines, never a clock
// that no line printed (it once showed 23:59:00 to 23:59:45 for vllm#9920's six lines).
void TimelineModelTest::hangWithoutEventsHasALineAxis()
{
    Incident inc;
    FileInfo f;
    f.path = f.displayPath = QStringLiteral("paste.log");
    f.lines = 6;
    inc.files.push_back(f);
    RankInfo r;
    r.rank = 0;
    r.host = QStringLiteral("ws1");
    inc.ranks.push_back(r);
    TimelineModel model;
    model.setIncident(&inc, {});
    QCOMPARE(model.axis(), TimelineAxis::LineOrder);
    QCOMPARE(model.firstTime(), qint64(1));
    QCOMPARE(model.lastTime(), qint64(6));
}

QTEST_GUILESS_MAIN(TimelineModelTest)
// An event that counts repeats folded while scanning (LogEvent::repeats) draws a line through the columns
// they ran through, up to the last one's time, and the axis reaches that time.
void TimelineModelTest::foldedRepeatsRunAsALine()
{
    auto made = makeIncident(8, 2, 40, 1); // ranks >= 8: rank 7 holds the initiating event
    LogEvent* folded = nullptr;
    for (LogEvent& e : made.incident.events) {
        if (e.time.valid && e.rank == 2 && !folded)
            folded = &e;
    }
    QVERIFY(folded);
    TimelineModel before;
    before.setIncident(&made.incident, made.roles);
    const qint64 last = before.lastTime() + 600000; // ten minutes after the last event
    folded->repeats = 5000;
    folded->lastRepeatLine = 999999;
    folded->lastRepeatTime = folded->time;
    folded->lastRepeatTime.ms = last;
    TimelineModel model;
    model.setIncident(&made.incident, made.roles);
    QCOMPARE(model.lastTime(), last);
    const int laneIndex = model.laneOfEvent(static_cast<int>(folded - made.incident.events.data()));
    QVERIFY(laneIndex >= 0);
    const TimelineLane& lane = model.lane(laneIndex);
    QCOMPARE(lane.repeatRuns.size(), std::size_t(1));
    QCOMPARE(lane.repeatRuns.front().from, folded->time.ms);
    QCOMPARE(lane.repeatRuns.front().to, last);
    TimelineMapping m;
    m.width = 200;
    m.setDataRange(model.firstTime(), model.lastTime());
    std::vector<PixelBin> bins;
    binLane(lane, m, -1, bins);
    const int from = m.columnOf(folded->time.ms);
    const int to = m.columnOf(last);
    QVERIFY(to > from + 10);
    for (int c = 0; c < m.width; ++c) {
        const bool inRun = c > from && c <= to;
        QCOMPARE(bins[static_cast<size_t>(c)].repeats >= 0, inRun);
    }
    // Another lane has no run.
    for (int l = 0; l < model.laneCount(); ++l) {
        if (l != laneIndex)
            QVERIFY(model.lane(l).repeatRuns.empty());
    }
}

#include "tst_timeline_model.moc"
