// SPDX-License-Identifier: MIT
// One command-line parser for every subcommand and for the window (QCommandLineParser underneath), and
// the one table of exit codes they all return.
#pragma once

#include <QCommandLineParser>
#include <QString>
#include <QStringList>
#include <optional>

namespace rankscope {

// The exit status of every subcommand; README.md ("Exit codes") and `rankscope --help` list the same.
enum class ExitCode : int
{
    Analysed = 0, // the inputs were analysed (verify: PASS; signatures check: no error)
    CheckFailed = 1, // verify: FAIL (signatures check: the catalog has an error)
    NothingReadable = 2, // no input could be read, or an output could not be written
    Inconclusive = 3, // verify: INCONCLUSIVE (no progress past the failure shows, or no known failure before)
    Usage = 64, // a usage error: an unknown option, a missing value, a bad --format (sysexits' EX_USAGE)
};

constexpr int exitStatus(ExitCode code)
{
    return static_cast<int>(code);
}

// The table above as the help texts print it.
QString exitCodeHelp();

// The parser of one subcommand: its options, its --help (its own options, then the exit codes) and its
// errors, each prefixed with "rankscope COMMAND:".
class CommandParser
{
public:
    // command: "diagnose" ("" for the window); synopsis: what follows it, "PATH... [--format F]".
    CommandParser(QString command, QString synopsis, const QString& description);

    QCommandLineParser& parser() { return m_parser; }
    const QCommandLineParser& parser() const { return m_parser; }

    // Parses the arguments after the subcommand. Returns the exit status when the command is done here
    // (--help printed: 0; a usage error printed: 64), nothing when the command goes on.
    std::optional<int> parse(const QStringList& args);

    QString helpText() const;
    // Prints "rankscope COMMAND: message" and the pointer to --help to stderr; returns ExitCode::Usage.
    int usageError(const QString& message) const;
    // Prints "rankscope COMMAND: message" to stderr.
    void printError(const QString& message) const;

private:
    QString m_command;
    QString m_synopsis;
    QCommandLineParser m_parser;
    QCommandLineOption m_help;
};

} // namespace rankscope
