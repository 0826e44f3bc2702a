// SPDX-License-Identifier: MIT
#include "archive_handle.h"
#include "archive_reader.h"

#include <QSet>
#include <QStringList>

namespace rankscope {

namespace {

// Absolute, or with a ".." component: a name that would land outside the folder it was extracted to.
bool leavesArchive(const QString& name)
{
    if (name.startsWith(QLatin1Char('/')) || name.startsWith(QLatin1Char('\\'))
        || (name.size() >= 2 && name[1] == QLatin1Char(':')))
        return true;
    QString unified = name;
    unified.replace(QLatin1Char('\\'), QLatin1Char('/'));
    return unified.split(QLatin1Char('/')).contains(QStringLiteral(".."));
}

QString typeName(mode_t type)
{
    switch (type) {
    case AE_IFCHR:
        return QStringLiteral("a character device");
    case AE_IFBLK:
        return QStringLiteral("a block device");
    case AE_IFIFO:
        return QStringLiteral("a named pipe");
    case AE_IFSOCK:
        return QStringLiteral("a socket");
    default:
        return QStringLiteral("not a regular file");
    }
}

} // namespace

ArchiveListing listArchive(const QString& archivePath, const QString& display, const CancelToken* cancel)
{
    ArchiveListing out;
    QString error;
    ArchiveHandle a = openArchive(archivePath, error);
    if (!a) {
        out.skipped.push_back({ archivePath, QStringLiteral("%1: %2").arg(display, error) });
        return out;
    }
    auto skip = [&](const QString& name, const QString& reason) {
        out.skipped.push_back({ joinArchivePath(archivePath, name),
            QStringLiteral("%1: %2").arg(joinArchivePath(display, name), reason) });
    };
    QSet<QString> seen;
    qint64 declared = 0;
    for (int ordinal = 0;; ++ordinal) {
        if (cancel && cancel->isCancelled())
            return out;
        archive_entry* entry = nullptr;
        const int rc = archive_read_next_header(a.get(), &entry);
        if (rc == ARCHIVE_EOF)
            break;
        if (rc < ARCHIVE_WARN && ordinal == 0) {
            out.skipped.push_back({ archivePath,
                QStringLiteral("%1: not a readable archive: %2").arg(display, archiveErrorText(a.get())) });
            break;
        }
        if (rc < ARCHIVE_WARN) {
            // Truncated or damaged: what came before is kept, and the archive says where it stopped.
            out.skipped.push_back({ archivePath,
                QStringLiteral("%1: truncated or damaged archive after %2 entries (%3): the members before "
                               "it are read, nothing after it")
                    .arg(display)
                    .arg(ordinal)
                    .arg(archiveErrorText(a.get())) });
            break;
        }
        out.opened = true;
        const char* utf8 = archive_entry_pathname_utf8(entry);
        const char* raw = archive_entry_pathname(entry);
        QString name = utf8 ? QString::fromUtf8(utf8) : QString::fromLocal8Bit(raw ? raw : "");
        const mode_t type = archive_entry_filetype(entry);
        if (type == AE_IFDIR)
            continue;
        while (name.startsWith(QLatin1String("./")))
            name.remove(0, 2);
        if (name.isEmpty()) {
            skip(
                QStringLiteral("(entry %1)").arg(ordinal), QStringLiteral("member without a name: not read"));
            continue;
        }
        if (leavesArchive(name)) {
            skip(name, QStringLiteral("member name is absolute or contains \"..\": not read"));
            continue;
        }
        if (const char* target = archive_entry_hardlink_utf8(entry)) {
            skip(name,
                QStringLiteral("hard link to %1 inside the archive: not followed (%1 is read)")
                    .arg(QString::fromUtf8(target)));
            continue;
        }
        if (type == AE_IFLNK) {
            const char* target = archive_entry_symlink_utf8(entry);
            skip(name,
                QStringLiteral("symbolic link (to %1) inside the archive: not followed")
                    .arg(QString::fromUtf8(target ? target : "?")));
            continue;
        }
        if (type != AE_IFREG) {
            skip(name, QStringLiteral("%1 inside the archive: not read").arg(typeName(type)));
            continue;
        }
        if (seen.contains(name)) {
            skip(name, QStringLiteral("a second member of the same name: only the first is read"));
            continue;
        }
        seen.insert(name);
        const qint64 size = archive_entry_size_is_set(entry) ? archive_entry_size(entry) : 0;
        if (declared + std::min(size, kMaxArchiveMemberBytes) > kMaxArchiveBytes) {
            skip(name,
                QStringLiteral("over the archive limit of %1 decompressed bytes (kMaxArchiveBytes): this "
                               "member and the rest are not read")
                    .arg(kMaxArchiveBytes));
            break;
        }
        declared += std::min(size, kMaxArchiveMemberBytes);
        ArchiveMember m;
        m.name = name;
        m.size = size;
        m.ordinal = ordinal;
        m.head.resize(kArchiveHeadBytes);
        qint64 got = 0;
        while (got < kArchiveHeadBytes) {
            const la_ssize_t n =
                archive_read_data(a.get(), m.head.data() + got, static_cast<size_t>(kArchiveHeadBytes - got));
            if (n <= 0)
                break; // a damaged member still gets its turn: the scan says how far it got
            got += n;
        }
        m.head.resize(got);
        if (isArchiveName(name) || looksLikeArchive(m.head)) {
            skip(name,
                QStringLiteral("an archive inside the archive: not read nested; extract %1 and open %2")
                    .arg(display, name));
            continue;
        }
        out.members.push_back(std::move(m));
    }
    return out;
}

} // namespace rankscope
