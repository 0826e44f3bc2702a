// SPDX-License-Identifier: MIT
// hubEntry() and hubEntryText(): an entry's templates filled as for its own example line.
#include "hub_html.h"
#include "signature_matcher.h"

#include <QRegularExpression>
#include <algorithm>

namespace rankscope {

namespace {

// What to set a placeholder's shell variable to, for the names every entry may use (README.md).
QString variableMeaning(const QString& name)
{
    static const QHash<QString, QString> known {
        { QStringLiteral("host"), QStringLiteral("the host of the failing rank") },
        { QStringLiteral("rank"), QStringLiteral("the failing global rank") },
        { QStringLiteral("local_rank"), QStringLiteral("the failing rank's local rank") },
        { QStringLiteral("device"), QStringLiteral("the failing rank's GPU index") },
        { QStringLiteral("nic"), QStringLiteral("the network interface or HCA the failing line names") },
        { QStringLiteral("peer"), QStringLiteral("the peer address the failing line names") },
        { QStringLiteral("log_folder"), QStringLiteral("the folder of the job's logs") },
        { QStringLiteral("logs"), QStringLiteral("the job's log file or folder") },
        { QStringLiteral("literal"), QStringLiteral("the failing line's message") },
        { QStringLiteral("pid"), QStringLiteral("the failing process id") },
        { QStringLiteral("bus_id"), QStringLiteral("the PCI address of the failing rank's GPU") },
        { QStringLiteral("file"), QStringLiteral("the log file of the failing line") },
        { QStringLiteral("line"), QStringLiteral("the line number of the failing line") },
        { QStringLiteral("message"), QStringLiteral("the failing line's message") },
    };
    const auto it = known.constFind(name);
    return it != known.constEnd() ? *it : QStringLiteral("the %1 the failing line shows").arg(name);
}

// A command template with every placeholder no value is known for turned into a shell variable
// ({log_folder} -> "$LOG_FOLDER"), then rendered with safe quoting. Records the variables it used.
QString fillCommand(const QString& tmpl, const RenderContext& context, QStringList* variables)
{
    QString text = tmpl;
    for (const QString& name : templatePlaceholders(tmpl)) {
        QString value;
        if (lookupPlaceholder(context, name, &value))
            continue;
        const QString variable = QStringLiteral("$") + name.toUpper();
        const QString quoted = QLatin1Char('"') + variable + QLatin1Char('"');
        const QString n = QRegularExpression::escape(name);
        // In its own quotes ('{x}' or "{x}"): double quotes, so that the shell expands it.
        text.replace(QRegularExpression(QStringLiteral("'\\{%1\\}'|\"\\{%1\\}\"").arg(n)), quoted);
        text.replace(QRegularExpression(QStringLiteral("(?<!\\{)\\{%1\\}(?!\\})").arg(n)), quoted);
        const QString line = variable + QStringLiteral(": ") + variableMeaning(name);
        if (variables && !variables->contains(line))
            *variables << line;
    }
    return renderCommand(text, context);
}

QStringList fillCommands(const QStringList& templates, const RenderContext& context, QStringList* variables)
{
    QStringList out;
    for (const QString& t : templates)
        out << fillCommand(t, context, variables);
    return out;
}

QStringList fillProse(const QStringList& templates, const RenderContext& context)
{
    QStringList out;
    for (const QString& t : templates) {
        const QString text = renderProse(t, context);
        if (!text.isEmpty())
            out << text;
    }
    return out;
}

void addSection(QString& out, const QString& title, const QStringList& lines, const QString& bullet)
{
    if (lines.isEmpty())
        return;
    out += QStringLiteral("\n%1:\n").arg(title);
    for (const QString& l : lines)
        out += bullet + l + QLatin1Char('\n');
}

} // namespace

QString describeFixAction(const FixAction& a)
{
    QString what;
    switch (a.kind) {
    case FixActionKind::Env:
        what = a.name + QLatin1Char('=') + a.value;
        break;
    case FixActionKind::Timeout:
        what = QStringLiteral("process-group timeout %1 s").arg(a.value);
        break;
    case FixActionKind::Container:
        what = a.value.isEmpty() ? a.name : a.name + QLatin1Char('=') + a.value;
        break;
    case FixActionKind::Upgrade:
        what = a.value.isEmpty() ? a.name : QStringLiteral("%1 to %2").arg(a.name, a.value);
        break;
    case FixActionKind::Kernel:
    case FixActionKind::Node:
    case FixActionKind::Code:
        what = a.text;
        break;
    }
    if (what.isEmpty())
        what = a.text;
    QString line = fixActionKindName(a.kind) + QStringLiteral(": ") + what;
    if (!a.reason.isEmpty())
        line += QStringLiteral(" — ") + a.reason;
    return line;
}

HubEntry hubEntry(const Catalog& catalog, int signature, const SignatureMatcher& matcher)
{
    HubEntry e;
    e.signature = signature;
    if (signature < 0 || static_cast<std::size_t>(signature) >= catalog.signatures.size())
        return e;
    const Signature& sig = catalog.signatures[static_cast<std::size_t>(signature)];
    RenderContext context;
    for (const QString& example : sig.examplesMatch) {
        MatchResult m = matcher.matchSignature(signature, example.toStdString());
        if (m && !m.captures.empty()) {
            context.captures = std::move(m.captures);
            e.filledFrom = example;
            break;
        }
    }
    // The note "as for the example line" only when a template uses one of that line's captures.
    QStringList used;
    for (const QString& t : QStringList { sig.literal, sig.summary, sig.explanation, sig.fix } + sig.checklist
            + sig.verify + sig.evidenceCommands)
        used += templatePlaceholders(t);
    for (const FixAction& a : sig.actions)
        used += templatePlaceholders(a.name + a.value + a.text + a.reason);
    if (std::none_of(context.captures.begin(), context.captures.end(),
            [&used](const Capture& c) { return used.contains(c.first); }))
        e.filledFrom.clear();
    if (canRender(sig.literal, context))
        context.literal = renderTemplate(sig.literal, context);
    e.literal = context.literal;

    e.summary = renderProse(sig.summary, context);
    e.explanation = renderProse(sig.explanation, context);
    e.fix = renderProse(sig.fix, context);
    e.checklist = fillProse(sig.checklist, context);
    e.verify = fillCommands(sig.verify, context, &e.variables);
    e.evidenceCommands = fillCommands(sig.evidenceCommands, context, &e.variables);
    for (const FixAction& a : sig.actions) {
        FixAction filled = a;
        filled.name = fillCommand(a.name, context, &e.variables);
        filled.value = fillCommand(a.value, context, &e.variables);
        filled.text = fillCommand(a.text, context, &e.variables);
        filled.reason = renderProse(a.reason, context);
        e.actions.push_back(std::move(filled));
    }
    for (const QString& id : sig.siblings) {
        HubSibling sib;
        sib.id = id;
        const int s = catalog.indexOf(id);
        if (s >= 0)
            sib.title = catalog.signatures[static_cast<std::size_t>(s)].title;
        for (const Discriminator& d : sig.discriminators) {
            if (d.sibling == id) {
                sib.experiment = d.experiment;
                sib.outcome = d.outcome;
            }
        }
        e.siblings.push_back(std::move(sib));
    }
    return e;
}

QString hubEntryText(
    const Catalog& catalog, int signature, const SignatureMatcher& matcher, const HubCatalogOrigin& origin)
{
    const HubEntry e = hubEntry(catalog, signature, matcher);
    if (e.signature < 0 || static_cast<std::size_t>(e.signature) >= catalog.signatures.size())
        return {};
    const Signature& sig = catalog.signatures[static_cast<std::size_t>(signature)];
    QString out = QStringLiteral("%1\n%2\n").arg(sig.id, sig.title);
    out += QStringLiteral("family: %1   role: %2   category: %3\n")
               .arg(sig.family, signatureRoleName(sig.role), sig.category);
    if (!sig.stacks.isEmpty())
        out += QStringLiteral("stacks: %1\n").arg(sig.stacks.join(QStringLiteral(", ")));
    if (const QString from = origin.entryText(sig.id); !from.isEmpty())
        out += from + QLatin1Char('\n');
    if (!e.literal.isEmpty())
        out += QStringLiteral("message: %1\n").arg(e.literal);
    QStringList indicates;
    for (const QString& p : { e.summary, e.explanation }) {
        if (!p.isEmpty())
            indicates << p;
    }
    addSection(out, QStringLiteral("What it indicates"), indicates, QString());
    addSection(out, QStringLiteral("Example lines"), sig.examplesMatch, QStringLiteral("  "));
    addSection(
        out, QStringLiteral("Fix"), e.fix.isEmpty() ? QStringList() : QStringList { e.fix }, QString());
    QStringList actions;
    for (const FixAction& a : e.actions)
        actions << describeFixAction(a);
    addSection(out, QStringLiteral("Actions"), actions, QStringLiteral("  - "));
    addSection(out, QStringLiteral("Checklist"), e.checklist, QStringLiteral("  - "));
    addSection(out, QStringLiteral("Verify (copy and run yourself)"), e.verify, QStringLiteral("  $ "));
    addSection(out, QStringLiteral("Evidence commands"), e.evidenceCommands, QStringLiteral("  $ "));
    addSection(out, QStringLiteral("Set first"), e.variables, QStringLiteral("  "));
    if (!e.filledFrom.isEmpty())
        out += QStringLiteral("(values filled in as for the example line %1)\n").arg(e.filledFrom);
    QStringList apart;
    for (const HubSibling& s : e.siblings) {
        QString line = s.title.isEmpty() ? s.id : QStringLiteral("%1 (%2)").arg(s.id, s.title);
        if (!s.experiment.isEmpty())
            line += QStringLiteral(": %1 → %2").arg(s.experiment, s.outcome);
        apart << line;
    }
    addSection(out, QStringLiteral("Tell it apart"), apart, QStringLiteral("  - "));
    addSection(out, QStringLiteral("References"), sig.references, QStringLiteral("  "));
    return out;
}

} // namespace rankscope
