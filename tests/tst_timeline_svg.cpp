// SPDX-License-Identifier: MIT
// The report's timeline, drawn from the model as SVG (present/timeline_svg): on the demo every lane with
// its whole label and each event's marker by role, on a line-order axis line labels, and on 1,024 ranks
// the 40 lanes that matter (the initiating rank's among them) with a note counting the others.
#include "analysis.h"
#include "incident_generator.h"
#include "incident_view_model.h"
#include "timeline_binning.h"
#include "timeline_svg.h"
#include "timeline_test_incident.h"

#include <QDir>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using namespace rankscope;

namespace {

Analysis analyzePaths(const QStringList& paths)
{
    AnalysisRequest request;
    request.logPaths = paths;
    return analyze(request);
}

// The x of the initiating diamond ("M<x> <y>l7 7..."), -1 when there is none.
int initiatingX(const QString& svg)
{
    const QRegularExpression re(QStringLiteral("<path d='M(\\d+) \\d+l7 7l-7 7l-7-7z' fill='#e01e5a'"));
    const QRegularExpressionMatch m = re.match(svg);
    return m.hasMatch() ? m.captured(1).toInt() : -1;
}

} // namespace

class TimelineSvgTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void demoDrawsEveryLane()
    {
        const Analysis a = analyzePaths({ QStringLiteral(RANKSCOPE_SOURCE_DIR "/resources/demo") });
        const IncidentViewModel view = buildIncidentViewModel(a, a.current, false);
        const QString svg = QString::fromUtf8(timelineSvg(view.timeline));
        QVERIFY(svg.startsWith(QLatin1String("<svg xmlns='http://www.w3.org/2000/svg'")));
        QVERIFY(svg.endsWith(QLatin1String("</svg>\n")));
        int withEvents = 0;
        for (int l = 0; l < view.timeline.laneCount(); ++l) {
            if (view.timeline.lane(l).times.empty())
                continue;
            ++withEvents;
            const QString title =
                QStringLiteral("<title>%1</title>").arg(view.timeline.lane(l).label.toHtmlEscaped());
            QVERIFY2(svg.contains(title), qPrintable(view.timeline.lane(l).label));
        }
        QCOMPARE(svg.count(QLatin1String("<title>")), withEvents);
        QVERIFY(!svg.contains(QLatin1String("more lanes")));
        // One initiating marker, inside the plot (x 310..980), right of the start.
        QCOMPARE(svg.count(QLatin1String("fill='#e01e5a'")), 2); // the lane's and the legend's
        const int x = initiatingX(svg);
        QVERIFY2(x > 310 && x < 980, qPrintable(QString::number(x)));
        // The same drawing from the analysis alone (what `diagnose --format html` embeds).
        QCOMPARE(timelineSvg(a, a.current), timelineSvg(view.timeline));
        QVERIFY(timelineSvg(a, 99).isEmpty());
        QVERIFY(timelineSvg(TimelineModel()).isEmpty());
    }

    void lineOrderAxisHasLineLabels()
    {
        const QString folder =
            QStringLiteral(RANKSCOPE_TEST_DATA "/real/105-ring-not-loop-back-uninitialized-link-speed");
        QStringList logs;
        for (const QString& f : QDir(folder).entryList(QDir::Files))
            if (f != QLatin1String("expected.json"))
                logs << folder + QLatin1Char('/') + f;
        const Analysis a = analyzePaths(logs);
        const QString svg = QString::fromUtf8(timelineSvg(a, a.current));
        QVERIFY(svg.contains(QRegularExpression(QStringLiteral(">line \\d+</text>"))));
        QVERIFY(!svg.contains(QLatin1String(":00:")));
        QVERIFY(initiatingX(svg) > 310);
    }

    // The report draws each event with the role the window shows (markerRole(): a cause beats
    // collateral): of the four role events, two are causes (one also collateral), one collateral, one a
    // symptom; each shape once more in the legend.
    void rolesFollowTheWindowsOrder()
    {
        const testing::RoleIncident roles = testing::makeRoleIncident();
        TimelineModel model;
        model.setIncident(&roles.made.incident, roles.made.roles);
        const QString svg = QString::fromUtf8(timelineSvg(model));
        QCOMPARE(svg.count(QLatin1String("l6 11h-12z' fill='#c0392b'")), 2 + 1); // cause
        QCOMPARE(svg.count(QLatin1String("fill='none' stroke='#5b6576'")), 1 + 1); // collateral
        QCOMPARE(svg.count(QLatin1String("fill='#d98e04'")), 1 + 1); // symptom
        const quint8 both = EventMark::Cause | EventMark::Collateral;
        QCOMPARE(markerRoleOfEvent(both), MarkerRole::Cause);
        QCOMPARE(markerRoleOfEvent(EventMark::Collateral | EventMark::Symptom), MarkerRole::Collateral);
        PixelBin bin;
        bin.flags = BinFlag::Cause | BinFlag::Collateral;
        QCOMPARE(bin.role(), MarkerRole::Cause);
    }

    void thousandRanksKeepTheLanesThatMatter()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        testgen::GenOptions o;
        o.ranks = 1024;
        o.fault = testgen::Fault::IbRetryExceeded;
        o.faultRank = 777;
        o.seed = 3;
        const testgen::GenResult gen = testgen::generateIncident(o, dir.path());
        QVERIFY2(gen.error.isEmpty(), qPrintable(gen.error));
        const Analysis a = analyzePaths({ dir.path() });
        const IncidentViewModel view = buildIncidentViewModel(a, a.current, false);
        const TimelineModel& m = view.timeline;
        QVERIFY(m.laneCount() > kReportTimelineLanes);
        const QString svg = QString::fromUtf8(timelineSvg(m));
        QCOMPARE(svg.count(QLatin1String("<title>")), kReportTimelineLanes);
        const int init = a.attempts[static_cast<size_t>(a.current)].diagnosis.initiatingEvent;
        QVERIFY(init >= 0);
        const QString initLabel = m.lane(m.laneOfEvent(init)).label;
        QVERIFY2(initLabel.startsWith(QLatin1String("rank 777")), qPrintable(initLabel));
        QVERIFY(svg.contains(QStringLiteral("<title>%1</title>").arg(initLabel.toHtmlEscaped())));
        QVERIFY(initiatingX(svg) > 310);
        QVERIFY(
            svg.contains(QStringLiteral("… and %1 more lanes").arg(m.laneCount() - kReportTimelineLanes)));
        QVERIFY2(svg.size() < 200'000, qPrintable(QString::number(svg.size()))); // markers deduplicated
        // Suspects and collateral ranks make the cut, before any lane of a file or a process without a
        // rank (it kept rank 777 and 39 console files before).
        const auto drawn = [&](int l) {
            return svg.contains(QStringLiteral("<title>%1</title>").arg(m.lane(l).label.toHtmlEscaped()));
        };
        const auto& suspects = m.roles().suspectRanks;
        QVERIFY(!suspects.empty());
        int suspectsDrawn = 0, collateralRanksDrawn = 0, rankLanesLeftOut = 0, otherLanesDrawn = 0;
        for (int l = 0; l < m.laneCount(); ++l) {
            const TimelineLane& lane = m.lane(l);
            const bool rank = lane.kind == TimelineRowKind::Rank && lane.rank >= 0;
            const bool suspect =
                rank && std::find(suspects.begin(), suspects.end(), lane.rank) != suspects.end();
            if (lane.times.empty() && !suspect)
                continue;
            const bool collateral = std::any_of(
                lane.marks.begin(), lane.marks.end(), [](quint8 mk) { return mk & EventMark::Collateral; });
            if (suspect)
                suspectsDrawn += drawn(l) ? 1 : 0;
            else if (rank && collateral)
                collateralRanksDrawn += drawn(l) ? 1 : 0;
            if (rank && !drawn(l))
                ++rankLanesLeftOut;
            if (!rank && drawn(l))
                ++otherLanesDrawn;
        }
        qInfo("report timeline of 1,024 ranks: %d suspect lanes, %d collateral rank lanes, %d lanes without "
              "a rank (%zu suspects)",
            suspectsDrawn, collateralRanksDrawn, otherLanesDrawn, suspects.size());
        QCOMPARE(suspectsDrawn, std::min(static_cast<int>(suspects.size()), kReportTimelineLanes - 1));
        QVERIFY(suspectsDrawn + collateralRanksDrawn > 1);
        if (rankLanesLeftOut > 0)
            QCOMPARE(otherLanesDrawn, 0);
    }
};

QTEST_GUILESS_MAIN(TimelineSvgTest)
#include "tst_timeline_svg.moc"
