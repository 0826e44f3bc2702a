// SPDX-License-Identifier: MIT
#include "report.h"

namespace rankscope {

namespace {

QString esc(const QString& s)
{
    return s.toHtmlEscaped();
}

QString list(const QStringList& items, bool code = false)
{
    if (items.isEmpty())
        return {};
    QString out = QStringLiteral("<ul>");
    for (const QString& i : items)
        out += code ? QStringLiteral("<li><code>%1</code></li>").arg(esc(i))
                    : QStringLiteral("<li>%1</li>").arg(esc(i));
    return out + QStringLiteral("</ul>");
}

} // namespace

QString reportHtml(const ReportInput& in, const QByteArray& topologySvg, const QByteArray& timelineSvg)
{
    const Incident& inc = *in.incident;
    const Diagnosis& d = *in.diagnosis;
    const Catalog& cat = *in.catalog;
    QString h;
    h += QStringLiteral(
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Rankscope report</title>"
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src data:; style-src "
        "'unsafe-inline'\">"
        "<style>body{font-family:sans-serif;max-width:1100px;margin:2em auto;color:#1f2933}"
        "pre,code{font-family:monospace;background:#f4f5f7}"
        "pre{padding:8px;white-space:pre-wrap;overflow-wrap:anywhere}"
        ".cols{display:flex;gap:24px}.cols>div{flex:1}.conf{padding:2px 6px;color:#fff;background:#555}"
        "h1{font-size:1.4em}.init{border-left:4px solid #e01e5a;padding-left:8px}"
        // On paper: the whole width, columns one under the other, no tinted backgrounds.
        "@media print{body{max-width:none;margin:0}.cols{display:block}pre,code{background:none}"
        "pre{border:1px solid #bbb}h1,h2{page-break-after:avoid}pre{page-break-inside:avoid}}"
        "</style></head><body>");
    h += QStringLiteral("<h1>%1</h1>").arg(esc(d.headline));
    if (!d.confidence.isEmpty())
        h += QStringLiteral("<p><span class=\"conf\">confidence: %1</span> %2</p>")
                 .arg(esc(d.confidence), esc(d.confidenceReasons.join(QStringLiteral("; "))));
    if (const QString launch = inc.launchSentence(); !launch.isEmpty())
        h += QStringLiteral("<p class=\"launch\">%1</p>").arg(esc(launch));
    if (d.initiatingEvent >= 0) {
        const LogEvent& e = inc.events[static_cast<size_t>(d.initiatingEvent)];
        h += QStringLiteral("<h2>Initiating event</h2><p>%1:%2</p><pre class=\"init\">%3</pre>")
                 .arg(esc(inc.files[static_cast<size_t>(e.file)].displayPath))
                 .arg(e.line)
                 .arg(esc((QStringList { e.text } + e.continuation.mid(0, 12)).join(QLatin1Char('\n'))));
    }
    // A hang has no initiating line, but its signature and fix: they never depend on a line.
    if (d.initiatingEvent >= 0 || !d.fix.isEmpty() || !d.verify.isEmpty()) {
        if (d.signature >= 0)
            h += QStringLiteral("<p>Signature <b>%1</b>: %2</p>")
                     .arg(esc(cat.signatures[static_cast<size_t>(d.signature)].id), esc(d.summary));
        h += QStringLiteral("<div class=\"cols\"><div><h2>Fix</h2><pre>%1</pre></div><div><h2>Verify (shown, "
                            "never run)</h2><pre>%2</pre></div></div>")
                 .arg(esc(d.fix), esc(d.verify.join(QLatin1Char('\n'))));
        const std::vector<RenderedFixAction> actions = reportFixActions(in);
        if (!actions.empty()) {
            h += QStringLiteral("<h2>Actions</h2><ol>");
            for (const RenderedFixAction& a : actions)
                h += a.isCommand ? QStringLiteral("<li><b>%1</b>: %2<pre>%3</pre></li>")
                                       .arg(esc(renderedActionHeading(a)), esc(a.reason), esc(a.text))
                                 : QStringLiteral("<li><b>%1</b>: %2 %3</li>")
                                       .arg(esc(renderedActionHeading(a)), esc(a.text), esc(a.reason));
            h += QStringLiteral("</ol>");
        }
        if (!d.checklist.isEmpty())
            h += QStringLiteral("<h2>Checklist</h2>") + list(d.checklist);
        if (!d.evidenceCommands.isEmpty())
            h += QStringLiteral("<h2>Evidence commands</h2>") + list(d.evidenceCommands, true);
    }
    if (!timelineSvg.isEmpty())
        h += QStringLiteral("<h2>Timeline</h2><img alt=\"timeline\" style=\"max-width:100%\" "
                            "src=\"data:image/svg+xml;base64,%1\">")
                 .arg(QString::fromLatin1(timelineSvg.toBase64()));
    QStringList collateral, suspects, torchrun, hyp;
    for (const CollateralGroup& g : d.collateral)
        collateral << collateralSummary(g);
    suspects = suspectLines(d.suspects);
    torchrun = d.torchrunSummary;
    for (const Hypothesis& x : d.hypotheses)
        hyp << QStringLiteral("%1: %2").arg(cat.signatures[static_cast<size_t>(x.signature)].id, x.reason);
    if (!collateral.isEmpty())
        h += QStringLiteral("<h2>Collateral</h2>") + list(collateral);
    if (!suspects.isEmpty())
        h += QStringLiteral("<h2>Suspects</h2>") + list(suspects);
    if (!torchrun.isEmpty())
        h += QStringLiteral("<h2>torchrun's summary</h2>") + list(torchrun);
    if (!hyp.isEmpty())
        h += QStringLiteral("<h2>Competing hypotheses</h2>") + list(hyp);
    if (!d.notes.isEmpty())
        h += QStringLiteral("<h2>Notes</h2>") + list(d.notes);
    QStringList nodeFindings;
    for (const NodeFinding& f : d.nodeFindings)
        nodeFindings << QStringLiteral("%1%2 (%3)")
                            .arg(f.confirms ? QStringLiteral("confirms: ") : QString(), f.text, f.source);
    if (!nodeFindings.isEmpty())
        h += QStringLiteral("<h2>Node evidence</h2>") + list(nodeFindings);
    if (!topologySvg.isEmpty())
        h += QStringLiteral("<h2>Topology</h2><img alt=\"topology\" style=\"max-width:100%\" "
                            "src=\"data:image/svg+xml;base64,%1\">")
                 .arg(QString::fromLatin1(topologySvg.toBase64()));
    if (!d.evidence.lines.isEmpty())
        h += QStringLiteral("<h2>Evidence: %1 lines %2-%3</h2><pre>%4</pre>")
                 .arg(esc(inc.files[static_cast<size_t>(d.evidence.file)].displayPath))
                 .arg(d.evidence.fromLine)
                 .arg(d.evidence.toLine)
                 .arg(esc(d.evidence.lines.join(QLatin1Char('\n'))));
    QStringList inputs;
    inputs << QStringLiteral("%1 file(s), %2 bytes, %3 rank(s), %4 host(s), attempt %5")
                  .arg(inc.files.size())
                  .arg(inc.totalBytes)
                  .arg(inc.ranks.size())
                  .arg(inc.hosts().size())
                  .arg(inc.label);
    for (const SkippedInput& s : inc.skipped)
        inputs << QStringLiteral("skipped %1: %2").arg(s.path, s.reason);
    for (const QString& w : inc.warnings)
        inputs << QStringLiteral("warning: %1").arg(w);
    h += QStringLiteral("<h2>Inputs</h2>") + list(inputs);
    if (in.divergence)
        h += QStringLiteral("<h2>Divergence from the healthy run</h2><pre>%1</pre>")
                 .arg(esc(divergenceToText(*in.divergence)));
    h += QStringLiteral("</body></html>\n");
    return h;
}

} // namespace rankscope
