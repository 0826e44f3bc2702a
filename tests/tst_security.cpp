// SPDX-License-Identifier: MIT
// Hostile input: log text and host names cannot inject markup into the HTML report, the binaries carry
// no network stack, a user catalog cannot make matching super-linear, and no code path runs commands.
#include "analysis.h"
#include "report.h"
#include "report_input.h"
#include "signature_matcher.h"

#include <QDirIterator>
#include <QElapsedTimer>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using namespace rankscope;

namespace {

const QString kScript = QStringLiteral("<script>alert(1)</script>");
const QString kImg = QStringLiteral("\"><img src=x onerror=alert(1)>");

void writeFile(const QString& path, const QString& text)
{
    QFile f(path);
    QVERIFY2(f.open(QIODevice::WriteOnly), qPrintable(path));
    f.write(text.toUtf8());
}

// The shared libraries a binary loads, as ldd prints them (ldd ships with libc-bin on every Debian).
QString dynamicDependencies(const QString& binary)
{
    QProcess ldd;
    ldd.start(QStringLiteral("ldd"), { binary });
    if (!ldd.waitForFinished(30000) || ldd.exitCode() != 0)
        return {};
    return QString::fromLocal8Bit(ldd.readAllStandardOutput());
}

Signature patternSignature(const QString& id, const QStringList& patterns)
{
    Signature s;
    s.id = id;
    s.title = id;
    s.patterns = patterns;
    return s;
}

// Source text with // and /* */ comments and string literals blanked, so that prose such as
// "never executed" or a message string cannot trip (or hide) a call.
QString codeOnly(const QString& source)
{
    static const QRegularExpression noise(
        QStringLiteral("//[^\n]*|/\\*.*?\\*/|\"(?:\\\\.|[^\"\\\\\n])*\"|'(?:\\\\.|[^'\\\\\n])*'"),
        QRegularExpression::DotMatchesEverythingOption);
    QString out = source;
    return out.replace(noise, QStringLiteral(" "));
}

} // namespace

