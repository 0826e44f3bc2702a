// SPDX-License-Identifier: MIT
#include "archive_reader.h"

#include <sys/stat.h>

namespace rankscope {

bool isArchiveName(const QString& fileName)
{
    static const char* const kSuffixes[] = { ".tar", ".tar.gz", ".tgz", ".tar.zst", ".tzst", ".tar.xz",
        ".txz", ".tar.bz2", ".tbz2", ".zip" };
    const QString name = fileName.toLower();
    for (const char* suffix : kSuffixes) {
        if (name.endsWith(QLatin1String(suffix)))
            return true;
    }
    return false;
}

bool looksLikeArchive(const QByteArray& head)
{
    if (head.startsWith("PK\x03\x04") || head.startsWith("PK\x05\x06")) // a zip, or an empty one
        return true;
    return head.size() >= 262 && head.mid(257, 5) == "ustar";
}

QString joinArchivePath(const QString& archive, const QString& member)
{
    return archive + QStringLiteral("!/") + member;
}

std::optional<ArchiveMemberPath> splitArchivePath(const QString& path)
{
    // A folder may itself be named "x!": the split is where the left side is a file, not a folder.
    for (qsizetype at = path.indexOf(QLatin1String("!/")); at > 0;
         at = path.indexOf(QLatin1String("!/"), at + 1)) {
        const QByteArray left = path.left(at).toLocal8Bit();
        struct stat st
        {
        };
        if (::stat(left.constData(), &st) == 0 && S_ISREG(st.st_mode))
            return ArchiveMemberPath { path.left(at), path.mid(at + 2) };
    }
    return std::nullopt;
}

} // namespace rankscope
