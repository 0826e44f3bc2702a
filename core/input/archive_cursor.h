// SPDX-License-Identifier: MIT
// An open archive positioned at one member, and the small pool that lets the next member's reader go on
// from there. A compressed tar can only be read front to back: without the pool, reading its N members
// one by one would inflate the archive N times over. The scan takes an archive's members in archive
// order (ingest.cpp), so with T scan threads the archive is inflated about T times, not N.
#pragma once

#include "archive_handle.h"

#include <QSet>
#include <QString>
#include <memory>
#include <sys/types.h>

namespace rankscope {

struct ArchiveCursor
{
    ArchiveHandle handle;
    QString archivePath;
    qint64 archiveSize = 0; // with the mtime: a changed archive is opened afresh
    qint64 archiveMtime = 0;
    QSet<QString> passed; // the names of the members read or skipped so far
    bool broken = false; // a read failed or a member was cut: not reused
};

// A cursor standing on the first member named `member` (its data next): one from the pool that has not
// passed it yet, else a new one. Null with `error` (naming archive and member) when there is none.
std::unique_ptr<ArchiveCursor> acquireArchiveCursor(
    const QString& archivePath, const QString& member, QString& error);
// Gives a cursor back for the next member; a broken one is closed instead.
void releaseArchiveCursor(std::unique_ptr<ArchiveCursor> cursor);

} // namespace rankscope
