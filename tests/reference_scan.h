// SPDX-License-Identifier: MIT
// The slow, obvious scan that scanFile() must agree with: the whole file read into memory, cut into lines
// one by one, and every line given to LineScanner::line() with the shortcuts off, no block search (the
// prefilter scans each line alone, every line is read for level words and colour codes) and no carried
// bytes. What scanFile() adds (reads of 128 KiB, page alignment, the carry, one Vectorscan pass per
// window, the hit cursor, the repeated-prefix shortcuts) must change nothing: tst_scan_reference compares
// the two over every test input, fuzz_scan_shortcuts over whatever the fuzzer writes. docs/scanner.md.
#pragma once

#include "byte_stream.h"
#include "file_scanner.h"
#include "line_scanner.h"
#include "scan_records.h"
#include "terminal_codes.h"

#include <QFileInfo>
#include <cstring>
#include <string>

namespace rankscope::testing {

inline FileScan referenceScan(const InputFile& input, int fileIndex, const ScanContext& given)
{
    if (isTorchrunErrorJson(input))
        return scanFile(input, fileIndex, given); // one JSON document, not lines
    ScanContext ctx = given;
    ctx.shortcuts = false;
    InputFile source;
    FileScan out = startScan(input, source); // names, path hints, a paste's joined wraps
    const bool pasted = isPastedInput(input);

    QString error;
    std::unique_ptr<ByteStream> stream = ByteStream::open(source, error);
    if (!stream) {
        out.skipReason = error;
        return out;
    }
    out.info.compressed = stream->compressed();
    std::string bytes;
    QString readError;
    for (;;) {
        char chunk[1 << 16];
        const qint64 n = stream->read(chunk, sizeof chunk);
        if (n < 0) {
            readError = stream->error();
            break;
        }
        if (n == 0)
            break;
        bytes.append(chunk, static_cast<std::size_t>(n));
    }

    // What the first 128 KiB say about the whole file.
    const std::string_view head = std::string_view(bytes).substr(0, 128 << 10);
    if (head.size() >= 262 && head.substr(257, 5) == "ustar") {
        out.skipReason =
            QStringLiteral("tar archive: archives are not read; unpack it (tar -xf %1) and open the folder")
                .arg(QFileInfo(input.path).fileName());
        return out;
    }
    if (const std::size_t nul = head.substr(0, 8192).find('\0'); nul != std::string_view::npos) {
        out.skipReason = QStringLiteral("binary file: NUL byte at offset %1").arg(nul);
        return out;
    }
    char separator = '\n';
    LineScanner scanner(out, ctx, fileIndex);
    scanner.setPasted(pasted);
    scanner.setCommonIndent(commonIndent(head));
    scanner.setWrap(detectWrap(head)); // a terminal's cut lines and wraps at spaces are read whole here too
    scanner.keepOffsets(ctx.lineIndex || input.inMemory);
    if (head.find('\n') == std::string_view::npos && head.find('\r') != std::string_view::npos) {
        separator = '\r';
        scanner.keepOffsets(true);
    }
    if (const std::size_t nul = bytes.find('\0'); nul != std::string::npos)
        out.info.notes.push_back(
            QStringLiteral("NUL bytes in the text (first at byte %1): shown as U+FFFD").arg(nul));

    scanner.setBlockHasEscape(true); // every line is looked at for colour codes
    scanner.setStandIns(holdsCodesWithoutEsc(head));
    std::size_t at = 0;
    while (at < bytes.size()) {
        std::size_t end = bytes.find(separator, at);
        const bool terminated = end != std::string::npos;
        if (!terminated)
            end = bytes.size();
        const std::size_t length = end - at;
        const bool cut = length >= static_cast<std::size_t>(kMaxLineBytes);
        scanner.physicalLine(
            std::string_view(bytes.data() + at, cut ? static_cast<std::size_t>(kMaxLineBytes) : length),
            static_cast<qint64>(at), cut);
        at = terminated ? end + 1 : end;
    }
    if (!readError.isEmpty()) {
        out.info.notes.push_back(readError);
        if (scanner.lineCount() == 0)
            out.skipReason = readError;
    }
    scanner.finish();
    if (!stream->note().isEmpty())
        out.info.notes.push_back(stream->note());
    out.info.bytes = static_cast<qint64>(bytes.size());
    out.info.lines = scanner.lineCount();
    return out;
}

} // namespace rankscope::testing
