// SPDX-License-Identifier: MIT
#include "byte_stream.h"

#include "archive_reader.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>

namespace rankscope {

namespace {

QString errnoText(int err)
{
    return QString::fromLocal8Bit(std::strerror(err));
}

class FdCloser
{
public:
    explicit FdCloser(int fd)
        : m_fd(fd)
    {
    }
    ~FdCloser()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    FdCloser(const FdCloser&) = delete;
    FdCloser& operator=(const FdCloser&) = delete;
    int get() const { return m_fd; }
    int release()
    {
        const int fd = m_fd;
        m_fd = -1;
        return fd;
    }

private:
    int m_fd;
};

class PlainStream final : public ByteStream
{
public:
    explicit PlainStream(int fd)
        : m_fd(fd)
    {
    }
    ~PlainStream() override { ::close(m_fd); }
    qint64 read(char* buf, qint64 size) override
    {
        for (;;) {
            const ssize_t n = ::read(m_fd, buf, static_cast<size_t>(size));
            if (n >= 0)
                return static_cast<qint64>(n);
            if (errno == EINTR)
                continue;
            m_error = QStringLiteral("read error: %1").arg(errnoText(errno));
            return -1;
        }
    }

private:
    int m_fd;
};

struct GzCloser
{
    void operator()(gzFile f) const { gzclose(f); }
};

// gzread continues across members by itself; a truncated stream ends with Z_BUF_ERROR.
class GzipStream final : public ByteStream
{
public:
    GzipStream(gzFile f, qint64 onDisk)
        : m_file(f)
        , m_onDisk(onDisk)
    {
        gzbuffer(f, 1 << 17);
    }
    bool compressed() const override { return true; }
    qint64 compressedBytesRead() const override { return m_onDisk; }
    qint64 read(char* buf, qint64 size) override
    {
        if (m_stopped)
            return 0;
        const int n = gzread(m_file.get(), buf, static_cast<unsigned>(size));
        if (n < 0 || (n == 0 && !gzeof(m_file.get()))) {
            int code = Z_OK;
            const char* text = gzerror(m_file.get(), &code);
            const QString what = QString::fromLatin1(text ? text : "unknown error");
            if (code == Z_BUF_ERROR || m_out > 0) {
                m_note = QStringLiteral("truncated or damaged gzip (%1): read the first %2 bytes")
                             .arg(what)
                             .arg(m_out);
                m_stopped = true;
                return 0;
            }
            m_error = QStringLiteral("gzip error: %1").arg(what);
            return -1;
        }
        if (n == 0) {
            // gzeof with a short stream: zlib reports truncation through gzerror.
            int code = Z_OK;
            gzerror(m_file.get(), &code);
            if (code == Z_BUF_ERROR)
                m_note = QStringLiteral("truncated gzip: read the first %1 bytes").arg(m_out);
            return 0;
        }
        m_out += n;
        if (m_out > kGzipRatioFloor && m_out > kMaxGzipRatio * std::max<qint64>(m_onDisk, 1)) {
            m_note = QStringLiteral("decompression stopped after %1 bytes: ratio over %2:1 (a gzip bomb?)")
                         .arg(m_out)
                         .arg(kMaxGzipRatio);
            m_stopped = true;
        }
        return n;
    }

private:
    std::unique_ptr<gzFile_s, GzCloser> m_file;
    qint64 m_onDisk = 0;
    qint64 m_out = 0;
    bool m_stopped = false;
};

class MemoryStream final : public ByteStream
{
public:
    explicit MemoryStream(QByteArray bytes)
        : m_bytes(std::move(bytes))
    {
    }
    qint64 read(char* buf, qint64 size) override
    {
        const qint64 n = std::min<qint64>(size, m_bytes.size() - m_pos);
        std::memcpy(buf, m_bytes.constData() + m_pos, static_cast<size_t>(n));
        m_pos += n;
        return n;
    }

private:
    QByteArray m_bytes;
    qint64 m_pos = 0;
};

// One member of an archive (archive_reader.h), read where it lies.
class ArchiveMemberStream final : public ByteStream
{
public:
    explicit ArchiveMemberStream(std::unique_ptr<ArchiveMemberReader> reader)
        : m_reader(std::move(reader))
    {
    }
    bool compressed() const override { return m_reader->compressed(); }
    qint64 compressedBytesRead() const override { return m_reader->compressedBytesRead(); }
    qint64 read(char* buf, qint64 size) override
    {
        const qint64 n = m_reader->read(buf, size);
        m_error = m_reader->error();
        m_note = m_reader->note();
        return n;
    }

private:
    std::unique_ptr<ArchiveMemberReader> m_reader;
};

} // namespace

std::unique_ptr<ByteStream> ByteStream::open(const InputFile& input, QString& error)
{
    if (input.inMemory)
        return std::make_unique<MemoryStream>(input.memory);
    if (!input.archive.isEmpty()) {
        std::unique_ptr<ArchiveMemberReader> reader =
            ArchiveMemberReader::open(input.archive, input.path.mid(input.archive.size() + 2), error);
        if (!reader)
            return nullptr;
        return std::make_unique<ArchiveMemberStream>(std::move(reader));
    }
    const QByteArray path = input.path.toLocal8Bit();
    FdCloser fd(::open(path.constData(), O_RDONLY | O_CLOEXEC));
    if (fd.get() < 0) {
        error = QStringLiteral("cannot open: %1").arg(errnoText(errno));
        return nullptr;
    }
    unsigned char magic[2] = { 0, 0 };
    const ssize_t got = ::pread(fd.get(), magic, 2, 0);
    if (got == 2 && magic[0] == 0x1f && magic[1] == 0x8b) {
        const off_t size = ::lseek(fd.get(), 0, SEEK_END);
        ::lseek(fd.get(), 0, SEEK_SET);
        gzFile gz = gzdopen(fd.get(), "rb");
        if (!gz) {
            error = QStringLiteral("cannot open gzip stream");
            return nullptr;
        }
        fd.release();
        return std::make_unique<GzipStream>(gz, static_cast<qint64>(size));
    }
    ::posix_fadvise(fd.get(), 0, 0, POSIX_FADV_SEQUENTIAL);
    return std::make_unique<PlainStream>(fd.release());
}

} // namespace rankscope
