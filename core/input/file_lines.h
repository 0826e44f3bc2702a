// SPDX-License-Identifier: MIT
// Random access to the lines of one log file (plain or gzip), for the log view.
// Uses FileInfo::lineOffsets from ingest; when they are missing the file is indexed once on open.
// Blocks of the decompressed stream are kept in a small LRU cache (see block_source.h for gzip).
#pragma once

#include "block_source.h"
#include "log_model.h"

#include <QByteArray>
#include <QCache>
#include <QString>
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
    // A second, independent reader of the same file (its own source and cache, the same line index),
    // for a worker thread; safe to call while this one is only read.
    FileLinesResult reopen(qint64 cacheBytes = 16 * 1024 * 1024) const;

    qint64 count() const { return static_cast<qint64>(m_offsets.size()); }
    // Line `index` (0-based) decoded lossily as UTF-8, without its '\n' or trailing '\r';
    // empty when out of range. A cut line ends with " … [line cut at 1 MiB]".
    QString line(qint64 index) const;
    QByteArray rawLine(qint64 index) const;
    QString path() const { return m_path; }
    // The last read failure (file changed or vanished) or gzip remark; empty when none.
    QString lastError() const;

private:
    FileLines() = default;
    bool buildIndex(QString& error);
    const QByteArray* block(qint64 index) const;
    // Up to `limit` bytes from `offset`, stopping after the first '\n'.
    QByteArray readLineBytes(qint64 offset, qint64 limit) const;

    QString m_path;
    QByteArray m_content; // in-memory inputs: their bytes (implicitly shared, not copied)
    bool m_compressed = false;
    std::unique_ptr<BlockSource> m_source;
    std::vector<qint64> m_offsets;
    mutable QCache<qint64, QByteArray> m_cache;
    mutable QString m_lastError;
};

} // namespace rankscope
