// SPDX-License-Identifier: MIT
#include "cli_parser.h"

#include <cstdio>
#include <utility>

namespace rankscope {

namespace {

void writeTo(std::FILE* stream, const QString& text)
{
    const QByteArray bytes = text.toLocal8Bit();
    std::fwrite(bytes.constData(), 1, static_cast<size_t>(bytes.size()), stream);
}

} // namespace

QString exitCodeHelp()
{
    return QStringLiteral(
        "Exit codes:\n"
        "  %1   analysed (verify: PASS)\n"
        "  %2   verify: FAIL (signatures check: the catalog has an error)\n"
        "  %3   nothing readable: no input could be read, or an output not written\n"
        "  %4   verify: INCONCLUSIVE (the signature is gone but no progress past the failure shows, or the\n"
        "      run before has no known failure to verify)\n"
        "  %5  usage error: unknown option, missing value, bad --format\n")
        .arg(exitStatus(ExitCode::Analysed))
        .arg(exitStatus(ExitCode::CheckFailed))
        .arg(exitStatus(ExitCode::NothingReadable))
        .arg(exitStatus(ExitCode::Inconclusive))
        .arg(exitStatus(ExitCode::Usage));
}

CommandParser::CommandParser(QString command, QString synopsis, const QString& description)
    : m_command(std::move(command))
    , m_synopsis(std::move(synopsis))
    , m_help({ QStringLiteral("h"), QStringLiteral("help") }, QStringLiteral("Show this help and exit."))
{
    m_parser.setApplicationDescription(description);
    m_parser.addOption(m_help);
}

std::optional<int> CommandParser::parse(const QStringList& args)
{
    // QCommandLineParser takes the program's name first; it is not shown (helpText() writes its own).
    if (!m_parser.parse(QStringList { QStringLiteral("rankscope") } + args))
        return usageError(m_parser.errorText());
    if (m_parser.isSet(m_help)) {
        writeTo(stdout, helpText());
        return exitStatus(ExitCode::Analysed);
    }
    return std::nullopt;
}

QString CommandParser::helpText() const
{
    // Qt's text starts with "Usage: <argv[0]> [options]": the subcommand's own usage line instead.
    QString text = m_parser.helpText();
    const qsizetype firstLineEnd = text.indexOf(QLatin1Char('\n'));
    const QString command =
        m_command.isEmpty() ? QStringLiteral("rankscope") : QStringLiteral("rankscope ") + m_command;
    text = QStringLiteral("Usage: %1 %2").arg(command, m_synopsis)
        + (firstLineEnd < 0 ? QString() : text.mid(firstLineEnd));
    return text + QLatin1Char('\n') + exitCodeHelp();
}

int CommandParser::usageError(const QString& message) const
{
    const QString command =
        m_command.isEmpty() ? QStringLiteral("rankscope") : QStringLiteral("rankscope ") + m_command;
    printError(QStringLiteral("%1 (%2 --help lists the options)").arg(message, command));
    return exitStatus(ExitCode::Usage);
}

void CommandParser::printError(const QString& message) const
{
    const QString prefix =
        m_command.isEmpty() ? QStringLiteral("rankscope") : QStringLiteral("rankscope ") + m_command;
    writeTo(stderr, QStringLiteral("%1: %2\n").arg(prefix, message));
}

} // namespace rankscope
