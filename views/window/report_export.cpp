// SPDX-License-Identifier: MIT
#include "report_export.h"

#include "report.h"
#include "report_input.h"
#include "timeline_svg.h"
#include "timeline_view.h"
#include "topology_view.h"

#include <QFile>

namespace rankscope {

namespace {

bool writeFile(const QString& path, const QByteArray& bytes, QString* error)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(bytes) != bytes.size()) {
        *error = QStringLiteral("%1: %2").arg(path, f.errorString());
        return false;
    }
    return true;
}

} // namespace

bool writeReportFiles(const QString& basePath, const Analysis& analysis, const AttemptAnalysis& a,
    const Divergence* divergence, TimelineView* timeline, TopologyView* topology, QString* error)
{
    QString base = basePath;
    if (base.endsWith(QLatin1String(".md")) || base.endsWith(QLatin1String(".html")))
        base = base.left(base.lastIndexOf(QLatin1Char('.')));
    const ReportInput in = buildReportInput(analysis, a, divergence);
    // The timeline drawn for the page from the model the window shows (a screen capture was as small as
    // the widget, with its labels cut).
    const QByteArray lanes = timeline ? timelineSvg(timeline->model()) : QByteArray();
    const QByteArray svg =
        topology && !analysis.topology.hosts.empty() ? topology->renderSvg() : QByteArray();
    return writeFile(base + QStringLiteral(".md"), reportMarkdown(in).toUtf8(), error)
        && writeFile(base + QStringLiteral(".html"), reportHtml(in, svg, lanes).toUtf8(), error);
}

} // namespace rankscope
