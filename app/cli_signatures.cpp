// SPDX-License-Identifier: MIT
#include "cli_signatures.h"

#include "cli_parser.h"
#include "hub_catalog.h"
#include "hub_html.h"
#include "hub_model.h"
#include "line_explain.h"
#include "signature_catalog.h"
#include "signature_check.h"
#include "signature_matcher.h"

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

// The catalog of show/search/hub: the one `diagnose --signatures DIR...` uses, the built-in catalog with
// each DIR's entries over it (replacing those of the same id). Errors printed; nothing on failure.
std::optional<HubCatalog> loadFor(const CommandParser& cli, const QStringList& dirs)
{
    HubCatalog loaded = loadHubCatalog(dirs);
    for (const QString& e : loaded.loaded.errors)
        cli.printError(e);
    if (loaded.loaded.catalog.signatures.empty())
        return std::nullopt;
    return loaded;
}

QCommandLineOption catalogOption()
{
    return { QStringLiteral("signatures"),
        QStringLiteral("A user catalog folder over the built-in one, as for diagnose; repeatable."),
        QStringLiteral("DIR") };
}

int runShow(const QStringList& args)
{
    CommandParser cli(QStringLiteral("signatures show"), QStringLiteral("ID [--signatures DIR]..."),
        QStringLiteral("Everything about one signature: what it indicates, its role, stacks and category,\n"
                       "its example lines, its fix, actions, checklist and verify commands (never run),\n"
                       "its siblings and how to tell them apart, its references."));
    const QCommandLineOption catalogDir = catalogOption();
    cli.parser().addOption(catalogDir);
    cli.parser().addPositionalArgument(
        QStringLiteral("ID"), QStringLiteral("A signature id (see signatures list)."));
    if (const std::optional<int> done = cli.parse(args))
        return *done;
    const QStringList words = cli.parser().positionalArguments();
    if (words.size() != 1)
        return cli.usageError(words.isEmpty() ? QStringLiteral("say which signature id")
                                              : QStringLiteral("unexpected argument %1").arg(words.at(1)));
    const std::optional<HubCatalog> loaded = loadFor(cli, cli.parser().values(catalogDir));
    if (!loaded)
        return exitStatus(ExitCode::NothingReadable);
    const Catalog& catalog = loaded->loaded.catalog;
    const int s = catalog.indexOf(words.first());
    if (s < 0)
        return cli.usageError(
            QStringLiteral("no signature with id '%1' (rankscope signatures list shows every id)")
                .arg(words.first()));
    const SignatureMatcher matcher(catalog);
    QTextStream(stdout) << hubEntryText(catalog, s, matcher, loaded->origin);
    return exitStatus(ExitCode::Analysed);
}

int runSearch(const QStringList& args)
{
    CommandParser cli(QStringLiteral("signatures search"), QStringLiteral("TEXT [--signatures DIR]..."),
        QStringLiteral("Signatures whose id, title, summary, literal or example lines contain every word of\n"
                       "TEXT (case-insensitive), then those whose patterns match TEXT as a log line, marked\n"
                       "'line' with the pattern that matched; the one the matcher picks is marked 'wins'.\n"
                       "Columns: found-by, id, role, family, title."));
    const QCommandLineOption catalogDir = catalogOption();
    cli.parser().addOption(catalogDir);
    cli.parser().addPositionalArgument(
        QStringLiteral("TEXT"), QStringLiteral("Words, or a whole log line (quote it)."));
    if (const std::optional<int> done = cli.parse(args))
        return *done;
    const QStringList words = cli.parser().positionalArguments();
    if (words.isEmpty())
        return cli.usageError(QStringLiteral("say what to search for"));
    const QString text = words.join(QLatin1Char(' '));
    const std::optional<HubCatalog> loaded = loadFor(cli, cli.parser().values(catalogDir));
    if (!loaded)
        return exitStatus(ExitCode::NothingReadable);
    const Catalog& catalog = loaded->loaded.catalog;
    QTextStream out(stdout);
    const auto row = [&](const QString& how, const Signature& s) {
        out << how << '\t' << s.id << '\t' << signatureRoleName(s.role) << '\t' << s.family << '\t' << s.title
            << '\n';
    };
    const QStringList terms = text.toLower().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    int found = 0;
    for (const Signature& s : catalog.signatures) {
        const QString haystack = hubSearchText(s);
        if (std::all_of(terms.begin(), terms.end(), [&](const QString& t) { return haystack.contains(t); })) {
            row(QStringLiteral("text"), s);
            ++found;
        }
    }
    const SignatureMatcher matcher(catalog);
    const LineExplanation e = explainLine(text, catalog, matcher);
    for (const LineMatchExplanation& m : e.matches) {
        const Signature& s = catalog.signatures[static_cast<std::size_t>(m.signature)];
        row(QStringLiteral("line (pattern %1%2)")
                .arg(m.pattern)
                .arg(m.winner ? QStringLiteral(", wins") : QString()),
            s);
        ++found;
    }
    if (found == 0)
        out << "no signature contains or matches: " << text << '\n';
    return exitStatus(ExitCode::Analysed);
}

