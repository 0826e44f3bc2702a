// SPDX-License-Identifier: MIT
// Terminal text and Markdown share one walk over the diagnosis; only the decoration differs.
#include "report.h"

namespace rankscope {

namespace {

struct Style
{
    bool markdown = false;
    QString heading(const QString& t) const
    {
        return markdown ? QStringLiteral("\n## %1\n\n").arg(t) : QStringLiteral("\n%1\n").arg(t.toUpper());
    }
    QString item(const QString& t) const
    {
        return markdown ? QStringLiteral("- %1\n").arg(t) : QStringLiteral("  %1\n").arg(t);
    }
    QString numbered(int n, const QString& t) const
    {
        return markdown ? QStringLiteral("%1. %2\n").arg(n).arg(t)
                        : QStringLiteral("  %1. %2\n").arg(n).arg(t);
    }
    QString code(const QStringList& lines, const QString& lang = QString()) const
    {
        if (markdown)
            return QStringLiteral("```%1\n%2\n```\n").arg(lang, lines.join(QLatin1Char('\n')));
        QString out;
        for (const QString& l : lines)
            out += QStringLiteral("    %1\n").arg(l);
        return out;
    }
};

QString eventWhere(const Incident& inc, const LogEvent& e)
{
    QStringList who;
    if (e.rank >= 0)
        who << QStringLiteral("rank %1").arg(e.rank);
    if (!e.host.isEmpty())
        who << e.host;
    if (e.localRank >= 0)
        who << QStringLiteral("local rank %1").arg(e.localRank);
    if (e.pid >= 0)
        who << QStringLiteral("pid %1").arg(e.pid);
    if (e.device >= 0)
        who << QStringLiteral("GPU%1").arg(e.device);
    const QString where =
        QStringLiteral("%1:%2").arg(inc.files[static_cast<size_t>(e.file)].displayPath).arg(e.line);
    return who.isEmpty() ? where : QStringLiteral("%1 — %2").arg(who.join(QStringLiteral(", ")), where);
}

// Each action after the fix prose: its kind and idiom, why, and the command or snippet to copy.
QString actionsSection(const ReportInput& in, const Style& s)
{
    const std::vector<RenderedFixAction> actions = reportFixActions(in);
    if (actions.empty())
        return {};
    QString out = s.heading(QStringLiteral("Actions"));
    int n = 0;
    for (const RenderedFixAction& a : actions) {
        const QString head =
            s.markdown ? QStringLiteral("**%1**").arg(renderedActionHeading(a)) : renderedActionHeading(a);
        if (a.isCommand) {
            out += s.numbered(++n, QStringLiteral("%1: %2").arg(head, a.reason));
            out += s.code(a.text.split(QLatin1Char('\n')), QStringLiteral("sh"));
        } else {
            out += s.numbered(++n, QStringLiteral("%1: %2 %3").arg(head, a.text, a.reason));
        }
    }
    return out;
}

QString render(const ReportInput& in, const Style& s)
{
    const Incident& inc = *in.incident;
    const Diagnosis& d = *in.diagnosis;
    const Catalog& cat = *in.catalog;
    QString out;
    out += s.markdown ? QStringLiteral("# %1\n\n").arg(d.headline) : d.headline + QLatin1Char('\n');
    if (!d.confidence.isEmpty())
        out += s.item(QStringLiteral("confidence: %1 (%2)")
                          .arg(d.confidence, d.confidenceReasons.join(QStringLiteral("; "))));
    if (const QString launch = inc.launchSentence(); !launch.isEmpty())
        out += s.item(launch);
    if (d.initiatingEvent >= 0) {
        const LogEvent& e = inc.events[static_cast<size_t>(d.initiatingEvent)];
        out += s.heading(QStringLiteral("Initiating event"));
        out += s.item(eventWhere(inc, e));
        out += s.item(QStringLiteral("time: %1%2")
                          .arg(e.time.valid ? formatTime(e.time) : QStringLiteral("unknown"),
                              e.time.inferred ? QStringLiteral(" (inferred from nearby lines)") : QString()));
        if (d.signature >= 0) {
            const Signature& sig = cat.signatures[static_cast<size_t>(d.signature)];
            out += s.item(QStringLiteral("signature: %1 (%2, %3)")
                              .arg(sig.id, sig.family, signatureRoleName(sig.role)));
            out += s.item(d.summary);
        }
        out += s.code(QStringList { e.text } + e.continuation.mid(0, 12));
        out += s.heading(QStringLiteral("Fix"));
        out += s.markdown ? d.fix + QLatin1Char('\n') : s.code(d.fix.split(QLatin1Char('\n')));
        out += actionsSection(in, s);
        out += s.heading(QStringLiteral("Verify (shown, never run)"));
        out += s.code(d.verify, QStringLiteral("sh"));
        if (!d.evidenceCommands.isEmpty()) {
            out += s.heading(QStringLiteral("Evidence commands"));
            out += s.code(d.evidenceCommands, QStringLiteral("sh"));
        }
        if (!d.checklist.isEmpty()) {
            out += s.heading(QStringLiteral("Checklist"));
            for (int i = 0; i < d.checklist.size(); ++i)
                out += s.numbered(i + 1, d.checklist[i]);
        }
    }
    if (d.initiatingEvent < 0 && d.signature >= 0) { // a hang without an error line (diagnosis/stall.cpp)
        const Signature& sig = cat.signatures[static_cast<size_t>(d.signature)];
        out += s.heading(QStringLiteral("Stall"));
        out += s.item(QStringLiteral("signature: %1 (%2)").arg(sig.id, sig.family));
        out += s.item(d.summary);
        out += s.heading(QStringLiteral("Fix"));
        out += s.markdown ? d.fix + QLatin1Char('\n') : s.code(d.fix.split(QLatin1Char('\n')));
        out += actionsSection(in, s);
        out += s.heading(QStringLiteral("Verify (shown, never run)"));
        out += s.code(d.verify, QStringLiteral("sh"));
        if (!d.checklist.isEmpty()) {
            out += s.heading(QStringLiteral("Checklist"));
            for (int i = 0; i < d.checklist.size(); ++i)
                out += s.numbered(i + 1, d.checklist[i]);
        }
    }
    if (!d.collateral.empty()) {
        out += s.heading(collateralHeading(d.collateral));
        for (const CollateralGroup& g : d.collateral) {
            QString line = collateralSummary(g);
            if (g.firstEvent >= 0)
                line += QStringLiteral(" (first: %1)")
                            .arg(eventWhere(inc, inc.events[static_cast<size_t>(g.firstEvent)]));
            out += s.item(line);
        }
    }
    if (!d.suspects.empty()) {
        out += s.heading(QStringLiteral("Suspects (hung, silent or straggling ranks)"));
        for (const QString& line : suspectLines(d.suspects))
            out += s.item(line);
    }
    if (!d.torchrunSummary.isEmpty()) {
        out += s.heading(QStringLiteral("torchrun's summary"));
        for (const QString& line : d.torchrunSummary)
            out += s.item(line);
    }
    if (!d.hypotheses.empty()) {
        out += s.heading(QStringLiteral("Competing hypotheses"));
        for (const Hypothesis& h : d.hypotheses)
            out += s.item(
                QStringLiteral("%1: %2").arg(cat.signatures[static_cast<size_t>(h.signature)].id, h.reason));
    }
    if (!d.notes.isEmpty()) {
        out += s.heading(QStringLiteral("Notes"));
        for (const QString& n : d.notes)
            out += s.item(n);
    }
    if (!d.nodeFindings.empty()) {
        out += s.heading(QStringLiteral("Node evidence"));
        for (const NodeFinding& f : d.nodeFindings)
            out += s.item(QStringLiteral("%1%2 (%3)")
                              .arg(f.confirms ? QStringLiteral("confirms: ") : QString(), f.text, f.source));
    }
    if (!in.topologyText.isEmpty()) {
        out += s.heading(QStringLiteral("Topology"));
        out += s.code(in.topologyText.split(QLatin1Char('\n')));
    }
    out += s.heading(QStringLiteral("Inputs"));
    out += s.item(QStringLiteral("%1 file(s), %2 bytes, %3 rank(s) on %4 host(s); attempt %5")
                      .arg(inc.files.size())
                      .arg(inc.totalBytes)
                      .arg(inc.ranks.size())
                      .arg(inc.hosts().size())
                      .arg(inc.label));
    for (const SkippedInput& x : inc.skipped)
        out += s.item(QStringLiteral("skipped %1: %2").arg(x.path, x.reason));
    for (const QString& w : inc.warnings)
        out += s.item(QStringLiteral("warning: %1").arg(w));
    if (in.divergence) {
        out += s.heading(QStringLiteral("Divergence from the healthy run"));
        const QString text = divergenceToText(*in.divergence);
        // The text is already indented for a terminal; Markdown shows it as it is, in a code block.
        out += s.markdown
            ? s.code(text.chopped(text.endsWith(QLatin1Char('\n')) ? 1 : 0).split(QLatin1Char('\n')))
            : text;
    }
    return out;
}

} // namespace

QString reportText(const ReportInput& in)
{
    return render(in, Style { false });
}
QString reportMarkdown(const ReportInput& in)
{
    return render(in, Style { true });
}

} // namespace rankscope
