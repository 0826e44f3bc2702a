// SPDX-License-Identifier: MIT
#include "diagnosis.h"

#include "diagnosis_parts.h"
#include "severity_rules.h"
#include "template_render.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <algorithm>
#include <map>
#include <re2/re2.h>
#include <set>

namespace rankscope {

using namespace detail;

namespace detail {

namespace {

// The command starts with a variable the run already had with that value ("NCCL_P2P_DISABLE=1 NCCL_DEBUG=INFO
// ./all_reduce_perf ..." in a run started with NCCL_P2P_DISABLE=1): an experiment the run already made.
bool setsWhatTheRunHad(const QString& command, const RenderContext& ctx)
{
    static const QRegularExpression assignment(QStringLiteral(R"(^(?:env )?((?:[A-Z_][A-Z0-9_]*=\S+ )+))"));
    const QRegularExpressionMatch m = assignment.match(command);
    if (!m.hasMatch())
        return false;
    for (const QString& a : m.captured(1).split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        const qsizetype eq = a.indexOf(QLatin1Char('='));
        const auto had = ctx.runSettings.constFind(a.left(eq));
        if (had != ctx.runSettings.constEnd() && had->value == a.mid(eq + 1)
            && a.left(eq) != QLatin1String("NCCL_DEBUG"))
            return true;
    }
    return false;
}

} // namespace

int hintFor(const Incident& inc, const Catalog& cat, Diagnosis& d, QString* how)
{
    const LogEvent& e = inc.events[static_cast<size_t>(d.initiatingEvent)];
    std::vector<std::string> lines { e.text.toStdString() };
    for (const QString& line : e.continuation)
        lines.push_back(line.toStdString());
    // A one-line head ("EngineCore encountered a fatal error.") is often followed by the record that says
    // where: the traceback right under it, whose frames name the part of the library.
    for (const LogEvent& x : inc.events) {
        if (x.file == e.file && x.firstLine() > e.line && x.firstLine() <= e.line + e.lineCount
            && x.signature < 0) {
            lines.push_back(x.text.toStdString());
            for (const QString& line : x.continuation)
                lines.push_back(line.toStdString());
            break;
        }
    }
    // The innermost frame: the last 'File "..."' line of the record.
    std::vector<std::string> innermost;
    for (auto it = lines.rbegin(); it != lines.rend() && innermost.empty(); ++it) {
        const std::size_t at = it->find("File \""); // behind whatever prefix the line carries
        if (at != std::string::npos && isTracebackFrame(std::string_view(*it).substr(at)))
            innermost.push_back(*it);
    }
    for (int s = 0; s < static_cast<int>(cat.signatures.size()); ++s) {
        const Signature& sig = cat.signatures[static_cast<size_t>(s)];
        if (!sig.hint)
            continue;
        for (const auto& re : sig.compiledPatterns) {
            for (const std::string& line : sig.innermostFrame ? innermost : lines) {
                if (!re || !RE2::PartialMatch(line, *re))
                    continue;
                d.signatureEvent = d.initiatingEvent;
                const QString said = QStringLiteral("no entry knows this wording; the advice is for the part "
                                                    "of the library that printed it (%1)")
                                         .arg(sig.id);
                if (how)
                    *how = how->isEmpty() ? said : *how + QStringLiteral("; ") + said;
                return s;
            }
        }
    }
    return -1;
}

void renderSignatureTexts(const Signature& sig, const RenderContext& ctx, Diagnosis& d)
{
    // What the reader sees never holds a blank: a sentence or command that needs a value this incident
    // lacks is left out (renderProse), rather than shown with <name>.
    d.fix = renderProse(withoutUnknownPlaces(sig.fix, ctx), ctx);
    d.summary = renderProse(withoutUnknownPlaces(sig.summary, ctx), ctx);
    if (d.summary.isEmpty())
        d.summary = sig.title;
    QStringList tried; // a check that only reruns what the run already did says nothing new: shown last
    for (const QString& v : sig.verify) {
        if (!canRender(v, ctx))
            continue;
        const QString command = renderCommand(v, ctx);
        (setsWhatTheRunHad(command, ctx) ? tried : d.verify).push_back(command);
    }
    d.verify << tried;
    for (const QString& v : sig.evidenceCommands) {
        if (canRender(v, ctx))
            d.evidenceCommands.push_back(renderCommand(v, ctx));
    }
    for (const QString& c : sig.checklist) {
        const QString item = renderProse(withoutUnknownPlaces(c, ctx), ctx);
        if (!item.isEmpty())
            d.checklist.push_back(item);
    }
    d.siblings = sig.siblings;
    d.fixContext = ctx;
}

QHash<QString, RunSetting> runSettingsOf(const Incident& inc)
{
    QHash<QString, RunSetting> out;
    for (const EnvSetting& e : inc.envSettings) {
        if (out.contains(e.name) || e.file < 0 || e.file >= static_cast<int>(inc.files.size()))
            continue;
        const QString file = QFileInfo(inc.files[static_cast<size_t>(e.file)].path).fileName();
        out.insert(e.name, { e.value, QStringLiteral("line %1 of %2").arg(e.line).arg(file) });
    }
    return out;
}

// NCCL handed the warning's failure up: its record carries a return-code trail with an error
// ("graph/search.cc:749 -> 2", "init.cc:1234 -> 6 [Async thread]"), so the call failed there and then.
bool passesAnErrorUp(const LogEvent& e)
{
    static const QRegularExpression trail(
        QStringLiteral(R"(\.(?:cc|cu|c|h|cpp):\d+(?: \([^)]*\))? -> [1-9])"));
    return trail.match(e.text).hasMatch() // a trail whose WARN is not in the log heads its own record
        || std::any_of(e.continuation.begin(), e.continuation.end(),
            [](const QString& line) { return trail.match(line).hasMatch(); });
}

} // namespace detail

QStringList suspectLines(const std::vector<Suspect>& suspects)
{
    QStringList reasons;
    std::map<QString, std::pair<std::vector<int>, QStringList>> byReason; // ranks, distinct hosts
    for (const Suspect& s : suspects) {
        auto& [ranks, hosts] = byReason[s.reason];
        if (ranks.empty())
            reasons << s.reason;
        ranks.push_back(s.rank);
        if (!s.host.isEmpty() && !hosts.contains(s.host))
            hosts << s.host;
    }
    QStringList out;
    for (const QString& reason : std::as_const(reasons)) {
        const auto& [ranks, hosts] = byReason[reason];
        const QString where = hosts.isEmpty() ? QString()
            : hosts.size() <= 3               ? QStringLiteral(" (%1)").arg(hosts.join(QStringLiteral(", ")))
                                              : QStringLiteral(" (%1 hosts)").arg(hosts.size());
        out << QStringLiteral("%1 %2%3: %4")
                   .arg(ranks.size() == 1 ? QStringLiteral("rank") : QStringLiteral("ranks"),
                       formatRankRanges(ranks), where, reason);
    }
    return out;
}

namespace {

QString usedNic(const RankInfo* r)
{
    if (!r)
        return {};
    for (int idx : r->channelNics) {
        for (const NicUse& n : r->nics) {
            if (n.index == idx)
                return n.name;
        }
    }
    return r->nics.empty() ? QString() : r->nics.front().name;
}

// The NIC for the fix and the checks: the one the failing line names ("... (Send) hca mlx5_1") before the
// one the rank's channels used, which is only where its traffic usually went.
QString nicFor(const LogEvent& e, const RankInfo* r)
{
    for (const Capture& c : e.captures) {
        if (c.first == QLatin1String("nic") && !c.second.isEmpty())
            return c.second;
    }
    return usedNic(r);
}

QString logFolderOf(const Incident& inc)
{
    for (const QString& in : inc.inputs) {
        const QFileInfo fi(in);
        if (fi.isDir())
            return QDir::cleanPath(fi.absoluteFilePath());
        if (fi.isFile())
            return QDir::cleanPath(fi.absolutePath());
    }
    // Read from stdin only: rg reads the same log when it is piped in again. Never ".": that searches
    // wherever the user happens to be.
    if (inc.inputs.contains(QStringLiteral("-")) || inc.inputs.contains(QStringLiteral("<stdin>")))
        return QStringLiteral("-");
    return QStringLiteral(".");
}

// What a verification search reads. One log file given alone is searched itself: its folder may be
// ~/Downloads or /tmp, and rg would read everything there. A compressed file or an archive is not plain
// text to rg, and several inputs share their folder, so those keep logFolder.
QString logsOf(const Incident& inc, const QString& logFolder)
{
    if (inc.inputs.size() != 1 || inc.files.size() != 1 || inc.files.front().compressed)
        return logFolder;
    const QFileInfo given(inc.inputs.front());
    QString path = QDir::cleanPath(given.absoluteFilePath());
    if (!given.isFile() || QDir::cleanPath(inc.files.front().path) != path)
        return logFolder; // an archive's member, or a file the load did not read as given
    return path;
}

// Whether every placeholder of `tmpl` has a value here.
bool fillable(const QString& tmpl, const RenderContext& ctx)
{
    QString value;
    for (const QString& name : templatePlaceholders(tmpl)) {
        if (!lookupPlaceholder(ctx, name, &value))
            return false;
    }
    return true;
}

// The text the verification greps for: the entry's literal filled from this event, when the event's
// record carries it; else the event's own message (a variant the literal does not spell, or a value
// the line did not capture), so the command finds this failure rather than nothing.
QString grepLiteral(const QString& literal, const LogEvent& e, const RenderContext& ctx)
{
    QString filled = fillable(literal, ctx) ? renderTemplate(literal, ctx) : QString();
    if (!filled.isEmpty()) {
        if (e.text.contains(filled))
            return filled;
        for (const QString& line : e.continuation) {
            if (line.contains(filled))
                return filled;
        }
    }
    const QString message = e.message.trimmed();
    return message.isEmpty() ? e.text.trimmed() : message;
}

void render(const Incident& inc, const Catalog& cat, const DiagnoseOptions& options, Diagnosis& d)
{
    const LogEvent& e = inc.events[static_cast<size_t>(d.initiatingEvent)];
    const RankInfo* r = inc.rankInfo(e.rank);
    RenderContext ctx;
    ctx.host = e.host;
    ctx.rank = e.rank >= 0 ? QString::number(e.rank) : QString();
    ctx.localRank = e.localRank >= 0 ? QString::number(e.localRank) : QString();
    ctx.device = e.device >= 0 ? QString::number(e.device) : QString();
    // The captures of the line that gave the signature (Diagnosis::signatureEvent), else the event's own.
    const LogEvent& matched = d.signatureEvent >= 0 ? inc.events[static_cast<size_t>(d.signatureEvent)] : e;
    ctx.captures = matched.captures;
    ctx.nic = nicFor(e, r);
    ctx.logFolder = d.logFolder;
    ctx.logs = d.logs;
    ctx.runSettings = runSettingsOf(inc);
    ctx.extra.insert(QStringLiteral("message"), e.message);
    ctx.extra.insert(QStringLiteral("file"), inc.files[static_cast<size_t>(e.file)].path);
    ctx.extra.insert(QStringLiteral("line"), QString::number(e.line));
    if (e.pid >= 0) // a pid the line captures (the killed worker, the OOM victim) wins over it
        ctx.extra.insert(QStringLiteral("pid"), QString::number(e.pid));
    if (r && !r->busId.isEmpty())
        ctx.extra.insert(QStringLiteral("bus_id"), r->busId);
    if (d.signature < 0) {
        // No catalog entry: the generic advice is to keep the evidence and search for the exact line.
        ctx.literal = e.message;
        d.fix = QStringLiteral(
            "No catalog signature matches this line. Keep the evidence below, compare it with a healthy run, "
            "and search for the exact message.");
        d.verify = QStringList { renderCommand(QStringLiteral("rg -n -F -- {literal} {logs}"), ctx) };
        return;
    }
    const Signature& sig = cat.signatures[static_cast<size_t>(d.signature)];
    for (const Capture& c : matched.captures) {
        if (c.first == QLatin1String("peer"))
            ctx.peer = c.second;
    }
    ctx.literal = grepLiteral(sig.literal, matched, ctx);
    renderSignatureTexts(sig, ctx, d);
    for (const QString& extra : options.extraFixLines)
        d.fix += QLatin1Char('\n') + extra;
}

void rankHypotheses(const Incident& inc, const Catalog& cat, Diagnosis& d)
{
    // Sibling summaries speak of the same peer and NIC: fill them from the initiating event.
    RenderContext ctx;
    const LogEvent& init = inc.events[static_cast<size_t>(d.initiatingEvent)];
    ctx.host = init.host;
    ctx.captures = init.captures;
    ctx.nic = nicFor(init, inc.rankInfo(init.rank));
    for (const Capture& c : init.captures) {
        if (c.first == QLatin1String("peer"))
            ctx.peer = c.second;
    }
    std::set<int> seen;
    for (int i = 0; i < static_cast<int>(inc.events.size()); ++i) {
        const LogEvent& e = inc.events[static_cast<size_t>(i)];
        // The initiating event's own entry is no competitor when a variant of it was shown instead.
        if (e.signature < 0 || e.signature == d.signature || i == d.initiatingEvent
            || roleOf(inc, cat, i) != roleRank(SignatureRole::Cause) || seen.count(e.signature))
            continue;
        seen.insert(e.signature);
        QStringList where;
        if (e.rank >= 0)
            where << QStringLiteral("rank %1").arg(e.rank);
        if (e.time.valid)
            where << QStringLiteral("at %1").arg(formatTime(e.time));
        const QString place =
            QStringLiteral("%1:%2").arg(inc.files[static_cast<size_t>(e.file)].displayPath).arg(e.line);
        where << (where.isEmpty() ? QStringLiteral("at ") + place : QStringLiteral("(%1)").arg(place));
        d.hypotheses.push_back({ e.signature,
            QStringLiteral("also a cause-level signature in this incident: %1")
                .arg(where.join(QLatin1Char(' '))),
            3 });
    }
    for (const QString& id : d.siblings) {
        const int s = cat.indexOf(id);
        if (s < 0 || seen.count(s))
            continue;
        seen.insert(s);
        // A sibling did not happen here: its title says what to rule out. Its summary, filled with the
        // initiating line's values, would state it as a fact of this incident ("Worker pid 102241 was
        // killed with SIGKILL" under a SIGHUP), or name values the incident lacks.
        const Signature& sib = cat.signatures[static_cast<size_t>(s)];
        d.hypotheses.push_back({ s, QStringLiteral("adjacent failure to rule out: %1").arg(sib.title), 1 });
    }
    std::stable_sort(d.hypotheses.begin(), d.hypotheses.end(),
        [](const Hypothesis& a, const Hypothesis& b) { return a.score > b.score; });
}

void judgeConfidence(const Incident& inc, const Catalog& cat, bool cause, Diagnosis& d)
{
    const LogEvent& e = inc.events[static_cast<size_t>(d.initiatingEvent)];
    int score = cause ? 3 : (roleOf(inc, cat, d.initiatingEvent) == kUnmatchedRoleRank ? 2 : 1);
    QStringList& why = d.confidenceReasons;
    if (cause)
        why.push_back(QStringLiteral("the line matches the cause signature %1")
                          .arg(cat.signatures[static_cast<size_t>(d.signature)].id));
    else if (score == 2)
        why.push_back(QStringLiteral(
            "no catalog signature matches the first failure; it is the earliest unexplained WARN or worse"));
    else
        why.push_back(QStringLiteral(
            "only symptoms (timeouts, wrapper errors) were found; the cause did not reach the logs"));
    if (e.rank < 0) {
        --score;
        why.push_back(QStringLiteral("the line carries no rank"));
    }
    if (!e.time.valid) {
        --score;
        why.push_back(QStringLiteral("the line has no time, so its order against other ranks is unknown"));
    } else if (e.time.inferred) {
        why.push_back(QStringLiteral("its time is inferred from nearby stamped lines"));
    }
    // Another rank with a cause in the same second competes.
    for (int i = 0; i < static_cast<int>(inc.events.size()); ++i) {
        const LogEvent& o = inc.events[static_cast<size_t>(i)];
        if (i == d.initiatingEvent || o.rank == e.rank || o.rank < 0
            || roleOf(inc, cat, i) != roleRank(SignatureRole::Cause) || !o.time.valid || !e.time.valid)
            continue;
        if (o.time.ms - e.time.ms < 1000) {
            --score;
            why.push_back(QStringLiteral("rank %1 shows a cause within the same second").arg(o.rank));
            break;
        }
    }
    const auto others = std::count_if(
        d.collateral.begin(), d.collateral.end(), [](const CollateralGroup& g) { return !g.sameProcess; });
    if (others > 0)
        why.push_back(
            QStringLiteral("%1 group(s) of later failures on other ranks are explained as collateral")
                .arg(others));
    d.confidence = score >= 3 ? QStringLiteral("high")
        : score == 2          ? QStringLiteral("medium")
                              : QStringLiteral("low");
}

// A network plugin NCCL went on without ("aws-ofi-nccl initialization failed", then "Initialized NET plugin
// Socket"): the first cause after it in the same file says why the sockets failed, and heads instead.
int pastNetworkFallback(const Incident& inc, const Catalog& cat, int event, QString* how)
{
    const LogEvent& e = inc.events[static_cast<size_t>(event)];
    if (e.signature < 0 || !cat.signatures[static_cast<size_t>(e.signature)].networkFallback)
        return event;
    const bool wentOn = std::any_of(inc.setupFacts.begin(), inc.setupFacts.end(), [&](const SetupFact& f) {
        return f.file == e.file && f.line > e.line
            && (f.key == QLatin1String(kSocketTransportFact)
                || (f.key == QLatin1String("network") && f.value == QLatin1String("Socket")));
    });
    if (!wentOn)
        return event;
    int next = -1;
    for (int i = 0; i < static_cast<int>(inc.events.size()); ++i) {
        const LogEvent& x = inc.events[static_cast<size_t>(i)];
        if (x.file != e.file || x.line <= e.line || x.signature < 0
            || cat.signatures[static_cast<size_t>(x.signature)].networkFallback
            || roleOf(inc, cat, i) != roleRank(SignatureRole::Cause))
            continue;
        if (next < 0 || x.line < inc.events[static_cast<size_t>(next)].line)
            next = i;
    }
    if (next < 0)
        return event;
    *how = QStringLiteral("line %1 (%2) is a network plugin NCCL went on without: it used its sockets, and "
                          "line %3 says why they failed")
               .arg(e.line)
               .arg(cat.signatures[static_cast<size_t>(e.signature)].id)
               .arg(inc.events[static_cast<size_t>(next)].line);
    return next;
}

} // namespace

Diagnosis diagnose(const Incident& inc, const Catalog& cat, const DiagnoseOptions& options)
{
    Diagnosis d;
    d.logFolder = logFolderOf(inc);
    d.logs = logsOf(inc, d.logFolder);
    bool cause = false;
    QString how;
    int explainedBy = -1;
    bool oddOneOut = false; // chosen as the rank in another collective than the others (oddCollectiveEvent)
    d.initiatingEvent = findInitiating(inc, cat, &cause, &how, &explainedBy);
    // Timeouts only, and the ranks wait in different calls at one SeqNum: the rank in the call the fewest
    // wait in went another way, and the others waited for it.
    if (d.initiatingEvent >= 0 && !cause
        && roleOf(inc, cat, d.initiatingEvent) == roleRank(SignatureRole::Symptom)) {
        QString why;
        const int odd = oddCollectiveEvent(inc, &why);
        if (odd >= 0 && odd != d.initiatingEvent) {
            d.initiatingEvent = odd;
            how = why;
            oddOneOut = true;
        }
    }
    if (d.initiatingEvent >= 0)
        d.initiatingEvent = pastNetworkFallback(inc, cat, d.initiatingEvent, &how);
    fillSuspects(inc, cat, d);
    // An unrecognised warning is never the cause of a hang: with nothing worse, a stall in NCCL's setup wins.
    // A warning whose error NCCL passes up ("-> 2"), or whose words say it failed, is no hang: the setup
    // failed at that line.
    if (d.initiatingEvent >= 0 && !cause && roleOf(inc, cat, d.initiatingEvent) == kUnmatchedRoleRank
        && inc.events[static_cast<size_t>(d.initiatingEvent)].severity == Severity::Warn
        && !passesAnErrorUp(inc.events[static_cast<size_t>(d.initiatingEvent)])
        && !ncclWarnReportsFailure(inc.events[static_cast<size_t>(d.initiatingEvent)])
        && inc.ncclInitFile >= 0 && !inc.ncclInitCompleted) {
        const LogEvent& w = inc.events[static_cast<size_t>(d.initiatingEvent)];
        d.notes << QStringLiteral("the only warning (line %1: %2) is not taken for the cause of the hang")
                       .arg(w.line)
                       .arg(w.message.left(120));
        d.initiatingEvent = -1;
    }
    // Hosts set up differently explain a failure without an error line better than the phase it stopped in.
    if (d.initiatingEvent < 0 && (diagnoseDivergence(inc, cat, d) || diagnoseStall(inc, cat, d)))
        return d;
    if (d.initiatingEvent < 0) {
        d.headline = QStringLiteral("No failure found: %1 file(s), %2 rank(s), no WARN or worse line.")
                         .arg(inc.files.size())
                         .arg(inc.ranks.size());
        // Lines that warn but that the catalog knows as benign are named, never passed over in silence.
        int benign = -1, benignCount = 0;
        for (int i = 0; i < static_cast<int>(inc.events.size()); ++i) {
            const LogEvent& e = inc.events[static_cast<size_t>(i)];
            if ((e.severity >= Severity::Warn || e.failureWord)
                && roleOf(inc, cat, i) == roleRank(SignatureRole::Context)) {
                ++benignCount;
                if (benign < 0)
                    benign = i;
            }
        }
        if (benign >= 0) {
            const LogEvent& b = inc.events[static_cast<size_t>(benign)];
            d.headline =
                QStringLiteral("No failure found: %1 line(s) warn, but the catalog knows them as benign "
                               "(first, line %2: %3).")
                    .arg(benignCount)
                    .arg(b.line)
                    .arg(cat.signatures[static_cast<size_t>(b.signature)].title);
        }
        if (!d.suspects.empty())
            d.headline = QStringLiteral("No error line, but %1 rank(s) look hung or silent (see suspects).")
                             .arg(d.suspects.size());
        return d;
    }
    d.failureFound = true;
    const LogEvent& e = inc.events[static_cast<size_t>(d.initiatingEvent)];
    d.signature = e.signature;
    if (d.signature < 0 && explainedBy >= 0) {
        const LogEvent& x = inc.events[static_cast<size_t>(explainedBy)];
        d.signature = x.signature;
        d.signatureEvent = explainedBy;
        how =
            QStringLiteral("the first line of the failure matches no signature; line %1 of the same process, "
                           "right after it, names it")
                .arg(x.line);
    }
    if (d.signature < 0)
        d.signature = hintFor(inc, cat, d, &how);
    QString variant;
    d.signature = refineSignature(inc, cat, d, &variant);
    fillCollateral(inc, cat, d);
    render(inc, cat, options, d);
    rankHypotheses(inc, cat, d);
    fillTorchrunNotes(inc, d);
    d.notes << setupDivergenceNotes(inc);
    judgeConfidence(inc, cat, cause, d);
    if (!how.isEmpty())
        d.confidenceReasons.push_back(how);
    if (!variant.isEmpty())
        d.confidenceReasons.push_back(variant);

    // Who failed, named as the log names it: the rank, else what a wrapper calls the writer (TorchX's
    // "trainer0", a Ray actor, the kernel), else its process, else its local rank.
    QString who;
    QStringList where;
    if (!e.host.isEmpty())
        where.push_back(e.host);
    if (e.rank >= 0) {
        who = QStringLiteral("Rank %1").arg(e.rank);
    } else if (e.source == QLatin1String("kernel")) {
        who = QStringLiteral("The kernel log");
    } else if (!e.source.isEmpty()) {
        who = e.source;
        if (e.pid >= 0)
            where.push_back(QStringLiteral("pid %1").arg(e.pid));
        if (e.localRank >= 0)
            where.push_back(QStringLiteral("local rank %1").arg(e.localRank));
    } else if (e.pid >= 0) {
        who = QStringLiteral("Process %1").arg(e.pid);
        if (e.localRank >= 0)
            where.push_back(QStringLiteral("local rank %1").arg(e.localRank));
    } else if (e.localRank >= 0) {
        who = QStringLiteral("Local rank %1").arg(e.localRank);
    } else {
        who = QStringLiteral("An unattributed process");
    }
    if (e.device >= 0)
        where.push_back(QStringLiteral("GPU%1").arg(e.device));
    const QString what =
        d.signature >= 0 ? cat.signatures[static_cast<size_t>(d.signature)].title : e.message.left(160);
    // A symptom (a watchdog timeout, a wrapper's error) with no cause in the logs says where the failure
    // showed first, not that this rank failed: every rank may have hung in the same collective.
    const bool symptomOnly = d.signature >= 0 && !cause
        && cat.signatures[static_cast<size_t>(d.signature)].role == SignatureRole::Symptom;
    d.headline =
        QStringLiteral("%1%2 %3%4: %5")
            .arg(who,
                where.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(where.join(QStringLiteral(", "))),
                !symptomOnly    ? QStringLiteral("failed first")
                    : oddOneOut ? QStringLiteral("waited in another collective than the others")
                                : QStringLiteral("reported the failure first"),
                e.time.valid ? QStringLiteral(" at %1%2")
                                   .arg(formatTime(e.time),
                                       e.time.inferred ? QStringLiteral(" (inferred)") : QString())
                             : QString(),
                what);
    // ... and then, when the logs name the rank the others waited for, that rank.
    if (symptomOnly) {
        QStringList named, by;
        for (const Suspect& s : d.suspects) {
            if (s.namedBy.isEmpty() || named.size() >= 4)
                continue;
            named.push_back(QString::number(s.rank));
            if (!by.contains(s.namedBy))
                by.push_back(s.namedBy);
        }
        if (!named.isEmpty()) {
            d.headline += QStringLiteral("; the others waited for %1 %2 (%3)")
                              .arg(named.size() == 1 ? QStringLiteral("rank") : QStringLiteral("ranks"),
                                  named.join(QStringLiteral(", ")), by.join(QStringLiteral(", ")));
        } else {
            // Else the ranks suspected only for what they did not print, when there are few: read them first.
            QStringList silent;
            for (const Suspect& s : d.suspects)
                if (s.rank >= 0 && s.namedBy.isEmpty())
                    silent.push_back(QString::number(s.rank));
            if (!silent.isEmpty() && silent.size() <= 4)
                d.headline += QStringLiteral("; %1 %2 printed no failure (see suspects)")
                                  .arg(silent.size() == 1 ? QStringLiteral("rank") : QStringLiteral("ranks"),
                                      silent.join(QStringLiteral(", ")));
        }
    }

    // Evidence: which lines before the first occurrence to show; analysis/ reads them (no I/O here).
    d.evidence.file = e.file;
    d.evidence.toLine = e.line;
    d.evidence.fromLine = std::max<qint64>(1, e.line - options.evidenceLines);
    return d;
}

} // namespace rankscope
