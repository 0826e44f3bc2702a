// SPDX-License-Identifier: MIT
#include "block_source.h"

#include "archive_reader.h"

#include <QFile>
#include <vector>
#include <zlib.h>

namespace rankscope {

namespace {

class PlainSource final : public BlockSource
{
public:
    explicit PlainSource(const QString& path)
        : m_file(path)
    {
    }
    bool open(QString& error)
    {
        if (m_file.open(QIODevice::ReadOnly))
            return true;
        error = QStringLiteral("%1: cannot open: %2").arg(m_file.fileName(), m_file.errorString());
        return false;
    }
    qint64 blockSize() const override { return 64 * 1024; }
    bool readBlock(qint64 index, QByteArray& out, QString& error) override
    {
        out.clear();
        if (!m_file.seek(index * blockSize()) && index * blockSize() < m_file.size()) {
            error = QStringLiteral("%1: cannot seek: %2").arg(m_file.fileName(), m_file.errorString());
            return false;
        }
        if (index * blockSize() >= m_file.size())
            return true;
        out = m_file.read(blockSize());
        if (out.isEmpty() && m_file.error() != QFileDevice::NoError) {
            error = QStringLiteral("%1: read failed: %2").arg(m_file.fileName(), m_file.errorString());
            return false;
        }
        return true;
    }

private:
    QFile m_file;
};

struct InflateEnd
{
    void operator()(z_stream* s) const
    {
        inflateEnd(s);
        delete s;
    }
};
using ZStream = std::unique_ptr<z_stream, InflateEnd>;

// The inflate state at the start of one output block, and where its input resumes in the file.
struct Checkpoint
{
    ZStream stream;
    qint64 inOffset = 0;
};

class GzipSource final : public BlockSource
{
public:
    explicit GzipSource(const QString& path)
        : m_file(path)
    {
    }
    bool open(QString& error)
    {
        if (!m_file.open(QIODevice::ReadOnly)) {
            error = QStringLiteral("%1: cannot open: %2").arg(m_file.fileName(), m_file.errorString());
            return false;
        }
        ZStream first(new z_stream {});
        if (inflateInit2(first.get(), 15 + 32) != Z_OK) { // 15 + 32: gzip or zlib header, auto-detected
            delete first.release();
            error = QStringLiteral("%1: cannot initialise zlib").arg(m_file.fileName());
            return false;
        }
        m_checkpoints.push_back({ std::move(first), 0 });
        return true;
    }
    qint64 blockSize() const override { return 1024 * 1024; }
    QString note() const override { return m_note; }

    bool readBlock(qint64 index, QByteArray& out, QString& error) override
    {
        out.clear();
        // Walk forward from the last checkpoint, leaving a checkpoint at every block boundary.
        while (static_cast<qint64>(m_checkpoints.size()) <= index) {
            if (m_endBlock >= 0)
                return true; // past the end
            const qint64 j = static_cast<qint64>(m_checkpoints.size()) - 1;
            if (!inflateBlock(j, out, error, true))
                return false;
        }
        if (m_endBlock >= 0 && index > m_endBlock)
            return true;
        return inflateBlock(index, out, error, false);
    }

private:
    bool inflateBlock(qint64 j, QByteArray& out, QString& error, bool makeNextCheckpoint)
    {
        const Checkpoint& cp = m_checkpoints[static_cast<size_t>(j)];
        ZStream s(new z_stream {});
        if (inflateCopy(s.get(), cp.stream.get()) != Z_OK) {
            delete s.release();
            error = QStringLiteral("%1: out of memory while inflating").arg(m_file.fileName());
            return false;
        }
        if (!m_file.seek(cp.inOffset)) {
            error = QStringLiteral("%1: cannot seek: %2").arg(m_file.fileName(), m_file.errorString());
            return false;
        }
        out.resize(blockSize());
        std::vector<char> in(64 * 1024);
        qint64 fed = 0;
        bool ended = false;
        s->next_in = nullptr;
        s->avail_in = 0;
        s->next_out = reinterpret_cast<Bytef*>(out.data());
        s->avail_out = static_cast<uInt>(blockSize());
        while (s->avail_out > 0) {
            if (s->avail_in == 0) {
                const qint64 n = m_file.read(in.data(), static_cast<qint64>(in.size()));
                if (n <= 0) {
                    ended = true;
                    if (s->total_in != 0 && m_note.isEmpty())
                        m_note = QStringLiteral("%1: gzip stream is truncated").arg(m_file.fileName());
                    break;
                }
                fed += n;
                s->next_in = reinterpret_cast<Bytef*>(in.data());
                s->avail_in = static_cast<uInt>(n);
            }
            const int rc = inflate(s.get(), Z_NO_FLUSH);
            if (rc == Z_STREAM_END) {
                inflateReset(s.get()); // a further member may follow (concatenated gzip)
                continue;
            }
            if (rc == Z_OK || rc == Z_BUF_ERROR)
                continue;
            // total_in is 0 right after a reset: the bad bytes follow a complete member.
            if (s->total_in == 0 && cp.inOffset + fed > 0) {
                m_note = QStringLiteral("%1: data after the end of the gzip stream ignored")
                             .arg(m_file.fileName());
                ended = true;
                break;
            }
            error = QStringLiteral("%1: corrupt gzip data near compressed byte %2: %3")
                        .arg(m_file.fileName())
                        .arg(cp.inOffset + fed - s->avail_in)
                        .arg(QString::fromLatin1(s->msg ? s->msg : "inflate failed"));
            return false;
        }
        out.resize(blockSize() - s->avail_out);
        if (ended) {
            m_endBlock = j;
        } else if (makeNextCheckpoint) {
            const qint64 resumeAt = cp.inOffset + fed - s->avail_in;
            // The state keeps pointing at `in`; it is reset before every use.
            s->next_in = nullptr;
            s->avail_in = 0;
            Checkpoint next;
            next.stream = std::move(s);
            next.inOffset = resumeAt;
            m_checkpoints.push_back(std::move(next));
        }
        return true;
    }

