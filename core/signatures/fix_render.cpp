// SPDX-License-Identifier: MIT
#include "fix_render.h"

#include <QRegularExpression>
#include <algorithm>

namespace rankscope {

namespace {

const LauncherAdapter* resolveLauncher(const FixIdiom& idiom, const FixAdapters& adapters)
{
    if (const LauncherAdapter* l = adapters.launcher(idiom.launcher))
        return l;
    // No launcher in the logs: the shell's export, which every launcher's job script takes, not a guess at
    // one ("env X=1 torchrun ..." for a Ray or MPI job).
    if (const LauncherAdapter* l = adapters.launcher(QStringLiteral("shell")))
        return l;
    return adapters.launchers.empty() ? nullptr : &adapters.launchers.front();
}

const FrameworkAdapter* resolveFramework(const QString& id, const FixAdapters& adapters)
{
    if (const FrameworkAdapter* f = adapters.framework(id))
        return f;
    return adapters.framework(QStringLiteral("pytorch"));
}

// A double-quoted string for Python and YAML alike (both accept JSON's escapes for \ and ").
QString doubleQuote(const QString& raw)
{
    QString s = raw;
    s.replace(QLatin1Char('\\'), QStringLiteral("\\\\"));
    s.replace(QLatin1Char('"'), QStringLiteral("\\\""));
    return QLatin1Char('"') + s + QLatin1Char('"');
}

QString quoteAs(const QString& raw, const QString& mode)
{
    return mode == QLatin1String("shell") ? shellQuote(raw) : doubleQuote(raw);
}

// The action's value with the incident's placeholders filled, or nullopt when one is unknown: a command
// is never shown with a blank in it.
std::optional<QString> filled(const QString& tmpl, const RenderContext& context)
{
    if (!canRender(tmpl, context))
        return std::nullopt;
    return renderTemplate(tmpl, context).trimmed();
}

std::optional<RenderedFixAction> renderEnv(
    const FixAction& action, const LauncherAdapter& launcher, const RenderContext& context)
{
    const auto value = filled(action.value, context);
    if (!value || value->isEmpty() || launcher.env.isEmpty())
        return std::nullopt;
    QString text = launcher.env.join(QLatin1Char('\n'));
    text.replace(QStringLiteral("@NAME_Q@"), quoteAs(action.name, launcher.quote));
    text.replace(QStringLiteral("@LINE@"), shellQuote(action.name + QLatin1Char('=') + *value));
    text.replace(QStringLiteral("@VALUE@"), quoteAs(*value, launcher.quote));
    text.replace(QStringLiteral("@NAME@"), action.name);
    return RenderedFixAction { action.kind, text, {}, launcher.label, true };
}

std::optional<RenderedFixAction> renderContainer(
    const FixAction& action, const ContainerAdapter& container, const RenderContext& context)
{
    const QStringList lines = container.settings.value(action.name);
    if (lines.isEmpty())
        return std::nullopt;
    QString text = lines.join(QLatin1Char('\n'));
    if (text.contains(QLatin1String("@VALUE@"))) {
        const auto value = filled(action.value, context);
        if (!value || value->isEmpty())
            return std::nullopt;
        QString v = *value;
        // Docker sizes count in k/m/g; a Kubernetes quantity writes the same binary units as Ki/Mi/Gi.
        static const QRegularExpression dockerSize(QStringLiteral("^([0-9]+)([kmgtKMGT])$"));
        const auto m = dockerSize.match(v);
        if (m.hasMatch() && container.quote == QLatin1String("yaml"))
            v = m.captured(1) + m.captured(2).toUpper() + QLatin1Char('i');
        text.replace(QStringLiteral("@VALUE@"), quoteAs(v, container.quote));
    }
    return RenderedFixAction { action.kind, text, {}, container.label, true };
}

std::optional<RenderedFixAction> renderTimeout(
    const FixAction& action, const FrameworkAdapter& framework, const FixAdapters& adapters)
{
    const FrameworkAdapter* snippet = &framework;
    QString label = framework.label;
    if (framework.timeout.isEmpty()) {
        snippet = adapters.framework(framework.fallback);
        if (!snippet || snippet->timeout.isEmpty())
            return std::nullopt;
        label =
            framework.label + QStringLiteral(" (no timeout setting; ") + snippet->label + QLatin1Char(')');
    }
    bool ok = false;
    const qlonglong seconds = action.value.toLongLong(&ok);
    if (!ok || seconds <= 0)
        return std::nullopt;
    const qlonglong minutes = (seconds + 59) / 60;
    QString text = snippet->timeout.join(QLatin1Char('\n'));
    text.replace(QStringLiteral("@SECONDS@"), QString::number(seconds));
    text.replace(QStringLiteral("@MINUTES@"), QString::number(minutes));
    return RenderedFixAction { action.kind, text, {}, label, true };
}

// The run had this variable: the same value means the action was tried and the job still failed.
void noteRunSetting(const FixAction& action, const RenderContext& context, RenderedFixAction& out)
{
    const auto name = filled(action.name, context);
    const auto value = filled(action.value, context);
    const auto had = name ? context.runSettings.constFind(*name) : context.runSettings.constEnd();
    if (!value || had == context.runSettings.constEnd())
        return;
    const QString where = had->where.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(had->where);
    if (had->value == *value) {
        out.alreadyTried = true;
        out.reason =
            QStringLiteral("Already set in this run%1 and it still failed. ").arg(where) + out.reason;
    } else {
        out.reason += QStringLiteral(" This run had %1=%2%3.").arg(*name, had->value, where);
    }
}

} // namespace

std::optional<RenderedFixAction> renderFixAction(
    const FixAction& action, const FixIdiom& idiom, const RenderContext& context, const FixAdapters& adapters)
{
    std::optional<RenderedFixAction> out;
    const LauncherAdapter* launcher = resolveLauncher(idiom, adapters);
    switch (action.kind) {
    case FixActionKind::Env:
        if (launcher)
            out = renderEnv(action, *launcher, context);
        break;
    case FixActionKind::Container:
        if (const ContainerAdapter* c = launcher ? adapters.container(launcher->container) : nullptr)
            out = renderContainer(action, *c, context);
        break;
    case FixActionKind::Timeout:
        if (const FrameworkAdapter* f = resolveFramework(idiom.framework, adapters))
            out = renderTimeout(action, *f, adapters);
        break;
    case FixActionKind::Kernel:
    case FixActionKind::Node:
    case FixActionKind::Code: {
        const QString text = renderProse(action.text, context);
        if (!text.isEmpty())
            out = RenderedFixAction { action.kind, text, {}, {}, false };
        break;
    }
    case FixActionKind::Upgrade: {
        const auto name = filled(action.name, context);
        const auto value = filled(action.value, context);
        if (name && value)
            out = RenderedFixAction { action.kind,
                QStringLiteral("Upgrade %1 to %2 or later.").arg(*name, *value), {}, {}, false };
        break;
    }
    }
    if (out)
        out->reason = renderProse(action.reason, context);
    if (out && action.kind == FixActionKind::Env)
        noteRunSetting(action, context, *out);
    return out;
}

std::vector<RenderedFixAction> renderFixActions(const std::vector<FixAction>& actions, const FixIdiom& idiom,
    const RenderContext& context, const FixAdapters& adapters)
{
    std::vector<RenderedFixAction> out;
    for (const FixAction& a : actions) {
        if (auto r = renderFixAction(a, idiom, context, adapters))
            out.push_back(std::move(*r));
    }
    std::stable_partition(out.begin(), out.end(), [](const RenderedFixAction& a) { return !a.alreadyTried; });
    return out;
}

std::vector<RenderedFixAction> renderFixAlternatives(
    const FixAction& action, const FixIdiom& idiom, const RenderContext& context, const FixAdapters& adapters)
{
    std::vector<RenderedFixAction> out;
    const auto chosen = renderFixAction(action, idiom, context, adapters);
    QStringList seen;
    if (chosen)
        seen << chosen->text;
    auto add = [&](std::optional<RenderedFixAction> r) {
        if (r && !seen.contains(r->text)) {
            seen << r->text;
            out.push_back(std::move(*r));
        }
    };
    // The launcher decides env and container settings (its container adapter: docker or a pod spec).
    if (action.kind == FixActionKind::Env || action.kind == FixActionKind::Container) {
        for (const LauncherAdapter& l : adapters.launchers)
            add(renderFixAction(action, FixIdiom { l.id, idiom.framework }, context, adapters));
    } else if (action.kind == FixActionKind::Timeout) {
        for (const FrameworkAdapter& f : adapters.frameworks)
            add(renderFixAction(action, FixIdiom { idiom.launcher, f.id }, context, adapters));
    }
    return out;
}

QString renderedActionHeading(const RenderedFixAction& action)
{
    const QString kind = fixActionKindName(action.kind);
    return action.idiom.isEmpty() ? kind : kind + QStringLiteral(" (") + action.idiom + QLatin1Char(')');
}

} // namespace rankscope
