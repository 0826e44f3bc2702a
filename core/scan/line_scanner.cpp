// SPDX-License-Identifier: MIT
// LineScanner's hot path: line(), which every line of every file goes through, and the shortcuts it
// takes for lines that repeat a known NCCL INFO prefix or glog header and say nothing new. Every check in
// a shortcut must agree with the full parse below it; tst_scan_shortcuts loads every input both ways.
#include "line_scanner.h"

#include "byte_compare.h"
#include "failure_words.h"
#include "identity_facts.h"
#include "literal_prefilter.h"
#include "setup_facts.h"
#include "severity_rules.h"
#include "signature_catalog.h"
#include "signature_matcher.h"
#include "space_stand_ins.h"
#include "terminal_codes.h"
#include "text_util.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <iterator>

namespace rankscope {

namespace {

// The line's own level is INFO (NCCL INFO/TRACE, a glog 'I', Python logging's INFO, vLLM's "INFO 04-13").
bool saysInfoLevel(const LinePrefix& p)
{
    if (p.nccl == NcclLevel::Info || p.nccl == NcclLevel::Trace || p.nccl == NcclLevel::Call)
        return true;
    if (p.stamp.severity == 'I')
        return true;
    const std::string_view head = p.message.substr(0, 48);
    const std::size_t at = head.find("INFO");
    return at != std::string_view::npos && (at == 0 || head[at - 1] == ' ' || head[at - 1] == '\t')
        && at + 4 < head.size() && (head[at + 4] == ' ' || head[at + 4] == ':' || head[at + 4] == '\t');
}

// A kernel log line (dmesg, journalctl -k, NVRM), else what a wrapper called the writer.
QString sourceOf(const LinePrefix& p)
{
    const std::string_view m = p.message;
    if (p.stamp.kind == StampKind::Dmesg || p.sourceTag == "kernel"
        || m.find("NVRM: ") != std::string_view::npos || startsWith(m, "DMAR: ") || startsWith(m, "AMD-Vi: ")
        || startsWith(m, "kernel: "))
        return QStringLiteral("kernel");
    return p.sourceTag.empty() ? QString() : bytesToQString(p.sourceTag);
}

// Text pasted from an issue or a chat: drop quote markers, code fences' backticks and markdown emphasis.
std::string unwrapPasted(std::string_view line)
{
    std::string out;
    out.reserve(line.size());
    std::string_view s = line;
    while (startsWith(s, "> "))
        s.remove_prefix(2);
    for (size_t i = 0; i < s.size(); ++i) {
        if ((s[i] == '*' || s[i] == '_') && i + 1 < s.size() && s[i + 1] == s[i]) {
            ++i;
            continue;
        }
        if (s[i] == '`')
            continue;
        out.push_back(s[i]);
    }
    return out;
}

// 'raise RuntimeError(f"NCCL error: {error_str}")': Python source echoed by a traceback, whatever its
// indentation (a paste may strip it and the frame above it); no log line starts so.
bool isRaiseStatement(std::string_view m)
{
    const std::string_view t = trimLeft(m);
    return t.size() > 6 && startsWith(t, "raise ")
        && ((t[6] >= 'A' && t[6] <= 'Z') || (t[6] >= 'a' && t[6] <= 'z') || t[6] == '_');
}

// "Watchdog caught collective ...": two plain words, the first no Python keyword. Code never puts two
// bare names side by side but after a keyword ("return x", "assert rank is not None", "raise E from e").
bool startsWithProse(std::string_view t)
{
    static constexpr std::string_view keywords[] = { "and", "as", "assert", "async", "await", "break",
        "continue", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in",
        "is", "lambda", "nonlocal", "not", "or", "pass", "print", "raise", "return", "try", "while", "with",
        "yield" };
    const auto plainWord = [](std::string_view w) {
        return !w.empty() && std::all_of(w.begin(), w.end(), [](char ch) {
            return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '-' || ch == '\'';
        });
    };
    const size_t space = t.find(' ');
    if (space == std::string_view::npos)
        return false;
    const std::string_view first = t.substr(0, space);
    const std::string_view rest = t.substr(space + 1);
    const std::string_view second = rest.substr(0, std::min(rest.find(' '), rest.size()));
    return plainWord(first) && plainWord(second)
        && std::find(std::begin(keywords), std::end(keywords), first) == std::end(keywords);
}

// '    backend_class = ProcessGroupGloo(': a traceback's source line, indented by four or more, not a
// label or an exception ("Name: ..."). A logger that prints each line of a traceback behind its own header
// (vLLM's and Ray's workers, at ERROR) gives it a level and a clock; a paste that began below the frame
// above it keeps only that. Asked only of lines with a header of their own: a bare indented line is a
// table's or a banner's.
bool isIndentedSource(std::string_view m)
{
    if (m.size() < 5 || m.substr(0, 4) != "    ")
        return false;
    const std::string_view t = trimLeft(m);
    if (t.empty())
        return false;
    const char c = t[0];
    const bool codeStart = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '^'
        || c == '~' || c == '(' || c == '[' || c == '{' || c == '"' || c == '\'';
    const std::string_view word = t.substr(0, std::min(t.find(' '), t.size()));
    return codeStart && word.back() != ':' && !startsWithProse(t);
}

// Lines only a program's bare stderr writes, under a record: std::terminate's "  what():  ...", a c10
// backtrace's "frame #3: ..." and its "Exception raised from ..." header.
bool isBareContinuation(std::string_view m)
{
    const std::string_view t = trimLeft(m);
    return startsWith(t, "what():") || startsWith(t, "Exception raised from ")
        || (startsWith(t, "frame #") && t.size() > 7 && t[7] >= '0' && t[7] <= '9');
}

// Letters, and none of them capital: a line a person typed, since logs print their levels, exception
// names and NCCL's words with capitals.
bool isAllLowerCase(std::string_view text)
{
    bool letters = false;
    for (const char c : text) {
        if (c >= 'A' && c <= 'Z')
            return false;
        letters = letters || (c >= 'a' && c <= 'z');
    }
    return letters;
}

// Behind a clock that stamps every line, one space ends the clock and the rest is the line's own: a
// traceback frame's indentation must stay for its record to go on.
void keepIndentAfterClock(LinePrefix& p)
{
    const std::string_view after = p.afterLauncher.substr(static_cast<size_t>(p.stamp.length));
    if (after.size() < 2 || after[0] != ' ' || p.message.data() <= after.data()
        || p.message.data() > after.data() + after.size())
        return;
    const auto skipped = static_cast<size_t>(p.message.data() - after.data());
    if (after.substr(0, skipped).find_first_not_of(' ') == std::string_view::npos)
        p.message = after.substr(1);
}

// "transport.cc:166 -> 2": the trail's code is an error (0 is success).
bool passesErrorUp(std::string_view m)
{
    const std::size_t at = m.find(" -> ");
    return at != std::string_view::npos && at + 4 < m.size() && m[at + 4] >= '1' && m[at + 4] <= '9';
}

} // namespace

QString bytesToQString(std::string_view s)
{
    QString out =
        QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); // invalid UTF-8 becomes U+FFFD
    out.replace(QChar(u'\0'), QChar(u'\uFFFD'));
    return out;
}

