// SPDX-License-Identifier: MIT
#include "file_scanner.h"

#include "byte_stream.h"
#include "line_scanner.h"
#include "paste_rejoin.h"
#include "signature_matcher.h"
#include "space_stand_ins.h"
#include "terminal_codes.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <nlohmann/json.hpp>

namespace rankscope {

namespace {

// A cheap look before the real detection: XML, or the header words of nvidia-smi and rocm-smi.
// Reads torchrun's error.json into one ERROR event (with the py_callstack as its continuation).
void scanErrorJson(const InputFile& input, int fileIndex, FileScan& out)
{
    QFile file(input.path);
    if (!file.open(QIODevice::ReadOnly)) {
        out.skipReason = QStringLiteral("cannot open: %1").arg(file.errorString());
        return;
    }
    const QByteArray bytes = file.read(16 << 20);
    out.info.bytes = bytes.size();
    out.info.lineOffsets.push_back(0);
    for (qsizetype i = 0; i + 1 < bytes.size(); ++i) {
        if (bytes[i] == '\n')
            out.info.lineOffsets.push_back(i + 1);
    }
    out.info.lines = static_cast<qint64>(out.info.lineOffsets.size());
    const nlohmann::json doc =
        nlohmann::json::parse(bytes.constData(), bytes.constData() + bytes.size(), nullptr, false);
    if (doc.is_discarded() || !doc.is_object() || !doc.contains("message")) {
        out.skipReason = QStringLiteral("not a torchrun error file: no JSON object with a \"message\"");
        return;
    }
    std::string message, callstack;
    qint64 stampSeconds = -1;
    const nlohmann::json& m = doc["message"];
    if (m.is_string()) {
        message = m.get<std::string>();
    } else if (m.is_object()) {
        if (m.contains("message") && m["message"].is_string())
            message = m["message"].get<std::string>();
        if (m.contains("extraInfo") && m["extraInfo"].is_object()) {
            const nlohmann::json& extra = m["extraInfo"];
            if (extra.contains("py_callstack") && extra["py_callstack"].is_string())
                callstack = extra["py_callstack"].get<std::string>();
            if (extra.contains("timestamp")) {
                const nlohmann::json& ts = extra["timestamp"];
                if (ts.is_string())
                    stampSeconds = QByteArray::fromStdString(ts.get<std::string>()).toLongLong();
                else if (ts.is_number_integer())
                    stampSeconds = ts.get<qint64>();
            }
        }
    }
    StreamStats st;
    st.lines = out.info.lines;
    st.counts[static_cast<size_t>(Severity::Error)] = 1;
    ScannedEvent ev;
    ev.stream = 0;
    if (stampSeconds > 0) {
        ev.stamp.kind = StampKind::Epoch;
        ev.stamp.epochMs = stampSeconds * 1000;
        st.firstStamp = st.lastStamp = ev.stamp;
        st.firstLine = st.lastLine = 1;
        st.hasStamp = true;
        out.info.hasTimestamps = true;
        out.yearSeen = QDateTime::fromSecsSinceEpoch(stampSeconds, Qt::UTC).date().year();
    }
    out.streams.push_back(std::move(st));
    LogEvent& e = ev.event;
    e.file = fileIndex;
    e.line = 1;
    e.severity = Severity::Error;
    e.localRank = out.hints.localRank;
    const QString text = bytesToQString(message);
    e.message = text.section(QLatin1Char('\n'), 0, 0);
    e.text = QStringLiteral("error.json: ") + e.message;
    ev.ncclWarnText = e.text.contains(QLatin1String(" NCCL WARN "));
    QStringList more = text.split(QLatin1Char('\n')).mid(1);
    more += bytesToQString(callstack).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    if (more.size() > kMaxRecordLines)
        more = more.mid(0, kMaxRecordLines);
    e.continuation = more;
    out.events.push_back(std::move(ev));
}

} // namespace

bool isTorchrunErrorJson(const InputFile& input)
{
    return !input.inMemory && input.path.endsWith(QLatin1String("/error.json")) && input.size < (16 << 20);
}

std::vector<FileScan> splitRestarts(FileScan&& scan)
{
    std::vector<FileScan> parts;
    if (scan.restartLines.empty() || scan.hints.attempt >= 0) {
        parts.push_back(std::move(scan));
        return parts;
    }
    const size_t n = scan.restartLines.size() + 1;
    parts.resize(n);
    auto segmentOf = [&](qint64 line) {
        return static_cast<size_t>(std::upper_bound(scan.restartLines.begin(), scan.restartLines.end(), line)
            - scan.restartLines.begin());
    };
    std::vector<int> streamMap(scan.streams.size(), -1);
    for (size_t k = 0; k < n; ++k) {
        FileScan& part = parts[k];
        part.info = scan.info; // the whole file's line index: event lines stay file lines
        part.info.hasTimestamps = false;
        part.info.notes.clear();
        part.rootFolder = scan.rootFolder;
        part.hints = scan.hints;
        part.hints.attempt = static_cast<int>(k);
        part.segment = static_cast<int>(k);
        part.yearSeen = scan.yearSeen;
        part.launch = scan.launch; // the same launcher and framework before and after a restart
        const qint64 firstOffset = k == 0 ? 0 : scan.restartOffsets[k - 1];
        const qint64 endOffset = k + 1 < n ? scan.restartOffsets[k] : scan.info.bytes;
        part.info.bytes = endOffset - firstOffset;
    }
    parts.front().info.notes = scan.info.notes;
    for (size_t i = 0; i < scan.streams.size(); ++i) {
        const size_t k = std::min(static_cast<size_t>(scan.streams[i].key.segment), n - 1);
        streamMap[i] = static_cast<int>(parts[k].streams.size());
        parts[k].info.hasTimestamps = parts[k].info.hasTimestamps || scan.streams[i].hasStamp;
        parts[k].streams.push_back(std::move(scan.streams[i]));
    }
    for (ScannedEvent& ev : scan.events) {
        FileScan& part = parts[segmentOf(ev.event.line)];
        const int stream = ev.stream >= 0 ? streamMap[static_cast<size_t>(ev.stream)] : -1;
        ev.stream = stream;
        part.events.push_back(std::move(ev));
    }
    for (IdentityFact& f : scan.facts)
        parts[segmentOf(f.line)].facts.push_back(std::move(f));
    for (size_t k = 0; k < n; ++k) {
        parts[k].restartLines = scan.restartLines;
        parts[k].restartOffsets = scan.restartOffsets;
    }
    return parts;
}

bool isPastedInput(const InputFile& input)
{
    return input.path == QLatin1String("<pasted text>");
}

namespace {

// The part of a file's path that speaks of the job: all of it below a folder that was walked, the member
// path inside an archive, else (a file given alone) its own name and its folder. The folders above are the
// user's ("/tmp/ci2/...", "/home/alice7/..."), not the job's hosts or ranks.
QString pathForHints(const InputFile& input)
{
    if (!input.rootFolder.isEmpty())
        return input.displayPath;
    const qsizetype member = input.displayPath.lastIndexOf(QLatin1String("!/"));
    if (member >= 0)
        return input.displayPath.mid(member + 2);
    const QStringList parts = input.displayPath.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    return parts.size() <= 2 ? input.displayPath : parts.sliced(parts.size() - 2).join(QLatin1Char('/'));
}

} // namespace

FileScan startScan(const InputFile& input, InputFile& source)
{
    FileScan out;
    out.info.path = input.path;
    out.info.displayPath = input.displayPath;
    out.rootFolder = input.rootFolder;
    out.hints = hintsFromPath(pathForHints(input));
    source = input;
    if (isPastedInput(input)) {
        const RejoinResult rejoined = rejoinWrappedLines(input.memory);
        if (rejoined.joined > 0) {
            source.memory = rejoined.text;
            out.info.notes.push_back(QStringLiteral(
                "%1 hard-wrapped line(s) joined to the line before: the paste looks wrapped at %2 "
                "columns")
                                         .arg(rejoined.joined)
                                         .arg(rejoined.width));
        }
    }
    if (input.inMemory)
        out.info.content = source.memory;
    return out;
}

int commonIndent(std::string_view block)
{
    int common = -1;
    for (std::size_t at = 0; at < block.size() && common != 0;) {
        std::size_t end = block.find('\n', at);
        if (end == std::string_view::npos)
            end = block.size();
        const std::string_view line = block.substr(at, end - at);
        const std::size_t spaces = line.find_first_not_of(' ');
        if (spaces != std::string_view::npos && line[spaces] != '\r')
            common = common < 0 ? static_cast<int>(std::min<std::size_t>(spaces, 64))
                                : std::min(common, static_cast<int>(spaces));
        at = end + 1;
    }
    return std::max(common, 0);
}

FileScan scanFile(const InputFile& input, int fileIndex, const ScanContext& ctx)
{
    InputFile source;
    FileScan out = startScan(input, source);
    const bool pasted = isPastedInput(input);
    if (isTorchrunErrorJson(input)) {
        scanErrorJson(input, fileIndex, out);
        if (ctx.bytesDone)
            ctx.bytesDone->fetch_add(input.size);
        return out;
    }

    QString error;
    std::unique_ptr<ByteStream> stream = ByteStream::open(source, error);
    if (!stream) {
        out.skipReason = error;
        return out;
    }
    out.info.compressed = stream->compressed();

    LineScanner scanner(out, ctx, fileIndex);
    const LiteralPrefilter* prefilter = ctx.matcher ? ctx.matcher->literalPrefilter() : nullptr;
    static thread_local AtomHits hits; // per window; keeps its capacity across files
    scanner.setPasted(pasted);
    scanner.keepOffsets(ctx.lineIndex || input.inMemory);
    // Small reads keep the copy and the scan that follows it inside L2.
    constexpr qint64 kChunk = 128 << 10;
    // The kernel copies a read out of the page cache with `rep movsb`, which on AMD Zen runs at a third of
    // its speed when the destination lies 1 to 31 bytes past the source modulo 4 KiB (a probe over 1 GB:
    // 0.75 s of system time against 0.21 s). Reads start at file offsets that are multiples of kChunk, so
    // they land on a page boundary too; the unfinished line of the last read moves in front of it.
    constexpr qint64 kPage = 4096;
    // One buffer per worker thread, reused across files: a folder of 100,000 small files must not pay for
    // zeroing 2 MiB each.
    static thread_local std::vector<char> buf;
    if (buf.size() < static_cast<size_t>(kMaxLineBytes + kPage + kChunk))
        buf.resize(static_cast<size_t>(kMaxLineBytes + kPage + kChunk));
    const auto front = reinterpret_cast<std::uintptr_t>(buf.data() + kMaxLineBytes);
    char* const readAt = buf.data() + kMaxLineBytes + static_cast<qint64>((kPage - front % kPage) % kPage);
    qint64 carry = 0; // bytes of an unfinished line, just before readAt (always < kMaxLineBytes)
    qint64 streamPos = 0; // decompressed offset of the window's start, readAt - carry
    qint64 reported = 0;
    bool skippingRest = false; // inside a line already cut at kMaxLineBytes
    char separator = '\n';
    bool first = true;
    bool standIns = false; // colour codes whose ESC a copy lost or rewrote (terminal_codes.h)
    bool spaceStandIns = false; // no-break spaces or rsyslog's "#011" (space_stand_ins.h)
    qint64 nulAt = -1;
    // A line mark about every MiB when no offsets are kept: the window's start is a line start unless the
    // read loop is inside a cut line, or a terminal-cut file holds pieces of a line back.
    constexpr qint64 kMarkEvery = 1 << 20;
    qint64 nextMark = kMarkEvery;
    for (;;) {
        if (ctx.cancel && ctx.cancel->isCancelled())
            break;
        if (streamPos >= nextMark && !skippingRest && separator == '\n' && !scanner.keepsOffsets()
            && !scanner.joinsWraps()) {
            out.info.lineMarks.push_back({ scanner.lineCount(), streamPos });
            nextMark = streamPos + kMarkEvery;
        }
        const qint64 n = stream->read(readAt, kChunk);
        char* const win = readAt - carry; // the unfinished line, then what was just read
        if (n < 0) {
            // What was read stays: the unfinished line is the last one (a truncated gzip's cut tail).
            if (carry > 0 && !skippingRest) {
                scanner.setBlockHasEscape(
                    mayHoldTerminalCodes(std::string_view(win, static_cast<size_t>(carry)), standIns));
                scanner.setBlockHasSpaceStandIns(
                    spaceStandIns && mayHoldSpaceStandIns(std::string_view(win, static_cast<size_t>(carry))));
                scanner.line(std::string_view(win, static_cast<size_t>(carry)), streamPos, false);
            }
            out.info.notes.push_back(stream->error());
            if (scanner.lineCount() == 0)
                out.skipReason = stream->error();
            break;
        }
        if (first && n > 0) {
            first = false;
            const qint64 probe = std::min<qint64>(n, 8192);
            // A tar archive (its first header's "ustar" magic at byte 257), plain or gzipped: said so, with
            // the way out, rather than as an unknown binary.
            if (n >= 262 && std::memcmp(win + 257, "ustar", 5) == 0) {
                out.skipReason = QStringLiteral(
                    "tar archive: archives are not read; unpack it (tar -xf %1) and open the folder")
                                     .arg(QFileInfo(input.path).fileName());
                return out;
            }
            const void* nul = std::memchr(win, 0, static_cast<size_t>(probe));
            if (nul) {
                out.skipReason = QStringLiteral("binary file: NUL byte at offset %1")
                                     .arg(static_cast<const char*>(nul) - win);
                return out;
            }
            scanner.setCommonIndent(commonIndent(std::string_view(win, static_cast<size_t>(n))));
            scanner.setWrap(detectWrap(std::string_view(win, static_cast<size_t>(n))));
            standIns = holdsCodesWithoutEsc(std::string_view(win, static_cast<size_t>(n)));
            // A copy out of a web page, or rsyslog's escapes, shows on every line: one look, as for colours.
            spaceStandIns = mayHoldSpaceStandIns(std::string_view(win, static_cast<size_t>(n)));
            scanner.setStandIns(standIns);
            if (!std::memchr(win, '\n', static_cast<size_t>(n))
                && std::memchr(win, '\r', static_cast<size_t>(n))) {
                separator = '\r'; // old Mac line ends
                scanner.keepOffsets(true);
            }
        }
        if (nulAt < 0 && n > 0) {
            const void* nul = std::memchr(readAt, 0, static_cast<size_t>(n));
            if (nul) {
                nulAt = streamPos + (static_cast<const char*>(nul) - win);
                out.info.notes.push_back(
                    QStringLiteral("NUL bytes in the text (first at byte %1): shown as U+FFFD").arg(nulAt));
            }
        }
        const qint64 avail = carry + n;
        const bool atEnd = n == 0;
        // Colour codes: one look per block, so that a plain block's lines pay nothing for them.
        scanner.setBlockHasEscape(
            avail > 0 && mayHoldTerminalCodes(std::string_view(win, static_cast<size_t>(avail)), standIns));
        scanner.setBlockHasSpaceStandIns(spaceStandIns && avail > 0
            && mayHoldSpaceStandIns(std::string_view(win, static_cast<size_t>(avail))));
        // Every atom of the prefilter in the window, in one pass: a line looks its own up.
        if (prefilter) {
            prefilter->scanBlock(std::string_view(win, static_cast<size_t>(avail)), hits);
            scanner.setBlockHits(&hits);
        }
        qint64 pos = 0;
        while (pos < avail) {
            const char* start = win + pos;
            if (!skippingRest && separator == '\n'
                && !scanner.joinsWraps()) { // most NCCL lines repeat the last
                const qint64 same = scanner.repeatedLine(start, avail - pos, streamPos + pos);
                if (same >= 0) {
                    pos += same + 1;
                    continue;
                }
            }
            const void* nl = std::memchr(start, separator, static_cast<size_t>(avail - pos));
            if (!nl) {
                if (atEnd) {
                    if (!skippingRest)
                        scanner.physicalLine(std::string_view(start, static_cast<size_t>(avail - pos)),
                            streamPos + pos, false);
                    pos = avail;
                }
                break;
            }
            const qint64 len = static_cast<const char*>(nl) - start;
            if (skippingRest) {
                skippingRest = false;
            } else {
                // A line of kMaxLineBytes or more is cut there wherever its end falls, as an unfinished one
                // is below: the reads' boundaries never decide what a line is.
                const bool cut = len >= kMaxLineBytes;
                scanner.physicalLine(std::string_view(start, static_cast<size_t>(cut ? kMaxLineBytes : len)),
                    streamPos + pos, cut);
            }
            pos += len + 1;
        }
        scanner.forgetLastLine(); // its bytes are about to move or be read over
        carry = avail - pos;
        if (carry >= kMaxLineBytes && !skippingRest) {
            scanner.line(
                std::string_view(win + pos, static_cast<size_t>(kMaxLineBytes)), streamPos + pos, true);
            skippingRest = true;
        }
        scanner.setBlockHits(nullptr);
        if (skippingRest) {
            streamPos += avail; // drop the rest of the overlong line
            carry = 0;
        } else {
            std::memmove(readAt - carry, win + pos, static_cast<size_t>(carry));
            streamPos += pos;
        }
        if (ctx.bytesDone && !stream->compressed()) {
            ctx.bytesDone->fetch_add(n);
            reported += n;
        }
        if (atEnd)
            break;
    }
    scanner.finish();
    if (!stream->note().isEmpty())
        out.info.notes.push_back(stream->note());
    if (ctx.bytesDone && stream->compressed())
        ctx.bytesDone->fetch_add(input.size);
    else if (ctx.bytesDone && reported < input.size)
        ctx.bytesDone->fetch_add(input.size - reported);
    out.info.bytes = streamPos + carry;
    out.info.lines = scanner.lineCount();
    return out;
}

} // namespace rankscope
