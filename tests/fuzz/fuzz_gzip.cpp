// SPDX-License-Identifier: MIT
// A log file on disk, plain or gzip (single, multi-member, truncated, corrupt): read once through the
// ingest stream (ByteStream) and once through the log view's random access (FileLines). When both
// succeed they must show the same lines: what ingest counted is what the view displays.
#include "byte_stream.h"
#include "file_lines.h"
#include "fuzz_support.h"

using namespace rankscope;

namespace {

QByteArray readAll(ByteStream& stream, bool& failed)
{
    QByteArray out;
    char buf[16384];
    for (;;) {
        const qint64 n = stream.read(buf, sizeof buf);
        if (n < 0) {
            failed = true;
            break;
        }
        if (n == 0)
            break;
        out.append(buf, static_cast<qsizetype>(n));
    }
    return out;
}

// The lines of `bytes` by the view's rule: split after '\n', drop the '\n' and one '\r' before it.
QList<QByteArray> expectedLines(const QByteArray& bytes)
{
    QList<QByteArray> lines;
    qsizetype start = 0;
    while (start < bytes.size()) {
        qsizetype nl = bytes.indexOf('\n', start);
        const qsizetype end = nl < 0 ? bytes.size() : nl;
        QByteArray line = bytes.mid(start, end - start);
        if (line.endsWith('\r'))
            line.chop(1);
        lines.append(line);
        start = nl < 0 ? bytes.size() : nl + 1;
    }
    return lines;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QString path = fuzz::writeScratchFile(QStringLiteral("rank-0000.log.gz"), data, size);
    InputFile input;
    input.path = path;
    input.displayPath = QStringLiteral("rank-0000.log.gz");
    input.size = static_cast<qint64>(size);
    QString error;
    std::unique_ptr<ByteStream> stream = ByteStream::open(input, error);
    if (!stream)
        return 0;
    bool streamFailed = false;
    const QByteArray bytes = readAll(*stream, streamFailed);

    FileInfo info;
    info.path = path;
    info.compressed = stream->compressed();
    const FileLinesResult opened = FileLines::open(info);
    if (!opened.ok() || streamFailed)
        return 0;
    const FileLines& lines = *opened.lines;
    const QList<QByteArray> expected = expectedLines(bytes);
    if (lines.count() != expected.size())
        fuzz::fail("FileLines and ByteStream disagree on the number of lines");
    for (qsizetype i = 0; i < expected.size(); ++i) {
        if (expected.at(i).size() >= FileLines::kMaxLineBytes)
            continue; // cut visibly by design
        if (lines.rawLine(i) != expected.at(i))
            fuzz::fail("FileLines and ByteStream disagree on a line's bytes");
    }
    return 0;
}