LineScanner::LineScanner(FileScan& out, const ScanContext& ctx, int fileIndex)
    : m_out(out)
    , m_ctx(ctx)
    , m_prefilter(ctx.matcher ? ctx.matcher->literalPrefilter() : nullptr)
    , m_file(fileIndex)
    , m_records(out, ctx)
    , m_launch(out.launch)
{
}

void LineScanner::line(std::string_view raw, qint64 offset, bool cut)
{
    // Before the line, where no caller holds an event's index: the same lines see the same folds whichever
    // way they were read (the reference scan, the shortcuts, a cut line's pieces).
    if (m_ctx.foldRepeats && m_folder.due(m_out.events.size()))
        foldRepeats(false);
    ++m_lineNo;
    if (m_keepOffsets)
        m_out.info.lineOffsets.push_back(offset);
    m_last.bytes = nullptr;
    const std::size_t rawSize = raw.size();
    if (!raw.empty() && raw.back() == '\r')
        raw.remove_suffix(1);
    // A coloured console: the line is read, and shown, without its ESC sequences, and takes the full
    // parse (the shortcuts compare raw bytes).
    std::string& decoloured = m_decoloured;
    const bool coloured = m_blockHasEscape && stripTerminalCodes(raw, decoloured, m_standIns);
    if (coloured)
        raw = decoloured;
    // A web page's no-break spaces, rsyslog's "#011": spaces to the reader, and to the parse.
    const bool respaced = m_blockHasSpaceStandIns && replaceSpaceStandIns(raw, m_respaced);
    if (respaced)
        raw = m_respaced;
    const bool fullParseOnly = m_pasted || coloured || respaced || m_commonIndent > 0 || m_wrapWidth > 0;
    std::string unwrapped;
    std::string_view text = raw;
    if (m_pasted) {
        unwrapped = unwrapPasted(raw);
        text = unwrapped;
    }
    if (m_commonIndent > 0 && text.size() >= static_cast<std::size_t>(m_commonIndent)
        && text.find_first_not_of(' ') >= static_cast<std::size_t>(m_commonIndent))
        text.remove_prefix(static_cast<std::size_t>(m_commonIndent));
    if (cut)
        m_out.info.notes.push_back(
            QStringLiteral("line %1 is 1 MiB or longer: cut at 1 MiB, with a marker").arg(m_lineNo));

    if (m_wrap.line >= 0) { // rare: the line before failed and matched nothing
        const bool goesOn = m_wrap.line + 1 == m_lineNo && matchAcrossWrap(text);
        m_wrap.line = goesOn ? m_lineNo : -1;
    }

    if (m_ctx.shortcuts && !fullParseOnly && !m_restartPending && plainLine(text)) {
        if (m_last.stream >= 0 && !cut && rawSize <= 4096) { // the NCCL shortcut took it: see repeatedLine()
            m_last.bytes = raw.data();
            m_last.size = rawSize;
            m_last.textSize = text.size();
        }
        return;
    }
    tellLastStamp(); // the full parse may open an event that takes it as its previous stamp

    LinePrefix p;
    int glogEntry = -1;
    // The block search's level cues include a tag glued to a progress bar ("][rank3]:"): a line without one
    // is read without looking for it (the look cost a plain console 6 % of its scan).
    const bool cues = mayHoldLevelWord(text);
    if (m_ctx.shortcuts && !fullParseOnly && !cues && m_glog.match(text, p)) {
        glogEntry = m_glog.lastEntry();
        readNcclLevelAnywhere(p); // as parseLinePrefix() does
    } else {
        p = parseLinePrefix(text, cues);
        if (!fullParseOnly)
            m_glog.learn(text, p);
    }
    LineClass c = classifyLine(p, cues);
    if (restartBefore(p) && m_lineNo > 1) {
        ++m_segment;
        m_out.restartLines.push_back(m_lineNo);
        m_out.restartOffsets.push_back(offset);
        m_repeat.forget(); // its streams are the previous attempt's
    }
    const int stream = streamIndex(p);
    m_repeat.learn(text, p, stream);
    if (glogEntry >= 0)
        m_glog.setStream(glogEntry, m_segment, stream);
    StreamStats& st = m_out.streams[static_cast<size_t>(stream)];
    ++st.lines;

    if (p.stamp.found() && p.stamp.kind != StampKind::Dmesg) {
        if (m_out.yearSeen == 0 && p.stamp.year != 0)
            m_out.yearSeen = p.stamp.year;
        if (!st.hasStamp) {
            st.firstStamp = p.stamp;
            st.firstLine = m_lineNo;
            st.hasStamp = true;
        }
        st.lastStamp = p.stamp;
        st.lastLine = m_lineNo;
        if (static_cast<size_t>(stream) < m_laterStamps.size())
            m_laterStamps[static_cast<size_t>(stream)].valid = false; // older than this one
        m_out.info.hasTimestamps = true;
        m_records.stampSeen(p.stamp, m_lineNo);
    }

    const bool frame = isTracebackFrame(p.message);
    const bool frameSource = (!frame && m_frameLine == m_lineNo - 1 && !p.message.empty()
                                 && (p.message[0] == ' ' || p.message[0] == '\t'))
        || isRaiseStatement(p.message)
        || (!frame && p.stamp.found() && !p.stampBorrowed && isIndentedSource(p.message));
    if (frame)
        m_frameLine = m_lineNo;
    // A clock on a traceback's frame (or another line only bare stderr writes) is no logger's: something
    // stamps every line it passes on ("ts", a CI runner, journald), and the file's clocks start no message.
    const bool ownClock = p.stamp.found() && !p.stampBorrowed && p.stamp.offset == 0;
    if (ownClock && (frame || isBareContinuation(p.message)))
        m_clockOnEveryLine = true;
    if (m_clockOnEveryLine && ownClock) {
        p.collectorClock = true;
        keepIndentAfterClock(p);
    }
    m_launch.lookPrefix(p, text, m_lineNo);
    if (m_records.continueRecord(p, c, text, m_lineNo)) {
        // A headline that matched nothing may be cut by a hard wrap, as an event's first line may.
        if (const int promoted = m_records.promotedEvent();
            promoted >= 0 && m_out.events[static_cast<size_t>(promoted)].event.signature < 0)
            rememberWrapCandidate(text, promoted);
        // A traceback's frames name the framework ("deepspeed/runtime/engine.py"); the prefilter knows
        // every cue's phrase, and records are few.
        if (!m_launch.done() && (!m_prefilter || prefilterPasses(text)))
            m_launch.lookText(text, p, m_lineNo);
        return;
    }

    // A frame with no record open: the paste began below "Traceback (most recent call last):" (or a logger
    // prints every line of a traceback behind its own header, as vLLM's and Ray's workers do at ERROR). The
    // frame opens the traceback's record, so the frames above the exception stay with it and the exception
    // line heads it; a record that never gets one stays at the frame's own level, no failure.
    if (frame && c.shape == LineShape::Plain)
        c.shape = LineShape::TracebackStart;
    ++st.counts[static_cast<size_t>(c.severity)];
    if (frameSource)
        return; // a frame's source line outside a record (the paste began below "Traceback")
    readFacts(p, text);
    noteStep(p.message, stream);
    if (p.nccl == NcclLevel::None && saysRestart(p.message)) { // torchrun's agent, never an NCCL line
        // The agent may say both in a row: one restart, not two.
        if (m_lastRestartMessage < 0 || m_lineNo - m_lastRestartMessage > 50)
            m_restartPending = true; // the lines after this one are the next attempt's
        m_lastRestartMessage = m_lineNo;
        m_bannerPid.clear();
    }

    // One prefilter pass serves the signatures and the failure words: false means neither can be there.
    const bool mayMatch = prefilterPasses(text, nullptr, &m_candidates);
    MatchResult match;
    if (mayMatch)
        match = m_ctx.matcher->matchCandidates(text, m_candidates);
    // A person retyped it in lower case ("runtimeerror: cuda error: invalid device ordinal"): the catalog
    // matches it without regard to case. Only such lines, with a failure word, ask.
    if (!match && mayMatch && isAllLowerCase(p.message) && hasFailureWord(text))
        match = m_ctx.matcher->matchIgnoringCase(text);
    // The prefilter passes every launch cue (kLaunchPhrases) but those read on WARN-or-worse lines.
    if (mayMatch || !m_prefilter || (c.severity >= Severity::Warn && !m_launch.done()))
        m_launch.lookText(text, p, m_lineNo);
    Severity severity = c.severity;
    int role = kUnmatchedRoleRank;
    if (match) {
        const Signature& sig = m_ctx.catalog->signatures[static_cast<size_t>(match.signature)];
        role = roleRank(sig.role);
        if (sig.severity && *sig.severity > severity)
            severity = *sig.severity;
    }
    // A failure word anywhere makes the line an event: an ERROR when the line has no level of its own,
    // else (an INFO line that says "Failed to open ...") an event at its own level, which the diagnosis
    // takes only when nothing else failed.
    bool failureWord = false;
    // Not the reporter's prose around a paste: a heading, also behind a wrapper ("3: **Error:**"), or a
    // sentence in the first person on a line with no log structure of its own; nor a text table's row.
    const bool bare = !p.stamp.found() && p.globalRank < 0 && p.launcherRank < 0 && p.teeLocalRank < 0
        && p.pid < 0 && p.pdshHost.empty() && p.nccl == NcclLevel::None;
    if (severity < Severity::Warn && (mayMatch || !m_prefilter) && hasFailureWord(text)
        && !isHeadingLeadIn(p.message) && !(bare && isReporterProse(p.message)) && !isTableRow(text)) {
        failureWord = true;
        if (!saysInfoLevel(p))
            severity = Severity::Error;
    }
    // NCCL's "file.cc:123 -> 2" passes an error up. Right after a WARN of its thread it joined that record
    // (continueRecord); without one, the WARN was cut from the paste or never printed, and the trail is the
    // first sign of the failure in this process.
    if (c.shape == LineShape::NcclReturnTrail && passesErrorUp(p.message) && severity < Severity::Warn)
        severity = Severity::Warn;
    if (severity < Severity::Warn && !match && !failureWord && c.shape != LineShape::TracebackStart)
        return;

    ScannedEvent ev;
    ev.stream = stream;
    ev.stamp = p.stamp;
    ev.nccl = p.nccl != NcclLevel::None;
    ev.ncclWarnText = raw.find(" NCCL WARN ") != std::string_view::npos;
    ev.rolePriority = role;
    LogEvent& e = ev.event;
    e.file = m_file;
    e.line = m_lineNo;
    e.severity = severity;
    e.rank = p.globalRank >= 0 ? p.globalRank
        : p.launcherRank >= 0  ? p.launcherRank
                               : rankInMessage(p.message);
    e.localRank = p.teeLocalRank;
    e.pid = st.key.pid;
    e.device = p.ncclDev;
    e.host = st.key.host;
    e.text = bytesToQString(raw);
    if (cut)
        e.text += QStringLiteral(" [… line cut at 1 MiB]");
    e.message = bytesToQString(p.message);
    e.signature = match.signature;
    e.captures = std::move(match.captures);
    e.failureWord = failureWord || (severity >= Severity::Warn && hasFailureWord(text));
    e.source = sourceOf(p);
    // A failure line that matched nothing, or only a symptom, may say more with the line after it (a hard
    // wrap cut "... error: No space lef" / "t on device").
    const bool improvable =
        match ? role > roleRank(SignatureRole::Cause) : severity >= Severity::Warn || failureWord;
    m_records.open(std::move(ev), p, c);
    if (improvable)
        rememberWrapCandidate(text, static_cast<int>(m_out.events.size()) - 1);
}

