// SPDX-License-Identifier: MIT
// `rankscope diagnose PATH...`: the analysis and a report on stdout.
#include "analysis.h"
#include "cli.h"
#include "control_compare.h"
#include "report.h"
#include "topology_report.h"

#include <QJsonDocument>
#include <cstdio>
#include <memory>

namespace rankscope {

namespace {

void printErr(const QString& s)
{
    std::fprintf(stderr, "rankscope diagnose: %s\n", s.toLocal8Bit().constData());
}

// The analysis of a big incident is millions of small allocations, and the process exits right after the
// report: freeing them one by one took 45 ms of a 1.4 s run on 1 GB. The last analysis is left to the OS
// instead. It stays reachable from this pointer, so leak checkers do not report it.
void keepUntilExit(std::unique_ptr<Analysis> analysis)
{
    static Analysis* kept = nullptr;
    delete kept;
    kept = analysis.release();
}

} // namespace

int runDiagnoseCommand(const QStringList& args)
{
    AnalysisRequest request;
    request.lineIndex = false; // nothing here pages through a file; the evidence's file is indexed on open
    QString format = QStringLiteral("text");
    int attempt = -1;
    QString controlPath;
    for (int i = 0; i < args.size(); ++i) {
        const QString& a = args[i];
        const bool takesValue = a == QLatin1String("--format") || a == QLatin1String("-f")
            || a == QLatin1String("--topology") || a == QLatin1String("-t")
            || a == QLatin1String("--signatures") || a == QLatin1String("--attempt")
            || a == QLatin1String("--host") || a == QLatin1String("--control");
        if (takesValue && i + 1 >= args.size()) {
            printErr(QStringLiteral("%1 needs a value").arg(a));
            return 64;
        }
        if (a == QLatin1String("--format") || a == QLatin1String("-f"))
            format = args[++i];
        else if (a == QLatin1String("--topology") || a == QLatin1String("-t"))
            request.topologyPaths << args[++i];
        else if (a == QLatin1String("--signatures"))
            request.signatureDirs << args[++i];
        else if (a == QLatin1String("--attempt"))
            attempt = args[++i].toInt();
        else if (a == QLatin1String("--host"))
            request.topologyHost = args[++i];
        else if (a == QLatin1String("--control"))
            controlPath = args[++i];
        else if (a.startsWith(QLatin1String("--"))) {
            printErr(QStringLiteral("unknown option %1 (rankscope --help lists the options)").arg(a));
            return 64;
        } else
            request.logPaths << a;
    }
    if (format != QLatin1String("text") && format != QLatin1String("json")
        && format != QLatin1String("markdown")) {
        printErr(QStringLiteral("--format must be text, json or markdown, not %1").arg(format));
        return 64;
    }
    if (request.logPaths.isEmpty()) {
        printErr(QStringLiteral("no input: give log folders or files (or - for stdin)"));
        return 2;
    }

    auto owned = std::make_unique<Analysis>(analyze(request));
    Analysis& analysis = *owned;
    for (const QString& e : analysis.catalog.errors)
        printErr(QStringLiteral("signature catalog: %1").arg(e));
    for (const QString& e : analysis.topology.errors)
        printErr(QStringLiteral("topology: %1").arg(e));
    if (analysis.attempts.empty()) {
        printErr(analysis.error);
        return 2;
    }
    int which = analysis.current;
    QStringList attempts;
    for (size_t i = 0; i < analysis.attempts.size(); ++i) {
        attempts << analysis.attempts[i].incident.label;
        if (attempt >= 0 && analysis.attempts[i].incident.label == QStringLiteral("attempt_%1").arg(attempt))
            which = static_cast<int>(i);
    }
    const AttemptAnalysis& a = analysis.attempts[static_cast<size_t>(which)];

    ReportInput report;
    report.incident = &a.incident;
    report.diagnosis = &a.diagnosis;
    report.catalog = &analysis.catalog.catalog;
    if (attempts.size() > 1)
        report.attempts = attempts;
    if (!analysis.topology.hosts.empty()) {
        report.topology = topologyToJson(analysis.topology, &a.placement);
        report.topologyText = placementText(analysis.topology, a.placement);
    }
    // A healthy run as a control: the first line before the failure that differs from it.
    bool haveDivergence = false;
    Divergence divergence;
    if (!controlPath.isEmpty()) {
        AnalysisRequest cr;
        cr.lineIndex = false;
        cr.logPaths << controlPath;
        cr.signatureDirs = request.signatureDirs;
        const Analysis control = analyze(cr);
        if (const AttemptAnalysis* c = control.currentAttempt()) {
            divergence = compareWithControl(a.incident, a.diagnosis, c->incident);
            haveDivergence = true;
        } else {
            printErr(QStringLiteral("--control %1: %2").arg(controlPath, control.error));
        }
    }
    QByteArray out;
    if (format == QLatin1String("json")) {
        QJsonObject json = reportJson(report);
        json.insert(QStringLiteral("divergence"),
            haveDivergence ? QJsonValue(divergenceToJson(divergence)) : QJsonValue());
        out = QJsonDocument(json).toJson(QJsonDocument::Indented);
    } else {
        out = (format == QLatin1String("markdown") ? reportMarkdown(report) : reportText(report)).toUtf8();
        if (haveDivergence)
            out += "\nDIVERGENCE FROM THE HEALTHY RUN\n" + divergenceToText(divergence).toUtf8();
    }
    std::fwrite(out.constData(), 1, static_cast<size_t>(out.size()), stdout);
    keepUntilExit(std::move(owned));
    return 0;
}

} // namespace rankscope
