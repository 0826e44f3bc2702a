// SPDX-License-Identifier: MIT
#include "cli_verify.h"

#include "analysis.h"
#include "verify_fix.h"

#include <QJsonDocument>
#include <cstdio>

namespace rankscope {

namespace {

void printErr(const QString& s)
{
    std::fprintf(stderr, "rankscope verify: %s\n", s.toLocal8Bit().constData());
}

} // namespace

int runVerifyCommand(const QStringList& args)
{
    AnalysisRequest before, after;
    before.lineIndex = after.lineIndex = false; // both are only reported on, never paged through
    QString format = QStringLiteral("text");
    QStringList signatureDirs;
    for (int i = 0; i < args.size(); ++i) {
        const QString& a = args[i];
        const bool known = a == QLatin1String("--before") || a == QLatin1String("--after")
            || a == QLatin1String("--format") || a == QLatin1String("-f")
            || a == QLatin1String("--signatures");
        if (!known) {
            printErr(QStringLiteral("unknown argument %1 (use --before PATH --after PATH)").arg(a));
            return 64;
        }
        if (i + 1 >= args.size()) {
            printErr(QStringLiteral("%1 needs a value").arg(a));
            return 64;
        }
        const QString& value = args[++i];
        if (a == QLatin1String("--before"))
            before.logPaths << value;
        else if (a == QLatin1String("--after"))
            after.logPaths << value;
        else if (a == QLatin1String("--signatures"))
            signatureDirs << value;
        else
            format = value;
    }
    if (format != QLatin1String("text") && format != QLatin1String("json")) {
        printErr(QStringLiteral("--format must be text or json, not %1").arg(format));
        return 64;
    }
    if (before.logPaths.isEmpty() || after.logPaths.isEmpty()) {
        printErr(QStringLiteral(
            "give both --before PATH (the failing run) and --after PATH (the run after the fix)"));
        return 64;
    }
    before.signatureDirs = signatureDirs;
    after.signatureDirs = signatureDirs;
    const Analysis b = analyze(before);
    const Analysis a = analyze(after);
    for (const QString& e : b.catalog.errors)
        printErr(QStringLiteral("signature catalog: %1").arg(e));
    if (b.attempts.empty() || a.attempts.empty()) {
        if (b.attempts.empty())
            printErr(
                QStringLiteral("--before %1: %2").arg(before.logPaths.join(QStringLiteral(", ")), b.error));
        if (a.attempts.empty())
            printErr(
                QStringLiteral("--after %1: %2").arg(after.logPaths.join(QStringLiteral(", ")), a.error));
        return 2;
    }
    const VerifyResult result = verifyFix(b, a);
    const QByteArray out = format == QLatin1String("json")
        ? QJsonDocument(verifyToJson(result)).toJson(QJsonDocument::Indented)
        : verifyToText(result).toUtf8();
    std::fwrite(out.constData(), 1, static_cast<size_t>(out.size()), stdout);
    return result.pass ? 0 : 1;
}

} // namespace rankscope
