// SPDX-License-Identifier: MIT
// Who wrote a line of a log, as far as the incident knows: the Log view's header names it ("rank 0 ·
// worker-0 · pid 767") instead of "unattributed" whenever the incident can tell. A line that is an event
// has its event's attribution; any other line has what its own prefixes say (a global rank, NCCL's
// host:pid, Ray's "(pid=N)"), matched by pid and host to a rank (the rank's own pid, or the rank the
// incident gave that process's events); a line that names no process, in a file that only one rank
// wrote, is that rank's. Pure Core: the per-file part is computed off the UI thread with the log.
#pragma once

#include "log_model.h"

#include <QString>
#include <utility>
#include <vector>

namespace rankscope {

// What the incident knows about the writers of one file's lines.
struct FileAuthors
{
    int file = -1;
    std::vector<std::pair<qint64, int>> eventLines; // (1-based first line, event index), sorted by line
    int onlyRank = -1; // the one rank whose stream this file is; -1 when none or several
    // The rank of each process (host, pid) that the incident's events attribute, from every file (one
    // process can write two); a process attributed to two ranks is left out.
    struct ProcessRank
    {
        QString host;
        qint64 pid = -1;
        int rank = -1;
    };
    std::vector<ProcessRank> processRanks;
};

struct LineAuthor
{
    int rank = -1;
    QString host; // short host name
    qint64 pid = -1;
    QString source; // what the log calls the writer when no rank or pid does ("kernel", a Ray actor)
    bool known() const { return rank >= 0 || !host.isEmpty() || pid >= 0 || !source.isEmpty(); }
};

FileAuthors fileAuthors(const Incident& incident, int file);

// The writer of 1-based `line` of `writers.file`, whose text is `text` (used when the line is no event).
LineAuthor authorOfLine(
    const Incident& incident, const FileAuthors& writers, qint64 line, const QString& text);

// "rank 0 · worker-0 · pid 767", "worker-0 · pid 767", "kernel"; "unattributed" when nothing is known.
QString describeAuthor(const LineAuthor& writer);

} // namespace rankscope
