// SPDX-License-Identifier: MIT
#include "archive_cursor.h"
#include "archive_reader.h"

#include <cstring>
#include <vector>
#include <zlib.h>

namespace rankscope {

namespace {

struct InflateEnd
{
    void operator()(z_stream* s) const
    {
        inflateEnd(s);
        delete s;
    }
};

} // namespace

struct ArchiveMemberReader::State
{
    std::unique_ptr<ArchiveCursor> cursor;
    ArchiveBlocks blocks; // the member's data, block by block
    QString path; // archive!/member, for messages
    qint64 rawStart = 0; // archive bytes read when the member began
    qint64 out = 0; // bytes handed out
    bool ended = false;
    // A gzip member: its raw bytes pass through zlib.
    std::unique_ptr<z_stream, InflateEnd> zs;
    std::vector<char> in;
    qint64 pending = 0; // raw bytes peeked for the magic, at the front of `in`
};

ArchiveMemberReader::ArchiveMemberReader(std::unique_ptr<State> state)
    : m_state(std::move(state))
{
}

ArchiveMemberReader::~ArchiveMemberReader()
{
    // Back to the pool, positioned after this member, unless reading it failed.
    if (m_state && m_state->cursor && m_error.isEmpty())
        releaseArchiveCursor(std::move(m_state->cursor));
}

std::unique_ptr<ArchiveMemberReader> ArchiveMemberReader::open(
    const QString& archivePath, const QString& member, QString& error)
{
    auto state = std::make_unique<State>();
    state->path = joinArchivePath(archivePath, member);
    state->cursor = acquireArchiveCursor(archivePath, member, error);
    if (!state->cursor)
        return nullptr;
    state->rawStart = archive_filter_bytes(state->cursor->handle.get(), -1);
    std::unique_ptr<ArchiveMemberReader> reader(new ArchiveMemberReader(std::move(state)));
    State& s = *reader->m_state;
    // Peek at the magic: a gzip member is inflated, as a .gz file on disk is.
    s.in.resize(64 * 1024);
    qint64 got = 0;
    while (got < 2) {
        const qint64 n = reader->readRaw(s.in.data() + got, static_cast<qint64>(s.in.size()) - got);
        if (n <= 0)
            break;
        got += n;
    }
    if (!reader->m_error.isEmpty()) {
        error = reader->m_error;
        return nullptr;
    }
    s.pending = got;
    if (got >= 2 && static_cast<unsigned char>(s.in[0]) == 0x1f
        && static_cast<unsigned char>(s.in[1]) == 0x8b) {
        s.zs.reset(new z_stream {});
        if (inflateInit2(s.zs.get(), 15 + 32) != Z_OK) {
            delete s.zs.release();
            error = QStringLiteral("%1: cannot initialise zlib").arg(s.path);
            return nullptr;
        }
        s.zs->next_in = reinterpret_cast<Bytef*>(s.in.data());
        s.zs->avail_in = static_cast<uInt>(got);
        s.pending = 0;
    }
    return reader;
}

bool ArchiveMemberReader::compressed() const
{
    return m_state->zs != nullptr;
}

qint64 ArchiveMemberReader::compressedBytesRead() const
{
    if (!m_state->cursor)
        return 0;
    return archive_filter_bytes(m_state->cursor->handle.get(), -1) - m_state->rawStart;
}

qint64 ArchiveMemberReader::readRaw(char* buf, qint64 size)
{
    State& s = *m_state;
    if (s.ended)
        return 0;
    const la_ssize_t n = s.blocks.read(s.cursor->handle.get(), buf, static_cast<size_t>(size));
    if (n >= 0)
        return n;
    // A truncated or damaged member keeps what was read, as a truncated gzip does.
    const QString why = archiveErrorText(s.cursor->handle.get());
    s.ended = true;
    s.cursor->broken = true;
    if (s.out == 0 && s.pending == 0) {
        m_error = QStringLiteral("%1: cannot read the member: %2").arg(s.path, why);
        return -1;
    }
    m_note = QStringLiteral("%1: truncated or damaged archive (%2): read the first %3 bytes")
                 .arg(s.path, why)
                 .arg(s.out + s.pending);
    return 0;
}

// The bomb and size limits, checked before `more` bytes are handed out; sets the note when cut.
bool ArchiveMemberReader::overLimits(qint64 more)
{
    State& s = *m_state;
    const qint64 total = s.out + more;
    if (total > kMaxArchiveMemberBytes) {
        m_note = QStringLiteral("%1: cut after %2 bytes, the limit for one member (kMaxArchiveMemberBytes)")
                     .arg(s.path)
                     .arg(s.out);
        return true;
    }
    const qint64 raw = std::max<qint64>(compressedBytesRead(), 1);
    if (total > kArchiveRatioFloor && total > kMaxArchiveRatio * raw) {
        m_note = QStringLiteral("%1: decompression stopped after %2 bytes: over %3 bytes per archive byte "
                                "(kMaxArchiveRatio), a compression bomb? The rest of the member is not read")
                     .arg(s.path)
                     .arg(s.out)
                     .arg(kMaxArchiveRatio);
        return true;
    }
    return false;
}

qint64 ArchiveMemberReader::readInflated(char* buf, qint64 size)
{
    State& s = *m_state;
    z_stream& z = *s.zs;
    z.next_out = reinterpret_cast<Bytef*>(buf);
    z.avail_out = static_cast<uInt>(size);
    while (z.avail_out == static_cast<uInt>(size)) {
        if (z.avail_in == 0) {
            const qint64 n = readRaw(s.in.data(), static_cast<qint64>(s.in.size()));
            if (n < 0)
                return -1;
            if (n == 0) {
                if (z.total_in != 0 && m_note.isEmpty())
                    m_note = QStringLiteral("%1: truncated gzip member: read the first %2 bytes")
                                 .arg(s.path)
                                 .arg(s.out);
                break;
            }
            z.next_in = reinterpret_cast<Bytef*>(s.in.data());
            z.avail_in = static_cast<uInt>(n);
        }
        const int rc = inflate(&z, Z_NO_FLUSH);
        if (rc == Z_STREAM_END) {
            inflateReset(&z); // a further gzip member may follow
            continue;
        }
        if (rc == Z_OK || rc == Z_BUF_ERROR)
            continue;
        if (z.total_in == 0 && s.out > 0) {
            m_note = QStringLiteral("%1: data after the end of the gzip stream ignored").arg(s.path);
            break;
        }
        m_error = QStringLiteral("%1: corrupt gzip data: %2")
                      .arg(s.path, QString::fromLatin1(z.msg ? z.msg : "inflate failed"));
        return -1;
    }
    return size - z.avail_out;
}

qint64 ArchiveMemberReader::read(char* buf, qint64 size)
{
    State& s = *m_state;
    if (!m_error.isEmpty())
        return -1;
    qint64 n = 0;
    if (s.pending > 0) {
        n = std::min(size, s.pending);
        std::memcpy(buf, s.in.data(), static_cast<size_t>(n));
        std::memmove(s.in.data(), s.in.data() + n, static_cast<size_t>(s.pending - n));
        s.pending -= n;
    } else {
        n = s.zs ? readInflated(buf, size) : readRaw(buf, size);
    }
    if (n <= 0)
        return n;
    if (overLimits(n)) {
        s.ended = true;
        s.cursor->broken = true; // the rest of the member is not worth skipping through
        return 0;
    }
    s.out += n;
    return n;
}

} // namespace rankscope
