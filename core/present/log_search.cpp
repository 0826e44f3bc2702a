// SPDX-License-Identifier: MIT
#include "log_search.h"

#include "line_severity.h"

namespace rankscope {

namespace {

constexpr qint64 kCheckEvery = 4096; // rows between cancel checks and progress reports

} // namespace

qint64 findMatchingLine(const FileLines& lines, const QRegularExpression& re,
    const std::vector<qint64>* shown, qint64 startRow, int direction, const CancelToken* cancel,
    const ProgressFn& progress)
{
    const qint64 rows = shown ? static_cast<qint64>(shown->size()) : lines.count();
    if (rows == 0 || re.pattern().isEmpty() || !re.isValid())
        return -1;
    const int dir = direction < 0 ? -1 : 1;
    for (qint64 step = 1; step <= rows; ++step) {
        if (step % kCheckEvery == 0) {
            if (cancel && cancel->isCancelled())
                return 0;
            if (progress)
                progress(step, rows);
        }
        const qint64 row = ((startRow + dir * step) % rows + rows) % rows;
        const qint64 line = shown ? (*shown)[static_cast<size_t>(row)] : row + 1;
        if (re.match(lines.line(line - 1)).hasMatch())
            return line;
    }
    return -1;
}

MatchCount countMatchingLines(const FileLines& lines, const QRegularExpression& re,
    const std::vector<qint64>* shown, qint64 line, const CancelToken* cancel)
{
    MatchCount c;
    const qint64 rows = shown ? static_cast<qint64>(shown->size()) : lines.count();
    if (re.pattern().isEmpty() || !re.isValid())
        return c;
    for (qint64 row = 0; row < rows; ++row) {
        if (row % kCheckEvery == kCheckEvery - 1 && cancel && cancel->isCancelled()) {
            c.cancelled = true;
            return c;
        }
        const qint64 l = shown ? (*shown)[static_cast<size_t>(row)] : row + 1;
        if (re.match(lines.line(l - 1)).hasMatch()) {
            ++c.total;
            if (l == line)
                c.ordinal = c.total;
        }
    }
    return c;
}

std::vector<qint64> warnOrMarkedLines(const FileLines& lines, const std::vector<LogMark>& marks,
    const CancelToken* cancel, const ProgressFn& progress, bool* cancelled)
{
    std::vector<qint64> kept;
    const qint64 n = lines.count();
    for (qint64 l = 1; l <= n; ++l) {
        if (l % kCheckEvery == 0) {
            if (cancel && cancel->isCancelled()) {
                if (cancelled)
                    *cancelled = true;
                return {};
            }
            if (progress)
                progress(l, n);
        }
        if (markCovering(marks, l) || classifyLineSeverity(lines.line(l - 1)) >= Severity::Warn)
            kept.push_back(l);
    }
    return kept;
}

} // namespace rankscope
