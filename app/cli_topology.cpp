// SPDX-License-Identifier: MIT
// `rankscope topology` and `rankscope capture-topology`. The captures and the logs go through analyze(),
// the same entry point as `rankscope diagnose`; this file reads the options and prints.
#include "cli_topology.h"

#include "analysis.h"
#include "cli_parser.h"
#include "topology_analysis.h"
#include "topology_report.h"

#include <QFile>
#include <QJsonDocument>
#include <QTextStream>
#include <cstdio>

namespace rankscope {

namespace {

void printText(QTextStream& out, const Analysis& analysis, const PlacementResult& placement)
{
    out << topologyText(analysis.topology);
    if (analysis.currentAttempt()) {
        out << placementText(analysis.topology, placement);
    } else {
        out << capturesOnlyText(analysis.topology, placement);
    }
}

} // namespace

int runTopologyCommand(const QStringList& args)
{
    CommandParser cli(QStringLiteral("topology"),
        QStringLiteral("FILE... [--host NAME] [--logs PATH] [--format text|json]"),
        QStringLiteral("Reads topology captures: GPUs, NICs, NUMA nodes, the paths between them, and the\n"
                       "closest NIC per local rank (NCCL_IB_HCA)."));
    QCommandLineParser& p = cli.parser();
    const QCommandLineOption host(QStringLiteral("host"),
        QStringLiteral("The host of captures that do not name one (else the capture's HostName or the\n"
                       "file name, kind.HOST.ext)."),
        QStringLiteral("NAME"));
    const QCommandLineOption logs(QStringLiteral("logs"),
        QStringLiteral("Place the ranks of the job logs in PATH on the topology; repeatable."),
        QStringLiteral("PATH"));
    const QCommandLineOption format({ QStringLiteral("f"), QStringLiteral("format") },
        QStringLiteral("Output format: text or json (default: text)."), QStringLiteral("FORMAT"),
        QStringLiteral("text"));
    p.addOptions({ host, logs, format });
    p.addPositionalArgument(QStringLiteral("FILE"),
        QStringLiteral("nvidia-smi topo -m / -p2p r, rocm-smi --showtopo, NCCL topology XML or hwloc XML."),
        QStringLiteral("FILE..."));
    if (const std::optional<int> done = cli.parse(args))
        return *done;
    const QString fmt = p.value(format);
    if (fmt != QLatin1String("text") && fmt != QLatin1String("json"))
        return cli.usageError(QStringLiteral("--format must be text or json, not %1").arg(fmt));
    AnalysisRequest request;
    request.lineIndex = false;
    request.topologyPaths = p.positionalArguments();
    request.topologyHost = p.value(host);
    request.logPaths = p.values(logs);
    if (request.topologyPaths.isEmpty())
        return cli.usageError(QStringLiteral("no topology file given"));

    const Analysis analysis = analyze(request);
    // Every capture that could not be read is named, whatever else was.
    for (const QString& e : analysis.topology.errors)
        cli.printError(e);
    if (!request.logPaths.isEmpty() && analysis.attempts.empty()) {
        cli.printError(
            QStringLiteral("--logs %1: %2").arg(request.logPaths.join(QStringLiteral(", ")), analysis.error));
        return exitStatus(ExitCode::NothingReadable);
    }
    if (analysis.topology.hosts.empty())
        return exitStatus(ExitCode::NothingReadable);

    const PlacementResult placement = currentPlacement(analysis);
    QTextStream out(stdout);
    if (fmt == QLatin1String("json"))
        out << QJsonDocument(topologyToJson(analysis.topology, &placement)).toJson(QJsonDocument::Indented);
    else
        printText(out, analysis, placement);
    return exitStatus(ExitCode::Analysed);
}

int runCaptureTopologyCommand(const QStringList& args)
{
    CommandParser cli(QStringLiteral("capture-topology"), QStringLiteral("[-o FILE]"),
        QStringLiteral("Writes this machine's topology as hwloc XML, I/O devices included."));
    const QCommandLineOption output({ QStringLiteral("o"), QStringLiteral("output") },
        QStringLiteral("Write to FILE instead of stdout (- is stdout)."), QStringLiteral("FILE"));
    cli.parser().addOption(output);
    if (const std::optional<int> done = cli.parse(args))
        return *done;
    if (!cli.parser().positionalArguments().isEmpty())
        return cli.usageError(
            QStringLiteral("unexpected argument %1").arg(cli.parser().positionalArguments().front()));
    const HwlocExport e = exportLocalHwlocXml();
    if (!e.error.isEmpty()) {
        cli.printError(e.error);
        return exitStatus(ExitCode::NothingReadable);
    }
    const QString path = cli.parser().value(output);
    if (path.isEmpty() || path == QLatin1String("-")) {
        std::fwrite(e.xml.constData(), 1, static_cast<size_t>(e.xml.size()), stdout);
        std::fflush(stdout);
        return exitStatus(ExitCode::Analysed);
    }
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(e.xml) != e.xml.size()) {
        cli.printError(QStringLiteral("%1: cannot write: %2").arg(path, f.errorString()));
        return exitStatus(ExitCode::NothingReadable);
    }
    return exitStatus(ExitCode::Analysed);
}

} // namespace rankscope
