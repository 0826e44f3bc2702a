// SPDX-License-Identifier: MIT
// Archives read in place (.tar, .tar.gz/.tgz, .tar.zst, .tar.xz, .tar.bz2, .zip) with libarchive: listed
// like a folder, and each member read as a byte stream, never extracted to disk. A member's path is the
// archive's path, "!/", and its name inside: "/runs/job.tar.gz!/node3/rank-24.log".
//
// Hostile archives are bad input like any other: the readable members are kept and everything else is
// listed as skipped with the reason (see listArchive). Memory is bounded by the limits below, whatever
// the archive says.
#pragma once

#include "cancel_token.h"
#include "log_model.h"

#include <QByteArray>
#include <QString>
#include <memory>
#include <optional>
#include <vector>

namespace rankscope {

// Decompressed bytes read from one member; the rest of a longer member is cut, with a note.
constexpr qint64 kMaxArchiveMemberBytes = 8LL << 30;
// Declared (decompressed) bytes of all members of one archive; the members past it are skipped.
constexpr qint64 kMaxArchiveBytes = 32LL << 30;
// Decompressed bytes per compressed byte, per member, before it is cut as a compression bomb. Logs
// compress at 5:1 to 50:1; gzip cannot exceed ~1030:1, zstd and xz can reach millions.
constexpr qint64 kMaxArchiveRatio = 1000;
constexpr qint64 kArchiveRatioFloor = 16LL << 20; // members smaller than this are never called bombs
constexpr qint64 kArchiveHeadBytes = 65536; // read from each member at listing, to tell what it is

// "x.tar.gz", "x.tgz", "x.zip"...: read as a folder. Case-insensitive.
bool isArchiveName(const QString& fileName);
// The first bytes of a tar (ustar magic at 257) or zip (PK\3\4) archive.
bool looksLikeArchive(const QByteArray& head);

struct ArchiveMemberPath
{
    QString archive; // the archive on disk
    QString member; // the name inside
};
QString joinArchivePath(const QString& archive, const QString& member);
// Splits at the first "!/" whose left side is a regular file; nullopt for a plain path.
std::optional<ArchiveMemberPath> splitArchivePath(const QString& path);

struct ArchiveMember
{
    QString name; // as stored, never absolute and without ".." (those are skipped)
    qint64 size = 0; // declared decompressed size
    int ordinal = 0; // position among the archive's entries
    QByteArray head; // its first kArchiveHeadBytes bytes
};

struct ArchiveListing
{
    std::vector<ArchiveMember> members; // regular files, in archive order
    std::vector<SkippedInput> skipped; // entries not read, and why (path: archive!/member)
    bool opened = false; // false: not a readable archive at all (the reason is in skipped)
};

// Walks the archive's entries once, reading only each member's head. `display` names the archive in
// reasons. Skipped: names with ".." or absolute ones, links, devices, archives inside the archive (not
// read nested: extract the outer one to read them), a second member of the same name, members past
// kMaxArchiveBytes, and the rest after a truncated or damaged header.
ArchiveListing listArchive(const QString& archivePath, const QString& display, const CancelToken* cancel);

// The bytes of one member, in order. A gzip member (by its magic) is inflated, as a file on disk is.
class ArchiveMemberReader
{
public:
    static std::unique_ptr<ArchiveMemberReader> open(
        const QString& archivePath, const QString& member, QString& error);
    ~ArchiveMemberReader();
    ArchiveMemberReader(const ArchiveMemberReader&) = delete;
    ArchiveMemberReader& operator=(const ArchiveMemberReader&) = delete;

    // Up to size bytes; 0 at the end (or where the member was cut: see note()), -1 on an error.
    qint64 read(char* buf, qint64 size);
    bool compressed() const; // the member is gzip
    qint64 compressedBytesRead() const; // archive bytes read for this member
    QString error() const { return m_error; }
    QString note() const { return m_note; } // truncated or cut, with how much was read

    struct State;

private:
    explicit ArchiveMemberReader(std::unique_ptr<State> state);
    qint64 readRaw(char* buf, qint64 size);
    qint64 readInflated(char* buf, qint64 size);
    bool overLimits(qint64 more);

    std::unique_ptr<State> m_state;
    QString m_error;
    QString m_note;
};

} // namespace rankscope