    QFile m_file;
    std::vector<Checkpoint> m_checkpoints;
    qint64 m_endBlock = -1;
    QString m_note;
};

// A member of an archive: read front to back, and opened again from the start for a block behind
// the last one read (the log view's block cache keeps that rare).
class ArchiveMemberSource final : public BlockSource
{
public:
    ArchiveMemberSource(QString archive, QString member)
        : m_archive(std::move(archive))
        , m_member(std::move(member))
    {
    }
    bool open(QString& error)
    {
        m_reader = ArchiveMemberReader::open(m_archive, m_member, error);
        m_next = 0;
        return m_reader != nullptr;
    }
    qint64 blockSize() const override { return 1024 * 1024; }
    QString note() const override { return m_note; }
    bool readBlock(qint64 index, QByteArray& out, QString& error) override
    {
        out.clear();
        if (index < m_next && !open(error))
            return false;
        while (m_next <= index) {
            out.resize(blockSize());
            qint64 got = 0;
            while (got < blockSize()) {
                const qint64 n = m_reader->read(out.data() + got, blockSize() - got);
                if (n < 0) {
                    error = m_reader->error();
                    return false;
                }
                if (n == 0)
                    break;
                got += n;
            }
            out.resize(got);
            m_note = m_reader->note();
            ++m_next;
            if (got < blockSize() && m_next <= index) {
                out.clear(); // past the end
                return true;
            }
        }
        return true;
    }

private:
    QString m_archive;
    QString m_member;
    std::unique_ptr<ArchiveMemberReader> m_reader;
    qint64 m_next = 0; // the block the reader stands at
    QString m_note;
};

} // namespace

std::unique_ptr<BlockSource> BlockSource::open(const QString& path, bool gzip, QString& error)
{
    if (const std::optional<ArchiveMemberPath> member = splitArchivePath(path)) {
        auto source = std::make_unique<ArchiveMemberSource>(member->archive, member->member);
        if (!source->open(error))
            return nullptr;
        return source;
    }
    if (gzip) {
        auto source = std::make_unique<GzipSource>(path);
        if (!source->open(error))
            return nullptr;
        return source;
    }
    auto source = std::make_unique<PlainSource>(path);
    if (!source->open(error))
        return nullptr;
    return source;
}

namespace {

class MemorySource final : public BlockSource
{
public:
    explicit MemorySource(QByteArray bytes)
        : m_bytes(std::move(bytes))
    {
    }
    bool readBlock(qint64 index, QByteArray& out, QString&) override
    {
        const qint64 from = index * kBlock;
        out = from < m_bytes.size() ? m_bytes.mid(from, kBlock) : QByteArray();
        return true;
    }
    qint64 blockSize() const override { return kBlock; }

private:
    static constexpr qint64 kBlock = 1 << 20;
    QByteArray m_bytes;
};

} // namespace

std::unique_ptr<BlockSource> BlockSource::fromBytes(QByteArray bytes)
{
    return std::make_unique<MemorySource>(std::move(bytes));
}

} // namespace rankscope
