// SPDX-License-Identifier: MIT
#include "signature_check.h"

#include "signature_matcher.h"
#include "template_render.h"

#include <QRegularExpression>
#include <QSet>
#include <algorithm>

namespace rankscope {

namespace {
QString where(const Signature& s)
{
    return s.sourceFile + QStringLiteral(": entry ") + QString::number(s.sourceIndex) + QStringLiteral(" (")
        + s.id + QLatin1Char(')');
}
// Every entry says what to do as typed actions, uses only placeholders it can fill, and tells itself
// apart from each sibling by exactly one discriminator (so every pair is covered from both sides).
void checkActions(const Signature& s, QStringList& problems)
{
    if (s.actions.empty())
        problems << where(s)
                + QStringLiteral(": field 'actions': missing: every entry needs at least one action");
    QSet<QString> known = { QStringLiteral("host"), QStringLiteral("rank"), QStringLiteral("local_rank"),
        QStringLiteral("device"), QStringLiteral("nic"), QStringLiteral("log_folder"), QStringLiteral("logs"),
        QStringLiteral("literal"), QStringLiteral("peer"), QStringLiteral("pid") };
    static const QRegularExpression group(QStringLiteral("\\(\\?P<([A-Za-z_][A-Za-z0-9_]*)>"));
    for (const QString& p : s.patterns) {
        for (auto it = group.globalMatch(p); it.hasNext();)
            known.insert(it.next().captured(1));
    }
    for (std::size_t i = 0; i < s.actions.size(); ++i) {
        const FixAction& a = s.actions[i];
        for (const QString& t : { a.name, a.value, a.text, a.reason }) {
            for (const QString& name : templatePlaceholders(t)) {
                if (!known.contains(name))
                    problems << where(s)
                            + QStringLiteral(": field 'actions'[%1]: placeholder {%2} is neither a "
                                             "context field nor a capture of the entry")
                                  .arg(i)
                                  .arg(name);
            }
        }
    }
    for (int i = 0; i < s.siblings.size(); ++i) {
        const auto n = std::count_if(s.discriminators.begin(), s.discriminators.end(),
            [&](const Discriminator& d) { return d.sibling == s.siblings[i]; });
        if (n != 1)
            problems << where(s)
                    + QStringLiteral(
                        ": field 'discriminators': %1 for sibling '%2' (siblings[%3]); needs exactly one")
                          .arg(n == 0 ? QStringLiteral("none") : QString::number(n), s.siblings[i])
                          .arg(i);
    }
    for (std::size_t i = 0; i < s.discriminators.size(); ++i) {
        if (!s.siblings.contains(s.discriminators[i].sibling))
            problems << where(s)
                    + QStringLiteral(": field 'discriminators'[%1].sibling: '%2' is not in 'siblings'")
                          .arg(i)
                          .arg(s.discriminators[i].sibling);
    }
}

} // namespace

QString CatalogCheckReport::summary() const
{
    const QString head = QString::number(signatures) + QStringLiteral(" signatures in ")
        + QString::number(files) + QStringLiteral(" files, ") + QString::number(families)
        + QStringLiteral(" families: ");
    if (ok())
        return head + QStringLiteral("OK");
    return head + QString::number(problems.size())
        + (problems.size() == 1 ? QStringLiteral(" problem") : QStringLiteral(" problems"));
}

CatalogCheckReport checkCatalog(const Catalog& catalog)
{
    CatalogCheckReport report;
    report.signatures = static_cast<int>(catalog.signatures.size());
    report.files = static_cast<int>(catalog.files.size());
    report.families = catalog.familyCount();

    QSet<QString> ids;
    for (const Signature& s : catalog.signatures) {
        if (ids.contains(s.id))
            report.problems << where(s) + QStringLiteral(": field 'id': duplicate id");
        ids.insert(s.id);
    }
    for (const Signature& s : catalog.signatures) {
        for (int i = 0; i < s.siblings.size(); ++i) {
            const QString field =
                QStringLiteral(": field 'siblings'[") + QString::number(i) + QStringLiteral("]: ");
            if (s.siblings[i] == s.id)
                report.problems << where(s) + field + QStringLiteral("an entry cannot be its own sibling");
            else if (!ids.contains(s.siblings[i]))
                report.problems << where(s) + field + QStringLiteral("unknown id '") + s.siblings[i]
                        + QLatin1Char('\'');
        }
        checkActions(s, report.problems);
        if (!s.refines.isEmpty() && (s.refines == s.id || !ids.contains(s.refines)))
            report.problems << where(s) + QStringLiteral(": field 'refines': unknown id '") + s.refines
                    + QLatin1Char('\'');
        for (const QString& id : s.when.signatures) {
            if (!ids.contains(id))
                report.problems << where(s) + QStringLiteral(": field 'when.signatures': unknown id '") + id
                        + QLatin1Char('\'');
        }
    }

    const SignatureMatcher matcher(catalog);
    if (!matcher.isValid() || !matcher.errorString().isEmpty()) {
        report.problems << QStringLiteral("matcher: ") + matcher.errorString();
        if (!matcher.isValid())
            return report;
    }
    for (const QString& p : matcher.unfilteredPatterns())
        report.problems << QStringLiteral("prefilter: ") + p
                + QStringLiteral(" has no literal of 6+ characters, so every line would reach the RE2 set");
    for (std::size_t i = 0; i < catalog.signatures.size(); ++i) {
        const Signature& s = catalog.signatures[i];
        const int index = static_cast<int>(i);
        for (int e = 0; e < s.examplesMatch.size(); ++e) {
            const std::string line = s.examplesMatch[e].toStdString();
            const QString field =
                QStringLiteral(": field 'examples.match'[") + QString::number(e) + QStringLiteral("]: ");
            ++report.examplesRun;
            if (!matcher.mayMatch(line))
                report.problems << where(s) + field
                        + QStringLiteral("rejected by the prefilter (matcher bug)");
            const std::vector<int> all = matcher.matchAll(line);
            if (std::find(all.begin(), all.end(), index) == all.end())
                report.problems << where(s) + field
                        + QStringLiteral("not matched by any of the entry's patterns");
        }
        // The verification greps the logs for the literal, filled from the line's captures: it must be
        // text a real line carries, not a paraphrase or one example's values (a peer's port, a pid).
        int matched = 0;
        bool literalSeen = false;
        for (const QString& example : s.examplesMatch) {
            const MatchResult m = matcher.matchSignature(index, example.toStdString());
            if (!m)
                continue;
            ++matched;
            RenderContext ctx;
            ctx.captures = m.captures;
            literalSeen = literalSeen || example.contains(renderTemplate(s.literal, ctx));
        }
        if (matched > 0 && !literalSeen)
            report.problems << where(s)
                    + QStringLiteral(": field 'literal': \"%1\" is in none of the entry's matched examples "
                                     "(placeholders filled from each example's captures), so rg -F would "
                                     "not find the failure")
                          .arg(s.literal);
        for (int e = 0; e < s.examplesNoMatch.size(); ++e) {
            ++report.examplesRun;
            if (matcher.matchSignature(index, s.examplesNoMatch[e].toStdString()))
                report.problems << where(s) + QStringLiteral(": field 'examples.no_match'[")
                        + QString::number(e) + QStringLiteral("]: matched by the entry");
        }
    }
    return report;
}

CatalogCheckReport checkCatalogDir(const QString& dir)
{
    const CatalogLoadResult loaded = dir.isEmpty() ? loadDefaultCatalog() : loadCatalogDir(dir);
    CatalogCheckReport report = checkCatalog(loaded.catalog);
    report.problems = loaded.errors + report.problems;
    return report;
}

} // namespace rankscope
