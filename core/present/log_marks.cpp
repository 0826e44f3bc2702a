// SPDX-License-Identifier: MIT
#include "log_marks.h"

#include <algorithm>

namespace rankscope {

std::vector<LogMark> marksForFile(const Incident& incident, int fileIndex, const QStringList& signatureTitles)
{
    std::vector<LogMark> marks;
    for (const LogEvent& e : incident.events) {
        if (e.file != fileIndex)
            continue;
        LogMark m { e.line, std::max(1, e.lineCount), e.severity, {} };
        if (e.signature >= 0)
            m.title = e.signature < signatureTitles.size() ? signatureTitles.at(e.signature)
                                                           : QStringLiteral("signature %1").arg(e.signature);
        marks.push_back(std::move(m));
    }
    std::stable_sort(
        marks.begin(), marks.end(), [](const LogMark& a, const LogMark& b) { return a.line < b.line; });
    return marks;
}

const LogMark* markCovering(const std::vector<LogMark>& marks, qint64 line)
{
    // Marks are sorted by first line; records are short, so look back a little for a covering one.
    auto it = std::upper_bound(
        marks.begin(), marks.end(), line, [](qint64 l, const LogMark& m) { return l < m.line; });
    const LogMark* best = nullptr;
    for (int back = 0; it != marks.begin() && back < 64; ++back) {
        --it;
        if (it->line <= line && line < it->line + it->lineCount && (!best || it->severity > best->severity))
            best = &*it;
    }
    return best;
}

} // namespace rankscope
