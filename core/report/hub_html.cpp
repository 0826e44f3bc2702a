// SPDX-License-Identifier: MIT
// hubCatalogHtml(): the whole catalog as one static page. Every text is escaped; the only links are the
// catalog's references and anchors within the page; there is no script at all.
#include "hub_html.h"

#include "signature_matcher.h"

#include <algorithm>

namespace rankscope {

namespace {

QString esc(const QString& s)
{
    return s.toHtmlEscaped();
}

// An id as an anchor name: ids are [a-z0-9-] already; anything else is dropped, so the name stays valid.
QString anchor(const QString& id)
{
    QString out;
    for (const QChar c : id) {
        if (c.isLetterOrNumber() || c == QLatin1Char('-') || c == QLatin1Char('_') || c == QLatin1Char('.'))
            out += c;
    }
    return out;
}

const char* const kStyle =
    "<style>"
    "body{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;"
    "color:#1f2933;line-height:1.4}"
    "h1{font-size:1.6em}h2{border-bottom:2px solid #cbd2d9;margin-top:2em}"
    "section.entry{border-top:1px solid #e4e7eb;padding:.5em 0 1em}"
    ".meta{color:#52606d;font-size:.9em}.id{font-family:monospace}"
    "pre{background:#f5f7fa;border:1px solid #e4e7eb;padding:.4em .6em;"
    "white-space:pre-wrap;word-break:break-all}"
    "table{border-collapse:collapse;width:100%}"
    "th,td{border:1px solid #cbd2d9;padding:.3em .5em;text-align:left;vertical-align:top}"
    "nav ul{columns:2}nav li{break-inside:avoid}"
    ".role-cause{color:#b3261e}.role-symptom{color:#8a5a00}.role-context{color:#52606d}"
    "@media print{body{max-width:none;margin:0;font-size:10pt}nav{columns:1}"
    "section.entry{break-inside:avoid-page}a{color:inherit;text-decoration:none}"
    "pre{border:none;background:none}h2{break-before:page}}"
    "</style>";

void list(QString& out, const QString& title, const QStringList& items, bool code)
{
    if (items.isEmpty())
        return;
    out += QStringLiteral("<h4>%1</h4>").arg(esc(title));
    if (code) {
        for (const QString& i : items)
            out += QStringLiteral("<pre>%1</pre>").arg(esc(i));
        return;
    }
    out += QStringLiteral("<ul>");
    for (const QString& i : items)
        out += QStringLiteral("<li>%1</li>").arg(esc(i));
    out += QStringLiteral("</ul>");
}

void paragraph(QString& out, const QString& text)
{
    if (!text.isEmpty())
        out += QStringLiteral("<p>%1</p>").arg(esc(text));
}

QString entryHtml(
    const Catalog& catalog, int s, const SignatureMatcher& matcher, const HubCatalogOrigin& origin)
{
    const Signature& sig = catalog.signatures[static_cast<std::size_t>(s)];
    const HubEntry e = hubEntry(catalog, s, matcher);
    const QString role = signatureRoleName(sig.role);
    QString out =
        QStringLiteral("<section class=\"entry\" id=\"%1\"><h3>%2</h3>").arg(anchor(sig.id), esc(sig.title));
    out +=
        QStringLiteral("<p class=\"meta\"><span class=\"id\">%1</span> · <span class=\"role-%2\">%2</span>")
            .arg(esc(sig.id), esc(role));
    if (!sig.category.isEmpty())
        out += QStringLiteral(" · %1").arg(esc(sig.category));
    if (!sig.stacks.isEmpty())
        out += QStringLiteral(" · stacks: %1").arg(esc(sig.stacks.join(QStringLiteral(", "))));
    out += QStringLiteral("</p>");
    if (const QString from = origin.entryText(sig.id); !from.isEmpty())
        out += QStringLiteral("<p class=\"meta origin\">%1</p>").arg(esc(from));
    if (!e.literal.isEmpty())
        out += QStringLiteral("<pre>%1</pre>").arg(esc(e.literal));
    paragraph(out, e.summary);
    paragraph(out, e.explanation);
    list(out, QStringLiteral("Example lines"), sig.examplesMatch, true);
    if (!e.fix.isEmpty()) {
        out += QStringLiteral("<h4>Fix</h4>");
        paragraph(out, e.fix);
    }
    QStringList actions;
    for (const FixAction& a : e.actions)
        actions << describeFixAction(a);
    list(out, QStringLiteral("Actions"), actions, false);
    list(out, QStringLiteral("Checklist"), e.checklist, false);
    list(out, QStringLiteral("Verify (copy and run yourself)"), e.verify, true);
    list(out, QStringLiteral("Evidence commands"), e.evidenceCommands, true);
    list(out, QStringLiteral("Set first"), e.variables, false);
    if (!e.verify.isEmpty() && !e.filledFrom.isEmpty())
        out += QStringLiteral("<p class=\"meta\">Values filled in as for the example line above that carries "
                              "them.</p>");
    if (!e.siblings.empty()) {
        // The experiment columns only once the entry has a discriminator: a bare sibling is its title.
        const bool experiments = std::any_of(e.siblings.begin(), e.siblings.end(),
            [](const HubSibling& h) { return !h.experiment.isEmpty(); });
        out += QStringLiteral("<h4>Tell it apart</h4><table><tr><th>Sibling</th>");
        if (experiments)
            out += QStringLiteral("<th>Experiment</th><th>Outcome that decides</th>");
        out += QStringLiteral("</tr>");
        for (const HubSibling& sib : e.siblings) {
            const QString name = sib.title.isEmpty()
                ? esc(sib.id)
                : QStringLiteral("<a href=\"#%1\">%2</a>").arg(anchor(sib.id), esc(sib.title));
            out += QStringLiteral("<tr><td>%1</td>").arg(name);
            if (experiments)
                out += QStringLiteral("<td>%1</td><td>%2</td>").arg(esc(sib.experiment), esc(sib.outcome));
            out += QStringLiteral("</tr>");
        }
        out += QStringLiteral("</table>");
    }
    if (!sig.references.isEmpty()) {
        out += QStringLiteral("<h4>References</h4><ul>");
        for (const QString& r : sig.references) {
            if (r.startsWith(QLatin1String("https://")) || r.startsWith(QLatin1String("http://")))
                out += QStringLiteral("<li><a href=\"%1\">%2</a></li>").arg(esc(r), esc(r));
            else
                out += QStringLiteral("<li>%1</li>").arg(esc(r));
        }
        out += QStringLiteral("</ul>");
    }
    out += QStringLiteral("</section>\n");
    return out;
}

} // namespace

QString hubCatalogHtml(
    const Catalog& catalog, const SignatureMatcher& matcher, const HubCatalogOrigin& origin)
{
    // Families in catalog order, each with its entries in catalog order.
    QStringList families;
    for (const Signature& sig : catalog.signatures) {
        if (!families.contains(sig.family))
            families << sig.family;
    }
    QString out = QStringLiteral("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                                 "<title>Rankscope signature hub</title>");
    out += QLatin1String(kStyle);
    out += QStringLiteral("</head><body><h1>Rankscope signature hub</h1>");
    out +=
        QStringLiteral("<p>%1 signatures in %2 families. NCCL is where a distributed job reports failure, "
                       "which is not the same as where it failed: each entry says what its message "
                       "indicates, how to fix it, and how to tell it apart from its siblings. Commands are "
                       "for you to copy and run.</p>")
            .arg(catalog.signatures.size())
            .arg(families.size());
    if (const QString from = origin.summary(); !from.isEmpty())
        out += QStringLiteral("<p class=\"meta\">Catalog: %1.</p>").arg(esc(from));
    out += QStringLiteral("<nav><h2>Contents</h2><ul>");
    for (const QString& f : families) {
        out += QStringLiteral("<li><a href=\"#family-%1\">%2</a><ul>").arg(anchor(f), esc(f));
        for (const Signature& sig : catalog.signatures) {
            if (sig.family == f)
                out += QStringLiteral("<li><a href=\"#%1\">%2</a></li>").arg(anchor(sig.id), esc(sig.title));
        }
        out += QStringLiteral("</ul></li>");
    }
    out += QStringLiteral("</ul></nav>\n");
    for (const QString& f : families) {
        out += QStringLiteral("<h2 id=\"family-%1\">%2</h2>\n").arg(anchor(f), esc(f));
        for (std::size_t s = 0; s < catalog.signatures.size(); ++s) {
            if (catalog.signatures[s].family == f)
                out += entryHtml(catalog, static_cast<int>(s), matcher, origin);
        }
    }
    out += QStringLiteral("</body></html>\n");
    return out;
}

} // namespace rankscope
