// SPDX-License-Identifier: MIT
#include "cli.h"

#include "cli_parser.h"
#include "cli_signatures.h"
#include "cli_topology.h"
#include "cli_verify.h"

#include <cstdio>

namespace rankscope {

namespace {

// The overview; each subcommand's --help lists its own options.
const char* const kUsage =
    "usage:\n"
    "  rankscope [--theme system|light|dark] [PATH...]   open the window (log folders, files, topology\n"
    "                                              captures)\n"
    "  rankscope --screenshot FILE [--panel TITLE] [--theme system|light|dark] [PATH...]\n"
    "                                              render the window to a PNG and exit\n"
    "  rankscope diagnose PATH... [--topology FILE]... [--format text|json|markdown|html] [--signatures "
    "DIR]\n"
    "                     [--attempt N] [--control HEALTHY_RUN]\n"
    "  rankscope verify --before PATH --after PATH [--format text|json]\n"
    "  rankscope topology FILE... [--host NAME] [--logs PATH] [--format text|json]\n"
    "  rankscope capture-topology [-o FILE]\n"
    "  rankscope signatures check [DIR] | list [DIR] | show ID | search TEXT | hub --format html\n"
    "  rankscope --version | --help | COMMAND --help | help COMMAND\n";

struct Command
{
    const char* name;
    int (*run)(const QStringList& args);
};

const Command kCommands[] = {
    { "diagnose", runDiagnoseCommand },
    { "verify", runVerifyCommand },
    { "topology", runTopologyCommand },
    { "capture-topology", runCaptureTopologyCommand },
    { "signatures", runSignaturesCommand },
};

const Command* findCommand(const QString& name)
{
    for (const Command& c : kCommands) {
        if (name == QLatin1String(c.name))
            return &c;
    }
    return nullptr;
}

void printUsage(std::FILE* stream)
{
    std::fputs(kUsage, stream);
    std::fputs("\n", stream);
    std::fputs(exitCodeHelp().toLocal8Bit().constData(), stream);
}

} // namespace

bool isCliInvocation(const QStringList& args)
{
    if (args.isEmpty())
        return false;
    const QString& first = args.front();
    return findCommand(first) || first == QLatin1String("--version") || first == QLatin1String("-v")
        || first == QLatin1String("--help") || first == QLatin1String("-h") || first == QLatin1String("help");
}

int runCli(const QStringList& args)
{
    const QString& cmd = args.front();
    const QStringList rest = args.mid(1);
    if (cmd == QLatin1String("--version") || cmd == QLatin1String("-v")) {
        std::printf("rankscope %s\n", RANKSCOPE_VERSION);
        return exitStatus(ExitCode::Analysed);
    }
    if (cmd == QLatin1String("help") && !rest.isEmpty()) {
        // "rankscope help diagnose" is "rankscope diagnose --help".
        if (const Command* c = findCommand(rest.front()))
            return c->run({ QStringLiteral("--help") });
        std::fprintf(stderr, "rankscope: no command named %s\n", rest.front().toLocal8Bit().constData());
        printUsage(stderr);
        return exitStatus(ExitCode::Usage);
    }
    if (cmd == QLatin1String("--help") || cmd == QLatin1String("-h") || cmd == QLatin1String("help")) {
        printUsage(stdout);
        return exitStatus(ExitCode::Analysed);
    }
    if (const Command* c = findCommand(cmd))
        return c->run(rest);
    printUsage(stderr);
    return exitStatus(ExitCode::Usage);
}

} // namespace rankscope