int runHub(const QStringList& args)
{
    CommandParser cli(QStringLiteral("signatures hub"),
        QStringLiteral("--format html [--signatures DIR]... > hub.html"),
        QStringLiteral("The whole catalog as one self-contained static HTML page for a team wiki: grouped\n"
                       "by family, a table of contents, each entry anchored by its id (hub.html#ID), its\n"
                       "siblings linked, print CSS, no JavaScript."));
    const QCommandLineOption catalogDir = catalogOption();
    cli.parser().addOption(catalogDir);
    const QCommandLineOption format(QStringLiteral("format"),
        QStringLiteral("html (the only format; the default)."), QStringLiteral("F"));
    cli.parser().addOption(format);
    if (const std::optional<int> done = cli.parse(args))
        return *done;
    if (!cli.parser().positionalArguments().isEmpty())
        return cli.usageError(
            QStringLiteral("unexpected argument %1").arg(cli.parser().positionalArguments().first()));
    if (cli.parser().isSet(format) && cli.parser().value(format) != QLatin1String("html"))
        return cli.usageError(
            QStringLiteral("--format must be html, not %1").arg(cli.parser().value(format)));
    const std::optional<HubCatalog> loaded = loadFor(cli, cli.parser().values(catalogDir));
    if (!loaded)
        return exitStatus(ExitCode::NothingReadable);
    const SignatureMatcher matcher(loaded->loaded.catalog);
    QTextStream(stdout) << hubCatalogHtml(loaded->loaded.catalog, matcher, loaded->origin);
    return exitStatus(ExitCode::Analysed);
}

} // namespace

int runSignaturesCommand(const QStringList& args)
{
    // show, search and hub have options of their own, and so a parser and a --help of their own.
    if (!args.isEmpty()) {
        if (args.first() == QLatin1String("show"))
            return runShow(args.mid(1));
        if (args.first() == QLatin1String("search"))
            return runSearch(args.mid(1));
        if (args.first() == QLatin1String("hub"))
            return runHub(args.mid(1));
    }
    CommandParser cli(QStringLiteral("signatures"),
        QStringLiteral("check [DIR] | list [DIR] | show ID | search TEXT | hub --format html"),
        QStringLiteral("check: loads a signature catalog (default: the built-in one), reports every error\n"
                       "with file, entry and field, and runs every example.\n"
                       "list: prints each signature's id, role, family and title.\n"
                       "show, search, hub: see `rankscope signatures show --help` (and search, hub)."));
    cli.parser().addPositionalArgument(QStringLiteral("ACTION"),
        QStringLiteral("check, list, show, search or hub."), QStringLiteral("check|list|show|search|hub"));
    cli.parser().addPositionalArgument(QStringLiteral("DIR"),
        QStringLiteral("A catalog folder (default: the built-in catalog)."), QStringLiteral("[DIR]"));
    if (const std::optional<int> done = cli.parse(args))
        return *done;
    const QStringList words = cli.parser().positionalArguments();
    if (words.isEmpty())
        return cli.usageError(QStringLiteral("say check, list, show, search or hub"));
    if (words.size() > 2)
        return cli.usageError(QStringLiteral("unexpected argument %1").arg(words.at(2)));
    const QString dir = words.size() == 2 ? words.at(1) : QString();
    QTextStream out(stdout);
    if (words.first() == QLatin1String("check"))
        return runCheck(cli, dir, out);
    if (words.first() == QLatin1String("list"))
        return runList(cli, dir, out);
    return cli.usageError(
        QStringLiteral("unknown action '%1': say check, list, show, search or hub").arg(words.first()));
}

} // namespace rankscope
