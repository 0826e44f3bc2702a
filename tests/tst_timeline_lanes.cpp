// SPDX-License-Identifier: MIT
// The timeline's lanes on real logs (tests/data/real): every event lands in exactly one lane; an event
// whose writer the log names (a pid, a Ray worker, a runner's tag, the kernel) gets a lane named after
// it, never "unattributed: FILE"; a log without any time is drawn on a line-order axis with every event
// placed at its line, never on an invented clock.
#include "analysis.h"
#include "incident_view_model.h"
#include "timeline_model.h"

#include <QDir>
#include <QtTest>
#include <algorithm>

using namespace rankscope;

namespace {

const QString kReal = QStringLiteral(RANKSCOPE_TEST_DATA "/real");

Analysis analyzeFolder(const QString& folder)
{
    AnalysisRequest request;
    for (const QString& f : QDir(folder).entryList(QDir::Files, QDir::Name)) {
        if (f != QLatin1String("expected.json"))
            request.logPaths << folder + QLatin1Char('/') + f;
    }
    return analyze(request);
}

} // namespace

class TimelineLanesTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void realCase_data();
    void realCase();
    void lineOrderAxisWithoutTimes();
    void rayWorkersGetPidLanes();
};

void TimelineLanesTest::realCase_data()
{
    QTest::addColumn<QString>("folder");
    const QStringList cases = QDir(kReal).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
    QVERIFY(cases.size() >= 20);
    for (const QString& c : cases)
        QTest::newRow(qPrintable(c)) << kReal + QLatin1Char('/') + c;
}

void TimelineLanesTest::realCase()
{
    QFETCH(QString, folder);
    const Analysis analysis = analyzeFolder(folder);
    const AttemptAnalysis* a = analysis.currentAttempt();
    QVERIFY2(a, qPrintable(analysis.error));
    const IncidentViewModel view = buildIncidentViewModel(analysis, analysis.current, false);
    const TimelineModel& model = view.timeline;
    const Incident& inc = a->incident;

    std::vector<int> seen(inc.events.size(), 0);
    for (int l = 0; l < model.laneCount(); ++l) {
        const TimelineLane& lane = model.lane(l);
        for (int e : lane.events)
            ++seen[static_cast<size_t>(e)];
        if (lane.kind == TimelineRowKind::Unattributed) {
            for (int e : lane.events) {
                const LogEvent& ev = inc.events[static_cast<size_t>(e)];
                QVERIFY2(ev.pid < 0 && ev.source.isEmpty(),
                    qPrintable(
                        QStringLiteral("%1 names its writer but is in '%2'").arg(ev.text, lane.label)));
            }
        }
        if (lane.kind == TimelineRowKind::Process && lane.pid >= 0)
            QVERIFY2(lane.label.contains(QStringLiteral("pid %1").arg(lane.pid)), qPrintable(lane.label));
        QVERIFY(!lane.label.contains(QLatin1String("unattributed: ?")));
    }
    int untimed = 0;
    for (int l = 0; l < model.laneCount(); ++l)
        untimed += model.lane(l).untimedEvents;
    const auto placed = static_cast<int>(std::count(seen.begin(), seen.end(), 1));
    QVERIFY(std::all_of(seen.begin(), seen.end(), [](int n) { return n <= 1; }));
    QCOMPARE(placed + untimed, static_cast<int>(inc.events.size()));

    const bool anyTime =
        std::any_of(inc.events.begin(), inc.events.end(), [](const LogEvent& e) { return e.time.valid; });
    QCOMPARE(model.axis(), anyTime || inc.events.empty() ? TimelineAxis::Clock : TimelineAxis::LineOrder);
    const int initiating = model.roles().initiatingEvent;
    if (model.axis() == TimelineAxis::LineOrder) {
        QCOMPARE(untimed, 0);
        if (initiating >= 0) {
            QVERIFY(model.isPlaced(initiating));
            QCOMPARE(model.eventTime(initiating), inc.events[static_cast<size_t>(initiating)].line);
        }
    }
}

void TimelineLanesTest::lineOrderAxisWithoutTimes()
{
    // A bare "[7] graph/rings.cc:38 NCCL WARN" excerpt: no time, no host, no pid.
    const Analysis analysis =
        analyzeFolder(kReal + QStringLiteral("/105-ring-not-loop-back-uninitialized-link-speed"));
    const IncidentViewModel view = buildIncidentViewModel(analysis, analysis.current, false);
    const TimelineModel& model = view.timeline;
    QCOMPARE(model.axis(), TimelineAxis::LineOrder);
    QVERIFY(model.hasTimes());
    QCOMPARE(model.firstTime(), qint64 { 1 });
    const int initiating = model.roles().initiatingEvent;
    QVERIFY(initiating >= 0);
    QVERIFY(model.isPlaced(initiating));
    QCOMPARE(model.eventTime(initiating), qint64 { 1 });
    QVERIFY(model.rowOfLane(model.laneOfEvent(initiating)) >= 0);
}

void TimelineLanesTest::rayWorkersGetPidLanes()
{
    // Ray prefixes every worker line with "(pid=N)"; the NCCL lines inside also give host:pid. Each worker
    // says which rank it is ("Setting up process group ... [rank=N]"), so pid 767 is the rank-0 lane on its
    // host, not a lane of a process without a rank.
    const Analysis analysis =
        analyzeFolder(kReal + QStringLiteral("/115-ray-sgd-hang-p2p-broken-in-vm-libibverbs-distractor"));
    const IncidentViewModel view = buildIncidentViewModel(analysis, analysis.current, false);
    const TimelineModel& model = view.timeline;
    bool rank0 = false;
    bool rank1 = false;
    for (int l = 0; l < model.laneCount(); ++l) {
        const TimelineLane& lane = model.lane(l);
        QVERIFY2(lane.kind != TimelineRowKind::Process, qPrintable(lane.label));
        if (lane.rank == 0 || lane.rank == 1) {
            (lane.rank == 0 ? rank0 : rank1) = true;
            QCOMPARE(lane.kind, TimelineRowKind::Rank);
            QCOMPARE(lane.host, QStringLiteral("ray-608788daf515e90a03e090eb-ray-worker-0"));
            QVERIFY(model.rowOfLane(l) >= 0);
        }
    }
    QVERIFY(rank0);
    QVERIFY(rank1);
}

QTEST_GUILESS_MAIN(TimelineLanesTest)
#include "tst_timeline_lanes.moc"
