// SPDX-License-Identifier: MIT
// Everything the window shows for one attempt of an analysis, computed off the UI thread: the timeline's
// lanes, the rows of the rank list, the hosts, the status counts and the initiating event's log, opened and
// marked. On a 1024-rank incident each of these takes longer than a frame; the UI thread only swaps the
// finished value in.
#pragma once

#include "analysis.h"
#include "cancel_token.h"
#include "file_lines.h"
#include "line_author.h"
#include "log_marks.h"
#include "rank_rows.h"
#include "timeline_model.h"

#include <QStringList>
#include <memory>
#include <vector>

namespace rankscope {

// One log file opened (its line index read) and marked, to be shown at `line`.
struct PreparedLog
{
    int file = -1; // index into Incident::files; -1 when nothing is to be shown
    qint64 line = 0; // 1-based line to go to, 0 = top
    int rank = -1; // the rank of the event shown, -1 when unattributed
    std::shared_ptr<FileLines> lines; // null when unreadable
    QString error; // names the file
    std::vector<LogMark> marks; // sorted by line
    FileAuthors authors; // who wrote the file's lines, for the header
    bool warnFiltered = false; // warnLines holds the WARN+ filter's lines
    std::vector<qint64> warnLines;
};

// Opens `file` of `incident` with its marks; with `warnOnly` also computes the WARN+ filter.
PreparedLog prepareLog(const Incident& incident, int file, qint64 line, int rank,
    const QStringList& signatureTitles, bool warnOnly, const CancelToken* cancel = nullptr);

struct IncidentViewModel
{
    int attempt = -1;
    TimelineModel timeline; // points into the analysis: it must outlive this value
    bool hasRange = false; // the initial window: the initiating event and the collateral it caused
    qint64 rangeStart = 0;
    qint64 rangeEnd = 0;
    std::vector<RankRow> ranks;
    QStringList hosts;
    QStringList signatureTitles; // catalog order
    PreparedLog log; // the initiating event's file, at its line
    // Status bar counts.
    qint64 files = 0;
    qint64 rankCount = 0;
    qint64 hostCount = 0;
    qint64 bytes = 0;
    qint64 events = 0;
    qint64 topologyHosts = 0;
    bool cancelled = false;
};

// What the diagnosis says about each event and rank, for the timeline (and the report's timeline).
TimelineRoles timelineRoles(const Diagnosis& diagnosis, const Incident& incident, const Catalog& catalog);

// Builds the view of `analysis.attempts[attempt]`. The analysis must outlive the result (the timeline
// points into its incident).
IncidentViewModel buildIncidentViewModel(
    const Analysis& analysis, int attempt, bool warnOnly, const CancelToken* cancel = nullptr);

} // namespace rankscope
