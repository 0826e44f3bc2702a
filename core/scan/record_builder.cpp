// SPDX-License-Identifier: MIT
#include "record_builder.h"

#include "signature_catalog.h"
#include "signature_matcher.h"
#include "text_util.h"

#include <algorithm>
#include <cctype>
#include <re2/re2.h>

namespace rankscope {

namespace {

// A Python frame line that stops before its function name: '  File "x.py", line 842, in' or
// '  File "/long/path/x.py", line' (a wrap took the rest).
bool isCutFrame(std::string_view m)
{
    const std::size_t start = m.find_first_not_of(" \t");
    if (start == std::string_view::npos || m.substr(start, 6) != "File \"")
        return false;
    std::string_view t = m.substr(start);
    while (!t.empty() && (t.back() == ' ' || t.back() == '\r'))
        t.remove_suffix(1);
    const std::size_t in = t.rfind(", in ");
    return in == std::string_view::npos || in + 5 >= t.size();
}

} // namespace

namespace {

// MPICH's (and Intel MPI's) abort: "Abort(1094799) on node 0 (rank 0 in comm 0): Fatal error in ...". Comm 0
// is MPI_COMM_WORLD, so the number is the world rank; a rank in another communicator is not.
int mpichWorldRank(std::string_view head)
{
    const std::size_t at = head.find("(rank ");
    if (at == std::string_view::npos)
        return -1;
    std::size_t pos = at + 6;
    int rank = 0;
    const std::size_t digits = pos;
    for (; pos < head.size() && head[pos] >= '0' && head[pos] <= '9' && pos - digits < 8; ++pos)
        rank = rank * 10 + (head[pos] - '0');
    return pos > digits && head.substr(pos, 12) == " in comm 0):" ? rank : -1;
}

// Open MPI's process name, "[[38971,1],2]": job family, local job id, rank. Local job 0 holds the daemons
// (their number is a node's), so only an application job's name is a rank.
int openMpiProcessRank(std::string_view head)
{
    for (std::size_t at = head.find("[["); at != std::string_view::npos; at = head.find("[[", at + 2)) {
        std::size_t pos = at + 2;
        const auto number = [&](char end) {
            long long value = 0;
            const std::size_t from = pos;
            for (; pos < head.size() && head[pos] >= '0' && head[pos] <= '9' && pos - from < 9; ++pos)
                value = value * 10 + (head[pos] - '0');
            if (pos == from || pos >= head.size() || head[pos] != end)
                return -1LL;
            ++pos;
            return value;
        };
        if (number(',') < 0)
            continue;
        const long long job = number(']');
        if (job <= 0 || pos >= head.size() || head[pos] != ',')
            continue;
        ++pos;
        const long long rank = number(']');
        if (rank >= 0)
            return static_cast<int>(rank);
    }
    return -1;
}

} // namespace

int rankInMessage(std::string_view m)
{
    const std::string_view head = m.substr(0, 400);
    for (std::size_t at = head.find("Rank "); at != std::string_view::npos; at = head.find("Rank ", at + 5)) {
        if (at == 0 || (head[at - 1] != '[' && head[at - 1] != ' '))
            continue;
        std::size_t pos = at + 5;
        int rank = 0;
        const std::size_t digits = pos;
        for (; pos < head.size() && head[pos] >= '0' && head[pos] <= '9' && pos - digits < 8; ++pos)
            rank = rank * 10 + (head[pos] - '0');
        if (pos > digits && pos < head.size() && head[pos] == ']')
            return rank;
    }
    const int mpich = mpichWorldRank(head);
    return mpich >= 0 ? mpich : openMpiProcessRank(head);
}

namespace {

bool isBorder(std::string_view m, char c)
{
    if (m.size() < 10)
        return false;
    for (char x : m) {
        if (x != c)
            return false;
    }
    return true;
}

QString toQString(std::string_view s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

} // namespace

void RecordBuilder::stampSeen(const ParsedStamp& stamp, qint64 lineNo)
{
    for (int i : m_waitingForStamp) {
        ScannedEvent& ev = m_out.events[static_cast<size_t>(i)];
        ev.nextStamp = stamp;
        ev.nextStampLine = lineNo;
    }
    m_waitingForStamp.clear();
    m_lastStamp = stamp;
    m_lastStampLine = lineNo;
}

namespace {

// "May 01 10:00:01     assert x": the line's own clock, then more than one space.
bool indentedAfterClock(const LinePrefix& p)
{
    if (p.stamp.offset != 0 || p.stamp.length <= 0)
        return false;
    // The stamp's span may hold the space after it: count from the clock's last character.
    std::size_t end = std::min(static_cast<std::size_t>(p.stamp.length), p.afterLauncher.size());
    while (end > 0 && p.afterLauncher[end - 1] == ' ')
        --end;
    const std::string_view after = p.afterLauncher.substr(end);
    return after.size() > 2 && ((after[0] == ' ' && after[1] == ' ') || after[0] == '\t' || after[1] == '\t');
}

// MPICH's (Intel MPI's, Cray MPICH's) error stack: "MPIR_Init_thread(666)......: " or
// "MPIDI_NM_mpi_init_hook(719): OFI addrinfo() failed (...)", one line per function it went through.
bool isMpiStackLine(std::string_view m)
{
    std::size_t i = 0;
    while (i < m.size() && (std::isalnum(static_cast<unsigned char>(m[i])) || m[i] == '_'))
        ++i;
    if (i == 0 || i >= m.size() || m[i] != '(')
        return false;
    const std::size_t digits = ++i;
    while (i < m.size() && m[i] >= '0' && m[i] <= '9')
        ++i;
    if (i == digits || i >= m.size() || m[i] != ')')
        return false;
    ++i;
    while (i < m.size() && m[i] == '.')
        ++i;
    return i < m.size() && m[i] == ':';
}

// "Abort(1094799) on node 0 (rank 0 in comm 0): Fatal error in PMPI_Init_thread: Other MPI error, error
// stack:"
bool endsWithErrorStack(std::string_view m)
{
    while (!m.empty() && (m.back() == ' ' || m.back() == '\r'))
        m.remove_suffix(1);
    constexpr std::string_view tail = "error stack:";
    return m.size() >= tail.size() && m.substr(m.size() - tail.size()) == tail;
}

// "... failed:", "Watchdog caught collective operation timeout:": the message goes on on the next line.
bool endsWithColon(std::string_view m)
{
    while (!m.empty() && (m.back() == ' ' || m.back() == '\r'))
        m.remove_suffix(1);
    return m.size() > 1 && m.back() == ':';
}

} // namespace

bool RecordBuilder::continueRecord(
    const LinePrefix& p, const LineClass& c, std::string_view text, qint64 lineNo)
{
    m_promoted = -1;
    if (p.nccl != NcclLevel::None) {
        if (c.shape != LineShape::NcclReturnTrail)
            return false;
        auto it = m_ncclWarn.find({ p.pid, p.tid });
        if (it == m_ncclWarn.end())
            return false;
        LogEvent& e = m_out.events[static_cast<size_t>(it->second)].event;
        if (e.lineCount < kMaxRecordLines)
            e.continuation.push_back(toQString(text));
        ++e.lineCount;
        return true;
    }
    if (m_open.empty())
        return false; // the common case: no traceback or c10 message is being collected
    auto it = m_open.find({ p.launcherRank, p.teeLocalRank, p.globalRank });
    if (p.globalRank >= 0) {
        // A rank's tagged line is a new message for the untagged record of its launcher channel, unless
        // that record is a bare exception line right above it: a paste lost the tag of its first line
        // (a Markdown backtick glued to it), and the tagged lines go on with its "Last error:" text.
        const Channel untagged { p.launcherRank, p.teeLocalRank, -1 };
        const auto bare = m_open.find(untagged);
        if (it == m_open.end() && bare != m_open.end() && bare->second.bareOpening
            && c.shape != LineShape::TracebackStart && bare->second.kind == Kind::C10
            && m_out.events[static_cast<size_t>(bare->second.event)].event.line == lineNo - 1) {
            it = m_open.emplace(Channel { p.launcherRank, p.teeLocalRank, p.globalRank }, bare->second).first;
        }
        m_open.erase(untagged);
    } else if (it == m_open.end()) {
        // An untagged line under a tagged record ("Exception raised from ..." under "[rank7]:[E ...]"):
        // the record of that launcher channel, whichever rank tagged it.
        it = std::find_if(m_open.begin(), m_open.end(), [&](const auto& open) {
            return std::get<0>(open.first) == p.launcherRank && std::get<1>(open.first) == p.teeLocalRank;
        });
    }
    if (it == m_open.end())
        return false;
    Open& rec = it->second;
    // A new message (its own stamp) ends the record, except inside torchrun's summary. A collector's
    // clock (kubectl --timestamps, a CI runner, journald) stamps every line, whoever wrote it and whether
    // or not it goes on a message: it says nothing here, and the record reads as in the bare log.
    const bool clockIndented = indentedAfterClock(p);
    // Inside a traceback, a clock followed by indentation stamps a frame or its source line: a collector
    // that stamps every line ("ts"), seen before the file's first stamped frame says so.
    const bool newMessage = p.stamp.found() && !p.stampBorrowed && !p.collectorClock
        && !(rec.kind == Kind::Traceback && clockIndented);
    if (newMessage && rec.kind != Kind::ChildFailed) {
        m_open.erase(it);
        return false;
    }
    const std::string_view m = p.message;
    // std::terminate's banner is a message of its own, even right under another record's last line; a
    // Markdown fence closes the paste that held the record.
    if (startsWith(m, "terminate called") || startsWith(trimLeft(m), "```")) {
        m_open.erase(it);
        return false;
    }
    switch (rec.kind) {
    case Kind::Introduced: {
        // "Watchdog caught collective operation timeout:" then "WorkNCCL(SeqNum=1, ...)"; XLA's "... failed:"
        // then NCCL's own words: one message, cut where it announced what follows. When the line below names
        // the cause and the first does not, the line below is the headline.
        Open opened = rec;
        m_open.erase(it);
        if (trimLeft(m).empty() || c.shape != LineShape::Plain || p.nccl != NcclLevel::None)
            return false;
        const int cause = roleRank(SignatureRole::Cause);
        const bool causeBelow = m_ctx.matcher
            && m_out.events[static_cast<size_t>(opened.event)].rolePriority != cause
            && m_ctx.matcher->matchBefore(text, cause + 1);
        if (causeBelow)
            promote(opened, text, p, c, lineNo);
        else
            append(opened, text, p, c);
        return true;
    }
    case Kind::MpiErrorStack:
        // The stack's lines go on with it; the first that names a cause is the headline (the abort line above
        // says only "Other MPI error").
        if (!isMpiStackLine(trimLeft(m))) {
            m_open.erase(it);
            return false;
        }
        if (m_out.events[static_cast<size_t>(rec.event)].rolePriority != roleRank(SignatureRole::Cause)
            && m_ctx.matcher && m_ctx.matcher->matchBefore(text, roleRank(SignatureRole::Cause) + 1)) {
            promote(rec, text, p, c, lineNo);
            return true;
        }
        break;
    case Kind::C10:
    case Kind::NcclWarn:
        if (m.empty()) {
            m_open.erase(it);
            return false;
        }
        // std::terminate's "what():" line is the exception's message, under its type's line.
        if (rec.terminate && !rec.sawException && startsWith(trimLeft(m), "what():")) {
            rec.sawException = true;
            promote(rec, text, p, c, lineNo);
            return true;
        }
        break;
    case Kind::Traceback: {
        // A paste that lost its indentation leaves frames flush left: 'File "x.py", line 3, in f' is a frame
        // wherever it starts, and the line right under one is its source.
        const bool frame = !m.empty() && m[0] != ' ' && m[0] != '\t' && isTracebackFrame(m);
        // Python 3.11+ marks the failing expression under its source line: "^^^^^^^^", "~~~~^^^^~~~".
        const bool carets = !m.empty() && m.find_first_not_of("^~ ") == std::string_view::npos;
        const bool indented = (!m.empty() && (m[0] == ' ' || m[0] == '\t')) || clockIndented || frame
            || carets || (rec.afterFrame && !m.empty() && c.shape != LineShape::ExceptionLine);
        rec.afterFrame = frame;
        // '  File "/x/distributed_c10d.py", line 842, in' and then "broadcast": a hard wrap cut the frame
        // before its function name (or its line number); the rest is no line of its own.
        if (rec.frameCut && !indented && !m.empty() && c.shape == LineShape::Plain) {
            rec.frameCut = false;
            break;
        }
        rec.frameCut = isCutFrame(m);
        // Another traceback's start goes on with this one (the remote traceback Ray prints under its
        // RayTaskError header, a chained exception): the record's exception is still to come.
        const bool chained = startsWith(m, "During handling") || startsWith(m, "The above exception")
            || c.shape == LineShape::TracebackStart || m.empty();
        rec.sawFrame = rec.sawFrame || indented;
        // Under the frames, the first unindented line shaped like one is the exception, whatever its class
        // is called ("paddle.fluid.core.EnforceNotMet: ...", "subprocess.TimeoutExpired: ...").
        const bool exception = c.shape == LineShape::ExceptionLine
            || (!indented && !rec.sawException && rec.sawFrame && endsTracebackAsException(m));
        // Before its exception a traceback holds only indented frames: an unindented line that is no
        // exception either ends it (a paste that cut the exception, then prose or another tool's output).
        if (!indented && !chained && (rec.sawException || !exception)) {
            m_open.erase(it);
            return false;
        }
        if (exception) {
            const bool first = !rec.sawException;
            rec.sawException = true;
            // torchrun raises ChildFailedError: its summary follows the traceback's last line.
            if (m.find("ChildFailedError") != std::string_view::npos)
                rec.kind = Kind::ChildFailed;
            else if (first) {
                promote(rec, text, p, c, lineNo);
                return true;
            }
        }
        break;
    }
    case Kind::ChildFailed:
        readSummaryLine(rec, m);
        if (isBorder(m, '=') && ++rec.borders >= 2) {
            append(rec, text, p, c);
            m_open.erase(it);
            return true;
        }
        break;
    }
    append(rec, text, p, c);
    return true;
}

void RecordBuilder::promote(
    Open& rec, std::string_view text, const LinePrefix& p, const LineClass& c, qint64 lineNo)
{
    // The line that says what failed (a traceback's exception, terminate's what()) is the record's
    // headline, where a reader looks first and a search finds it; the line that opened the record
    // ("Traceback (most recent call last):") leads its continuation, the frames after it.
    m_promoted = rec.event;
    LogEvent& e = m_out.events[static_cast<size_t>(rec.event)].event;
    if (e.lineCount < kMaxRecordLines)
        e.continuation.insert(0, e.text);
    ++e.lineCount;
    e.text = toQString(text);
    e.message = toQString(p.message);
    if (e.openedAt == 0)
        e.openedAt = e.line;
    e.line = lineNo;
    if (e.rank < 0)
        e.rank = rankInMessage(p.message);
    matchLine(rec, text, c, true);
}

void RecordBuilder::append(Open& rec, std::string_view text, const LinePrefix& p, const LineClass& c)
{
    ScannedEvent& ev = m_out.events[static_cast<size_t>(rec.event)];
    LogEvent& e = ev.event;
    if (e.lineCount < kMaxRecordLines)
        e.continuation.push_back(toQString(text));
    ++e.lineCount;
    // The line after PyTorch's "Last error:" is NCCL's own message: its match outranks the wrapper's of
    // the same role (anchorQuotedLastErrors() then makes it the record's line).
    const bool quoted = rec.lastErrorNext;
    rec.lastErrorNext = trimLeft(p.message) == "Last error:";
    matchLine(rec, text, c, quoted);
}

void RecordBuilder::matchLine(Open& rec, std::string_view text, const LineClass& c, bool headline)
{
    ScannedEvent& ev = m_out.events[static_cast<size_t>(rec.event)];
    LogEvent& e = ev.event;
    if (c.severity > e.severity && rec.kind != Kind::ChildFailed)
        e.severity = c.severity;
    // A continuation line can carry the real message ("Last error: NET/IB ..."): keep the best signature.
    // A record that already has a cause (role 0) cannot get a better one. matchBefore() runs the prefilter.
    // The headline's match also replaces one of the same role: "terminate called after throwing an instance
    // of 'c10::DistBackendError'" says less than the what() under it.
    const int limit = headline ? ev.rolePriority + 1 : ev.rolePriority;
    if (m_ctx.matcher && limit > roleRank(SignatureRole::Cause)) {
        MatchResult r = m_ctx.matcher->matchBefore(text, limit);
        if (r) {
            const Signature& sig = m_ctx.catalog->signatures[static_cast<size_t>(r.signature)];
            const int role = roleRank(sig.role);
            if (role < limit) {
                ev.rolePriority = role;
                e.signature = r.signature;
                e.captures = std::move(r.captures);
                if (sig.severity && *sig.severity > e.severity)
                    e.severity = *sig.severity;
            }
        }
    }
}

void RecordBuilder::readSummaryLine(Open& rec, std::string_view m)
{
    static const RE2 fieldRe(R"(^\s+(time|host|rank|exitcode)\s*: (.*)$)");
    static const RE2 rankRe(R"((-?\d+) \(local_rank: (-?\d+)\))");
    static const RE2 exitRe(R"((-?\d+) \(pid: (\d+)\))");
    static const RE2 blockRe(R"(^\[\d+\]:\s*$)");
    re2::StringPiece in(m.data(), m.size());
    if (startsWith(m, "Root Cause")) {
        rec.rootNext = true;
        return;
    }
    if (RE2::FullMatch(in, blockRe)) {
        IdentityFact f;
        f.kind = IdentityFact::Kind::TorchrunFailure;
        f.file = m_out.events[static_cast<size_t>(rec.event)].event.file;
        f.line = m_out.events[static_cast<size_t>(rec.event)].event.line;
        f.rootCause = rec.rootNext;
        m_out.facts.push_back(std::move(f));
        rec.summaryFact = static_cast<int>(m_out.facts.size()) - 1;
        return;
    }
    std::string field, value;
    if (rec.summaryFact < 0 || !RE2::FullMatch(in, fieldRe, &field, &value))
        return;
    IdentityFact& f = m_out.facts[static_cast<size_t>(rec.summaryFact)];
    if (field == "time") {
        f.text = QString::fromStdString(value).trimmed();
    } else if (field == "host") {
        f.host = QString::fromStdString(value).trimmed();
    } else if (field == "rank") {
        RE2::PartialMatch(value, rankRe, &f.rank, &f.localRank);
    } else if (field == "exitcode") {
        long long pid = -1;
        if (RE2::PartialMatch(value, exitRe, &f.exitCode, &pid))
            f.pid = pid;
    }
}

// logging's logger.exception() and error(..., exc_info=True): a message at ERROR or worse, then right
// under it, from the same writer, the traceback it logged. One record: the exception line, when it
// comes, is its headline ("Training failed" says less than the NCCL error it wraps).
bool RecordBuilder::loggedTraceback(const ScannedEvent& ev, const LineClass& c) const
{
    if (c.shape != LineShape::TracebackStart || m_out.events.empty())
        return false;
    const ScannedEvent& before = m_out.events.back();
    const LogEvent& e = before.event;
    return before.stream == ev.stream && !before.nccl && e.signature < 0 && e.lineCount == 1
        && e.line + 1 == ev.event.line && e.severity >= Severity::Error;
}

void RecordBuilder::open(ScannedEvent&& ev, const LinePrefix& p, const LineClass& c)
{
    if (loggedTraceback(ev, c)) {
        const int index = static_cast<int>(m_out.events.size()) - 1;
        LogEvent& e = m_out.events.back().event;
        e.continuation.push_back(ev.event.text);
        ++e.lineCount;
        Open rec;
        rec.event = index;
        rec.kind = Kind::Traceback;
        m_open[Channel { p.launcherRank, p.teeLocalRank, p.globalRank }] = rec;
        return;
    }
    if (!ev.stamp.found()) {
        ev.prevStamp = m_lastStamp;
        ev.prevStampLine = m_lastStampLine;
        m_waitingForStamp.push_back(static_cast<int>(m_out.events.size()));
    }
    const bool childFailed =
        p.message.find("ChildFailedError") != std::string_view::npos && c.shape == LineShape::ExceptionLine;
    m_out.events.push_back(std::move(ev));
    const int index = static_cast<int>(m_out.events.size()) - 1;
    const Channel channel { p.launcherRank, p.teeLocalRank, p.globalRank };
    m_open.erase(channel);
    if (p.nccl == NcclLevel::Warn
        || c.shape == LineShape::NcclReturnTrail) { // the rest of the trail joins it
        m_ncclWarn[{ p.pid, p.tid }] = index;
        return;
    }
    if (p.nccl != NcclLevel::None)
        return;
    Open rec;
    rec.event = index;
    rec.terminate = startsWith(p.message, "terminate called");
    // No c10 rank tag of its own: a wrapper's clock, host, pid or launcher rank stamps every line alike (the
    // tagged lines that follow are looked up under the same launcher channel).
    rec.bareOpening = p.globalRank < 0 && c.shape == LineShape::ExceptionLine;
    if (childFailed)
        rec.kind = Kind::ChildFailed;
    else if (c.shape == LineShape::TracebackStart)
        rec.kind = Kind::Traceback;
    else if (p.stamp.kind == StampKind::Glog || startsWith(p.message, "terminate called")
        || c.shape == LineShape::ExceptionLine)
        rec.kind = Kind::C10;
    else if (c.shape == LineShape::Plain && endsWithErrorStack(p.message))
        rec.kind = Kind::MpiErrorStack;
    else if (c.shape == LineShape::Plain && endsWithColon(p.message))
        rec.kind = Kind::Introduced;
    else
        return; // one-line messages (torch logs prefix every physical line)
    m_open[channel] = rec;
}

void RecordBuilder::pinnedEvents(std::vector<int>& out) const
{
    for (const auto& [channel, rec] : m_open)
        out.push_back(rec.event);
    for (const auto& [thread, event] : m_ncclWarn)
        out.push_back(event);
}

void RecordBuilder::remapEvents(const std::vector<int>& remap)
{
    const auto moved = [&](int event) { return remap[static_cast<std::size_t>(event)]; };
    for (auto& [channel, rec] : m_open)
        rec.event = moved(rec.event);
    for (auto& [thread, event] : m_ncclWarn)
        event = moved(event);
    if (m_promoted >= 0)
        m_promoted = moved(m_promoted);
    // An event still waiting for its next stamp may have been folded: it needs none any more.
    std::vector<int> waiting;
    for (int event : m_waitingForStamp) {
        if (moved(event) >= 0)
            waiting.push_back(moved(event));
    }
    m_waitingForStamp = std::move(waiting);
}

void RecordBuilder::finish()
{
    m_open.clear();
    m_ncclWarn.clear();
}

} // namespace rankscope
