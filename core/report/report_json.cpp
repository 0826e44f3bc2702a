// SPDX-License-Identifier: MIT
#include "report.h"
#include "template_render.h"

#include <QJsonArray>

namespace rankscope {

namespace {

QJsonValue orNull(const QString& s)
{
    return s.isEmpty() ? QJsonValue() : QJsonValue(s);
}
QJsonValue orNull(int v)
{
    return v < 0 ? QJsonValue() : QJsonValue(v);
}
QJsonArray toArray(const QStringList& list)
{
    QJsonArray a;
    for (const QString& s : list)
        a.append(s);
    return a;
}

QJsonObject eventRef(const Incident& inc, const Catalog& cat, int index)
{
    const LogEvent& e = inc.events[static_cast<size_t>(index)];
    QJsonObject o;
    o[QStringLiteral("rank")] = orNull(e.rank);
    o[QStringLiteral("host")] = orNull(e.host);
    o[QStringLiteral("pid")] = e.pid >= 0 ? QJsonValue(static_cast<double>(e.pid)) : QJsonValue();
    o[QStringLiteral("local_rank")] = orNull(e.localRank);
    o[QStringLiteral("device")] = orNull(e.device);
    o[QStringLiteral("file")] = inc.files[static_cast<size_t>(e.file)].displayPath;
    o[QStringLiteral("line")] = static_cast<double>(e.line);
    o[QStringLiteral("text")] = e.text;
    o[QStringLiteral("time")] = orNull(formatTime(e.time));
    o[QStringLiteral("time_inferred")] = e.time.inferred;
    o[QStringLiteral("severity")] = severityName(e.severity);
    o[QStringLiteral("signature")] =
        e.signature >= 0 ? QJsonValue(cat.signatures[static_cast<size_t>(e.signature)].id) : QJsonValue();
    if (e.repeats > 0) { // later lines of the same words, numbers aside, from the same writer
        o[QStringLiteral("repeats")] = e.repeats;
        o[QStringLiteral("last_repeat_line")] = static_cast<double>(e.lastRepeatLine);
    }
    return o;
}

} // namespace

namespace {

// The launchers and the framework, each with its evidence lines: {"summary", "launchers", "framework"}.
QJsonObject launchJson(const Incident& inc)
{
    auto item = [&inc](const LaunchItem& it) {
        QJsonArray evidence;
        for (const LaunchEvidence& e : it.evidence)
            evidence.append(QJsonObject { { QStringLiteral("file"),
                                              e.file >= 0 && static_cast<size_t>(e.file) < inc.files.size()
                                                  ? inc.files[static_cast<size_t>(e.file)].displayPath
                                                  : QString() },
                { QStringLiteral("line"), static_cast<double>(e.line) },
                { QStringLiteral("text"), e.text } });
        return QJsonObject { { QStringLiteral("id"), it.id }, { QStringLiteral("name"), it.name },
            { QStringLiteral("given"), it.given }, { QStringLiteral("evidence"), evidence } };
    };
    QJsonArray launchers;
    for (const LaunchItem& it : inc.launch.launchers)
        launchers.append(item(it));
    return QJsonObject { { QStringLiteral("summary"), orNull(inc.launchSentence()) },
        { QStringLiteral("launchers"), launchers },
        { QStringLiteral("framework"),
            inc.launch.framework.id.isEmpty() ? QJsonValue() : QJsonValue(item(inc.launch.framework)) } };
}

} // namespace

QJsonObject reportJson(const ReportInput& in)
{
    const Incident& inc = *in.incident;
    const Diagnosis& d = *in.diagnosis;
    const Catalog& cat = *in.catalog;
    QJsonObject root;
    root[QStringLiteral("schema")] = QStringLiteral("rankscope.diagnosis/1");

    QJsonObject inputs;
    inputs[QStringLiteral("paths")] = toArray(inc.inputs);
    inputs[QStringLiteral("files")] = static_cast<int>(inc.files.size());
    inputs[QStringLiteral("bytes")] = static_cast<double>(inc.totalBytes);
    inputs[QStringLiteral("ranks")] = static_cast<int>(inc.ranks.size());
    inputs[QStringLiteral("hosts")] = static_cast<int>(inc.hosts().size());
    QJsonArray skipped;
    for (const SkippedInput& s : inc.skipped)
        skipped.append(
            QJsonObject { { QStringLiteral("path"), s.path }, { QStringLiteral("reason"), s.reason } });
    inputs[QStringLiteral("skipped")] = skipped;
    inputs[QStringLiteral("warnings")] = toArray(inc.warnings);
    inputs[QStringLiteral("attempt")] = inc.label;
    inputs[QStringLiteral("attempts")] = toArray(in.attempts);
    root[QStringLiteral("inputs")] = inputs;
    root[QStringLiteral("launch")] = launchJson(inc);

    root[QStringLiteral("initiating")] =
        d.initiatingEvent >= 0 ? QJsonValue(eventRef(inc, cat, d.initiatingEvent)) : QJsonValue();
    if (d.initiatingEvent >= 0 || d.signature >= 0) { // a stall has a signature but no initiating line
        QJsonObject sig;
        if (d.signature >= 0) {
            const Signature& s = cat.signatures[static_cast<size_t>(d.signature)];
            sig[QStringLiteral("id")] = s.id;
            sig[QStringLiteral("title")] = s.title;
            sig[QStringLiteral("family")] = s.family;
            sig[QStringLiteral("role")] = signatureRoleName(s.role);
            // What the verification searched for: the literal filled from the initiating line. A template
            // that this incident cannot fill (a stall has no line) is left out rather than shown with
            // its {placeholders}.
            if (!d.fixContext.literal.isEmpty())
                sig[QStringLiteral("literal")] = d.fixContext.literal;
            else
                sig[QStringLiteral("literal")] =
                    templatePlaceholders(s.literal).isEmpty() ? QJsonValue(s.literal) : QJsonValue();
            sig[QStringLiteral("summary")] = d.summary; // rendered with this incident's values
        } else {
            sig[QStringLiteral("id")] = QJsonValue();
        }
        sig[QStringLiteral("fix")] = d.fix;
        QJsonArray actions;
        for (const RenderedFixAction& a : reportFixActions(in)) {
            QJsonObject o;
            o[QStringLiteral("kind")] = fixActionKindName(a.kind);
            o[QStringLiteral("text")] = a.text;
            o[QStringLiteral("reason")] = a.reason;
            o[QStringLiteral("idiom")] = a.idiom;
            o[QStringLiteral("command")] = a.isCommand;
            if (a.alreadyTried)
                o[QStringLiteral("already_tried")] = true; // the run had this setting and still failed
            actions.append(o);
        }
        sig[QStringLiteral("actions")] = actions;
        sig[QStringLiteral("verify")] = toArray(d.verify);
        sig[QStringLiteral("checklist")] = toArray(d.checklist);
        sig[QStringLiteral("evidence_commands")] = toArray(d.evidenceCommands);
        sig[QStringLiteral("siblings")] = toArray(d.siblings);
        root[QStringLiteral("signature")] = d.signature >= 0 ? QJsonValue(sig) : QJsonValue();
        if (d.signature < 0)
            root[QStringLiteral("fix")] = sig; // the generic advice, when no entry matched
    } else {
        root[QStringLiteral("signature")] = QJsonValue();
    }

    QJsonArray collateral;
    for (const CollateralGroup& g : d.collateral) {
        QJsonObject o;
        o[QStringLiteral("signature")] =
            g.signature >= 0 ? QJsonValue(cat.signatures[static_cast<size_t>(g.signature)].id) : QJsonValue();
        o[QStringLiteral("label")] = g.label;
        o[QStringLiteral("count")] = g.rankCount;
        o[QStringLiteral("events")] = g.eventCount;
        o[QStringLiteral("ranks")] = g.ranks;
        o[QStringLiteral("points_to")] = orNull(g.pointsTo);
        o[QStringLiteral("same_process")] = g.sameProcess;
        if (g.firstEvent >= 0) {
            const QJsonObject ref = eventRef(inc, cat, g.firstEvent);
            o[QStringLiteral("first")] =
                QJsonObject { { QStringLiteral("rank"), ref[QStringLiteral("rank")] },
                    { QStringLiteral("file"), ref[QStringLiteral("file")] },
                    { QStringLiteral("line"), ref[QStringLiteral("line")] },
                    { QStringLiteral("text"), ref[QStringLiteral("text")] } };
        }
        collateral.append(o);
    }
    root[QStringLiteral("collateral")] = collateral;

    QJsonArray suspects;
    for (const Suspect& s : d.suspects)
        suspects.append(QJsonObject { { QStringLiteral("rank"), s.rank },
            { QStringLiteral("host"), orNull(s.host) }, { QStringLiteral("reason"), s.reason } });
    root[QStringLiteral("suspects")] = suspects;

    QJsonArray hypotheses;
    for (const Hypothesis& h : d.hypotheses)
        hypotheses.append(QJsonObject {
            { QStringLiteral("signature"), cat.signatures[static_cast<size_t>(h.signature)].id },
            { QStringLiteral("reason"), h.reason } });
    root[QStringLiteral("hypotheses")] = hypotheses;
    root[QStringLiteral("confidence")] = orNull(d.confidence);
    root[QStringLiteral("confidence_reasons")] = toArray(d.confidenceReasons);
    root[QStringLiteral("headline")] = d.headline;

    QJsonArray torchrun;
    for (const TorchrunNote& n : d.torchrun)
        torchrun.append(QJsonObject { { QStringLiteral("host"), n.host }, { QStringLiteral("rank"), n.rank },
            { QStringLiteral("note"), n.text } });
    root[QStringLiteral("torchrun")] = torchrun;

    if (d.evidence.file >= 0) {
        root[QStringLiteral("evidence")] = QJsonObject {
            { QStringLiteral("file"), inc.files[static_cast<size_t>(d.evidence.file)].displayPath },
            { QStringLiteral("from"), static_cast<double>(d.evidence.fromLine) },
            { QStringLiteral("to"), static_cast<double>(d.evidence.toLine) },
            { QStringLiteral("lines"), toArray(d.evidence.lines) }
        };
    } else {
        root[QStringLiteral("evidence")] = QJsonValue();
    }
    root[QStringLiteral("notes")] = toArray(d.notes);
    if (!d.nodeFindings.empty()) { // only then: outputs without node evidence keep their shape
        QJsonArray findings;
        for (const NodeFinding& f : d.nodeFindings)
            findings.append(QJsonObject { { QStringLiteral("host"), orNull(f.host) },
                { QStringLiteral("source"), f.source }, { QStringLiteral("text"), f.text },
                { QStringLiteral("confirms"), f.confirms } });
        root[QStringLiteral("node_evidence")] = findings;
    }
    root[QStringLiteral("divergence")] =
        in.divergence ? QJsonValue(divergenceToJson(*in.divergence)) : QJsonValue();
    root[QStringLiteral("topology")] = in.topology.isEmpty() ? QJsonValue() : QJsonValue(in.topology);
    return root;
}

} // namespace rankscope
