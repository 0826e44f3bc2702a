// SPDX-License-Identifier: MIT
// LineScanner::repeatedLine(): a line that repeats the last NCCL INFO line but for a counter is counted
// from one compare with that line, before the newline search and the parse that line() would do.
#include "byte_compare.h"
#include "line_scanner.h"

namespace rankscope {

qint64 LineScanner::repeatedLine(const char* start, qint64 avail, qint64 offset)
{
    const LastPlainLine& last = m_last;
    const std::size_t n = last.size;
    if (!last.bytes)
        return repeatedGlogLine(start, avail, offset);
    // The last line's bytes lie in the same read buffer, just before this line: the file scanner keeps
    // the buffer until the block's last line (see docs/scanner.md).
    Q_ASSERT(last.bytes + n <= start && n <= 4096 && last.messageAt <= n);
    if (m_restartPending || static_cast<std::size_t>(avail) <= n || start[n] != '\n')
        return -1;
    const auto [first, end] = differenceSpan(last.bytes, start, n);
    if (first < n) {
        // The prefix and the message's first letter must be the same: the stream, the level and the
        // shortcut's first test follow from them.
        if (first <= last.messageAt)
            return -1;
        if (end - first > 32 || end > last.textSize)
            return -1;
        for (std::size_t k = first; k < end; ++k) {
            if (start[k] == '\n' || start[k] == '\r' || start[k] == '>')
                return -1;
        }
        // The new line must hold no atom either (the block's hits say so at no cost), so that the
        // prefilter would reject it and it can be the next line's reference.
        bool sawAtom = false;
        prefilterPasses(std::string_view(start, last.textSize), &sawAtom);
        if (sawAtom)
            return -1;
    }
    ++m_lineNo;
    if (m_keepOffsets)
        m_out.info.lineOffsets.push_back(offset);
    StreamStats& st = m_out.streams[static_cast<size_t>(last.stream)];
    ++st.lines;
    ++st.counts[static_cast<size_t>(Severity::Info)];
    m_last.bytes = start;
    return static_cast<qint64>(n);
}

} // namespace rankscope
