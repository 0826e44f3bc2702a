// SPDX-License-Identifier: MIT
// `rankscope diagnose PATH...`: the analysis and a report on stdout. What the report holds is decided in
// core (buildReportInput); this file reads the options and chooses the format.
#include "analysis.h"
#include "cli.h"
#include "cli_parser.h"
#include "control_run.h"
#include "launch_info.h"
#include "report.h"
#include "report_input.h"
#include "timeline_svg.h"

#include <QJsonDocument>
#include <cstdio>
#include <memory>

namespace rankscope {

namespace {

// The analysis of a big incident is millions of small allocations, and the process exits right after the
// report: freeing them one by one took 45 ms of a 1.4 s run on 1 GB. The last analysis is left to the OS
// instead. It stays reachable from this pointer, so leak checkers do not report it.
void keepUntilExit(std::unique_ptr<Analysis> analysis)
{
    static Analysis* kept = nullptr;
    delete kept;
    kept = analysis.release();
}

template <std::size_t N> QString joinIds(const std::array<std::string_view, N>& ids)
{
    QStringList out;
    for (const std::string_view id : ids)
        out << QString::fromLatin1(id.data(), static_cast<qsizetype>(id.size()));
    return out.join(QStringLiteral(", "));
}

QByteArray render(const ReportInput& report, const QString& format, const QByteArray& timeline)
{
    if (format == QLatin1String("json"))
        return QJsonDocument(reportJson(report)).toJson(QJsonDocument::Indented);
    if (format == QLatin1String("html")) // the timeline drawn as the window's export draws it
        return reportHtml(report, {}, timeline).toUtf8();
    return (format == QLatin1String("markdown") ? reportMarkdown(report) : reportText(report)).toUtf8();
}

} // namespace

int runDiagnoseCommand(const QStringList& args)
{
    CommandParser cli(QStringLiteral("diagnose"),
        QStringLiteral(
            "PATH... [--topology FILE]... [--format text|json|markdown|html] [--signatures DIR]...\n"
            "                          [--attempt N] [--control HEALTHY_RUN] [--host NAME]\n"
            "                          [--launcher ID] [--framework ID]"),
        QStringLiteral("Diagnoses why a distributed training job died, from its logs."));
    QCommandLineParser& p = cli.parser();
    const QCommandLineOption format({ QStringLiteral("f"), QStringLiteral("format") },
        QStringLiteral("Report format: text, json, markdown or html (default: text)."),
        QStringLiteral("FORMAT"), QStringLiteral("text"));
    const QCommandLineOption topology({ QStringLiteral("t"), QStringLiteral("topology") },
        QStringLiteral("A topology capture (nvidia-smi, rocm-smi, NCCL or hwloc XML); repeatable."),
        QStringLiteral("FILE"));
    const QCommandLineOption signatures(QStringLiteral("signatures"),
        QStringLiteral("A folder of extra signature files; repeatable."), QStringLiteral("DIR"));
    const QCommandLineOption attempt(QStringLiteral("attempt"),
        QStringLiteral("Report attempt_N of an elastic job (default: the latest)."), QStringLiteral("N"));
    const QCommandLineOption control(QStringLiteral("control"),
        QStringLiteral("A healthy run of the same job: report the first line that differs from it."),
        QStringLiteral("HEALTHY_RUN"));
    const QCommandLineOption host(QStringLiteral("host"),
        QStringLiteral("The host of topology captures that do not name one."), QStringLiteral("NAME"));
    const QCommandLineOption launcher(QStringLiteral("launcher"),
        QStringLiteral("What launched the job, when the logs do not show it: %1.").arg(joinIds(kLauncherIds)),
        QStringLiteral("ID"));
    const QCommandLineOption framework(QStringLiteral("framework"),
        QStringLiteral("The framework that ran the job, when the logs do not show it: %1.")
            .arg(joinIds(kFrameworkIds)),
        QStringLiteral("ID"));
    p.addOptions({ format, topology, signatures, attempt, control, host, launcher, framework });
    p.addPositionalArgument(QStringLiteral("PATH"),
        QStringLiteral("Log folders, log files (plain or gzip), archives, or - for stdin."),
        QStringLiteral("PATH..."));
    if (const std::optional<int> done = cli.parse(args))
        return *done;

    const QString fmt = p.value(format);
    if (fmt != QLatin1String("text") && fmt != QLatin1String("json") && fmt != QLatin1String("markdown")
        && fmt != QLatin1String("html"))
        return cli.usageError(
            QStringLiteral("--format must be text, json, markdown or html, not %1").arg(fmt));
    int attemptNumber = -1;
    if (p.isSet(attempt)) {
        bool ok = false;
        attemptNumber = p.value(attempt).toInt(&ok);
        if (!ok || attemptNumber < 0)
            return cli.usageError(
                QStringLiteral("--attempt must be a number of 0 or more, not %1").arg(p.value(attempt)));
    }
    if (p.isSet(launcher) && !isLauncherId(p.value(launcher)))
        return cli.usageError(QStringLiteral("--launcher must be one of %1, not %2")
                                  .arg(joinIds(kLauncherIds), p.value(launcher)));
    if (p.isSet(framework) && !isFrameworkId(p.value(framework)))
        return cli.usageError(QStringLiteral("--framework must be one of %1, not %2")
                                  .arg(joinIds(kFrameworkIds), p.value(framework)));
    AnalysisRequest request;
    request.launcher = p.value(launcher);
    request.framework = p.value(framework);
    request.lineIndex = false; // nothing here pages through a file; the evidence's file is indexed on open
    request.logPaths = p.positionalArguments();
    request.topologyPaths = p.values(topology);
    request.signatureDirs = p.values(signatures);
    request.topologyHost = p.value(host);
    if (request.logPaths.isEmpty())
        return cli.usageError(QStringLiteral("no input: give log folders or files (or - for stdin)"));

    auto owned = std::make_unique<Analysis>(analyze(request));
    const Analysis& analysis = *owned;
    for (const QString& e : analysis.catalog.errors)
        cli.printError(QStringLiteral("signature catalog: %1").arg(e));
    for (const QString& e : analysis.topology.errors)
        cli.printError(QStringLiteral("topology: %1").arg(e));
    if (analysis.attempts.empty()) {
        cli.printError(analysis.error);
        return exitStatus(ExitCode::NothingReadable);
    }
    const AttemptAnalysis* shown = analysis.currentAttempt();
    if (attemptNumber >= 0) {
        shown = attemptByNumber(analysis, attemptNumber);
        if (!shown) {
            QStringList labels;
            for (const AttemptAnalysis& a : analysis.attempts)
                labels << a.incident.label;
            return cli.usageError(QStringLiteral("there is no attempt_%1; the attempts are %2")
                                      .arg(attemptNumber)
                                      .arg(labels.join(QStringLiteral(", "))));
        }
    }

    // A healthy run as a control: the first line before the failure that differs from it.
    std::unique_ptr<Divergence> divergence;
    if (p.isSet(control)) {
        AnalysisRequest cr;
        cr.lineIndex = false;
        cr.logPaths << p.value(control);
        cr.signatureDirs = request.signatureDirs;
        QString error;
        divergence = std::make_unique<Divergence>(compareWithControlRun(*shown, cr, nullptr, {}, &error));
        if (!error.isEmpty())
            cli.printError(QStringLiteral("--control %1: %2").arg(p.value(control), error));
    }
    const QByteArray timeline = fmt == QLatin1String("html")
        ? timelineSvg(analysis, static_cast<int>(shown - analysis.attempts.data()))
        : QByteArray();
    const QByteArray out = render(buildReportInput(analysis, *shown, divergence.get()), fmt, timeline);
    std::fwrite(out.constData(), 1, static_cast<size_t>(out.size()), stdout);
    keepUntilExit(std::move(owned));
    return exitStatus(ExitCode::Analysed);
}

} // namespace rankscope