inline bool LineScanner::plainLine(std::string_view text)
{
    m_last.stream = -1;
    const bool glogFirst = m_glogFirst;
    if (glogFirst ? plainGlogLine(text) : plainNcclLine(text))
        return true;
    if (!(glogFirst ? plainNcclLine(text) : plainGlogLine(text)))
        return false;
    m_glogFirst = !glogFirst;
    return true;
}

inline bool LineScanner::plainNcclLine(std::string_view text)
{
    std::string_view message;
    int stream = -1;
    return m_repeat.match(text, message, stream) && plainInfoLine(text, message, stream);
}

inline bool LineScanner::plainInfoLine(std::string_view text, std::string_view message, int stream)
{
    // An identity line or a "step N" progress line needs the full parse: one predicate with the facts.
    if (!message.empty()
        && (mayStartIdentityLine(message[0]) || mayStartSetupLine(message[0]) || message[0] == 's'))
        return false;
    Q_ASSERT(stream >= 0 && static_cast<size_t>(stream) < m_out.streams.size());
    if (std::memchr(message.data(), '>', std::min<size_t>(message.size(), 164)))
        return false; // maybe "file.cc:123 -> 2"; one memchr measured cheaper than isReturnTrail()
    bool sawAtom = false;
    if (prefilterPasses(text, &sawAtom))
        return false;
    if (!sawAtom) { // a candidate for repeatedLine()
        m_last.stream = stream;
        m_last.messageAt = static_cast<std::size_t>(message.data() - text.data());
    }
    StreamStats& st = m_out.streams[static_cast<size_t>(stream)];
    ++st.lines;
    ++st.counts[static_cast<size_t>(Severity::Info)];
    return true;
}

