// SPDX-License-Identifier: MIT
// Every typed fix action of the built-in catalog, rendered through every launcher x framework adapter, with
// the values of a real input's diagnosis and with none: no {placeholder}, no <name>, no leftover adapter
// token, no empty command, env names of shell shape and only the flags the adapter's data lists.
#include "analysis.h"
#include "fix_adapters.h"
#include "fix_render.h"
#include "signature_catalog.h"
#include "signature_matcher.h"

#include <QRegularExpression>
#include <QSet>
#include <QtTest>

using namespace rankscope;

namespace {

const QString kAdapters = QStringLiteral(RANKSCOPE_SOURCE_DIR "/signatures/adapters");

// What must never reach a reader: a template placeholder, a blank, an adapter token left unreplaced.
QString blankIn(const QString& text)
{
    static const QRegularExpression blank(
        QStringLiteral(R"(\{[A-Za-z_][A-Za-z0-9_]*\}|<[a-z_][a-z0-9_]*>|@[A-Z_]+@)"));
    const QRegularExpressionMatch m = blank.match(text);
    return m.hasMatch() ? m.captured() : QString();
}

QStringList flagsIn(const QString& text)
{
    static const QRegularExpression flag(QStringLiteral(R"((?:^|\s)(--?[A-Za-z][A-Za-z0-9_-]*))"));
    QStringList out;
    for (auto it = flag.globalMatch(text); it.hasNext();)
        out << it.next().captured(1);
    return out;
}

// The flags a rendering in this idiom may carry: the launcher's, its container adapter's, the framework's
// and its fallback's.
QSet<QString> allowedFlags(const FixAdapters& a, const FixIdiom& idiom)
{
    QSet<QString> out;
    const LauncherAdapter* l =
        a.launcher(idiom.launcher) ? a.launcher(idiom.launcher) : a.launcher(QStringLiteral("shell"));
    if (l) {
        out.unite(QSet<QString>(l->flags.begin(), l->flags.end()));
        if (const ContainerAdapter* c = a.container(l->container))
            out.unite(QSet<QString>(c->flags.begin(), c->flags.end()));
    }
    const FrameworkAdapter* f =
        a.framework(idiom.framework) ? a.framework(idiom.framework) : a.framework(QStringLiteral("pytorch"));
    for (int hop = 0; f && hop < 2; ++hop) {
        out.unite(QSet<QString>(f->flags.begin(), f->flags.end()));
        f = f->fallback.isEmpty() ? nullptr : a.framework(f->fallback);
    }
    return out;
}

QString checkRendered(
    const RenderedFixAction& r, const FixAction& action, const FixAdapters& a, const FixIdiom& idiom)
{
    static const QRegularExpression envName(QStringLiteral("^[A-Z_][A-Z0-9_]*$"));
    if (r.text.trimmed().isEmpty())
        return QStringLiteral("empty text");
    if (r.reason.trimmed().isEmpty())
        return QStringLiteral("empty reason");
    for (const QString& s : { r.text, r.reason, r.idiom }) {
        if (!blankIn(s).isEmpty())
            return blankIn(s) + QStringLiteral(" in: ") + s;
    }
    const bool adapted = action.kind == FixActionKind::Env || action.kind == FixActionKind::Timeout
        || action.kind == FixActionKind::Container;
    if (adapted && (!r.isCommand || r.idiom.isEmpty()))
        return QStringLiteral("an adapted action without a command or idiom");
    if (action.kind == FixActionKind::Env) {
        if (!envName.match(action.name).hasMatch())
            return QStringLiteral("env name ") + action.name;
        if (!r.text.contains(action.name))
            return QStringLiteral("the command does not name ") + action.name;
    }
    if (r.isCommand) {
        const QSet<QString> allowed = allowedFlags(a, idiom);
        for (const QString& f : flagsIn(r.text)) {
            if (!allowed.contains(f))
                return QStringLiteral("flag ") + f + QStringLiteral(" not in the adapter's data: ") + r.text;
        }
    }
    return {};
}

} // namespace

