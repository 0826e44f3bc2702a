// SPDX-License-Identifier: MIT
// The libarchive read handle, owned (archive_read_free on every path), and the one way it is opened.
#pragma once

#include <QString>
#include <algorithm>
#include <archive.h>
#include <archive_entry.h>
#include <cstring>
#include <memory>

namespace rankscope {

struct ArchiveReadFree
{
    void operator()(archive* a) const { archive_read_free(a); }
};
using ArchiveHandle = std::unique_ptr<archive, ArchiveReadFree>;

inline QString archiveErrorText(archive* a)
{
    const char* text = archive_error_string(a);
    return QString::fromUtf8(text ? text : "unknown libarchive error");
}

// One member's bytes, block by block. archive_read_data() returns an error without the bytes it had
// already copied when a member turns out truncated; taking the blocks keeps every byte that is there.
class ArchiveBlocks
{
public:
    // Up to size bytes; 0 at the member's end, -1 on an error (archive_error_string says which).
    la_ssize_t read(archive* a, char* buf, size_t size)
    {
        while (m_left == 0) {
            if (m_done)
                return 0;
            const void* block = nullptr;
            size_t length = 0;
            la_int64_t offset = 0;
            const int rc = archive_read_data_block(a, &block, &length, &offset);
            if (rc == ARCHIVE_EOF) {
                m_done = true;
                return 0;
            }
            if (rc < ARCHIVE_WARN)
                return -1;
            m_data = static_cast<const char*>(block);
            m_left = length;
        }
        const size_t n = std::min(size, m_left);
        std::memcpy(buf, m_data, n);
        m_data += n;
        m_left -= n;
        return static_cast<la_ssize_t>(n);
    }

private:
    const char* m_data = nullptr;
    size_t m_left = 0;
    bool m_done = false;
};

// tar (ustar, pax, GNU) and zip, under none, gzip, xz, lzma, zstd or bzip2. Only the filters libarchive
// runs in-process are enabled: where it would fall back to an external program (ARCHIVE_WARN) the
// filter stays off, so a hostile archive never starts one.
inline ArchiveHandle openArchive(const QString& path, QString& error)
{
    ArchiveHandle a(archive_read_new());
    if (!a) {
        error = QStringLiteral("cannot create an archive reader (out of memory)");
        return nullptr;
    }
    archive_read_support_format_tar(a.get());
    archive_read_support_format_gnutar(a.get());
    archive_read_support_format_zip(a.get());
    using Enable = int (*)(archive*);
    for (Enable enable :
        { archive_read_support_filter_gzip, archive_read_support_filter_xz, archive_read_support_filter_lzma,
            archive_read_support_filter_zstd, archive_read_support_filter_bzip2 }) {
        if (enable(a.get()) != ARCHIVE_OK)
            archive_clear_error(a.get());
    }
    const QByteArray local = path.toLocal8Bit();
    if (archive_read_open_filename(a.get(), local.constData(), 128 * 1024) != ARCHIVE_OK) {
        error = QStringLiteral("not a readable archive: %1").arg(archiveErrorText(a.get()));
        return nullptr;
    }
    return a;
}

} // namespace rankscope
