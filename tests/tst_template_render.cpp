// SPDX-License-Identifier: MIT
// Placeholders, shell quoting of inserted values, and the precedence of context over captures.
#include "template_render.h"

#include <QTest>

using namespace rankscope;

namespace {
RenderContext sampleContext()
{
    RenderContext c;
    c.host = QStringLiteral("gpu-a02");
    c.rank = QStringLiteral("7");
    c.localRank = QStringLiteral("3");
    c.device = QStringLiteral("3");
    c.logFolder = QStringLiteral("/logs/job 42");
    c.literal = QStringLiteral("NET/IB: Got completion from peer 10.10.0.11<45819> with status=12");
    c.peer = QString(); // filled from the capture
    c.captures = { { QStringLiteral("peer"), QStringLiteral("10.10.0.11") },
        { QStringLiteral("nic"), QStringLiteral("mlx5_0") },
        { QStringLiteral("host"), QStringLiteral("from-capture") },
        { QStringLiteral("seq"), QStringLiteral("4812") } };
    c.extra.insert(QStringLiteral("job"), QStringLiteral("it's"));
    return c;
}
} // namespace

class TestTemplateRender : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void renderTemplate_data()
    {
        QTest::addColumn<QString>("tmpl");
        QTest::addColumn<QString>("expected");
        QTest::newRow("context") << QStringLiteral("Drain {host} rank {rank} ({local_rank})")
                                 << QStringLiteral("Drain gpu-a02 rank 7 (3)");
        QTest::newRow("context beats capture") << QStringLiteral("{host}") << QStringLiteral("gpu-a02");
        QTest::newRow("capture fills empty context")
            << QStringLiteral("peer {peer} via {nic}") << QStringLiteral("peer 10.10.0.11 via mlx5_0");
        QTest::newRow("capture-only name")
            << QStringLiteral("collective {seq}") << QStringLiteral("collective 4812");
        QTest::newRow("extra") << QStringLiteral("{job}") << QStringLiteral("it's");
        QTest::newRow("unknown stays visible")
            << QStringLiteral("ethtool -S {interface}") << QStringLiteral("ethtool -S <interface>");
        QTest::newRow("escaped braces") << QStringLiteral("{{host}} {{") << QStringLiteral("{host} {");
        QTest::newRow("shell variable untouched")
            << QStringLiteral("echo ${HOME} {host}") << QStringLiteral("echo ${HOME} gpu-a02");
        QTest::newRow("not a name") << QStringLiteral("{ host } {1x} {}")
                                    << QStringLiteral("{ host } {1x} {}");
        QTest::newRow("unterminated") << QStringLiteral("{host") << QStringLiteral("{host");
        QTest::newRow("no quoting in prose")
            << QStringLiteral("in {log_folder}") << QStringLiteral("in /logs/job 42");
    }
    void renderTemplate()
    {
        QFETCH(QString, tmpl);
        QFETCH(QString, expected);
        QCOMPARE(rankscope::renderTemplate(tmpl, sampleContext()), expected);
    }

    void renderCommand_data()
    {
        QTest::addColumn<QString>("tmpl");
        QTest::addColumn<QString>("expected");
        QTest::newRow("safe values unquoted")
            << QStringLiteral("ibstat {nic}") << QStringLiteral("ibstat mlx5_0");
        QTest::newRow("space quoted")
            << QStringLiteral("rg -n NET {log_folder}") << QStringLiteral("rg -n NET '/logs/job 42'");
        QTest::newRow("double-quoted literal")
            << QStringLiteral("rg -n -F -- \"{literal}\" {log_folder}")
            << QStringLiteral("rg -n -F -- 'NET/IB: Got completion from peer 10.10.0.11<45819> with "
                              "status=12' '/logs/job 42'");
        QTest::newRow("single-quoted placeholder")
            << QStringLiteral("echo '{job}'") << QStringLiteral("echo \"it's\"");
        QTest::newRow("unknown in quotes")
            << QStringLiteral("nc -vz \"{master}\"") << QStringLiteral("nc -vz <master>");
        QTest::newRow("quotes around more text")
            << QStringLiteral("grep \"x {nic}\"") << QStringLiteral("grep \"x mlx5_0\"");
    }
    void renderCommand()
    {
        QFETCH(QString, tmpl);
        QFETCH(QString, expected);
        QCOMPARE(rankscope::renderCommand(tmpl, sampleContext()), expected);
    }

    void shellQuote_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("expected");
        QTest::newRow("plain") << QStringLiteral("a-b_c.d/e:f,g@h%i+j=k")
                               << QStringLiteral("a-b_c.d/e:f,g@h%i+j=k");
        QTest::newRow("empty") << QString() << QStringLiteral("''");
        QTest::newRow("space") << QStringLiteral("a b") << QStringLiteral("'a b'");
        // Single quotes alone: double quotes, where nothing else in the value is special.
        QTest::newRow("single quote") << QStringLiteral("it's") << QStringLiteral("\"it's\"");
        QTest::newRow("cuda error string")
            << QStringLiteral("Test CUDA failure common.cu:941 'system not yet initialized'")
            << QStringLiteral("\"Test CUDA failure common.cu:941 'system not yet initialized'\"");
        // With a character double quotes would expand ($, `, backslash, ", !): single quotes, each ' spliced.
        QTest::newRow("single quote and dollar")
            << QStringLiteral("it's $HOME") << QStringLiteral("'it'\\''s $HOME'");
        QTest::newRow("single quote and bang")
            << QStringLiteral("'x' failed!") << QStringLiteral("''\\''x'\\'' failed!'");
        QTest::newRow("single and double quote")
            << QStringLiteral("a 'b' \"c\"") << QStringLiteral("'a '\\''b'\\'' \"c\"'");
        QTest::newRow("metachars") << QStringLiteral("$(rm -rf /);`x`|&<>")
                                   << QStringLiteral("'$(rm -rf /);`x`|&<>'");
        QTest::newRow("newline") << QStringLiteral("a\nb") << QStringLiteral("'a\nb'");
    }
    void shellQuote()
    {
        QFETCH(QString, value);
        QFETCH(QString, expected);
        QCOMPARE(rankscope::shellQuote(value), expected);
    }

    // A sentence whose value is unknown is dropped whole: an "e.g. " inside it is no sentence end.
    void proseKeepsAbbreviationsInTheirSentence()
    {
        RenderContext none;
        const QString fix =
            QStringLiteral("Repair the link on {nic}; only raise NCCL_IB_TIMEOUT (e.g. 22) when the "
                           "fabric is healthy, i.e. after a test. Then rerun.");
        QCOMPARE(renderProse(fix, none), QStringLiteral("Then rerun."));
        QCOMPARE(renderProse(fix, sampleContext()),
            QStringLiteral(
                "Repair the link on mlx5_0; only raise NCCL_IB_TIMEOUT (e.g. 22) when the fabric is "
                "healthy, i.e. after a test. Then rerun."));
    }

    void placeholders()
    {
        QCOMPARE(templatePlaceholders(QStringLiteral("{a} {b} {a} {{c}} ${D} {1x}")),
            (QStringList { QStringLiteral("a"), QStringLiteral("b") }));
        QVERIFY(templatePlaceholders(QStringLiteral("no placeholders")).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestTemplateRender)
#include "tst_template_render.moc"