qint64 LineScanner::repeatedGlogLine(const char* start, qint64 avail, qint64 offset)
{
    const LastPlainMessage last = m_lastMessage;
    if (!last.bytes || !m_glogFirst || m_restartPending || last.size > 4096) // a cut line is never repeated
        return -1;
    // The header's bytes are the entry's own or digits, never a line end: the line ends where the last
    // message does, if it repeats that message.
    const int entry = m_glog.headerEntry(std::string_view(start, static_cast<std::size_t>(avail)));
    if (entry < 0)
        return -1;
    const std::size_t headerEnd = m_glog.headerEnd(entry);
    const std::size_t n = headerEnd + last.size;
    if (static_cast<std::size_t>(avail) <= n || start[n] != '\n'
        || (last.size > 0 && last.bytes[last.size - 1] == '\r')
        || !sameBytes(start + headerEnd, last.bytes, last.size))
        return -1;
    const std::string_view text(start, n);
    const int stream = glogStream(entry, text);
    std::string_view m = text.substr(headerEnd);
    if (stream < 0 || (m_prefilter ? prefilterPasses(text) : saysRestart(m)))
        return -1;
    // What line() does before the shortcut, then the shortcut without the message's class: it is the
    // last plain line's.
    ++m_lineNo;
    if (m_keepOffsets)
        m_out.info.lineOffsets.push_back(offset);
    m_last.bytes = nullptr;
    m_last.stream = -1;
    while (!m.empty() && m[0] == ' ')
        m.remove_prefix(1); // as messageOf() reads it
    countGlogLine(entry, stream, text, m);
    return static_cast<qint64>(n);
}

