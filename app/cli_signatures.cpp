// SPDX-License-Identifier: MIT
#include "cli_signatures.h"

#include "signature_catalog.h"
#include "signature_check.h"

#include <QTextStream>
#include <cstdio>

namespace rankscope {

namespace {

constexpr const char* kUsage =
    "usage: rankscope signatures check [DIR]   validate a catalog (default: the built-in one)\n"
    "       rankscope signatures list [DIR]    print id, role, family and title\n";

int runCheck(const QString& dir, QTextStream& out, QTextStream& err)
{
    const CatalogCheckReport report = checkCatalogDir(dir);
    for (const QString& problem : report.problems)
        err << "error: " << problem << '\n';
    err.flush();
    out << report.summary() << " (" << report.examplesRun << " examples run)\n";
    return report.ok() ? 0 : 1;
}

int runList(const QString& dir, QTextStream& out, QTextStream& err)
{
    const CatalogLoadResult loaded = dir.isEmpty() ? loadDefaultCatalog() : loadCatalogDir(dir);
    for (const QString& e : loaded.errors)
        err << "error: " << e << '\n';
    err.flush();
    for (const Signature& s : loaded.catalog.signatures)
        out << s.id << '\t' << signatureRoleName(s.role) << '\t' << s.family << '\t' << s.title << '\n';
    return loaded.ok() ? 0 : 1;
}

} // namespace

int runSignaturesCommand(const QStringList& args)
{
    QTextStream out(stdout);
    QTextStream err(stderr);
    if (args.isEmpty() || args.size() > 2 || args.first() == QLatin1String("--help")
        || args.first() == QLatin1String("-h")) {
        (args.isEmpty() ? err : out) << kUsage;
        return args.isEmpty() || args.size() > 2 ? 2 : 0;
    }
    const QString dir = args.size() == 2 ? args.at(1) : QString();
    if (args.first() == QLatin1String("check"))
        return runCheck(dir, out, err);
    if (args.first() == QLatin1String("list"))
        return runList(dir, out, err);
    err << "unknown signatures command '" << args.first() << "'\n" << kUsage;
    return 2;
}

} // namespace rankscope
