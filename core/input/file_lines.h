// SPDX-License-Identifier: MIT
// Random access to the lines of one log file (plain or gzip), for the log view.
// Uses FileInfo::lineOffsets from ingest; when they are missing the file is indexed once on open, or
// (openLazily) as far as the lines asked for, starting at the scan's last line mark before them. Blocks of
// the decompressed stream are kept in a small LRU cache (see block_source.h for gzip).
#pragma once

#include "block_source.h"
#include "log_model.h"

#include <QByteArray>
#include <QCache>
#include <QString>
#include <limits>
#include <memory>
#include <vector>

namespace rankscope {

class FileLines;

struct FileLinesResult
{
    std::shared_ptr<FileLines> lines; // null on error
    QString error; // names the file
    bool ok() const { return lines != nullptr; }
};

// Not thread-safe: the block cache is mutated by const reads. Use one instance per thread.
class FileLines
{
public:
    static constexpr qint64 kMaxLineBytes = 1024 * 1024; // longer lines are cut, visibly

    static FileLinesResult open(const FileInfo& info, qint64 cacheBytes = 64 * 1024 * 1024);
    // The same, but the file is indexed only as far as the lines asked for (count() indexes the rest):
    // a few lines near the start of a 300 MB console cost a read of the start, not an index of it all.
    static FileLinesResult openLazily(const FileInfo& info, qint64 cacheBytes = 2 * 1024 * 1024);
    // A second, independent reader of the same file (its own source and cache, the same line index),
    // for a worker thread; safe to call while this one is only read.
    FileLinesResult reopen(qint64 cacheBytes = 16 * 1024 * 1024) const;

    qint64 count() const
    {
        indexThrough(std::numeric_limits<qint64>::max());
        return m_baseLine + static_cast<qint64>(m_offsets.size());
    }
    // Line `index` (0-based) decoded lossily as UTF-8, without its '\n' or trailing '\r';
    // empty when out of range. A cut line ends with " … [line cut at 1 MiB]".
    QString line(qint64 index) const;
    QByteArray rawLine(qint64 index) const;
    QString path() const { return m_path; }
    // The last read failure (file changed or vanished) or gzip remark; empty when none.
    QString lastError() const;

private:
    FileLines() = default;
    static FileLinesResult openSource(const FileInfo& info, qint64 cacheBytes);
    // Indexes until `lines` line starts are known or the stream ends; false on a read error (in
    // m_lastError). Offsets from ingest are complete already.
    bool indexThrough(qint64 lines) const;
    // With line marks from the scan: restarts the index at the last mark at or before line `index` when
    // that skips bytes the index has not reached, or when `index` lies before the index's first line.
    void jumpToward(qint64 index) const;
    const QByteArray* block(qint64 index) const;
    // The start of line `index`, indexing as far as needed; -1 past the end.
    qint64 offsetOf(qint64 index) const;
    // Up to `limit` bytes from `offset`, stopping after the first '\n'.
    QByteArray readLineBytes(qint64 offset, qint64 limit) const;

    QString m_path;
    QByteArray m_content; // in-memory inputs: their bytes (implicitly shared, not copied)
    bool m_compressed = false;
    std::unique_ptr<BlockSource> m_source;
    std::vector<LineMark> m_marks; // from the scan; empty when m_offsets came whole
    // m_offsets[i] is the start of line m_baseLine + i: 0 unless the index began at a mark.
    mutable std::vector<qint64> m_offsets;
    mutable qint64 m_baseLine = 0;
    mutable qint64 m_indexPos = 0; // the stream offset the index goes on from
    mutable bool m_indexDone = false;
    mutable bool m_nextStartsLine = true; // the last indexed byte was '\n' (or nothing was read yet)
    mutable QCache<qint64, QByteArray> m_cache;
    mutable QString m_lastError;
};

} // namespace rankscope
