// SPDX-License-Identifier: MIT
// Search everything: one pattern (regex or literal, with or without case) over every line of every file
// of an incident, the way lnav and klogg search all their files at once. Runs off the UI thread with a
// cancel token and a progress callback (bytes done, bytes total); each hit names its file, line and the
// rank (and host) the line belongs to, and the hits are grouped by rank, then host, for a results list.
#pragma once

#include "cancel_token.h"
#include "log_model.h"

#include <QRegularExpression>
#include <QString>
#include <vector>

namespace rankscope {

struct SearchQuery
{
    QString pattern;
    bool regex = false; // else the pattern is a literal string
    bool caseSensitive = false;
    int maxHits = 20000; // hits kept beyond this are counted, not stored
};

struct SearchHit
{
    int file = -1; // index into Incident::files
    qint64 line = 0; // 1-based
    int rank = -1; // -1 when the line belongs to no known rank
    QString text; // the line, cut at kSearchHitChars
};

// The hits of one rank, or of the unattributed lines of one host or file.
struct SearchGroup
{
    QString label; // "rank 7 · gpu-a02", "gpu-a02 (no rank)", "unattributed: launcher.log"
    int rank = -1;
    QString host;
    qint64 count = 0; // every hit of the group, stored or not
    std::vector<int> hits; // indexes into SearchResults::hits, in file and line order
};

struct SearchResults
{
    SearchQuery query;
    std::vector<SearchHit> hits;
    std::vector<SearchGroup> groups; // ranks ascending, then hosts, then files
    qint64 totalHits = 0;
    qint64 linesSearched = 0;
    int filesSearched = 0;
    bool truncated = false; // more than maxHits: the groups' counts are whole, their hit lists are not
    bool cancelled = false;
    QString error; // an invalid regex (with its offset), or the files that could not be read
};

inline constexpr int kSearchHitChars = 400;

// The expression the query stands for; an invalid regex gives an invalid one and `error` says why.
QRegularExpression searchExpression(const SearchQuery& query, QString* error = nullptr);

SearchResults searchIncident(const Incident& incident, const SearchQuery& query,
    const CancelToken* cancel = nullptr, const ProgressFn& progress = {});

} // namespace rankscope
