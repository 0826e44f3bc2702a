// SPDX-License-Identifier: MIT
// Regex search and the WARN+ filter over the lines of one log file. Both can read a whole file of
// hundreds of MB, so the log view runs them off the UI thread on a reader of their own
// (FileLines::reopen) with a cancel token and a progress callback (rows done, rows total).
#pragma once

#include "cancel_token.h"
#include "file_lines.h"
#include "log_marks.h"

#include <QRegularExpression>
#include <vector>

namespace rankscope {

// The rows searched are `shown` (sorted 1-based lines) when it is non-null, else every line of `lines`.
// Steps from row `startRow` in `direction` (+1 or -1), wrapping, and returns the 1-based line of the first
// row matching `re`; -1 when no row matches, 0 when cancelled. A `startRow` of -1 (forward) or of the row
// count (backward) visits every row once.
qint64 findMatchingLine(const FileLines& lines, const QRegularExpression& re,
    const std::vector<qint64>* shown, qint64 startRow, int direction, const CancelToken* cancel = nullptr,
    const ProgressFn& progress = {});

// How many rows match `re` (`shown` as for findMatchingLine), and which of them is `line`: "3 of 41".
struct MatchCount
{
    qint64 total = 0;
    qint64 ordinal = 0; // 1-based position of `line` among the matching rows; 0 when it does not match
    bool cancelled = false;
};
MatchCount countMatchingLines(const FileLines& lines, const QRegularExpression& re,
    const std::vector<qint64>* shown, qint64 line, const CancelToken* cancel = nullptr);

// The lines the WARN+ filter keeps (1-based, sorted): WARN-or-worse by their text, and every marked line
// (signature hits and the continuation lines of their records). Empty and `*cancelled` set when cancelled.
std::vector<qint64> warnOrMarkedLines(const FileLines& lines, const std::vector<LogMark>& marks,
    const CancelToken* cancel = nullptr, const ProgressFn& progress = {}, bool* cancelled = nullptr);

} // namespace rankscope
