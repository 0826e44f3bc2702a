// SPDX-License-Identifier: MIT
// Sequential reading of one input: plain file, gzip (multi-member, detected by its magic bytes) or memory.
// The scanner pulls chunks from it, so no input is ever held whole in memory.
#pragma once

#include "input_discovery.h"

#include <QString>
#include <memory>

namespace rankscope {

class ByteStream
{
public:
    virtual ~ByteStream() = default;
    // Fills buf with up to size bytes; returns the count, 0 at the end, -1 on a read error (see error()).
    virtual qint64 read(char* buf, qint64 size) = 0;
    virtual bool compressed() const { return false; }
    virtual qint64 compressedBytesRead() const { return 0; }
    QString error() const { return m_error; }
    QString note() const { return m_note; } // remark that does not stop the analysis (truncated gzip...)

    // Decompressed bytes allowed per compressed byte before a gzip is treated as a bomb.
    static constexpr qint64 kMaxGzipRatio = 1000;
    static constexpr qint64 kGzipRatioFloor = 16 << 20; // small outputs are never called bombs

    static std::unique_ptr<ByteStream> open(const InputFile& input, QString& error);

protected:
    QString m_error;
    QString m_note;
};

} // namespace rankscope
