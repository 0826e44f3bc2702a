// SPDX-License-Identifier: MIT
#include "timeline_svg.h"

#include "analysis.h"
#include "incident_view_model.h"
#include "timeline_binning.h"

#include <QDateTime>
#include <QSet>
#include <algorithm>
#include <array>
#include <limits>

namespace rankscope {

namespace {

constexpr int kWidth = 1000; // px; the page scales it down (max-width:100%) and the text with it
constexpr int kLabelWidth = 300; // the label column: 42 characters of 12 px text
constexpr int kLabelChars = 42;
constexpr int kLaneHeight = 20; // a marker is 12 px: easy to see on paper
constexpr int kTop = 28; // room for the axis labels
constexpr int kPlotLeft = kLabelWidth + 10;
constexpr int kPlotWidth = kWidth - kPlotLeft - 20;

// Each role a shape of its own and a colour, so that the roles stay apart printed in grey too.
QString marker(MarkerRole role, int x, int y)
{
    switch (role) {
    case MarkerRole::Initiating:
        return QStringLiteral("<path d='M%1 %2l7 7l-7 7l-7-7z' fill='#e01e5a' stroke='#7a0c2e'/>")
            .arg(x)
            .arg(y - 7);
    case MarkerRole::Cause:
        return QStringLiteral("<path d='M%1 %2l6 11h-12z' fill='#c0392b'/>").arg(x).arg(y - 6);
    case MarkerRole::Symptom:
        return QStringLiteral("<circle cx='%1' cy='%2' r='5' fill='#d98e04'/>").arg(x).arg(y);
    case MarkerRole::Collateral:
        return QStringLiteral("<rect x='%1' y='%2' width='10' height='10' fill='none' stroke='#5b6576' "
                              "stroke-width='2'/>")
            .arg(x - 5)
            .arg(y - 5);
    case MarkerRole::None:
        break;
    }
    return QStringLiteral("<rect x='%1' y='%2' width='3' height='12' fill='#8a94a3'/>").arg(x - 1).arg(y - 6);
}

// Long labels keep their start and their end ("rank 0 · host…GPU3"): the file name or GPU is at the end.
QString elideMiddle(const QString& s)
{
    if (s.size() <= kLabelChars)
        return s;
    const qsizetype head = (kLabelChars - 1) / 2;
    return s.left(head) + QChar(0x2026) + s.right(kLabelChars - 1 - head);
}

QString axisLabel(const TimelineModel& model, qint64 t, qint64 span)
{
    if (model.axis() == TimelineAxis::LineOrder)
        return QStringLiteral("line %1").arg(t);
    const QDateTime d = QDateTime::fromMSecsSinceEpoch(t, Qt::UTC);
    return d.toString(span < 10'000 ? QStringLiteral("HH:mm:ss.zzz") : QStringLiteral("HH:mm:ss"));
}

// The lanes to draw, in the model's order: all of them when they fit, else those that matter most.
std::vector<int> chosenLanes(const TimelineModel& model)
{
    // Lanes with events, and the suspects' even without one: a rank that went quiet while the others
    // timed out is the point of the drawing.
    const TimelineRoles& roles = model.roles();
    QSet<int> suspects(roles.suspectRanks.begin(), roles.suspectRanks.end());
    std::vector<int> lanes;
    for (int l = 0; l < model.laneCount(); ++l)
        if (!model.lane(l).times.empty()
            || (model.lane(l).rank >= 0 && suspects.contains(model.lane(l).rank)))
            lanes.push_back(l);
    if (static_cast<int>(lanes.size()) <= kReportTimelineLanes)
        return lanes;
    // The initiating lane; then rank lanes before the lanes of files and processes without a rank; among
    // those, suspects, then lanes with collateral, then lanes with a WARN. On 1,024 ranks a flat score
    // tied console files with suspects, and the first-time order then kept 39 console files and no rank.
    const auto weight = [&](int l) {
        const TimelineLane& lane = model.lane(l);
        bool initiating = false, collateral = false;
        for (quint8 m : lane.marks) {
            initiating = initiating || (m & EventMark::Initiating);
            collateral = collateral || (m & EventMark::Collateral);
        }
        const bool rank = lane.kind == TimelineRowKind::Rank && lane.rank >= 0;
        return (initiating ? 16 : 0) + (rank ? 8 : 0) + (rank && suspects.contains(lane.rank) ? 4 : 0)
            + (collateral ? 2 : 0) + (lane.warnEvents > 0 ? 1 : 0);
    };
    std::stable_sort(lanes.begin(), lanes.end(), [&](int a, int b) {
        const int wa = weight(a), wb = weight(b);
        if (wa != wb)
            return wa > wb;
        const auto start = [&](int l) {
            return model.lane(l).times.empty() ? std::numeric_limits<qint64>::max()
                                               : model.lane(l).times.front();
        };
        return start(a) < start(b);
    });
    lanes.resize(kReportTimelineLanes);
    std::sort(lanes.begin(), lanes.end());
    return lanes;
}

} // namespace

QByteArray timelineSvg(const TimelineModel& model)
{
    if (!model.hasTimes())
        return {};
    const std::vector<int> lanes = chosenLanes(model);
    if (lanes.empty())
        return {};
    const int hidden = model.laneCount() - static_cast<int>(lanes.size());
    // A margin of a twentieth on each side: no marker sits on the frame.
    const qint64 first = model.firstTime(), last = std::max(model.lastTime(), model.firstTime() + 1);
    const qint64 margin = std::max<qint64>((last - first) / 20, 1);
    const qint64 from = first - margin, span = (last + margin) - from;
    const auto xOf = [&](qint64 t) {
        return kPlotLeft
            + static_cast<int>(static_cast<double>(t - from) * kPlotWidth / static_cast<double>(span));
    };
    const int plotBottom = kTop + static_cast<int>(lanes.size()) * kLaneHeight;
    const int height = plotBottom + (hidden > 0 ? 64 : 44);

    QString s =
        QStringLiteral("<svg xmlns='http://www.w3.org/2000/svg' width='%1' height='%2' viewBox='0 0 %1 "
                       "%2' font-family='sans-serif' font-size='12'>")
            .arg(kWidth)
            .arg(height);
    s += QStringLiteral("<rect width='100%' height='100%' fill='#ffffff'/>");
    // The axis: five ticks across the plot, each with its label.
    for (int i = 0; i <= 4; ++i) {
        const qint64 t = from + span * i / 4;
        const int x = xOf(t);
        s += QStringLiteral("<line x1='%1' y1='%2' x2='%1' y2='%3' stroke='#d5d9e0'/>")
                 .arg(x)
                 .arg(kTop - 6)
                 .arg(plotBottom);
        s += QStringLiteral("<text x='%1' y='%2' text-anchor='%3' fill='#1f2933'>%4</text>")
                 .arg(x)
                 .arg(kTop - 10)
                 .arg(i == 0      ? QStringLiteral("start")
                         : i == 4 ? QStringLiteral("end")
                                  : QStringLiteral("middle"),
                     axisLabel(model, t, span).toHtmlEscaped());
    }
    for (size_t row = 0; row < lanes.size(); ++row) {
        const TimelineLane& lane = model.lane(lanes[row]);
        const int y = kTop + static_cast<int>(row) * kLaneHeight + kLaneHeight / 2;
        if (row % 2 == 1)
            s += QStringLiteral("<rect x='0' y='%1' width='%2' height='%3' fill='#f4f5f7'/>")
                     .arg(y - kLaneHeight / 2)
                     .arg(kWidth)
                     .arg(kLaneHeight);
        if (lane.rank >= 0
            && model.roles().suspectRanks.end()
                != std::find(model.roles().suspectRanks.begin(), model.roles().suspectRanks.end(), lane.rank))
            s += QStringLiteral(
                "<rect x='0' y='%1' width='%2' height='%3' fill='#fdecef'/><text x='%4' y='%5' "
                "text-anchor='end' fill='#8a0f2e'>suspect</text>")
                     .arg(y - kLaneHeight / 2)
                     .arg(kWidth)
                     .arg(kLaneHeight)
                     .arg(kPlotLeft - 4)
                     .arg(y + 4);
        s += QStringLiteral("<text x='6' y='%1' fill='#1f2933'><title>%2</title>%3</text>")
                 .arg(y + 4)
                 .arg(lane.label.toHtmlEscaped(), elideMiddle(lane.label).toHtmlEscaped());
        // One marker per role and pixel column: a lane of thousands of events stays a small file. The
        // roles that matter are drawn last, on top, in the window's order (markerRole()).
        for (MarkerRole role : { MarkerRole::None, MarkerRole::Symptom, MarkerRole::Collateral,
                 MarkerRole::Cause, MarkerRole::Initiating }) {
            int lastX = -1;
            for (size_t i = 0; i < lane.times.size(); ++i) {
                if (markerRoleOfEvent(lane.marks[i]) != role)
                    continue;
                const int x = xOf(lane.times[i]);
                if (x == lastX)
                    continue;
                lastX = x;
                s += marker(role, x, y);
            }
        }
    }
    int y = plotBottom + 24;
    if (hidden > 0) {
        s += QStringLiteral("<text x='6' y='%1' fill='#1f2933'>%2</text>")
                 .arg(y)
                 .arg(QStringLiteral("… and %1 more lanes without the events that matter here; the window "
                                     "shows every one.")
                          .arg(hidden)
                          .toHtmlEscaped());
        y += 20;
    }
    // The legend: each shape with its name.
    static constexpr std::array<std::pair<MarkerRole, const char*>, 5> legend {
        { { MarkerRole::Initiating, "initiating" }, { MarkerRole::Cause, "cause" },
            { MarkerRole::Collateral, "collateral" }, { MarkerRole::Symptom, "symptom" },
            { MarkerRole::None, "other event" } }
    };
    int x = 12;
    for (const auto& [role, name] : legend) {
        s += marker(role, x, y - 4);
        s += QStringLiteral("<text x='%1' y='%2' fill='#1f2933'>%3</text>")
                 .arg(x + 12)
                 .arg(y)
                 .arg(QLatin1String(name));
        x += 120;
    }
    s += QStringLiteral("</svg>\n");
    return s.toUtf8();
}

QByteArray timelineSvg(const Analysis& analysis, int attempt)
{
    if (attempt < 0 || static_cast<size_t>(attempt) >= analysis.attempts.size())
        return {};
    const AttemptAnalysis& a = analysis.attempts[static_cast<size_t>(attempt)];
    TimelineModel model;
    model.setIncident(&a.incident, timelineRoles(a.diagnosis, a.incident, analysis.catalog.catalog));
    return timelineSvg(model);
}

} // namespace rankscope