inline int LineScanner::glogStream(int entry, std::string_view text)
{
    if (m_glog.severityOf(entry, text) != 'I'
        || m_records.collecting(
            m_glog.launcherRankOf(entry), m_glog.teeLocalRankOf(entry), m_glog.globalRankOf(entry)))
        return -1;
    const int stream = m_glog.stream(entry, m_segment);
    return stream >= 0 && m_out.streams[static_cast<size_t>(stream)].hasStamp ? stream : -1;
}

inline bool LineScanner::plainGlogLine(std::string_view text)
{
    const int entry = m_glog.headerEntry(text);
    const int stream = entry < 0 ? -1 : glogStream(entry, text);
    if (stream < 0)
        return false;
    const std::size_t headerEnd = m_glog.headerEnd(entry);
    std::string_view m = text.substr(headerEnd);
    if (!isPlainInfoMessage(m)) { // the exact rules: leading spaces, an NCCL prefix, a fact, the class
        if (!m_glog.messageOf(entry, text, m) || (!m.empty() && m[0] == '#'))
            return false;
        const LineClass c = classifyMessage('I', m, mayHoldLevelWord(text));
        if (c.severity != Severity::Info || c.shape != LineShape::Plain)
            return false;
    }
    if (m_prefilter ? prefilterPasses(text) : saysRestart(m)) // the prefilter knows kRestartPhrases
        return false;
    countGlogLine(entry, stream, text, m);
    m_lastMessage = { text.data() + headerEnd, text.size() - headerEnd };
    return true;
}

