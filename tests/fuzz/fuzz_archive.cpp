// SPDX-License-Identifier: MIT
// An archive on disk (tar, zip, any filter; truncated, corrupt, hostile): listed as discovery lists it,
// then its first members read through the scan's stream (ByteStream) and the log view's random access
// (FileLines). Nothing may crash or leak, no listed member may have an unsafe name, and where both reads
// succeed they must agree on the number of lines. Kept cheap: at most four members are read.
#include "archive_reader.h"
#include "byte_stream.h"
#include "file_lines.h"
#include "fuzz_support.h"

using namespace rankscope;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QString path = fuzz::writeScratchFile(QStringLiteral("job.tar"), data, size);
    const ArchiveListing listing = listArchive(path, QStringLiteral("job.tar"), nullptr);
    int read = 0;
    for (const ArchiveMember& m : listing.members) {
        if (m.name.startsWith(QLatin1Char('/'))
            || m.name.split(QLatin1Char('/')).contains(QStringLiteral("..")))
            fuzz::fail("listArchive kept a member whose name leaves the archive");
        if (++read > 4)
            break;
        InputFile input;
        input.path = joinArchivePath(path, m.name);
        input.archive = path;
        input.archiveOrdinal = m.ordinal;
        QString error;
        std::unique_ptr<ByteStream> stream = ByteStream::open(input, error);
        if (!stream)
            continue;
        qint64 lines = 0, total = 0;
        bool failed = false;
        char last = '\n';
        char buf[16384];
        for (;;) {
            const qint64 n = stream->read(buf, sizeof buf);
            if (n < 0) {
                failed = true;
                break;
            }
            if (n == 0)
                break;
            for (qint64 i = 0; i < n; ++i)
                lines += buf[i] == '\n';
            last = buf[n - 1];
            total += n;
        }
        if (total > kMaxArchiveMemberBytes)
            fuzz::fail("a member read past kMaxArchiveMemberBytes");
        const bool cut = !stream->note().isEmpty();
        stream.reset(); // its cursor goes back to the pool
        if (last != '\n')
            ++lines;
        FileInfo info;
        info.path = input.path;
        const FileLinesResult opened = FileLines::open(info);
        if (!opened.ok() || failed || cut)
            continue;
        bool longLine = false;
        for (qint64 i = 0; i < opened.lines->count() && !longLine; ++i)
            longLine = opened.lines->rawLine(i).size() >= FileLines::kMaxLineBytes - 64;
        if (!longLine && opened.lines->count() != lines)
            fuzz::fail("FileLines and ByteStream disagree on a member's number of lines");
    }
    return 0;
}
