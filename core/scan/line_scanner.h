// SPDX-License-Identifier: MIT
// The per-line work of scanning one log file: attribution to a stream, stamps, severity, multi-line
// records, identity facts, restarts and signature hits, with shortcuts for the lines that repeat a known
// NCCL or glog prefix and say nothing new (ScanContext::shortcuts turns them off; the results must not
// change). scanFile() feeds it the file's lines in order.
#pragma once

#include "launch_detect.h"
#include "line_prefix.h"
#include "literal_prefilter.h"
#include "record_builder.h"
#include "repeat_folding.h"
#include "repeated_glog_prefix.h"
#include "repeated_nccl_prefix.h"
#include "scan_records.h"
#include "wrap_width.h"

#include <QString>
#include <array>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace rankscope {

// Bytes of a log as text: invalid UTF-8 and NUL become U+FFFD.
QString bytesToQString(std::string_view bytes);

class LineScanner
{
public:
    LineScanner(FileScan& out, const ScanContext& ctx, int fileIndex);

    void line(std::string_view raw, qint64 offset, bool cut);
    // Before line(): when the bytes at `start` (`avail` of them) begin a line that repeats the last one
    // but for a short stretch of its message that holds no atom, '>' or line end ("opCount b7" becoming
    // "opCount b8"), counts it as the plain INFO line it is and returns its length; -1 otherwise.
    // The last line's bytes must still be where line() saw them: forgetLastLine() before they move.
    qint64 repeatedLine(const char* start, qint64 avail, qint64 offset);
    void forgetLastLine()
    {
        m_last.bytes = nullptr;
        m_lastMessage.bytes = nullptr;
    }
    void finish();
    void setPasted(bool pasted) { m_pasted = pasted; }
    // Spaces that every line of the file's first read starts with (an indented Markdown block, a list
    // item): taken off each line before it is read, so a traceback's own indentation means what it says.
    void setCommonIndent(int spaces) { m_commonIndent = spaces; }
    // Whether the block the next lines come from holds an ESC byte (one memchr per block, not per line).
    void setBlockHasEscape(bool has) { m_blockHasEscape = has; }
    // Whether this block may hold no-break spaces or rsyslog's "#011" (space_stand_ins.h).
    void setBlockHasSpaceStandIns(bool has) { m_blockHasSpaceStandIns = has; }
    // Whether the file's first read showed colour codes whose ESC a copy lost or rewrote ("#033[", "[0m").
    void setStandIns(bool standIns) { m_standIns = standIns; }
    // The prefilter's atom occurrences in the block the next lines are views of, or null once its bytes
    // move: a line inside it is looked up there, any other text (a copy without colour codes) is scanned.
    void setBlockHits(const AtomHits* hits) { m_block = hits; }
    void keepOffsets(bool keep) { m_keepOffsets = keep; }
    bool keepsOffsets() const { return m_keepOffsets; }
    // A file copied from a terminal that cut its lines at its width, or wrapped at spaces by an editor
    // (detectWrap()): lines go through physicalLine(), which reads a broken line and its pieces as one
    // (line_scanner_wrap.cpp).
    void setWrap(WrapShape wrap)
    {
        m_wrapWidth = wrap.width;
        m_wrapAtSpaces = wrap.atSpaces;
    }
    bool joinsWraps() const { return m_wrapWidth > 0; }
    void physicalLine(std::string_view raw, qint64 offset, bool cut)
    {
        if (m_wrapWidth == 0)
            line(raw, offset, cut);
        else
            cutAtWidth(raw, offset, cut);
    }
    qint64 lineCount() const { return m_lineNo; }

private:
    // Folds the repeats among the events that came since the last call (repeat_folding.h); `all` at the end.
    void foldRepeats(bool all);
    // The shortcuts (inline: defined and used in line_scanner.cpp only, where line() takes them on every
    // line; out of line they cost 5 % more instructions). The two shortcuts, the one that took the line
    // before first: a file is NCCL lines or console lines.
    inline bool plainLine(std::string_view text);
    inline bool plainNcclLine(std::string_view text);

