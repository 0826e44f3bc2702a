// SPDX-License-Identifier: MIT
// Which event started the failure. Each process's events (one host and pid, a rank, the kernel log, or
// one anonymous source) form causal chains: lines close in order belong together, and a chain's first
// failure is its head, whatever comes after it (a wrapper exception, a watchdog follow-up, torchrun's
// summary join the chain as its consequences). Across chains, the earliest cause by time wins, else the
// earliest error (unrecognised, or a symptom), else the earliest warning; where times are missing or equal,
// the reason decides: a cause beats an unrecognised error beats a symptom.
#include "cann_header.h"
#include "diagnosis_parts.h"
#include "failure_words.h"

#include <QHash>
#include <QRegularExpression>
#include <algorithm>
#include <optional>

namespace rankscope::detail {

namespace {

// Lines or seconds between two events of one process past which they are separate chains.
constexpr qint64 kChainGapLines = 2000;
constexpr qint64 kChainGapMs = 15 * 60 * 1000;

QString processKey(const LogEvent& e)
{
    if (e.source == QLatin1String("kernel"))
        return QStringLiteral("kernel:") + e.host;
    if (e.pid >= 0)
        return QStringLiteral("pid:%1:%2").arg(e.host).arg(e.pid);
    if (e.rank >= 0)
        return QStringLiteral("rank:%1").arg(e.rank);
    if (!e.source.isEmpty())
        return QStringLiteral("source:%1:%2").arg(e.file).arg(e.source);
    return QStringLiteral("file:%1:%2").arg(e.file).arg(e.host);
}

// The tier of an event that can start a chain: 0 a cause; 1 an unrecognised ERROR or worse, an NCCL WARN
// that reports a failure or passes an error up (its "-> N" trail, or a trail whose WARN is not in the log),
// or a symptom (a wrapper exception, a watchdog timeout); 2 another unrecognised
// WARN. nullopt for what cannot start one
// (context, INFO). Within a tier the earliest wins: the first error of a job is where it failed, whether
// the catalog knows it or only knows it as a consequence.
// Python logging's default format with nothing after the logger's name ("WARNING:torch.distributed.run:"):
// the header of a message printed on the lines below it (torchrun's OMP_NUM_THREADS notice), no failure.
bool headerWithoutMessage(const LogEvent& e)
{
    static const QRegularExpression header(
        QStringLiteral(R"(^\s*(?:WARNING|WARN|INFO|DEBUG|ERROR|CRITICAL):[\w.]+:\s*$)"));
    return header.match(e.message).hasMatch();
}

std::optional<int> tierOf(const Incident& inc, const Catalog& cat, int event)
{
    const LogEvent& e = inc.events[static_cast<size_t>(event)];
    if (e.signature < 0 && headerWithoutMessage(e))
        return std::nullopt;
    switch (roleOf(inc, cat, event)) {
    case roleRank(SignatureRole::Cause):
        return 0;
    case roleRank(SignatureRole::Symptom):
        return e.severity >= Severity::Warn || e.failureWord ? std::optional<int>(1) : std::nullopt;
    case kUnmatchedRoleRank:
        if (e.severity >= Severity::Error
            || (e.severity == Severity::Warn && (ncclWarnReportsFailure(e) || passesAnErrorUp(e))))
            return 1;
        return e.severity >= Severity::Warn ? std::optional<int>(2) : std::nullopt;
    default:
        return std::nullopt; // context: loud but benign
    }
}

struct Head
{
    int event = -1;
    int tier = 0;
    int order = 0; // headOrder() of its catalog role
    int explainedBy = -1; // a cause right after an unrecognised head, of the same process (explains())
};

// Among heads at equal times: a cause first, then an unrecognised error, then a symptom.
int headOrder(int role)
{
    if (role == kUnmatchedRoleRank)
        return 1;
    return role == roleRank(SignatureRole::Symptom) ? 2 : 0;
}

// An unrecognised line followed within kQuoteGapLines by a cause of the same process is one failure told
// twice, NCCL style: "Call to open failed: No such file or directory", then "Error while attaching to shared
// memory segment". The first line stays where the failure began; the cause names it.
bool explains(const Incident& inc, const Catalog& cat, const Head& head, int event)
{
    return head.explainedBy < 0 && head.order == headOrder(kUnmatchedRoleRank)
        && roleOf(inc, cat, event) == roleRank(SignatureRole::Cause);
}

// "[ERROR] 2020-01-17 00:55:01,724 coordinator_p2p: Rank: -1", and on the next line "Error: ... host not
// found": a logger's header whose message goes on below it. The head says nothing of a failure but its
// level (no failure word), and the cause is the very next line: that line is the failure, told in two.
bool headerOnly(const LogEvent& head, const LogEvent& cause)
{
    if (cause.file != head.file || cause.line < head.line + head.lineCount)
        return false;
    // A line indented deeper than the head goes on with the head's message (a wrapped "caught internal"
    // then, indented, "exception: ... code: ZE_RESULT_ERROR_UNKNOWN"): the head is that message, not its
    // header. Messages, not raw lines: a wrapper or a quote mark in front of both says nothing.
    const auto indent = [](const QString& m) {
        qsizetype n = 0;
        while (n < m.size() && (m[n] == u' ' || m[n] == u'\t'))
            ++n;
        return n;
    };
    if (indent(cause.message) > indent(head.message))
        return false;
    // The level itself ("ERROR", "[ERROR]", "CRITICAL") is the header's, not a word of the message.
    static const QRegularExpression level(QStringLiteral("\\b(?:ERROR|FATAL|CRITICAL)\\b"));
    const QByteArray text = QString(head.message).remove(level).toUtf8();
    return !hasFailureWord(std::string_view(text.constData(), static_cast<size_t>(text.size())));
}

// A wrapper prints the error it reports right after its own header: PyTorch's "Last error:" line, then
// NCCL's text. While a symptom head's chain goes on line after line (at most this many lines apart), a
// cause in it, or a symptom in NCCL's own words written without NCCL's prefix, is that quoted text and heads
// the chain in the wrapper's place; once the chain has a gap, a cause is a later failure. NCCL's own lines
// quote nothing: the next WARN of a pid is another thread's.
constexpr qint64 kQuoteGapLines = 2;

bool hasNcclPrefix(const LogEvent& e)
{
    return e.text.contains(QLatin1String("NCCL WARN")) || e.text.contains(QLatin1String("NCCL INFO"));
}

bool followsClosely(const LogEvent& prev, const LogEvent& e)
{
    // A record whose headline came later (a child's traceback under mp.spawn's "-- Process 0 terminated
    // with the following error:") follows from the line that opened it.
    return e.file == prev.file && e.line > prev.line
        && e.firstLine() - (prev.line + prev.lineCount - 1) <= kQuoteGapLines;
}

bool quotedBy(const Incident& inc, const Catalog& cat, int head, int event)
{
    const LogEvent& h = inc.events[static_cast<size_t>(head)];
    const LogEvent& e = inc.events[static_cast<size_t>(event)];
    if (roleOf(inc, cat, head) != roleRank(SignatureRole::Symptom) || hasNcclPrefix(h))
        return false;
    // The same line again (a retry, a loop) quotes nothing: the head stays the first.
    if (e.signature == h.signature && e.message == h.message)
        return false;
    const int role = roleOf(inc, cat, event);
    if (role == roleRank(SignatureRole::Cause))
        return true;
    if (role != roleRank(SignatureRole::Symptom) || hasNcclPrefix(e))
        return false;
    // Only NCCL's own text is quoted: an abort or a launcher line after a wrapper is its consequence.
    const QStringList& stacks = cat.signatures[static_cast<size_t>(e.signature)].stacks;
    return !stacks.isEmpty()
        && (stacks.front() == QLatin1String("NCCL") || stacks.front() == QLatin1String("RCCL"));
}

// Huawei's CANN prints its own error report under the error of the framework that called it (torch_npu's
// "ERR02200 DIST call hccl api failed", an exception): lines that lead with an error code ("EJ0001: ...",
// "EE9999: [PID: n] <clock> get error: ..."), as PyTorch quotes NCCL after "Last error:". The first such
// line that says more than its code's title ("EE9999: Inner Error!", the header of an internal error whose
// details follow under the same code) is the runtime's own account, and heads the chain.
bool cannRuntimeReport(const LogEvent& e)
{
    const QByteArray m = e.message.trimmed().toUtf8();
    return isCannRuntimeReport(std::string_view(m.constData(), static_cast<size_t>(m.size())));
}

bool quotesRuntimeReport(const LogEvent& head, const LogEvent& e)
{
    return cannRuntimeReport(e) && !cannRuntimeReport(head);
}

bool startsNewChain(const LogEvent& last, const LogEvent& e)
{
    if (last.time.valid && e.time.valid)
        return e.time.ms - last.time.ms > kChainGapMs;
    return e.file != last.file || e.line - last.line > kChainGapLines;
}

} // namespace

// NCCL reports its errors at WARN level: a WARN whose own words say something failed ("Connect to ...
// failed", "Error : ring 0 does not loop back", "timed out") is an error whether or not the catalog knows
// its wording. One that only notes something ("falling back to simple order") is not.
bool ncclWarnReportsFailure(const LogEvent& e)
{
    const QLatin1String mark("NCCL WARN ");
    const qsizetype at = e.text.indexOf(mark);
    if (at < 0)
        return false;
    const QStringView rest = QStringView(e.text).mid(at + mark.size());
    const QByteArray words = rest.toUtf8();
    if (hasFailureWord(std::string_view(words.constData(), static_cast<size_t>(words.size()))))
        return true;
    // NCCL's argument and consistency checks: "Broadcast : invalid root 0", "Mismatched NCCL version".
    static const QRegularExpression checks(
        QStringLiteral(R"(\b(?:[Ii]nvalid|[Mm]ismatch\w*|[Uu]nable to)\b)"));
    return checks.match(rest).hasMatch();
}

int findInitiating(const Incident& inc, const Catalog& cat, bool* causeFound, QString* how, int* explainedBy)
{
    const int n = static_cast<int>(inc.events.size());
    QHash<QString, int> lastOf; // process -> its last event so far
    std::vector<Head> heads;
    QHash<QString, bool> open; // process -> a chain with a head is open
    QHash<QString, int> headOf; // process -> its open chain's head, an index into heads
    QHash<QString, bool> quoteOpen; // process -> its chain has had no gap yet (quotedBy())
    for (int i = 0; i < n; ++i) {
        const LogEvent& e = inc.events[static_cast<size_t>(i)];
        const QString key = processKey(e);
        const auto last = lastOf.constFind(key);
        const int prev = last != lastOf.constEnd() ? *last : -1;
        if (prev >= 0 && startsNewChain(inc.events[static_cast<size_t>(prev)], e))
            open.remove(key);
        // Lines with no pid, rank or writer of their own are one "process" only by default: a cause among
        // them is not the consequence of an unrecognised line above it (a paste's prose heading "Unexpected
        // failure of ...", another tool's output), so it starts a chain of its own.
        if (open.value(key) && e.pid < 0 && e.rank < 0 && e.source.isEmpty()
            && roleOf(inc, cat, i) == roleRank(SignatureRole::Cause)
            && heads[static_cast<size_t>(headOf.value(key))].order == headOrder(kUnmatchedRoleRank)
            && !followsClosely(inc.events[static_cast<size_t>(prev)], e))
            open.remove(key);
        lastOf.insert(key, i);
        if (open.value(key)) {
            bool& quoting = quoteOpen[key];
            quoting = quoting && followsClosely(inc.events[static_cast<size_t>(prev)], e);
            Head& head = heads[static_cast<size_t>(headOf.value(key))];
            if (quoting
                && (quotedBy(inc, cat, head.event, i)
                    || quotesRuntimeReport(inc.events[static_cast<size_t>(head.event)], e))) {
                const int role = roleOf(inc, cat, i);
                head = { i, role == roleRank(SignatureRole::Cause) ? 0 : 1, headOrder(role) };
            } else if (quoting && explains(inc, cat, head, i)) {
                if (headerOnly(inc.events[static_cast<size_t>(head.event)], e)) {
                    head = { i, 0, headOrder(roleRank(SignatureRole::Cause)) };
                } else {
                    head.explainedBy = i;
                    head.tier = 0; // the chain's failure is known: it competes as a cause
                }
            }
            continue; // a consequence of the chain's head
        }
        if (const std::optional<int> tier = tierOf(inc, cat, i)) {
            const int role = roleOf(inc, cat, i);
            headOf.insert(key, static_cast<int>(heads.size()));
            quoteOpen.insert(key, true);
            heads.push_back({ i, *tier, headOrder(role) });
            // An unrecognised warning (a deprecation, a startup notice) is no cause: it starts no chain,
            // so a later failure of the same process is not taken for its consequence.
            if (*tier < 2)
                open.insert(key, true);
        }
    }
    // Attributed heads win over unattributed ones of the same reason and time (agent chatter).
    const auto before = [&](const Head& a, const Head& b) {
        if (a.order != b.order)
            return a.order < b.order;
        const bool ar = inc.events[static_cast<size_t>(a.event)].rank >= 0;
        const bool br = inc.events[static_cast<size_t>(b.event)].rank >= 0;
        return ar != br ? ar : a.event < b.event;
    };
    // Untimed heads of one file: the file's order is the order they were written in (a combined console,
    // a paste), so the earlier line leads whatever its reason. Across files only the reason can decide.
    const auto untimedBefore = [&](const Head& a, const Head& b) {
        const LogEvent& ea = inc.events[static_cast<size_t>(a.event)];
        const LogEvent& eb = inc.events[static_cast<size_t>(b.event)];
        if (ea.file == eb.file && ea.line != eb.line)
            return ea.line < eb.line;
        return before(a, b);
    };
    int tier = 3;
    for (const Head& h : heads)
        tier = std::min(tier, h.tier);
    const Head* timed = nullptr;
    const Head* untimed = nullptr;
    for (const Head& h : heads) {
        if (h.tier != tier)
            continue;
        const EventTime& t = inc.events[static_cast<size_t>(h.event)].time;
        if (!t.valid) {
            if (!untimed || untimedBefore(h, *untimed))
                untimed = &h;
            continue;
        }
        if (!timed) {
            timed = &h;
            continue;
        }
        const EventTime& best = inc.events[static_cast<size_t>(timed->event)].time;
        // Equal times (stamps of one second, or one millisecond) are told apart by their reason. A clock that
        // says only the second (torch_npu's, c10's) is no earlier than a finer one within that second.
        const bool coarse = t.wholeSecond || best.wholeSecond;
        const qint64 mine = coarse ? t.ms / 1000 : t.ms;
        const qint64 theirs = coarse ? best.ms / 1000 : best.ms;
        // A time inferred from the stamped lines above says no more than "after them": in one file, the
        // line written first leads (a teardown's NCCL trail under the watchdog's timeouts).
        const LogEvent& eh = inc.events[static_cast<size_t>(h.event)];
        const LogEvent& et = inc.events[static_cast<size_t>(timed->event)];
        if (mine == theirs && (t.inferred || best.inferred) && eh.file == et.file && eh.line != et.line) {
            if (eh.line < et.line)
                timed = &h;
            continue;
        }
        if (mine < theirs || (mine == theirs && before(h, *timed)))
            timed = &h;
    }
    const Head* chosen = timed;
    if (!chosen || (untimed && untimed->order < timed->order)) {
        chosen = untimed;
        if (timed && how)
            *how = QStringLiteral("decided by reason, not time: the line has no time, and a cause beats the "
                                  "symptoms and unrecognised errors that do");
    }
    if (!chosen) {
        // Never worse than grep: an INFO-level line with a failure word, when nothing else failed.
        for (int i = 0; i < n; ++i) {
            const LogEvent& e = inc.events[static_cast<size_t>(i)];
            if (e.failureWord && roleOf(inc, cat, i) == kUnmatchedRoleRank) {
                *causeFound = false;
                if (how)
                    *how =
                        QStringLiteral("no line failed loudly; this is the first line with a failure word");
                return i;
            }
        }
        *causeFound = false;
        return -1;
    }
    if (how && how->isEmpty() && heads.size() > 1 && timed == chosen)
        *how = QStringLiteral(
            "the earliest of %1 causal chains (a process's first failure and what followed it)")
                   .arg(heads.size());
    Q_ASSERT(chosen->event >= 0 && chosen->event < n);
    *causeFound = chosen->tier == 0;
    if (explainedBy)
        *explainedBy = chosen->explainedBy;
    return chosen->event;
}

} // namespace rankscope::detail
