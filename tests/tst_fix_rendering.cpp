// SPDX-License-Identifier: MIT
// What a user reads never holds a blank: every signature's fix, summary, checklist and commands, rendered
// against the events of every test input (the real cases, the layouts, the diagnosis fixtures, the sample
// job, the demo), leaves no {placeholder} and no <placeholder>; and the diagnosis of each input is clean.
#include "analysis.h"
#include "diagnosis_parts.h"
#include "report.h"
#include "report_input.h"
#include "signature_matcher.h"
#include "template_render.h"

#include <QDir>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QtTest>

using namespace rankscope;

namespace {

QStringList inputs()
{
    QStringList out;
    const QString data = QStringLiteral(RANKSCOPE_TEST_DATA);
    for (const char* folder : { "/real", "/real-found", "/real-left", "/layouts", "/diagnosis" }) {
        const QDir dir(data + QLatin1String(folder));
        for (const QString& e : dir.entryList(QDir::Dirs | QDir::Files | QDir::NoDotAndDotDot, QDir::Name)) {
            if (!e.endsWith(QLatin1String(".md")) && e != QLatin1String("pasted"))
                out << dir.filePath(e);
        }
    }
    // A folder walk skips Markdown as prose: the pasted issue comment is named as the file it is.
    out << data + QStringLiteral("/layouts/pasted/issue-comment.md");
    out << data + QStringLiteral("/sample-job") << QStringLiteral(RANKSCOPE_SOURCE_DIR "/resources/demo");
    return out;
}

// A blank left for the reader: {name} or <name> (a lower-case identifier, as the templates use).
// The first {placeholder} or <placeholder> in text that the log line it quotes does not hold itself
// (libfabric prints "<warn>", MPI "<stdout>").
QString blankIn(const QString& text, const QString& logLine = {})
{
    static const QRegularExpression blank(QStringLiteral(R"(\{[a-z_][a-z0-9_]*\}|<[a-z_][a-z0-9_]*>)"));
    for (auto it = blank.globalMatch(text); it.hasNext();) {
        const QString b = it.next().captured();
        if (logLine.isEmpty() || !logLine.contains(b))
            return b;
    }
    return {};
}

RenderContext contextOf(const Incident& inc, const LogEvent& e)
{
    RenderContext ctx;
    ctx.host = e.host;
    if (e.rank >= 0)
        ctx.rank = QString::number(e.rank);
    if (e.device >= 0)
        ctx.device = QString::number(e.device);
    ctx.captures = e.captures;
    ctx.logFolder = QStringLiteral("/logs");
    ctx.literal = e.message;
    ctx.extra.insert(QStringLiteral("message"), e.message);
    ctx.extra.insert(QStringLiteral("file"), inc.files[static_cast<size_t>(e.file)].path);
    ctx.extra.insert(QStringLiteral("line"), QString::number(e.line));
    return ctx;
}

} // namespace