    // A line that repeats the NCCL INFO prefix of its stream: when its message cannot carry an identity
    // fact, a restart banner, a return trail or a step, and no signature can match it, counting it is
    // all there is to do. Returns false to send the line through the full parse.
    inline bool plainInfoLine(std::string_view text, std::string_view message, int stream);

    // A glog line that repeats a remembered header ("[default4]:[rank36]:I0314 02:10:43.212000 53386
    // train.py:212] step 2790 | loss ..."): an INFO line of a known stream, whose message is no traceback,
    // exception, fact, restart or signature, only adds to its stream's counts and last stamp. Returns false
    // to send the line through the full parse.
    inline bool plainGlogLine(std::string_view text);
    // The checks of plainGlogLine() before the message: an INFO line of a known stream with a stamp, not
    // inside a record. The stream, or -1.
    inline int glogStream(int entry, std::string_view text);
    // What plainGlogLine() does with a line it takes: counts, the stamp, the step.
    inline void countGlogLine(int entry, int stream, std::string_view text, std::string_view message);
    // repeatedLine() for a glog line whose message repeats the last one the glog shortcut took.
    qint64 repeatedGlogLine(const char* start, qint64 avail, qint64 offset);

    // The last stamped line, when the console shortcut kept its stamp as bytes: the record builder is told
    // of it before anything can ask it for the previous stamp.
    inline void tellLastStamp();

    // "step 2790 | loss ...": the stream's last step, kept as bytes and made a QString in finish().
    inline void noteStep(std::string_view message, int stream);

    // torchrun's agent announcing the next attempt. 'w' is a rare letter: most messages are passed over
    // by one memchr.
    static inline bool saysRestart(std::string_view message);
    // The prefilter's answer for `text` (false without a prefilter): from the block's hits when `text` is
    // a view of the block, else from a scan of its own.
    inline bool prefilterPasses(
        std::string_view text, bool* sawAtom = nullptr, PatternCandidates* candidates = nullptr) const;
    // False when the block search found none of kLevelCues in `text`, a view of the block: the line's
    // message need not be read for a level word.
    inline bool mayHoldLevelWord(std::string_view text) const
    {
        return !m_prefilter || !m_block || m_prefilter->mayHoldLevelWord(*m_block, text);
    }
    int streamIndex(const LinePrefix& p);
    int remember(int stream);