class TestSecurity : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void htmlReportEscapesLogTextAndHostNames()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        // An NCCL host name ends at the first ':' or space, so its markup uses '/' as the separator.
        const QString evilHost =
            QStringLiteral("evil") + kScript + QStringLiteral("\"><img/src=x/onerror=alert(1)>");
        // An NCCL WARN whose host prefix and message are markup, and a torchrun summary naming the
        // same hostile host, so both the initiating line and the host fields reach the report.
        writeFile(dir.filePath(QStringLiteral("rank-0000.log")),
            evilHost + QStringLiteral(":123:123 [0] NCCL INFO Bootstrap: Using eth0:10.0.0.1<0>\n") + evilHost
                + QStringLiteral(":123:123 [0] misc/socket.cc:1 NCCL WARN ") + kScript + QLatin1Char(' ')
                + kImg + QStringLiteral("\n") + evilHost
                + QStringLiteral(":123:123 [0] NCCL WARN Net : Connection closed by remaining peer ")
                + kScript + QStringLiteral("\nRuntimeError: ") + kScript + QStringLiteral(" NCCL error ")
                + kImg + QStringLiteral("\n"));
        writeFile(dir.filePath(QStringLiteral("torchrun.console.log")),
            QStringLiteral("torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n"
                           "============================================================\n"
                           "train.py FAILED\n"
                           "------------------------------------------------------------\n"
                           "Failures:\n"
                           "  <NO_OTHER_FAILURES>\n"
                           "------------------------------------------------------------\n"
                           "Root Cause (first observed failure):\n"
                           "[0]:\n"
                           "  time      : 2026-03-14_02:27:45\n"
                           "  host      : ")
                + evilHost + kScript
                + QStringLiteral("\n"
                                 "  rank      : 0 (local_rank: 0)\n"
                                 "  exitcode  : 1 (pid: 123)\n"
                                 "  error_file: <N/A>\n"
                                 "  traceback : To enable traceback see: "
                                 "https://pytorch.org/docs/stable/elastic/errors.html\n"
                                 "============================================================\n"));
        AnalysisRequest request;
        request.logPaths = { dir.path() };
        const Analysis an = analyze(request);
        const AttemptAnalysis* a = an.currentAttempt();
        QVERIFY2(a, qPrintable(an.error));
        QVERIFY(!a->incident.events.empty());

        const ReportInput in = buildReportInput(an, *a);
        const QString html = reportHtml(in, {}, {});

        // The hostile text is in the report (so the check below is not vacuous), only escaped.
        QVERIFY2(html.contains(kScript.toHtmlEscaped()), "the WARN message did not reach the report");
        QVERIFY2(html.contains(kImg.toHtmlEscaped()), "the markup in the line did not reach the report");
        QVERIFY(!html.contains(QLatin1String("<script"), Qt::CaseInsensitive));
        QVERIFY(!html.contains(QLatin1String("<img"), Qt::CaseInsensitive));
        // "onerror=" may only appear as text inside an escaped "&lt;img ...": never inside a real tag.
        QCOMPARE(html.count(QLatin1String("onerror=")),
            html.count(QLatin1String("&lt;img src=x onerror="))
                + html.count(QLatin1String("&lt;img/src=x/onerror=")));

        // Host names: every host the incident knows is hostile here, and each appears escaped only.
        const QStringList hosts = a->incident.hosts();
        bool hostInReport = false;
        for (const QString& host : hosts) {
            if (!host.contains(QLatin1Char('<')))
                continue;
            hostInReport = hostInReport || html.contains(host.toHtmlEscaped());
            QVERIFY2(!html.contains(host), qPrintable(host));
        }
        for (const TorchrunFailure& f : a->incident.torchrunFailures)
            if (f.host.contains(QLatin1Char('<')))
                hostInReport = hostInReport || html.contains(f.host.toHtmlEscaped());
        QVERIFY2(hostInReport || hosts.isEmpty(), qPrintable(hosts.join(QLatin1Char(','))));
    }

    void binariesLinkNoNetworkLibrary_data()
    {
        QTest::addColumn<QString>("binary");
        QTest::newRow("rankscope") << QStringLiteral(RANKSCOPE_BINARY);
        QTest::newRow("rankscope-gui") << QStringLiteral(RANKSCOPE_GUI_BINARY);
        // This test links rankscope_core and rankscope_views like every other test executable.
        QTest::newRow("core test executable") << QCoreApplication::applicationFilePath();
    }

    void binariesLinkNoNetworkLibrary()
    {
        // Rankscope is offline by design: no code path may open a socket, so no network-capable
        // library may even be loaded. ldd lists the whole dependency closure (Qt's own included).
        QFETCH(QString, binary);
        QVERIFY2(QFileInfo::exists(binary), qPrintable(binary));
        const QString deps = dynamicDependencies(binary);
        QVERIFY2(
            deps.contains(QLatin1String("libQt6Core")), qPrintable(binary + QStringLiteral(": ") + deps));
        static const char* const kBanned[] = { "libQt6Network", "libcurl", "libssl", "libcrypto", "libgnutls",
            "libnghttp", "libresolv" };
        for (const char* lib : kBanned)
            QVERIFY2(!deps.contains(QLatin1String(lib)),
                qPrintable(binary + QStringLiteral(" loads ") + QLatin1String(lib)));
    }

    void catalogOverMemoryBudgetIsRejected()
    {
        // Also covered on the real catalog by tst_signature_matcher memoryBudgetIsEnforced.
        Catalog catalog;
        catalog.signatures.push_back(patternSignature(QStringLiteral("huge"),
            { QStringLiteral("[a-q][^u-z]{13}x"), QStringLiteral("(\\w+\\s+){50}\\d{1,40}[a-f]{30}") }));
        const SignatureMatcher tiny(catalog, MatcherOptions { 16 * 1024 });
        QVERIFY(!tiny.isValid());
        QVERIFY2(tiny.errorString().contains(QLatin1String("memory budget")), qPrintable(tiny.errorString()));
        QVERIFY(!tiny.match(
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaax"));
    }

    void backtrackingPatternsStayLinear_data()
    {
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<QString>("matchingEnd"); // what turns the failing line into a matching one
        QTest::newRow("nested plus") << QStringLiteral("(a+)+$") << QString();
        QTest::newRow("alternation") << QStringLiteral("(a|aa)+$") << QString();
        QTest::newRow("nested star") << QStringLiteral("(a*)*c") << QStringLiteral("c");
        QTest::newRow("counted dot") << QStringLiteral("(.*a){12}c") << QStringLiteral("c");
    }

    void backtrackingPatternsStayLinear()
    {
        // A backtracking engine takes exponential time on these; RE2 is linear in the line length.
        QFETCH(QString, pattern);
        QFETCH(QString, matchingEnd);
        Catalog catalog;
        catalog.signatures.push_back(patternSignature(QStringLiteral("redos"), { pattern }));
        const SignatureMatcher matcher(catalog);
        QVERIFY2(matcher.isValid(), qPrintable(matcher.errorString()));
        const std::string line = std::string(100 * 1024, 'a') + 'b';
        QElapsedTimer timer;
        timer.start();
        const MatchResult m = matcher.match(line);
        const std::vector<int> all = matcher.matchAll(line);
        const qint64 ms = timer.elapsed();
        QVERIFY(!m);
        QVERIFY(all.empty());
        QVERIFY2(ms < 1000, qPrintable(QStringLiteral("%1 ms").arg(ms)));
        // The same pattern still matches where it should (the line is not just rejected unread).
        const std::string good = std::string(100 * 1024, 'a') + matchingEnd.toStdString();
        timer.restart();
        QVERIFY(matcher.match(good));
        QVERIFY2(timer.elapsed() < 1000, qPrintable(QStringLiteral("%1 ms").arg(timer.elapsed())));
    }

    void noSourceRunsCommands()
    {
        // Commands in a log or a signature file are shown and copied, never run: no code in core/,
        // views/ or app/ may spawn a process or hand a string to a shell. (capture-topology reads the
        // local machine through the hwloc C API, not by running lstopo or nvidia-smi.)
        static const QRegularExpression spawn(QStringLiteral(
            "\\b(?:std::)?(?:system|popen|fork|vfork|execl|execlp|execle|execv|execvp|execvpe|execve|posix_"
            "spawnp?|wordexp)\\s*\\(|\\bQProcess\\b|\\bQDesktopServices\\b|<(?:spawn|wordexp)\\.h>"));
        int scanned = 0;
        int handovers = 0;
        QStringList hits;
        for (const char* sub : { "core", "views", "app" }) {
            QDirIterator it(QStringLiteral(RANKSCOPE_SOURCE_DIR "/") + QLatin1String(sub),
                { QStringLiteral("*.cpp"), QStringLiteral("*.h") }, QDir::Files,
                QDirIterator::Subdirectories);
            while (it.hasNext()) {
                const QString path = it.next();
                QFile f(path);
                QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(path));
                ++scanned;
                const QString raw = QString::fromUtf8(f.readAll());
                const QString code = codeOnly(raw);
                QRegularExpressionMatchIterator m = spawn.globalMatch(code);
                while (m.hasNext()) {
                    const QString call = m.next().captured();
                    // The one exception: `rankscope` without a subcommand becomes its own window program,
                    // a fixed file beside it, with the user's own arguments (app/gui_launch.cpp).
                    if (path.endsWith(QLatin1String("/app/gui_launch.cpp"))
                        && call == QLatin1String("execv(")) {
                        ++handovers;
                        QVERIFY2(raw.contains(QLatin1String("ownFolder(argv[0]) + \"/rankscope-gui\"")),
                            "gui_launch.cpp must exec only rankscope-gui from its own folder");
                        continue;
                    }
                    hits << path + QStringLiteral(": ") + call;
                }
            }
        }
        QVERIFY2(scanned > 50, qPrintable(QStringLiteral("only %1 files scanned").arg(scanned)));
        QVERIFY2(hits.isEmpty(), qPrintable(hits.join(QLatin1Char('\n'))));
        QCOMPARE(handovers, 1);
        // The scanner itself sees a call when there is one.
        QVERIFY(spawn.match(codeOnly(QStringLiteral("int r = std::system(cmd); // run"))).hasMatch());
        QVERIFY(!spawn.match(codeOnly(QStringLiteral("// never system(\"x\")\nauto s = \"popen(\";")))
                     .hasMatch());
    }
};

QTEST_GUILESS_MAIN(TestSecurity)
#include "tst_security.moc"
