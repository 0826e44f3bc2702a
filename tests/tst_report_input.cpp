// SPDX-License-Identifier: MIT
// buildReportInput(): the one report input of the CLI, the window's export and the tests. The attempts
// of an elastic job are listed whichever front end asks; a comparison with a healthy run is part of the
// report in all four formats, and absent from all four when none was made.
#include "analysis.h"
#include "control_run.h"
#include "incident_generator.h"
#include "report.h"
#include "report_input.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace rankscope;
using namespace rankscope::testgen;

namespace {

Analysis load(const QString& path)
{
    AnalysisRequest r;
    r.logPaths << path;
    return analyze(r);
}

QString generate(const QTemporaryDir& tmp, const QString& name, Fault fault, quint32 seed)
{
    GenOptions o;
    o.ranks = 8;
    o.gpusPerNode = 4;
    o.fault = fault;
    o.faultRank = 7;
    o.layout = Layout::PerRankFiles;
    o.seed = seed;
    const QString dir = tmp.filePath(name);
    const GenResult g = generateIncident(o, dir);
    return g.error.isEmpty() ? dir : QString();
}

} // namespace

class TestReportInput : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void attemptsOfAnElasticJob()
    {
        const Analysis an = load(QStringLiteral(RANKSCOPE_TEST_DATA "/layouts/restart-agent"));
        QVERIFY(an.attempts.size() > 1);
        const AttemptAnalysis& first = an.attempts.front();
        const ReportInput in = buildReportInput(an, first);
        QCOMPARE(in.incident, &first.incident);
        QCOMPARE(in.diagnosis, &first.diagnosis);
        QCOMPARE(in.catalog, &an.catalog.catalog);
        QCOMPARE(in.divergence, nullptr);
        QCOMPARE(in.attempts.size(), static_cast<qsizetype>(an.attempts.size()));
        QCOMPARE(in.attempts.front(), first.incident.label);
        // The JSON and the window's Markdown carry them alike.
        const QJsonObject inputs = reportJson(in).value(QStringLiteral("inputs")).toObject();
        QCOMPARE(inputs.value(QStringLiteral("attempts")).toArray().size(), in.attempts.size());
        QVERIFY(reportMarkdown(in).contains(QStringLiteral("attempt %1").arg(first.incident.label)));

        QCOMPARE(attemptByNumber(an, 0), &an.attempts.front());
        QCOMPARE(attemptByNumber(an, 99), nullptr);
        QCOMPARE(attemptByNumber(an, -1), nullptr);
    }

    void oneAttemptListsNone()
    {
        const Analysis an = load(QStringLiteral(RANKSCOPE_TEST_DATA "/sample-job"));
        QVERIFY(an.currentAttempt());
        const ReportInput in = buildReportInput(an, *an.currentAttempt());
        QVERIFY(in.attempts.isEmpty());
        QVERIFY(in.topology.isEmpty() && in.topologyText.isEmpty()); // no capture given
        QVERIFY(reportJson(in).value(QStringLiteral("divergence")).isNull());
        for (const QString& report : { reportText(in), reportMarkdown(in), reportHtml(in, {}, {}) })
            QVERIFY(!report.contains(QLatin1String("ivergence from the healthy run"), Qt::CaseInsensitive));
    }

    void topologyOfTheAttempt()
    {
        AnalysisRequest r;
        r.logPaths << QStringLiteral(RANKSCOPE_TEST_DATA "/sample-job");
        r.topologyPaths << QStringLiteral(RANKSCOPE_TEST_DATA "/topology/nvidia-smi-topo.gpu-a02.txt");
        const Analysis an = analyze(r);
        QVERIFY(an.currentAttempt());
        const ReportInput in = buildReportInput(an, *an.currentAttempt());
        QVERIFY(!in.topology.isEmpty());
        QVERIFY(in.topologyText.contains(QLatin1String("rank 7")));
    }

    // The divergence is rendered by every format from the report input, not appended by the CLI.
    void divergenceInEveryFormat()
    {
        QTemporaryDir tmp;
        const QString bad = generate(tmp, QStringLiteral("bad"), Fault::IbRetryExceeded, 1);
        const QString ok = generate(tmp, QStringLiteral("ok"), Fault::None, 2);
        QVERIFY(!bad.isEmpty() && !ok.isEmpty());
        const Analysis an = load(bad);
        QVERIFY(an.currentAttempt());
        AnalysisRequest control;
        control.logPaths << ok;
        QString error;
        const Divergence d = compareWithControlRun(*an.currentAttempt(), control, nullptr, {}, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY2(d.found, qPrintable(d.note));
        const ReportInput in = buildReportInput(an, *an.currentAttempt(), &d);
        QCOMPARE(in.divergence, &d);

        const QJsonObject json = reportJson(in).value(QStringLiteral("divergence")).toObject();
        QCOMPARE(json, divergenceToJson(d));
        const QString text = reportText(in);
        QVERIFY(text.contains(QLatin1String("\nDIVERGENCE FROM THE HEALTHY RUN\n") + divergenceToText(d)));
        const QString markdown = reportMarkdown(in);
        QVERIFY(markdown.contains(QLatin1String("## Divergence from the healthy run")));
        QVERIFY(markdown.contains(d.failingText));
        const QString html = reportHtml(in, {}, {});
        QVERIFY(html.contains(QLatin1String("<h2>Divergence from the healthy run</h2>")));
        QVERIFY(html.contains(QStringLiteral("control rank %1").arg(d.controlRank)));
    }

    void unreadableControlSaysWhy()
    {
        const Analysis an = load(QStringLiteral(RANKSCOPE_TEST_DATA "/sample-job"));
        QVERIFY(an.currentAttempt());
        AnalysisRequest control;
        control.logPaths << QStringLiteral("/nonexistent/rankscope-control");
        QString error;
        const Divergence d = compareWithControlRun(*an.currentAttempt(), control, nullptr, {}, &error);
        QVERIFY(!error.isEmpty());
        QVERIFY(!d.found);
        QVERIFY(d.note.startsWith(QLatin1String("the control run could not be read: ")));
        const ReportInput in = buildReportInput(an, *an.currentAttempt(), &d);
        QVERIFY(reportText(in).contains(d.note));
    }
};

QTEST_GUILESS_MAIN(TestReportInput)
#include "tst_report_input.moc"
