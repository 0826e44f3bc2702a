// SPDX-License-Identifier: MIT
// The diagnosis as JSON (the rankscope.diagnosis/1 contract), terminal text, Markdown and HTML. Build the
// input with buildReportInput() (report_input.h), not by hand.
#pragma once

#include "control_compare.h"
#include "diagnosis.h"
#include "fix_render.h"
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
    const Divergence* divergence = nullptr; // the comparison with a healthy run, when one was made
    FixIdiom idiom; // the launcher and framework the typed fix actions are written for (empty: the default)
};

// The signature's typed fix actions, rendered in `in.idiom` with the diagnosis' values; empty when no
// signature matched.
std::vector<RenderedFixAction> reportFixActions(const ReportInput& in);
// One collateral group as the reports write it: "3 rank(s) [8-10]: label → points to X", or a
// launcher's lines ("launcher (no rank): ...").
QString collateralSummary(const CollateralGroup& g);

QJsonObject reportJson(const ReportInput& in);
QString reportText(const ReportInput& in);
QString reportMarkdown(const ReportInput& in);
// Self-contained HTML: every log text is escaped; the drawings are embedded as data: URIs (an SVG shown
// through <img> cannot run scripts). The timeline is an SVG drawn from the model (present/timeline_svg).
QString reportHtml(const ReportInput& in, const QByteArray& topologySvg, const QByteArray& timelineSvg);

} // namespace rankscope
