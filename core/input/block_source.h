// SPDX-License-Identifier: MIT
// Fixed-size blocks of a file's decompressed byte stream, for random access to its lines.
// Plain files are read with seek; gzip files are inflated lazily with zlib and resumed from
// checkpoints (a copy of the inflate state, window included, taken at every block boundary), so a
// block is never more than one block's worth of inflation away. Checkpoints cost ~40 KiB per MiB of
// output (the 32 KiB window dominates); that is the price of not re-inflating from the start.
#pragma once

#include <QByteArray>
#include <QString>
#include <QtGlobal>
#include <memory>

namespace rankscope {

class BlockSource
{
public:
    virtual ~BlockSource() = default;
    // Reads block `index` into `out`. A block shorter than blockSize() is the last one; an empty
    // one lies past the end. Returns false with `error` set (naming the file) on a read failure.
    virtual bool readBlock(qint64 index, QByteArray& out, QString& error) = 0;
    virtual qint64 blockSize() const = 0;
    // Remarks found while reading (a truncated gzip, trailing garbage); empty when none.
    virtual QString note() const { return {}; }

    // Opens `path` as plain bytes or, when `gzip` is set, as a (possibly multi-member) gzip stream. An
    // archive member's path (archive!/member, see archive_reader.h) is read from the archive.
    static std::unique_ptr<BlockSource> open(const QString& path, bool gzip, QString& error);
    // In-memory bytes (pasted text, stdin): the same blocks, without a file.
    static std::unique_ptr<BlockSource> fromBytes(QByteArray bytes);
};

} // namespace rankscope