class TestFixRendering : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // Every fix still says what to do when the incident gives nothing but the line (a pasted line without
    // host, rank or NIC): a sentence that needs an unknown value is dropped, so no fix may consist only of
    // such sentences (nccl-ib-completion-local-protection's "Disable ACS ... under {host}" once printed an
    // empty FIX for nccl#928's line). Each entry is rendered with the captures of each of its examples.
    void fixSurvivesUnknownValues()
    {
        const CatalogLoadResult cat = loadCatalogDir(QStringLiteral(RANKSCOPE_SOURCE_DIR "/signatures"));
        QVERIFY(cat.catalog.signatures.size() > 100);
        const SignatureMatcher matcher(cat.catalog);
        QStringList empty;
        int rendered = 0;
        for (int i = 0; i < static_cast<int>(cat.catalog.signatures.size()); ++i) {
            const Signature& sig = cat.catalog.signatures[static_cast<size_t>(i)];
            if (sig.fix.isEmpty())
                continue;
            for (const QString& line : sig.examplesMatch) {
                const std::string bytes = line.toStdString();
                const MatchResult m = matcher.matchSignature(i, bytes);
                RenderContext ctx;
                ctx.captures = m.captures;
                ++rendered;
                if (renderProse(detail::withoutUnknownPlaces(sig.fix, ctx), ctx).trimmed().isEmpty()
                    && !empty.contains(sig.id)) {
                    empty << sig.id;
                    qWarning("%s renders an empty fix for: %s", qPrintable(sig.id), qPrintable(line));
                }
            }
        }
        QVERIFY(rendered > 300);
        QVERIFY2(empty.isEmpty(), qPrintable(empty.join(QStringLiteral(", "))));
    }

    void input_data()
    {
        QTest::addColumn<QString>("path");
        for (const QString& p : inputs())
            QTest::newRow(qPrintable(QDir(QStringLiteral(RANKSCOPE_SOURCE_DIR)).relativeFilePath(p))) << p;
    }

    void input()
    {
        QFETCH(QString, path);
        AnalysisRequest request;
        request.logPaths = { path };
        const Analysis a = analyze(request);
        QVERIFY2(a.error.isEmpty(), qPrintable(a.error));
        const AttemptAnalysis* at = a.currentAttempt();
        QVERIFY(at);
        const Catalog& cat = a.catalog.catalog;

        // The diagnosis as shown.
        const Diagnosis& d = at->diagnosis;
        QStringList shown { d.summary, d.fix }; // the headline quotes the log, which may hold <stdout>
        shown << d.verify << d.checklist << d.evidenceCommands << d.confidenceReasons;
        // A value copied from the initiating line may hold what the log itself masked ("<namespace>").
        const QString initiatingLine = d.initiatingEvent >= 0
            ? at->incident.events[static_cast<size_t>(d.initiatingEvent)].text
            : QString();
        for (const QString& s : std::as_const(shown))
            QVERIFY2(blankIn(s, initiatingLine).isEmpty(),
                qPrintable(QStringLiteral("%1 in: %2").arg(blankIn(s, initiatingLine), s)));

        // Every report format as written: no {placeholder} anywhere outside the quoted log lines (the
        // signature's summary in the HTML and JSON reports once came from the catalog unrendered). The
        // <name> form is not looked for: HTML is made of it, and MPI's log lines carry <stdout>.
        const ReportInput in = buildReportInput(a, *at);
        QString quoted;
        for (const LogEvent& e : at->incident.events)
            quoted += e.text + QLatin1Char('\n') + e.continuation.join(QLatin1Char('\n'));
        quoted += d.evidence.lines.join(QLatin1Char('\n')); // the log lines around the event, as read
        static const QRegularExpression brace(QStringLiteral(R"(\{[a-z_][a-z0-9_]*\})"));
        const QStringList reports { reportText(in), reportMarkdown(in), reportHtml(in, {}, {}),
            QString::fromUtf8(QJsonDocument(reportJson(in)).toJson()) };
        for (const QString& report : reports) {
            for (auto it = brace.globalMatch(report); it.hasNext();) {
                const QString blank = it.next().captured();
                QVERIFY2(quoted.contains(blank), qPrintable(QStringLiteral("%1 in a report").arg(blank)));
            }
        }

        // Every signature rendered against up to 20 of the input's events.
        const std::size_t events = std::min<std::size_t>(at->incident.events.size(), 20);
        for (std::size_t i = 0; i < events; ++i) {
            const RenderContext ctx = contextOf(at->incident, at->incident.events[i]);
            for (const Signature& sig : cat.signatures) {
                QStringList texts { renderProse(sig.fix, ctx), renderProse(sig.summary, ctx) };
                for (const QString& c : sig.checklist)
                    texts << renderProse(c, ctx);
                for (const QString& v : sig.verify + sig.evidenceCommands) {
                    if (canRender(v, ctx))
                        texts << renderCommand(v, ctx);
                }
                const QString& line = at->incident.events[i].text;
                for (const QString& t : std::as_const(texts))
                    QVERIFY2(blankIn(t, line).isEmpty(),
                        qPrintable(QStringLiteral("%1: %2 in: %3").arg(sig.id, blankIn(t, line), t)));
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestFixRendering)
#include "tst_fix_rendering.moc"
