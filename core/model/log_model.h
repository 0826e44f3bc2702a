// SPDX-License-Identifier: MIT
// The plain value types that describe one incident: its files, ranks and events.
// Everything the engine produces is one of these; views and reports only read them.
#pragma once

#include "launch_info.h"

#include <QByteArray>
#include <QHash>
#include <QString>
#include <QStringList>
#include <QtGlobal>
#include <array>
#include <utility>
#include <vector>

namespace rankscope {

enum class Severity : quint8
{
    Info = 0,
    Warn = 1,
    Error = 2,
    Fatal = 3
};
QString severityName(Severity s);

// Wall-clock time as printed, in milliseconds since the epoch (fields read as UTC when the stamp has no
// zone).
struct EventTime
{
    qint64 ms = 0;
    bool valid = false;
    bool inferred = false; // interpolated from the nearest stamped lines of the same file
    // The clock said only the second (no fraction, or c10's monotonic one): ms is the second's start, and
    // a finer time within that second is neither before nor after it.
    bool wholeSecond = false;
    friend bool operator==(const EventTime&, const EventTime&) = default;
};
QString formatTime(const EventTime& t); // "2026-03-14T02:17:44.123", or "" when invalid

// One captured parameter of a signature match: name and value.
using Capture = std::pair<QString, QString>;

// A line (or a multi-line record) worth showing: WARN or worse, or a signature hit.
struct LogEvent
{
    int file = -1; // index into Incident::files
    qint64 line = 0; // 1-based line of the record's first line
    int lineCount = 1; // physical lines in the record (tracebacks, c10 continuations, NCCL "-> N" trails)
    // The line that opened the record when a later line became its headline (a traceback's exception under
    // "Traceback (most recent call last):"); 0 when the record starts at `line`.
    qint64 openedAt = 0;
    qint64 firstLine() const { return openedAt > 0 ? openedAt : line; }
    Severity severity = Severity::Info;
    EventTime time;
    int rank = -1; // global rank; -1 when unattributed
    int localRank = -1; // -1 when unknown
    QString host; // normalised short host name; empty when unknown
    qint64 pid = -1;
    int device = -1; // physical GPU (nvmlDev) when known, else the logged cudaDev
    QString text; // the raw first line as in the file (without terminal colour codes)
    QString message; // the text after launcher, rank and NCCL prefixes
    QStringList continuation; // the record's further lines, raw
    int signature = -1; // index into the catalog; -1 when none matched
    std::vector<Capture> captures;
    // What the log calls the writer when no rank or pid does: "kernel" for dmesg/NVRM lines, a Ray
    // actor's name, a Determined trial, a runner's tag. Empty when the prefixes say nothing more.
    QString source;
    bool failureWord = false; // the line carries a failure word (line/failure_words.h)
    // Later events of the same writer with the same words but for their numbers, folded into this one while
    // the file was scanned (scan/repeat_folding.h), and the line of the last of them (0 when none).
    int repeats = 0;
    qint64 lastRepeatLine = 0;
    EventTime lastRepeatTime; // the last of them, when it had a stamp of its own
};

// An environment variable the logs show set for this run: NCCL's own "NCCL_P2P_DISABLE set by environment
// to 1." at init, or a shell line that starts the job ("$ NCCL_P2P_DISABLE=1 ./all_reduce_perf",
// "export NCCL_IB_DISABLE=1"). A fix that says to set it so again was already tried.
struct EnvSetting
{
    QString name;
    QString value;
    int file = -1;
    qint64 line = 0;
};

// How NCCL was set up on a host, as its INFO lines say: the NCCL build ("NCCL version 2.18.5+cuda12.2"), the
// network plugin (NCCL's internal one, or an external libnccl-net.so) and the network it chose ("Using
// network IB"). Hosts of one job that differ in one of them often hang or fail where they meet.
// The setup fact that says NCCL's sockets were initialised ("Initialized NET plugin Socket"): read by the
// scan, asked by the diagnosis when a network plugin failed before it.
inline constexpr char kSocketTransportFact[] = "socket transport";

struct SetupFact
{
    QString key; // "NCCL version", "network plugin", "network"
    QString value; // as the line says it: "2.18.5+cuda12.2", "/opt/hpcx/.../libnccl-net.so", "IB"
    QString group; // what is compared across hosts: the value, or "internal" / "external" for a plugin
    QString host;
    int file = -1;
    qint64 line = 0;
};

struct NicUse
{
    int index = -1; // NCCL's own [n] index in "NET/IB : Using"
    QString name; // mlx5_0
    int port = -1;
    QString linkLayer; // IB or RoCE
};

// Everything known about one global rank, merged from all files that mention it.
struct RankInfo
{
    int rank = -1;
    QString host; // normalised short host name
    QStringList hostAliases; // every spelling seen (FQDN, short)
    qint64 pid = -1;
    int localRank = -1;
    int cudaDev = -1;
    int nvmlDev = -1;
    QString busId; // PCI BDF "0000:99:00.0", empty when unknown
    QString commId;
    int nRanks = -1;
    int nNodes = -1;
    std::vector<NicUse> nics; // from "NET/IB : Using"
    std::vector<int> channelNics; // NCCL NIC indexes named by "via NET/IB/<n>" channel lines
    bool gdr = false; // a channel line used /GDRDMA
    QString cpuAffinity; // as printed by "Setting affinity for GPU" (range list or hex mask)
    QStringList addresses; // bootstrap / OOB IP addresses of the process
    QString lastStep; // the last "step N" progress line
    std::vector<int> files; // indexes into Incident::files
    EventTime firstTime, lastTime;
    bool timesKnown = false; // at least one stamped (not inferred) line
    std::array<qint64, 4> severityCounts {}; // by Severity
    int firstWarn = -1; // index into Incident::events
    bool initStarted = false, initCompleted = false;
};

// Line `line` (0-based) starts at byte `offset` of the decompressed stream.
struct LineMark
{
    qint64 line = 0;
    qint64 offset = 0;
    friend bool operator==(const LineMark&, const LineMark&) = default;
};

struct FileInfo
{
    QString path; // absolute path
    QString displayPath; // as given, relative to the input folder
    qint64 bytes = 0; // bytes read (decompressed)
    qint64 lines = 0;
    bool compressed = false;
    bool hasTimestamps = false; // at least one line carried a stamp
    qint64 unattributedLines = 0; // lines with no rank
    std::vector<qint64> lineOffsets; // byte offset of each line start in the decompressed stream
    // Without lineOffsets (the CLI): a few known line starts, one about every MiB, so that reading the
    // lines near an event indexes at most a MiB instead of the file up to it (FileLines::openLazily).
    std::vector<LineMark> lineMarks; // ascending
    QByteArray content; // in-memory inputs (pasted text, stdin): the bytes; empty for files on disk
    QStringList notes; // per-file remarks (truncated gzip, long lines cut, ...)
};

struct SkippedInput
{
    QString path;
    QString reason;
};

// One block of torchrun's ChildFailedError summary ("Failures:" or "Root Cause (first observed failure):").
struct TorchrunFailure
{
    QString host; // as printed: socket.getfqdn() of the agent
    int rank = -1;
    int localRank = -1;
    int exitCode = 0;
    qint64 pid = -1;
    QString time; // whole seconds, as printed ("2026-03-14_02:27:45")
    bool rootCause = false;
    int file = -1;
    qint64 line = 0;
};

// One job attempt (elastic restarts make several).
struct Incident
{
    QString label; // "attempt_1", or the folder name
    QStringList inputs; // paths as given
    std::vector<FileInfo> files;
    std::vector<RankInfo> ranks; // sorted by rank
    std::vector<LogEvent> events; // ordered by time where known, then by file order
    std::vector<SkippedInput> skipped;
    QStringList warnings; // attribution conflicts, unknown cross-rank order, ...
    // How far NCCL's setup got: a line of it was seen (file, 1-based line of the first), and whether any
    // communicator completed init. A log that stops between the two, without an error, hung in init.
    int ncclInitFile = -1;
    qint64 ncclInitLine = 0;
    bool ncclInitCompleted = false;
    int ncclInitCompleteFile = -1; // the first file where a communicator printed Init COMPLETE
    qint64 ncclInitCompleteLine = 0; // its last such line
    qint64 linesAfterInitComplete = -1; // the most lines any file printed after its last Init COMPLETE
    int benchTableFile = -1; // a file where nccl-tests or rccl-tests printed its results header and no row
    qint64 benchTableLine = 0; // that header's line
    bool progressSeen = false; // some stream printed a "step N" progress line: the job got past init
    std::vector<EnvSetting> envSettings; // each name and value once, where first seen
    std::vector<SetupFact> setupFacts; // each key once per host, where first seen
    int firstWarn = -1; // index into events: the earliest WARN or worse overall
    std::vector<TorchrunFailure> torchrunFailures;
    LaunchInfo launch; // the launchers and the framework the logs show (or the user gave)
    qint64 totalBytes = 0;

    const RankInfo* rankInfo(int rank) const;
    QStringList hosts() const;
    // describeLaunch() of `launch`, naming the files by their display paths; empty when nothing is known.
    QString launchSentence() const;
};

} // namespace rankscope
