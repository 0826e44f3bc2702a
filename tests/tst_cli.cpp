// SPDX-License-Identifier: MIT
// The command line: one parser for every subcommand and one table of exit codes (0 analysed, 1 a verify
// FAIL, 2 nothing readable, 64 a usage error), and --help on each subcommand listing its own options.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {

const QString kData = QStringLiteral(RANKSCOPE_TEST_DATA);
constexpr int kAnalysed = 0;
constexpr int kNothingReadable = 2;
constexpr int kUsage = 64;
constexpr int kTimeoutMs = 120000;

struct Run
{
    int exitCode = -1;
    QByteArray out, err;
};

Run run(const QStringList& args, const QByteArray& input = {})
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen")); // the window's parser
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(RANKSCOPE_BINARY), args);
    if (!p.waitForStarted())
        return {};
    p.write(input);
    p.closeWriteChannel();
    if (!p.waitForFinished(kTimeoutMs))
        return {};
    return { p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
        p.readAllStandardError() };
}

} // namespace

class TestCli : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void help_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("usage"); // the first line
        QTest::addColumn<QString>("option"); // one of the command's own options
        QTest::newRow("diagnose") << QStringList { QStringLiteral("diagnose"), QStringLiteral("--help") }
                                  << QStringLiteral("Usage: rankscope diagnose PATH...")
                                  << QStringLiteral("--control <HEALTHY_RUN>");
        QTest::newRow("diagnose -h") << QStringList { QStringLiteral("diagnose"), QStringLiteral("-h") }
                                     << QStringLiteral("Usage: rankscope diagnose PATH...")
                                     << QStringLiteral("--attempt <N>");
        QTest::newRow("verify") << QStringList { QStringLiteral("verify"), QStringLiteral("--help") }
                                << QStringLiteral("Usage: rankscope verify --before PATH --after PATH")
                                << QStringLiteral("--before <PATH>");
        QTest::newRow("topology") << QStringList { QStringLiteral("topology"), QStringLiteral("--help") }
                                  << QStringLiteral("Usage: rankscope topology FILE...")
                                  << QStringLiteral("--logs <PATH>");
        QTest::newRow("help topology")
            << QStringList { QStringLiteral("help"), QStringLiteral("topology") }
            << QStringLiteral("Usage: rankscope topology FILE...") << QStringLiteral("--host <NAME>");
        QTest::newRow("capture-topology")
            << QStringList { QStringLiteral("capture-topology"), QStringLiteral("--help") }
            << QStringLiteral("Usage: rankscope capture-topology [-o FILE]")
            << QStringLiteral("-o, --output <FILE>");
        QTest::newRow("signatures") << QStringList { QStringLiteral("signatures"), QStringLiteral("--help") }
                                    << QStringLiteral("Usage: rankscope signatures check [DIR] | list [DIR]")
                                    << QStringLiteral("check, list, show, search or hub.");
        QTest::newRow("signatures check")
            << QStringList { QStringLiteral("signatures"), QStringLiteral("check"), QStringLiteral("--help") }
            << QStringLiteral("Usage: rankscope signatures check [DIR] | list [DIR]")
            << QStringLiteral("[DIR]");
        QTest::newRow("window") << QStringList { QStringLiteral("--screenshot"), QStringLiteral("x.png"),
            QStringLiteral("--help") }
                                << QStringLiteral("Usage: rankscope [--topology FILE]...")
                                << QStringLiteral("--panel <TITLE>");
    }

    void help()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, usage);
        QFETCH(QString, option);
        const Run r = run(args);
        QCOMPARE(r.exitCode, kAnalysed);
        const QString out = QString::fromLocal8Bit(r.out);
        QVERIFY2(out.startsWith(usage), qPrintable(out));
        QVERIFY2(out.contains(option), qPrintable(out));
        QVERIFY2(out.contains(QLatin1String("Exit codes:")), qPrintable(out));
        // (Qt's own notes, such as XDG_RUNTIME_DIR for the window, may go to stderr; no error of ours.)
        QVERIFY2(!r.err.contains("rankscope"), r.err.constData());
    }

    // `rankscope --help` lists every subcommand, the report formats (html too), the window's --theme
    // and the exit-code table; the README's command list says the same.
    void overview()
    {
        const Run r = run({ QStringLiteral("--help") });
        QCOMPARE(r.exitCode, kAnalysed);
        QFile readme(QStringLiteral(RANKSCOPE_SOURCE_DIR "/README.md"));
        QVERIFY(readme.open(QIODevice::ReadOnly));
        const QByteArray readmeText = readme.readAll();
        for (const char* word : { "diagnose", "verify", "topology", "capture-topology", "signatures check",
                 "--format text|json|markdown|html", "--theme system|light|dark",
                 "Exit codes:", "0   analysed", "1   verify: FAIL", "2   nothing readable",
                 "3   verify: INCONCLUSIVE", "64  usage error" })
            QVERIFY2(r.out.contains(word), word);
        for (const char* word : { "--format text|json|markdown|html", "--theme system|light|dark" })
            QVERIFY2(readmeText.contains(word), word);
    }

    void exitCodes_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("stderrHas");
        const QString capture = kData + QStringLiteral("/topology/nvidia-smi-topo.gpu-a02.txt");
        const QString notCapture = kData + QStringLiteral("/topology/not-a-topology.txt");
        const QString job = kData + QStringLiteral("/sample-job");
        const QString diagnose = QStringLiteral("diagnose"), topology = QStringLiteral("topology");

        QTest::newRow("diagnose analysed") << QStringList { diagnose, job } << kAnalysed << QString();
        QTest::newRow("diagnose unknown option") << QStringList { diagnose, job, QStringLiteral("--bogus") }
                                                 << kUsage << QStringLiteral("Unknown option 'bogus'");
        QTest::newRow("diagnose no path") << QStringList { diagnose } << kUsage << QStringLiteral("no input");
        QTest::newRow("diagnose bad format")
            << QStringList { diagnose, job, QStringLiteral("--format"), QStringLiteral("yaml") } << kUsage
            << QStringLiteral("--format must be text, json, markdown or html, not yaml");
        QTest::newRow("diagnose missing value")
            << QStringList { diagnose, job, QStringLiteral("--topology") } << kUsage
            << QStringLiteral("Missing value after '--topology'");
        QTest::newRow("diagnose bad attempt") << QStringList { diagnose, job, QStringLiteral("--attempt"),
            QStringLiteral("x") } << kUsage << QStringLiteral("--attempt must be a number");
        QTest::newRow("diagnose no such attempt") << QStringList { diagnose, job, QStringLiteral("--attempt"),
            QStringLiteral("9") } << kUsage << QStringLiteral("there is no attempt_9");
        QTest::newRow("diagnose nothing readable")
            << QStringList { diagnose, QStringLiteral("/nonexistent/rankscope-logs") } << kNothingReadable
            << QStringLiteral("no such file or folder");

        QTest::newRow("verify no after")
            << QStringList { QStringLiteral("verify"), QStringLiteral("--before"), job } << kUsage
            << QStringLiteral("give both --before PATH");
        QTest::newRow("verify stray argument") << QStringList { QStringLiteral("verify"), job } << kUsage
                                               << QStringLiteral("unexpected argument");
        QTest::newRow("verify nothing readable")
            << QStringList { QStringLiteral("verify"), QStringLiteral("--before"), job,
                   QStringLiteral("--after"), QStringLiteral("/nonexistent/rankscope-after") }
            << kNothingReadable << QStringLiteral("--after /nonexistent/rankscope-after");

        QTest::newRow("topology analysed") << QStringList { topology, capture } << kAnalysed << QString();
        QTest::newRow("topology with logs")
            << QStringList { topology, capture, QStringLiteral("--logs"), job } << kAnalysed << QString();
        QTest::newRow("topology no file")
            << QStringList { topology } << kUsage << QStringLiteral("no topology file given");
        QTest::newRow("topology unknown option") << QStringList { topology, capture,
            QStringLiteral("--frob") } << kUsage << QStringLiteral("Unknown option 'frob'");
        QTest::newRow("topology missing value") << QStringList { topology, capture, QStringLiteral("--host") }
                                                << kUsage << QStringLiteral("Missing value after '--host'");
        QTest::newRow("topology bad format")
            << QStringList { topology, capture, QStringLiteral("--format"), QStringLiteral("markdown") }
            << kUsage << QStringLiteral("--format must be text or json");
        QTest::newRow("topology not a capture") << QStringList { topology, notCapture } << kNothingReadable
                                                << QStringLiteral("not a recognised topology capture");
        // One capture read of two: analysed, and the other named on stderr.
        QTest::newRow("topology one of two") << QStringList { topology, capture, notCapture } << kAnalysed
                                             << QStringLiteral("not a recognised topology capture");
        QTest::newRow("topology logs unreadable") << QStringList {
            topology, capture, QStringLiteral("--logs"), QStringLiteral("/nonexistent/logs")
        } << kNothingReadable << QStringLiteral("--logs /nonexistent/logs");

        QTest::newRow("capture-topology stray argument") << QStringList { QStringLiteral("capture-topology"),
            QStringLiteral("extra") } << kUsage << QStringLiteral("unexpected argument extra");
        QTest::newRow("signatures no action") << QStringList { QStringLiteral("signatures") } << kUsage
                                              << QStringLiteral("say check, list, show, search or hub");
        QTest::newRow("signatures unknown action") << QStringList { QStringLiteral("signatures"),
            QStringLiteral("frob") } << kUsage << QStringLiteral("unknown action 'frob'");
        QTest::newRow("signatures list")
            << QStringList { QStringLiteral("signatures"), QStringLiteral("list") } << kAnalysed << QString();
        QTest::newRow("window unknown option") << QStringList { QStringLiteral("--no-such-option") } << kUsage
                                               << QStringLiteral("Unknown option 'no-such-option'");
        QTest::newRow("window panel without screenshot") << QStringList { QStringLiteral("--panel"),
            QStringLiteral("Topology") } << kUsage << QStringLiteral("--panel needs --screenshot");
        QTest::newRow("help unknown command") << QStringList { QStringLiteral("help"),
            QStringLiteral("frob") } << kUsage << QStringLiteral("no command named frob");
    }

    void exitCodes()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, stderrHas);
        const Run r = run(args);
        const QString err = QString::fromLocal8Bit(r.err);
        QVERIFY2(r.exitCode == exitCode,
            qPrintable(QStringLiteral("exit %1, stderr:\n%2").arg(r.exitCode).arg(err)));
        QVERIFY2(err.contains(stderrHas), qPrintable(err));
        if (exitCode == kUsage)
            QVERIFY2(err.contains(QLatin1String("--help")) || args.front() == QLatin1String("help"),
                qPrintable(err)); // points at the options
    }

    // "-" is a path (stdin), not an option.
    void stdinIsAPath()
    {
        QFile log(kData + QStringLiteral("/sample-job/nccl.gpu-a02.52117.log"));
        QVERIFY(log.open(QIODevice::ReadOnly));
        const Run r = run({ QStringLiteral("diagnose"), QStringLiteral("-"), QStringLiteral("--format"),
                              QStringLiteral("json") },
            log.readAll());
        QCOMPARE(r.exitCode, kAnalysed);
        const QJsonObject root = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(root.value(QStringLiteral("inputs")).toObject().value(QStringLiteral("files")).toInt(), 1);
        // The verification greps read the log piped in again ("-"), never "." (wherever the user is).
        QVERIFY(log.seek(0));
        const Run text = run({ QStringLiteral("diagnose"), QStringLiteral("-") }, log.readAll());
        int greps = 0;
        for (const QByteArray& line : text.out.split('\n')) {
            const QByteArray command = line.trimmed();
            if (!command.startsWith("rg "))
                continue;
            ++greps;
            QVERIFY2(command.endsWith(" -") && !command.endsWith(" ."), command.constData());
        }
        QVERIFY(greps > 0);
    }

    void attemptChosen()
    {
        const Run r = run({ QStringLiteral("diagnose"), kData + QStringLiteral("/layouts/restart-agent"),
            QStringLiteral("--attempt"), QStringLiteral("0"), QStringLiteral("--format"),
            QStringLiteral("json") });
        QCOMPARE(r.exitCode, kAnalysed);
        const QJsonObject inputs =
            QJsonDocument::fromJson(r.out).object().value(QStringLiteral("inputs")).toObject();
        QCOMPARE(inputs.value(QStringLiteral("attempt")).toString(), QStringLiteral("attempt_0"));
        QVERIFY(inputs.value(QStringLiteral("attempts")).toArray().size() > 1);
    }

    // --format html: one self-contained page, the log text escaped, wrapping and printable.
    void htmlReport()
    {
        const Run html = run({ QStringLiteral("diagnose"), kData + QStringLiteral("/sample-job"),
            QStringLiteral("--format"), QStringLiteral("html") });
        QCOMPARE(html.exitCode, kAnalysed);
        QVERIFY(html.out.startsWith("<!DOCTYPE html>"));
        QVERIFY(html.out.contains("NCCL WARN"));
        QVERIFY(html.out.contains("white-space:pre-wrap"));
        QVERIFY(html.out.contains("@media print"));
        QVERIFY(html.out.contains("launched by torchrun"));
        // The timeline, drawn for the page as the window's export draws it.
        QVERIFY(html.out.contains("<h2>Timeline</h2><img alt=\"timeline\""));
        QVERIFY(html.out.contains("data:image/svg+xml;base64,"));
        QVERIFY(!html.out.contains("<script"));
    }

    // --control: the divergence is part of the report in each format.
    void control()
    {
        const QString job = kData + QStringLiteral("/sample-job");
        const Run json = run({ QStringLiteral("diagnose"), job, QStringLiteral("--control"), job,
            QStringLiteral("--format"), QStringLiteral("json") });
        QCOMPARE(json.exitCode, kAnalysed);
        const QJsonValue d = QJsonDocument::fromJson(json.out).object().value(QStringLiteral("divergence"));
        QVERIFY(d.isObject());
        const Run text = run({ QStringLiteral("diagnose"), job, QStringLiteral("--control"), job });
        QCOMPARE(text.exitCode, kAnalysed);
        QVERIFY(text.out.contains("\nDIVERGENCE FROM THE HEALTHY RUN\nDivergence from the control run\n"));
        const Run md = run({ QStringLiteral("diagnose"), job, QStringLiteral("--control"), job,
            QStringLiteral("--format"), QStringLiteral("markdown") });
        QVERIFY(md.out.contains("\n## Divergence from the healthy run\n"));
        // Without --control the field is there, and null.
        const Run none =
            run({ QStringLiteral("diagnose"), job, QStringLiteral("--format"), QStringLiteral("json") });
        QVERIFY(QJsonDocument::fromJson(none.out).object().value(QStringLiteral("divergence")).isNull());
        const Run missing = run({ QStringLiteral("diagnose"), job, QStringLiteral("--control"),
            QStringLiteral("/nonexistent/control") });
        QCOMPARE(missing.exitCode, kAnalysed);
        QVERIFY(missing.err.contains("--control /nonexistent/control"));
        QVERIFY(missing.out.contains("the control run could not be read"));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