    // Elastic restarts inside one file: torchrun's agent says so, or a rank prints a new NCCL banner from a
    // new process. Returns true when the line starts a new attempt.
    bool restartBefore(const LinePrefix& p);
    void readBareSocketSetup(std::string_view message);
    void readFacts(const LinePrefix& p, std::string_view text);
    void readSetup(const LinePrefix& p);
    void readWrapperRank(const LinePrefix& p);
    // A failure line that matched no signature may have been hard-wrapped by the paste it came from
    // ("... trying to connect to (172.17.0.2" then ", 44737)."): the next line, when it starts nothing of
    // its own, is matched together with it. The event keeps its own line; only its signature is taken.
    void rememberWrapCandidate(std::string_view text, int event);
    // Whether the failure line may go on in the line after `next` too (`next` was full).
    bool matchAcrossWrap(std::string_view next);
    void cutAtWidth(std::string_view raw, qint64 offset, bool cut);
    void flushCutLine();
    FileScan& m_out;
    const ScanContext& m_ctx;
    const LiteralPrefilter* m_prefilter; // the matcher's, asked directly by the shortcuts
    PatternCandidates m_candidates; // the patterns the prefilter let through for the line being parsed
    const AtomHits* m_block = nullptr;
    int m_file;
    RecordBuilder m_records;
    RepeatFolder m_folder;
    RepeatedNcclPrefix m_repeat;
    RepeatedGlogPrefix m_glog;
    LaunchDetector m_launch;
    struct StepDigits
    {
        char digits[20];
        quint8 size = 0;
    };
    std::vector<StepDigits> m_stepDigits; // per stream: the number of its last "step N" line
    qint64 m_lineNo = 0;
    // The last line that was a Python traceback frame ('  File "x.py", line 9, in f'): the indented line
    // right after it is that frame's source code ('raise RuntimeError(f"NCCL error: {e}")'), which quotes
    // words of an error but never is one, even where a paste cut the "Traceback" line above it.
    qint64 m_frameLine = -1;
    bool m_clockOnEveryLine = false; // a clock stamped a traceback's frame: it is a collector's
    struct WrapCandidate
    {
        qint64 line = -1; // the last line of the unmatched failure line's pieces, -1 when there is none
        qint64 first = -1; // the failure line itself
        int event = -1;
        std::string cut, spaced; // the pieces so far, joined as a terminal cut them and as a wrap at spaces
        int pieces = 1;
        int note = -1; // the file note that says which lines matched, once some did
    };
    WrapCandidate m_wrap;
    // A line cut at the terminal's width and the pieces after it, until a piece shorter than the width.
    struct CutLine
    {
        std::vector<std::string> pieces;
        std::vector<qint64> offsets;
    };
    CutLine m_cut;
    int m_wrapWidth = 0;
    bool m_wrapAtSpaces = false; // the pieces join with a space (a wrap at spaces swallowed it)
    int m_cutJoins = 0; // lines read whole from their pieces, for the file's note
    qint64 m_firstCutLine = 0;
    bool m_pasted = false;
    int m_commonIndent = 0;
    bool m_blockHasEscape = false;
    bool m_standIns = false;
    std::string m_decoloured; // the current line without its ESC sequences, when it had any
    bool m_blockHasSpaceStandIns = false;
    std::string m_respaced; // the current line with plain spaces for its stand-ins, when it had any
    bool m_keepOffsets = true;
    bool m_glogFirst = false; // the glog shortcut took the last plain line
    struct LaterStamp
    {
        GlogStampBytes bytes;
        bool valid = false; // newer than the stream's lastStamp, which it replaces in finish()
    };
    std::vector<LaterStamp> m_laterStamps; // per stream
    int m_untoldStream = -1; // the stream of the last stamped line, when the record builder has not seen it
    qint64 m_untoldLine = 0;
    std::unordered_multimap<quint64, int> m_streamByHash;
    std::vector<std::string> m_streamHosts; // host bytes of each stream, for allocation-free compares
    int m_lastStream = -1;
    std::array<int, 16> m_recent = { -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1 };
    size_t m_recentHit = 0; // the slot of the last stream found there
    size_t m_recentNext = 0; // the slot the next stream found by hash goes to
    // The last line, when the NCCL shortcut took it and no atom of the prefilter occurs in it.
    struct LastPlainLine
    {
        const char* bytes = nullptr;
        std::size_t size = 0; // with any '\r'
        std::size_t textSize = 0; // without it
        std::size_t messageAt = 0;
        int stream = -1;
    };
    LastPlainLine m_last;
    // The message of the last line the glog shortcut took (its bytes after the header, without any CR).
    struct LastPlainMessage
    {
        const char* bytes = nullptr;
        std::size_t size = 0;
    };
    LastPlainMessage m_lastMessage;
    int m_segment = 0;
    bool m_restartPending = false;
    qint64 m_lastRestartMessage = -1;
    using Channel = std::tuple<int, int, int, std::string>;
    std::map<Channel, qint64> m_bannerPid; // pid of each channel's last "NCCL version" banner
};

inline bool LineScanner::prefilterPasses(
    std::string_view text, bool* sawAtom, PatternCandidates* candidates) const
{
    if (!m_prefilter) {
        if (sawAtom)
            *sawAtom = false;
        if (candidates)
            candidates->clear();
        return false;
    }
    return m_block && m_block->covers(text) ? m_prefilter->mayMatch(*m_block, text, sawAtom, candidates)
                                            : m_prefilter->mayMatch(text, sawAtom, candidates);
}

} // namespace rankscope
