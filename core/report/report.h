// SPDX-License-Identifier: MIT
// The diagnosis as JSON (the rankscope.diagnosis/1 contract), terminal text and Markdown.
#pragma once

#include "diagnosis.h"
#include "log_model.h"
#include "signature_catalog.h"

#include <QJsonObject>
#include <QString>

namespace rankscope {

struct ReportInput
{
    const Incident* incident = nullptr;
    const Diagnosis* diagnosis = nullptr;
    const Catalog* catalog = nullptr;
    QJsonObject topology; // empty when no topology was given
    QString topologyText; // the topology section for text/markdown
    QStringList attempts; // labels of every attempt, when there are several
};

QJsonObject reportJson(const ReportInput& in);
QString reportText(const ReportInput& in);
QString reportMarkdown(const ReportInput& in);
// Self-contained HTML: every log text is escaped; the images are embedded as data: URIs (an SVG shown
// through <img> cannot run scripts).
QString reportHtml(const ReportInput& in, const QByteArray& topologySvg, const QByteArray& timelinePng);

} // namespace rankscope