inline void LineScanner::countGlogLine(int entry, int stream, std::string_view text, std::string_view message)
{
    StreamStats& st = m_out.streams[static_cast<size_t>(stream)];
    ++st.lines;
    ++st.counts[static_cast<size_t>(Severity::Info)];
    st.lastLine = m_lineNo;
    if (m_records.waitingForStamp()) { // an earlier event takes this stamp as its next one: now
        tellLastStamp();
        m_glog.stampOf(entry, text, st.lastStamp);
        if (static_cast<size_t>(stream) < m_laterStamps.size())
            m_laterStamps[static_cast<size_t>(stream)].valid = false;
        m_records.stampSeen(st.lastStamp, m_lineNo);
    } else {
        // Kept as bytes: the stream's next line will most likely replace it.
        if (m_laterStamps.size() <= static_cast<size_t>(stream))
            m_laterStamps.resize(static_cast<size_t>(stream) + 1);
        LaterStamp& later = m_laterStamps[static_cast<size_t>(stream)];
        m_glog.stampBytes(entry, text, later.bytes);
        later.valid = true;
        m_untoldStream = stream;
        m_untoldLine = m_lineNo;
    }
    noteStep(message, stream);
}

inline void LineScanner::tellLastStamp()
{
    if (m_untoldStream < 0)
        return;
    const ParsedStamp s = m_laterStamps[static_cast<size_t>(m_untoldStream)].bytes.parse();
    m_records.stampSeen(s, m_untoldLine);
    m_untoldStream = -1;
}

