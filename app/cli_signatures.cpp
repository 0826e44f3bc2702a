// SPDX-License-Identifier: MIT
#include "cli_signatures.h"

#include "cli_parser.h"
#include "signature_catalog.h"
#include "signature_check.h"

#include <QTextStream>

namespace rankscope {

namespace {

int runCheck(const CommandParser& cli, const QString& dir, QTextStream& out)
{
    const CatalogCheckReport report = checkCatalogDir(dir);
    for (const QString& problem : report.problems)
        cli.printError(problem);
    out << report.summary() << " (" << report.examplesRun << " examples run)\n";
    return exitStatus(report.ok() ? ExitCode::Analysed : ExitCode::CheckFailed);
}

int runList(const CommandParser& cli, const QString& dir, QTextStream& out)
{
    const CatalogLoadResult loaded = dir.isEmpty() ? loadDefaultCatalog() : loadCatalogDir(dir);
    for (const QString& e : loaded.errors)
        cli.printError(e);
    for (const Signature& s : loaded.catalog.signatures)
        out << s.id << '\t' << signatureRoleName(s.role) << '\t' << s.family << '\t' << s.title << '\n';
    if (loaded.catalog.signatures.empty())
        return exitStatus(ExitCode::NothingReadable);
    return exitStatus(loaded.ok() ? ExitCode::Analysed : ExitCode::CheckFailed);
}

} // namespace

int runSignaturesCommand(const QStringList& args)
{
    CommandParser cli(QStringLiteral("signatures"), QStringLiteral("check [DIR] | list [DIR]"),
        QStringLiteral("check: loads a signature catalog (default: the built-in one), reports every error\n"
                       "with file, entry and field, and runs every example.\n"
                       "list: prints each signature's id, role, family and title."));
    cli.parser().addPositionalArgument(
        QStringLiteral("ACTION"), QStringLiteral("check or list."), QStringLiteral("check|list"));
    cli.parser().addPositionalArgument(QStringLiteral("DIR"),
        QStringLiteral("A catalog folder (default: the built-in catalog)."), QStringLiteral("[DIR]"));
    if (const std::optional<int> done = cli.parse(args))
        return *done;
    const QStringList words = cli.parser().positionalArguments();
    if (words.isEmpty())
        return cli.usageError(QStringLiteral("say check or list"));
    if (words.size() > 2)
        return cli.usageError(QStringLiteral("unexpected argument %1").arg(words.at(2)));
    const QString dir = words.size() == 2 ? words.at(1) : QString();
    QTextStream out(stdout);
    if (words.first() == QLatin1String("check"))
        return runCheck(cli, dir, out);
    if (words.first() == QLatin1String("list"))
        return runList(cli, dir, out);
    return cli.usageError(QStringLiteral("unknown action '%1': say check or list").arg(words.first()));
}

} // namespace rankscope
