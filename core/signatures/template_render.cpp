// SPDX-License-Identifier: MIT
// A small single-pass scanner; no regex, so literal text is never reinterpreted.
#include "template_render.h"

#include <QRegularExpression>

namespace rankscope {

namespace {

bool isNameStart(QChar c)
{
    return (c >= QLatin1Char('a') && c <= QLatin1Char('z'))
        || (c >= QLatin1Char('A') && c <= QLatin1Char('Z')) || c == QLatin1Char('_');
}
bool isNameChar(QChar c)
{
    return isNameStart(c) || (c >= QLatin1Char('0') && c <= QLatin1Char('9'));
}

bool isShellSafe(QChar c)
{
    static const QString extra = QStringLiteral("_./:,@%+=-");
    return (c >= QLatin1Char('a') && c <= QLatin1Char('z'))
        || (c >= QLatin1Char('A') && c <= QLatin1Char('Z'))
        || (c >= QLatin1Char('0') && c <= QLatin1Char('9')) || extra.contains(c);
}

// Length of a "{name}" placeholder starting at pos, or 0 when there is none.
qsizetype placeholderLength(const QString& s, qsizetype pos)
{
    if (s[pos] != QLatin1Char('{') || pos + 1 >= s.size() || !isNameStart(s[pos + 1]))
        return 0;
    qsizetype end = pos + 2;
    while (end < s.size() && isNameChar(s[end]))
        ++end;
    if (end >= s.size() || s[end] != QLatin1Char('}'))
        return 0;
    return end - pos + 1;
}

QString render(const QString& tmpl, const RenderContext& context, bool quote)
{
    QString out;
    out.reserve(tmpl.size());
    for (qsizetype i = 0; i < tmpl.size(); ++i) {
        const QChar c = tmpl[i];
        if ((c == QLatin1Char('{') || c == QLatin1Char('}')) && i + 1 < tmpl.size() && tmpl[i + 1] == c) {
            out += c; // escaped brace
            ++i;
            continue;
        }
        if (c == QLatin1Char('$') && i + 1 < tmpl.size() && tmpl[i + 1] == QLatin1Char('{')) {
            out += c; // ${VAR} is shell syntax, not ours; copy the '$' and let the brace pass through below
            const qsizetype close = tmpl.indexOf(QLatin1Char('}'), i + 1);
            if (close > 0) {
                out += tmpl.mid(i + 1, close - i);
                i = close;
            }
            continue;
        }
        // A quoted placeholder: "{name}" or '{name}' (quotes consumed only when rendering commands).
        if (quote && (c == QLatin1Char('"') || c == QLatin1Char('\'')) && i + 1 < tmpl.size()) {
            const qsizetype len = placeholderLength(tmpl, i + 1);
            if (len > 0 && i + 1 + len < tmpl.size() && tmpl[i + 1 + len] == c) {
                const QString name = tmpl.mid(i + 2, len - 2);
                QString value;
                if (lookupPlaceholder(context, name, &value))
                    out += shellQuote(value);
                else
                    out += QLatin1Char('<') + name + QLatin1Char('>');
                i += len + 1;
                continue;
            }
        }
        const qsizetype len = c == QLatin1Char('{') ? placeholderLength(tmpl, i) : 0;
        if (len == 0) {
            out += c;
            continue;
        }
        const QString name = tmpl.mid(i + 1, len - 2);
        QString value;
        if (lookupPlaceholder(context, name, &value))
            out += quote ? shellQuote(value) : value;
        else
            out += QLatin1Char('<') + name + QLatin1Char('>');
        i += len - 1;
    }
    return out;
}

} // namespace

bool lookupPlaceholder(const RenderContext& context, const QString& name, QString* value)
{
    const QString* field = nullptr;
    if (name == QLatin1String("host"))
        field = &context.host;
    else if (name == QLatin1String("rank"))
        field = &context.rank;
    else if (name == QLatin1String("local_rank"))
        field = &context.localRank;
    else if (name == QLatin1String("device"))
        field = &context.device;
    else if (name == QLatin1String("nic"))
        field = &context.nic;
    else if (name == QLatin1String("log_folder"))
        field = &context.logFolder;
    else if (name == QLatin1String("logs"))
        field = context.logs.isEmpty() ? &context.logFolder : &context.logs;
    else if (name == QLatin1String("literal"))
        field = &context.literal;
    else if (name == QLatin1String("peer"))
        field = &context.peer;
    if (field && !field->isEmpty()) {
        *value = *field;
        return true;
    }
    for (const Capture& c : context.captures) {
        if (c.first == name && !c.second.isEmpty()) {
            *value = c.second;
            return true;
        }
    }
    const auto it = context.extra.constFind(name);
    if (it != context.extra.constEnd() && !it.value().isEmpty()) {
        *value = it.value();
        return true;
    }
    return false;
}

QString shellQuote(const QString& value)
{
    if (value.isEmpty())
        return QStringLiteral("''");
    bool safe = true;
    for (const QChar c : value)
        safe = safe && isShellSafe(c);
    if (safe)
        return value;
    // A value with single quotes in it (a CUDA error string, 'system not yet initialized') reads best in
    // double quotes, where nothing in it is special: no $, `, backslash, " or ! (history expansion).
    if (value.contains(QLatin1Char('\''))) {
        bool plainInDouble = true;
        for (const QChar c : value)
            plainInDouble = plainInDouble && !QStringView(u"$`\\\"!").contains(c);
        if (plainInDouble)
            return QLatin1Char('"') + value + QLatin1Char('"');
    }
    QString quoted = value;
    quoted.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

QStringList templatePlaceholders(const QString& tmpl)
{
    QStringList names;
    for (qsizetype i = 0; i < tmpl.size(); ++i) {
        const QChar c = tmpl[i];
        if ((c == QLatin1Char('{') || c == QLatin1Char('}')) && i + 1 < tmpl.size() && tmpl[i + 1] == c) {
            ++i;
            continue;
        }
        if (c == QLatin1Char('$') && i + 1 < tmpl.size() && tmpl[i + 1] == QLatin1Char('{')) {
            const qsizetype close = tmpl.indexOf(QLatin1Char('}'), i + 1);
            i = close > 0 ? close : i;
            continue;
        }
        const qsizetype len = c == QLatin1Char('{') ? placeholderLength(tmpl, i) : 0;
        if (len == 0)
            continue;
        const QString name = tmpl.mid(i + 1, len - 2);
        if (!names.contains(name))
            names << name;
        i += len - 1;
    }
    return names;
}

QString renderTemplate(const QString& tmpl, const RenderContext& context)
{
    return render(tmpl, context, false);
}

QString renderCommand(const QString& tmpl, const RenderContext& context)
{
    return render(tmpl, context, true);
}

bool canRender(const QString& tmpl, const RenderContext& context)
{
    QString value;
    for (const QString& name : templatePlaceholders(tmpl)) {
        if (!lookupPlaceholder(context, name, &value))
            return false;
    }
    return true;
}

namespace {

// Drops the parenthesised asides that need a missing value: "Check the HCA ({nic}) first" -> "Check the
// HCA first" when {nic} is unknown.
QString withoutUnfillableAsides(QString sentence, const RenderContext& context)
{
    for (qsizetype open = sentence.indexOf(QLatin1String(" (")); open >= 0;
         open = sentence.indexOf(QLatin1String(" ("), open + 1)) {
        const qsizetype close = sentence.indexOf(QLatin1Char(')'), open);
        if (close < 0)
            break;
        const QString aside = sentence.mid(open, close - open + 1);
        if (!canRender(aside, context)) {
            sentence.remove(open, close - open + 1);
            open = std::max<qsizetype>(-1, open - 1);
        }
    }
    return sentence;
}

} // namespace

QString renderProse(const QString& tmpl, const RenderContext& context)
{
    if (canRender(tmpl, context))
        return renderTemplate(tmpl, context);
    // Sentences end at ". ", "! ", "? " or a line break; the separator stays with its sentence. "e.g. " and
    // "i.e. " end none: a split there dropped the sentence's head with its unknown value and kept the tail
    // ("22) when the fabric is ..." from "... on {nic} ... (e.g. 22) when the fabric ...").
    static const QRegularExpression end(QStringLiteral(R"((?<=[.!?])(?<!\b[a-z]\.[a-z]\.)\s+|\n)"));
    QStringList kept;
    qsizetype from = 0;
    QRegularExpressionMatchIterator it = end.globalMatch(tmpl);
    const auto take = [&](qsizetype to, const QString& sep) {
        QString sentence = tmpl.mid(from, to - from);
        if (!canRender(sentence, context))
            sentence = withoutUnfillableAsides(sentence, context);
        if (!sentence.trimmed().isEmpty() && canRender(sentence, context))
            kept << renderTemplate(sentence, context) + sep;
    };
    while (it.hasNext()) {
        const QRegularExpressionMatch m = it.next();
        take(m.capturedStart(), m.captured());
        from = m.capturedEnd();
    }
    take(tmpl.size(), QString());
    return kept.join(QString()).trimmed();
}

} // namespace rankscope
