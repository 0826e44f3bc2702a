// SPDX-License-Identifier: MIT
#include "archive_cursor.h"

#include "archive_reader.h"

#include <mutex>
#include <sys/stat.h>
#include <vector>

namespace rankscope {

namespace {

// Idle cursors kept at once, over all archives. Each holds a decoder (an xz one up to 64 MiB): few.
constexpr size_t kIdleCursors = 4;

struct Pool
{
    std::mutex mutex;
    std::vector<std::unique_ptr<ArchiveCursor>> idle; // oldest first
};

Pool& pool()
{
    static Pool p;
    return p;
}

bool statArchive(const QString& path, qint64& size, qint64& mtime)
{
    struct stat st
    {
    };
    const QByteArray local = path.toLocal8Bit();
    if (::stat(local.constData(), &st) != 0)
        return false;
    size = static_cast<qint64>(st.st_size);
    mtime = static_cast<qint64>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
    return true;
}

QString entryName(archive_entry* entry)
{
    const char* utf8 = archive_entry_pathname_utf8(entry);
    const char* raw = archive_entry_pathname(entry);
    QString name = utf8 ? QString::fromUtf8(utf8) : QString::fromLocal8Bit(raw ? raw : "");
    while (name.startsWith(QLatin1String("./")))
        name.remove(0, 2);
    return name;
}

} // namespace

std::unique_ptr<ArchiveCursor> acquireArchiveCursor(
    const QString& archivePath, const QString& member, QString& error)
{
    const QString where = joinArchivePath(archivePath, member);
    qint64 size = 0, mtime = 0;
    if (!statArchive(archivePath, size, mtime)) {
        error = QStringLiteral("%1: cannot open the archive").arg(where);
        return nullptr;
    }
    std::unique_ptr<ArchiveCursor> cursor;
    {
        Pool& p = pool();
        const std::lock_guard<std::mutex> lock(p.mutex);
        for (auto it = p.idle.begin(); it != p.idle.end(); ++it) {
            ArchiveCursor& c = **it;
            if (c.archivePath == archivePath && c.archiveSize == size && c.archiveMtime == mtime
                && !c.passed.contains(member)) {
                cursor = std::move(*it);
                p.idle.erase(it);
                break;
            }
        }
    }
    if (!cursor) {
        QString openError;
        ArchiveHandle handle = openArchive(archivePath, openError);
        if (!handle) {
            error = QStringLiteral("%1: %2").arg(where, openError);
            return nullptr;
        }
        cursor = std::make_unique<ArchiveCursor>();
        cursor->handle = std::move(handle);
        cursor->archivePath = archivePath;
        cursor->archiveSize = size;
        cursor->archiveMtime = mtime;
    }
    for (;;) {
        archive_entry* entry = nullptr;
        const int rc = archive_read_next_header(cursor->handle.get(), &entry);
        if (rc == ARCHIVE_EOF) {
            error = QStringLiteral("%1: no such member in the archive").arg(where);
            return nullptr;
        }
        if (rc < ARCHIVE_WARN) {
            error = QStringLiteral("%1: truncated or damaged archive before the member: %2")
                        .arg(where, archiveErrorText(cursor->handle.get()));
            return nullptr;
        }
        const QString name = entryName(entry);
        cursor->passed.insert(name);
        if (name == member && archive_entry_filetype(entry) == AE_IFREG && !archive_entry_hardlink(entry))
            return cursor;
    }
}

void releaseArchiveCursor(std::unique_ptr<ArchiveCursor> cursor)
{
    if (!cursor || cursor->broken)
        return;
    Pool& p = pool();
    std::unique_ptr<ArchiveCursor> evicted; // closed outside the lock
    const std::lock_guard<std::mutex> lock(p.mutex);
    p.idle.push_back(std::move(cursor));
    if (p.idle.size() > kIdleCursors) {
        evicted = std::move(p.idle.front());
        p.idle.erase(p.idle.begin());
    }
}

} // namespace rankscope
