// SPDX-License-Identifier: MIT
// The whole-file scanner: one log file through discovery, streaming, attribution, multi-line records
// and time ordering. Every byte read must be accounted for in the incidents' file tables (a file whose
// lines span elastic restarts is split by bytes across attempts), and its line count must be exact.
#include "fuzz_support.h"
#include "ingest.h"

#include <cstring>

using namespace rankscope;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QString path = fuzz::writeScratchFile(QStringLiteral("nccl.gpu-a01.41872.log"), data, size);
    LoadOptions options;
    options.paths = { path };
    options.threads = 1;
    const LoadResult result = loadIncidents(options);
    const bool gzip = size >= 2 && data[0] == 0x1f && data[1] == 0x8b;
    if (gzip || !result.topologyFiles.isEmpty() || !result.error.isEmpty())
        return 0;
    // Plain text: a line starts at byte 0 and after every line end that is not the last byte. A file
    // whose first block has no '\n' but a '\r' has old Mac line ends (fuzz inputs fit in that block).
    const bool macLineEnds =
        std::memchr(data, '\n', size) == nullptr && std::memchr(data, '\r', size) != nullptr;
    const std::uint8_t lineEnd = macLineEnds ? '\r' : '\n';
    qint64 expectedLines = 0;
    for (std::size_t i = 0; i < size; ++i)
        if (i == 0 || data[i - 1] == lineEnd)
            ++expectedLines;
    qint64 lines = 0, bytes = 0;
    bool skipped = false;
    for (const Incident& incident : result.incidents) {
        skipped = skipped || !incident.skipped.empty();
        for (const FileInfo& f : incident.files) {
            lines = qMax(lines, f.lines); // a file split across attempts repeats its whole line count
            bytes += f.bytes;
        }
    }
    if (skipped)
        return 0;
    if (bytes != static_cast<qint64>(size))
        fuzz::fail("ingest read a different number of bytes than the file holds");
    if (lines != expectedLines) {
        for (const Incident& incident : result.incidents)
            for (const FileInfo& f : incident.files)
                std::fprintf(stderr, "%s: %s lines=%lld bytes=%lld\n", qPrintable(incident.label),
                    qPrintable(f.displayPath), static_cast<long long>(f.lines),
                    static_cast<long long>(f.bytes));
        std::fprintf(stderr, "file: %lld lines, %zu bytes\n", static_cast<long long>(expectedLines), size);
        fuzz::fail("ingest counted a different number of lines than the file holds");
    }
    return 0;
}
