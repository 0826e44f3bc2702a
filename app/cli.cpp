// SPDX-License-Identifier: MIT
#include "cli.h"

#include "cli_signatures.h"
#include "cli_topology.h"
#include "cli_verify.h"

#include <QTextStream>
#include <cstdio>

namespace rankscope {

namespace {

const char* kUsage =
    "usage:\n"
    "  rankscope [PATH...]                         open the window (log folders, files, topology captures)\n"
    "  rankscope --screenshot FILE [--panel TITLE] [PATH...]   render the window to a PNG and exit\n"
    "  rankscope diagnose PATH... [--topology FILE]... [--format text|json|markdown] [--signatures DIR]\n"
    "                     [--attempt N] [--control HEALTHY_RUN]\n"
    "  rankscope verify --before PATH --after PATH [--format text|json]   (exit 0 PASS, 1 FAIL)\n"
    "  rankscope topology FILE... [--host NAME] [--logs PATH] [--format text|json]\n"
    "  rankscope capture-topology [-o FILE]\n"
    "  rankscope signatures check [DIR] | signatures list\n"
    "  rankscope --version | --help\n";

} // namespace

bool isCliInvocation(const QStringList& args)
{
    if (args.isEmpty())
        return false;
    static const QStringList commands { QStringLiteral("diagnose"), QStringLiteral("topology"),
        QStringLiteral("capture-topology"), QStringLiteral("signatures"), QStringLiteral("verify"),
        QStringLiteral("--version"), QStringLiteral("-v"), QStringLiteral("--help"), QStringLiteral("-h"),
        QStringLiteral("help") };
    return commands.contains(args.front());
}

int runCli(const QStringList& args)
{
    const QString& cmd = args.front();
    const QStringList rest = args.mid(1);
    if (cmd == QLatin1String("--version") || cmd == QLatin1String("-v")) {
        std::printf("rankscope %s\n", RANKSCOPE_VERSION);
        return 0;
    }
    // "rankscope diagnose --help" too: every subcommand's options are in the one usage text.
    const bool help = rest.contains(QLatin1String("--help")) || rest.contains(QLatin1String("-h"));
    if (cmd == QLatin1String("--help") || cmd == QLatin1String("-h") || cmd == QLatin1String("help")
        || help) {
        std::fputs(kUsage, stdout);
        return 0;
    }
    if (cmd == QLatin1String("diagnose"))
        return runDiagnoseCommand(rest);
    if (cmd == QLatin1String("topology"))
        return runTopologyCommand(rest);
    if (cmd == QLatin1String("capture-topology"))
        return runCaptureTopologyCommand(rest);
    if (cmd == QLatin1String("signatures"))
        return runSignaturesCommand(rest);
    if (cmd == QLatin1String("verify"))
        return runVerifyCommand(rest);
    std::fputs(kUsage, stderr);
    return 64;
}

} // namespace rankscope
