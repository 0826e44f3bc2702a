// SPDX-License-Identifier: MIT
#include "cli_verify.h"

#include "analysis.h"
#include "cli_parser.h"
#include "verify_fix.h"

#include <QJsonDocument>
#include <cstdio>

namespace rankscope {

int runVerifyCommand(const QStringList& args)
{
    CommandParser cli(QStringLiteral("verify"),
        QStringLiteral("--before PATH --after PATH [--format text|json] [--signatures DIR]..."),
        QStringLiteral("Verifies a fix: the failing run before it against a run after it (PASS, FAIL, or "
                       "INCONCLUSIVE when the signature is gone but the run after shows no progress past the "
                       "step where the run before failed)."));
    QCommandLineParser& p = cli.parser();
    const QCommandLineOption before(QStringLiteral("before"),
        QStringLiteral("The failing run (a log folder or file); repeatable."), QStringLiteral("PATH"));
    const QCommandLineOption after(QStringLiteral("after"),
        QStringLiteral("The run after the fix; repeatable."), QStringLiteral("PATH"));
    const QCommandLineOption format({ QStringLiteral("f"), QStringLiteral("format") },
        QStringLiteral("Output format: text or json (default: text)."), QStringLiteral("FORMAT"),
        QStringLiteral("text"));
    const QCommandLineOption signatures(QStringLiteral("signatures"),
        QStringLiteral("A folder of extra signature files; repeatable."), QStringLiteral("DIR"));
    p.addOptions({ before, after, format, signatures });
    if (const std::optional<int> done = cli.parse(args))
        return *done;
    if (!p.positionalArguments().isEmpty())
        return cli.usageError(QStringLiteral("unexpected argument %1 (use --before PATH --after PATH)")
                                  .arg(p.positionalArguments().front()));
    const QString fmt = p.value(format);
    if (fmt != QLatin1String("text") && fmt != QLatin1String("json"))
        return cli.usageError(QStringLiteral("--format must be text or json, not %1").arg(fmt));
    AnalysisRequest b, a;
    b.lineIndex = a.lineIndex = false; // both are only reported on, never paged through
    b.logPaths = p.values(before);
    a.logPaths = p.values(after);
    if (b.logPaths.isEmpty() || a.logPaths.isEmpty())
        return cli.usageError(QStringLiteral(
            "give both --before PATH (the failing run) and --after PATH (the run after the fix)"));
    b.signatureDirs = a.signatureDirs = p.values(signatures);

    const Analysis beforeRun = analyze(b);
    const Analysis afterRun = analyze(a);
    for (const QString& e : beforeRun.catalog.errors)
        cli.printError(QStringLiteral("signature catalog: %1").arg(e));
    if (beforeRun.attempts.empty() || afterRun.attempts.empty()) {
        if (beforeRun.attempts.empty())
            cli.printError(QStringLiteral("--before %1: %2")
                               .arg(b.logPaths.join(QStringLiteral(", ")), beforeRun.error));
        if (afterRun.attempts.empty())
            cli.printError(
                QStringLiteral("--after %1: %2").arg(a.logPaths.join(QStringLiteral(", ")), afterRun.error));
        return exitStatus(ExitCode::NothingReadable);
    }
    const VerifyResult result = verifyFix(beforeRun, afterRun);
    const QByteArray out = fmt == QLatin1String("json")
        ? QJsonDocument(verifyToJson(result)).toJson(QJsonDocument::Indented)
        : verifyToText(result).toUtf8();
    std::fwrite(out.constData(), 1, static_cast<size_t>(out.size()), stdout);
    return exitStatus(result.pass ? ExitCode::Analysed
            : result.inconclusive ? ExitCode::Inconclusive
                                  : ExitCode::CheckFailed);
}

} // namespace rankscope