class TestFixRender : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void adaptersLoadAndCiteTheirSource()
    {
        const FixAdapters a = loadFixAdapters(kAdapters);
        QVERIFY2(a.errors.isEmpty(), qPrintable(a.errors.join(QLatin1Char('\n'))));
        QCOMPARE(a.launchers.size(), std::size_t { 9 });
        QCOMPARE(a.frameworks.size(), std::size_t { 7 });
        for (const LauncherAdapter& l : a.launchers)
            QVERIFY2(l.source.startsWith(QLatin1String("https://")), qPrintable(l.id));
        for (const FrameworkAdapter& f : a.frameworks)
            QVERIFY2(f.source.startsWith(QLatin1String("https://")), qPrintable(f.id));
        // The compiled-in or installed copy is the same data.
        QCOMPARE(defaultFixAdapters().launchers.size(), a.launchers.size());
        QVERIFY(defaultFixAdapters().errors.isEmpty());
    }

    void everyActionThroughEveryAdapter()
    {
        const FixAdapters adapters = loadFixAdapters(kAdapters);
        // A real input's diagnosis gives the host, rank, folder and literal of a real failure.
        AnalysisRequest request;
        request.logPaths = { QStringLiteral(RANKSCOPE_TEST_DATA "/sample-job") };
        const Analysis analysis = analyze(request);
        QVERIFY2(analysis.error.isEmpty(), qPrintable(analysis.error));
        const AttemptAnalysis* at = analysis.currentAttempt();
        QVERIFY(at);
        const RenderContext real = at->diagnosis.fixContext;
        QVERIFY(!real.logFolder.isEmpty());

        const Catalog& cat = analysis.catalog.catalog;
        const SignatureMatcher matcher(cat);
        std::vector<FixIdiom> idioms { FixIdiom {} };
        for (const LauncherAdapter& l : adapters.launchers) {
            for (const FrameworkAdapter& f : adapters.frameworks)
                idioms.push_back(FixIdiom { l.id, f.id });
        }
        int rendered = 0;
        for (std::size_t i = 0; i < cat.signatures.size(); ++i) {
            const Signature& sig = cat.signatures[i];
            QVERIFY2(!sig.actions.empty(), qPrintable(sig.id));
            // The real context plus the captures of the entry's own example line.
            RenderContext filled = real;
            if (!sig.examplesMatch.isEmpty()) {
                const MatchResult m =
                    matcher.matchSignature(static_cast<int>(i), sig.examplesMatch.first().toStdString());
                filled.captures = m.captures;
            }
            for (const FixAction& action : sig.actions) {
                for (const FixIdiom& idiom : idioms) {
                    const auto withValues = renderFixAction(action, idiom, filled, adapters);
                    QVERIFY2(withValues,
                        qPrintable(sig.id + QStringLiteral(": ") + fixActionKindName(action.kind)
                            + QStringLiteral(" did not render with a filled context")));
                    const QString problem = checkRendered(*withValues, action, adapters, idiom);
                    QVERIFY2(problem.isEmpty(), qPrintable(sig.id + QStringLiteral(": ") + problem));
                    ++rendered;
                    // With no values, an action needing one is left out; what renders is still clean.
                    if (const auto bare = renderFixAction(action, idiom, RenderContext {}, adapters)) {
                        const QString p = checkRendered(*bare, action, adapters, idiom);
                        QVERIFY2(p.isEmpty(), qPrintable(sig.id + QStringLiteral(" (empty context): ") + p));
                    }
                    for (const RenderedFixAction& alt :
                        renderFixAlternatives(action, idiom, filled, adapters))
                        QVERIFY2(!alt.text.isEmpty() && blankIn(alt.text).isEmpty() && !alt.idiom.isEmpty(),
                            qPrintable(sig.id + QStringLiteral(": alternative ") + alt.text));
                }
            }
        }
        QVERIFY(rendered > 139 * 64);
    }

    // A variable the run already had with that value: the action says so and goes last; another value
    // is named in the reason.
    void settingsTheRunHadAreMarked()
    {
        const FixAdapters a = loadFixAdapters(kAdapters);
        const FixAction p2p { FixActionKind::Env, QStringLiteral("NCCL_P2P_DISABLE"), QStringLiteral("1"), {},
            QStringLiteral("Diagnostic.") };
        const FixAction ib { FixActionKind::Env, QStringLiteral("NCCL_IB_DISABLE"), QStringLiteral("1"), {},
            QStringLiteral("Diagnostic.") };
        const FixAction node { FixActionKind::Node, {}, {}, QStringLiteral("Drain it."),
            QStringLiteral("x") };
        RenderContext ctx;
        ctx.runSettings.insert(
            QStringLiteral("NCCL_P2P_DISABLE"), { QStringLiteral("1"), QStringLiteral("line 1 of log.txt") });
        ctx.runSettings.insert(QStringLiteral("NCCL_IB_DISABLE"), { QStringLiteral("0"), QString() });
        const auto out = renderFixActions({ p2p, node, ib }, FixIdiom {}, ctx, a);
        QCOMPARE(out.size(), size_t(3));
        QVERIFY(!out[0].alreadyTried && out[0].kind == FixActionKind::Node);
        QVERIFY(
            !out[1].alreadyTried && out[1].reason.endsWith(QLatin1String("This run had NCCL_IB_DISABLE=0.")));
        QVERIFY(out[2].alreadyTried);
        QVERIFY2(out[2].reason.startsWith(
                     QLatin1String("Already set in this run (line 1 of log.txt) and it still failed.")),
            qPrintable(out[2].reason));
        QVERIFY(!renderFixActions({ p2p }, FixIdiom {}, RenderContext {}, a).front().alreadyTried);
    }

    void idiomsWriteTheirOwnSyntax()
    {
        const FixAdapters a = loadFixAdapters(kAdapters);
        const FixAction env { FixActionKind::Env, QStringLiteral("NCCL_SOCKET_IFNAME"),
            QStringLiteral("{nic}"), {}, QStringLiteral("Pin the interface.") };
        RenderContext ctx;
        ctx.nic = QStringLiteral("ens5");
        auto text = [&](const FixAction& act, const QString& launcher, const QString& framework) {
            const auto r = renderFixAction(act, FixIdiom { launcher, framework }, ctx, a);
            return r ? r->text : QString();
        };
        QVERIFY(text(env, QStringLiteral("slurm"), {})
                    .startsWith(QLatin1String("srun --export=ALL,NCCL_SOCKET_IFNAME=ens5 ")));
        QVERIFY(text(env, QStringLiteral("mpirun"), {})
                    .startsWith(QLatin1String("mpirun -x NCCL_SOCKET_IFNAME=ens5 ")));
        QVERIFY(text(env, QStringLiteral("mpich"), {})
                    .startsWith(QLatin1String("mpiexec -genv NCCL_SOCKET_IFNAME ens5 ")));
        QVERIFY(text(env, QStringLiteral("ray"), {})
                    .contains(QLatin1String("{\"env_vars\": {\"NCCL_SOCKET_IFNAME\": \"ens5\"}}")));
        QVERIFY(text(env, QStringLiteral("kubernetes"), {})
                    .contains(QLatin1String("- name: NCCL_SOCKET_IFNAME\n    value: \"ens5\"")));
        QCOMPARE(text(env, QStringLiteral("deepspeed"), {}),
            QStringLiteral("echo NCCL_SOCKET_IFNAME=ens5 >> ~/.deepspeed_env"));
        // Unknown idiom: the shell's export, not a guessed launcher. Unknown value: no command, never <nic>.
        QCOMPARE(text(env, QStringLiteral("no-such-launcher"), {}),
            QStringLiteral("export NCCL_SOCKET_IFNAME=ens5"));
        QVERIFY(!renderFixAction(env, FixIdiom {}, RenderContext {}, a));
        // Values with shell metacharacters are quoted for the shell, JSON-quoted for Python and YAML.
        const FixAction exclude { FixActionKind::Env, QStringLiteral("NCCL_SOCKET_IFNAME"),
            QStringLiteral("^docker lo"), {}, QStringLiteral("x") };
        QVERIFY(text(exclude, QStringLiteral("shell"), {})
                    .contains(QLatin1String("export NCCL_SOCKET_IFNAME='^docker lo'")));

        const FixAction timeout { FixActionKind::Timeout, {}, QStringLiteral("7200"), {},
            QStringLiteral("Slow.") };
        QVERIFY(
            text(timeout, {}, QStringLiteral("hf-trainer")).startsWith(QLatin1String("--ddp_timeout 7200")));
        QCOMPARE(text(timeout, {}, QStringLiteral("megatron")),
            QStringLiteral("--distributed-timeout-minutes 120"));
        const FixAction odd { FixActionKind::Timeout, {}, QStringLiteral("61"), {}, QStringLiteral("Slow.") };
        QCOMPARE(
            text(odd, {}, QStringLiteral("megatron")), QStringLiteral("--distributed-timeout-minutes 2"));
        QVERIFY(text(timeout, {}, QStringLiteral("lightning"))
                    .contains(QLatin1String("DDPStrategy(timeout=timedelta(seconds=7200))")));
        // vLLM has no timeout setting: plain PyTorch, and the label says so.
        const auto vllm = renderFixAction(timeout, FixIdiom { {}, QStringLiteral("vllm") }, ctx, a);
        QVERIFY(vllm && vllm->text.contains(QLatin1String("init_process_group("))
            && vllm->idiom.startsWith(QLatin1String("vLLM")));

        const FixAction shm { FixActionKind::Container, QStringLiteral("shm-size"), QStringLiteral("16g"), {},
            QStringLiteral("Room.") };
        QVERIFY(
            text(shm, QStringLiteral("slurm"), {}).startsWith(QLatin1String("docker run --shm-size=16g")));
        const QString pod = text(shm, QStringLiteral("kubernetes"), {});
        QVERIFY(pod.contains(QLatin1String("medium: Memory"))
            && pod.contains(QLatin1String("sizeLimit: \"16Gi\""))
            && pod.contains(QLatin1String("mountPath: /dev/shm")));

        // The alternatives are the same action in the other idioms, without the chosen one.
        const auto alts =
            renderFixAlternatives(timeout, FixIdiom { {}, QStringLiteral("hf-trainer") }, ctx, a);
        QStringList labels;
        for (const RenderedFixAction& r : alts)
            labels << r.idiom;
        QVERIFY(!labels.contains(QStringLiteral("HF Trainer / TRL")));
        QVERIFY(labels.contains(QStringLiteral("Megatron-LM / NeMo")));
        QVERIFY(renderFixAlternatives(
            FixAction { FixActionKind::Node, {}, {}, QStringLiteral("Drain it."), QStringLiteral("x") },
            FixIdiom {}, ctx, a)
                    .empty());
    }
};

QTEST_GUILESS_MAIN(TestFixRender)
#include "tst_fix_render.moc"
