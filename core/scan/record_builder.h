// SPDX-License-Identifier: MIT
// Joins the physical lines of one message into one event: Python tracebacks, c10 messages whose
// continuation lines carry only "[defaultN]:", NCCL's "-> N" return-code trails after a WARN, and
// torchrun's ChildFailedError summary (whose blocks also become identity facts).
#pragma once

#include "line_prefix.h"
#include "scan_records.h"
#include "severity_rules.h"

#include <map>
#include <tuple>
#include <utility>

namespace rankscope {

// The rank ProcessGroupNCCL names in a message ("[Rank 2] Watchdog ...", "[PG 0 (default_pg) Rank 6] ...",
// "[PG ID 1 PG GUID 1 Rank 3] ..."), or MPICH's abort names ("Abort(1) on node 0 (rank 3 in comm 0): ..."),
// or Open MPI's process name ("[host][[38971,1],2][btl_tcp_endpoint.c:796:...]"), -1 when it names none: a
// line without a rank prefix (a console without --tee) keeps it.
int rankInMessage(std::string_view message);

class RecordBuilder
{
public:
    RecordBuilder(FileScan& out, const ScanContext& ctx)
        : m_out(out)
        , m_ctx(ctx)
    {
    }

    // Appends the line to an open record when it continues one; returns true when it did.
    bool continueRecord(const LinePrefix& p, const LineClass& c, std::string_view text, qint64 lineNo);
    // The event whose headline the last continueRecord() call made of its line, or -1.
    int promotedEvent() const { return m_promoted; }
    // Adds a new event and opens a record for it when its kind takes continuation lines.
    void open(ScannedEvent&& ev, const LinePrefix& p, const LineClass& c);
    // A stamped line: it is the "next stamp" of every earlier event that had none.
    void stampSeen(const ParsedStamp& stamp, qint64 lineNo);
    // True while an event without a stamp waits for the next stamped line.
    bool waitingForStamp() const { return !m_waitingForStamp.empty(); }
    void finish();
    // The events an open record or an NCCL WARN awaiting its return trail may still change: repeat folding
    // leaves them alone.
    void pinnedEvents(std::vector<int>& out) const;
    // After events were folded away: old index -> new index, -1 for a folded one.
    void remapEvents(const std::vector<int>& remap);
    // True while a traceback, c10 message or torchrun summary is being collected on the channel of these
    // launcher, tee and c10 ranks: a line of that channel without an NCCL prefix may belong to it.
    bool collecting(int launcherRank, int teeLocalRank, int globalRank) const
    {
        return !m_open.empty() && m_open.count({ launcherRank, teeLocalRank, globalRank }) != 0;
    }

private:
    enum class Kind : quint8
    {
        NcclWarn,
        C10,
        Traceback,
        ChildFailed,
        Introduced, // a message that ends in ':' and goes on on the next line
        MpiErrorStack // MPICH's "..., error stack:" and its "function(line)....: text" lines
    };
    struct Open
    {
        int event = -1;
        Kind kind = Kind::C10;
        bool sawException = false; // its headline line (exception, what()) came
        bool sawFrame = false; // a traceback's indented line (a frame or its source) came
        bool afterFrame = false; // the line before was a frame ('File "x.py", line 3, in f'), indented or not
        bool terminate = false; // opened by "terminate called after throwing ..."
        bool bareOpening = false; // an exception line without a c10 rank tag ("[rank0]: ") of its own
        bool lastErrorNext = false; // the line before was PyTorch's "Last error:"
        bool frameCut = false; // the line before was a frame a wrap cut before its function name
        int borders = 0;
        bool rootNext = false;
        int summaryFact = -1; // the IdentityFact of the summary block being read
    };
    // Launcher rank, tee local rank, c10 rank prefix: PyTorch 2.2+ tags every line of an exception with
    // "[rankN]:", so one rank's record goes on under its tag while another rank's lines interleave.
    using Channel = std::tuple<int, int, int>;

    void append(Open& rec, std::string_view text, const LinePrefix& p, const LineClass& c);
    bool loggedTraceback(const ScannedEvent& ev, const LineClass& c) const;
    void promote(Open& rec, std::string_view text, const LinePrefix& p, const LineClass& c, qint64 lineNo);
    void matchLine(Open& rec, std::string_view text, const LineClass& c, bool headline = false);
    void readSummaryLine(Open& rec, std::string_view message);

    FileScan& m_out;
    const ScanContext& m_ctx;
    std::map<Channel, Open> m_open;
    int m_promoted = -1; // see promotedEvent()
    std::map<std::pair<qint64, qint64>, int> m_ncclWarn; // (pid, tid) -> event of the last WARN
    std::vector<int> m_waitingForStamp;
    ParsedStamp m_lastStamp;
    qint64 m_lastStampLine = -1;
};

} // namespace rankscope