inline void LineScanner::noteStep(std::string_view message, int stream)
{
    if (message.size() < 5 || message[0] != 's' || message.substr(0, 5) != "step ")
        return;
    if (m_stepDigits.size() <= static_cast<size_t>(stream))
        m_stepDigits.resize(static_cast<size_t>(stream) + 1);
    StepDigits& step = m_stepDigits[static_cast<size_t>(stream)];
    if (message.size() >= 5 + 8) {
        // Eight bytes at once: the high bit of each byte that is no digit, the first of them ends it.
        const quint64 word = loadWord(message.data() + 5);
        const quint64 x = word ^ 0x3030303030303030ull; // digits become 0..9
        const quint64 nonDigit =
            (((x & 0x7F7F7F7F7F7F7F7Full) + 0x7676767676767676ull) | x) & 0x8080808080808080ull;
        if (nonDigit != 0) {
            std::memcpy(step.digits, &word, 8);
            step.size = static_cast<quint8>(std::countr_zero(nonDigit) / 8);
            return;
        }
    }
    const std::string_view rest = message.substr(5, sizeof(StepDigits::digits));
    quint8 digits = 0;
    for (const char c : rest) {
        if (static_cast<unsigned>(c - '0') > 9u)
            break;
        step.digits[digits++] = c;
    }
    step.size = digits;
}

inline bool LineScanner::saysRestart(std::string_view message)
{
    static_assert(std::size(kRestartPhrases) == 2);
    return !message.empty() && std::memchr(message.data(), 'w', message.size())
        && (message.find(kRestartPhrases[0]) != std::string_view::npos
            || message.find(kRestartPhrases[1]) != std::string_view::npos);
}

} // namespace rankscope
