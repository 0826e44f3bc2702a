// SPDX-License-Identifier: MIT
#include "report_export.h"

#include "report.h"
#include "report_input.h"
#include "timeline_view.h"
#include "topology_view.h"

#include <QBuffer>
#include <QFile>
#include <QImage>

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
    QByteArray png;
    if (timeline) {
        QBuffer buffer(&png);
        buffer.open(QIODevice::WriteOnly);
        timeline->grab().toImage().save(&buffer, "PNG");
    }
    const QByteArray svg =
        topology && !analysis.topology.hosts.empty() ? topology->renderSvg() : QByteArray();
    return writeFile(base + QStringLiteral(".md"), reportMarkdown(in).toUtf8(), error)
        && writeFile(base + QStringLiteral(".html"), reportHtml(in, svg, png).toUtf8(), error);
}

} // namespace rankscope
