#include "file_scanner.h"

#include "byte_stream.h"
#include "line_prefix.h"
#include "record_builder.h"
#include "severity_rules.h"
#include "signature_catalog.h"
#include "signature_matcher.h"
#include "topology_loader.h"

#include <cstring>
#include <unordered_map>

namespace rankscope {

namespace {

bool startsWith(std::string_view s, std::string_view p)
{
    return s.substr(0, p.size()) == p;
}

QString toQString(std::string_view s)
{
    QString out =
        QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); // invalid UTF-8 becomes U+FFFD
    out.replace(QChar(u'\0'), QChar(u'\uFFFD'));
    return out;
}

// Text pasted from an issue or a chat: drop quote markers, code fences' backticks and markdown emphasis.
std::string unwrapPasted(std::string_view line)
{
    std::string out;
    out.reserve(line.size());
    std::string_view s = line;
    while (startsWith(s, "> "))
        s.remove_prefix(2);
    for (size_t i = 0; i < s.size(); ++i) {
        if ((s[i] == '*' || s[i] == '_') && i + 1 < s.size() && s[i + 1] == s[i]) {
            ++i;
            continue;
        }
        if (s[i] == '`')
            continue;
        out.push_back(s[i]);
    }
    return out;
}

// A cheap look before the real detection: XML, or the header words of nvidia-smi and rocm-smi.
bool looksLikeTopology(std::string_view head)
{
    head = head.substr(0, 4096);
    const size_t first = head.find_first_not_of(" \t\r\n");
    if (first != std::string_view::npos && head[first] == '<')
        return true;
    return head.find("GPU0") != std::string_view::npos
        || head.find("ROCm System Management") != std::string_view::npos
        || head.find("between two GPUs") != std::string_view::npos;
}

class LineScanner
{
public:
    LineScanner(FileScan& out, const ScanContext& ctx, int fileIndex)
        : m_out(out)
        , m_ctx(ctx)
        , m_file(fileIndex)
        , m_records(out, ctx)
    {
    }

    void line(std::string_view raw, qint64 offset, bool cut)
    {
        ++m_lineNo;
        m_out.info.lineOffsets.push_back(offset);
        if (!raw.empty() && raw.back() == '\r')
            raw.remove_suffix(1);
        std::string unwrapped;
        std::string_view text = raw;
        if (m_pasted) {
            unwrapped = unwrapPasted(raw);
            text = unwrapped;
        }
        if (cut)
            m_out.info.notes.push_back(
                QStringLiteral("line %1 is longer than 1 MiB: cut, with a marker").arg(m_lineNo));

        const LinePrefix p = parseLinePrefix(text);
        const LineClass c = classifyLine(p);
        const int stream = streamIndex(p);
        StreamStats& st = m_out.streams[static_cast<size_t>(stream)];
        ++st.lines;

        if (p.stamp.found() && p.stamp.kind != StampKind::Dmesg) {
            if (m_out.yearSeen == 0 && p.stamp.year != 0)
                m_out.yearSeen = p.stamp.year;
            if (!st.hasStamp) {
                st.firstStamp = p.stamp;
                st.firstLine = m_lineNo;
                st.hasStamp = true;
            }
            st.lastStamp = p.stamp;
            st.lastLine = m_lineNo;
            m_out.info.hasTimestamps = true;
            m_records.stampSeen(p.stamp, m_lineNo);
        }

        if (m_records.continueRecord(p, c, text, m_lineNo))
            return;

        ++st.counts[static_cast<size_t>(c.severity)];
        readFacts(p, text);
        if (startsWith(p.message, "step ")) {
            const std::string_view rest = p.message.substr(5, 20);
            st.lastStep = toQString(rest.substr(0, rest.find_first_not_of("0123456789")));
        }
        if (p.message.find("will restart worker group") != std::string_view::npos)
            m_out.restartLines.push_back(m_lineNo);

        MatchResult match;
        if (m_ctx.matcher && m_ctx.matcher->mayMatch(text))
            match = m_ctx.matcher->match(text);
        Severity severity = c.severity;
        int role = 3;
        if (match) {
            const Signature& sig = m_ctx.catalog->signatures[static_cast<size_t>(match.signature)];
            role = static_cast<int>(sig.role);
            if (sig.severity && *sig.severity > severity)
                severity = *sig.severity;
        }
        if (severity < Severity::Warn && !match && c.shape != LineShape::TracebackStart)
            return;

        ScannedEvent ev;
        ev.stream = stream;
        ev.stamp = p.stamp;
        ev.nccl = p.nccl != NcclLevel::None;
        ev.rolePriority = role;
        LogEvent& e = ev.event;
        e.file = m_file;
        e.line = m_lineNo;
        e.severity = severity;
        e.rank = p.globalRank >= 0 ? p.globalRank : p.launcherRank;
        e.localRank = p.teeLocalRank;
        e.pid = st.key.pid;
        e.device = p.ncclDev;
        e.host = st.key.host;
        e.text = toQString(raw);
        if (cut)
            e.text += QStringLiteral(" [… line cut at 1 MiB]");
        e.message = toQString(p.message);
        e.signature = match.signature;
        e.captures = std::move(match.captures);
        m_records.open(std::move(ev), p, c);
    }

    void finish() { m_records.finish(); }
    void setPasted(bool pasted) { m_pasted = pasted; }

private:
    int streamIndex(const LinePrefix& p)
    {
        StreamKey key;
        key.launcherRank = p.launcherRank;
        key.teeLocalRank = p.teeLocalRank;
        key.globalRank = p.globalRank;
        key.pid = p.pid >= 0 ? p.pid : p.rayPid;
        key.dev = p.ncclDev;
        std::string_view host = !p.ncclHost.empty() ? p.ncclHost : !p.pdshHost.empty() ? p.pdshHost : p.rayIp;
        host = shortHostName(host);
        // A cheap hash of the key; collisions fall back to comparing the full key.
        quint64 h = static_cast<quint64>(key.launcherRank + 2) * 1000003u;
        h = (h ^ static_cast<quint64>(key.teeLocalRank + 2)) * 1000003u;
        h = (h ^ static_cast<quint64>(key.globalRank + 2)) * 1000003u;
        h = (h ^ static_cast<quint64>(key.pid + 2)) * 1000003u;
        h = (h ^ static_cast<quint64>(key.dev + 2)) * 1000003u;
        h ^= std::hash<std::string_view>()(host);
        if (m_lastHash == h && m_lastStream >= 0)
            return m_lastStream;
        auto [it, end] = m_streamByHash.equal_range(h);
        key.host = toQString(host);
        for (; it != end; ++it) {
            if (m_out.streams[static_cast<size_t>(it->second)].key == key) {
                m_lastHash = h;
                return m_lastStream = it->second;
            }
        }
        StreamStats st;
        st.key = std::move(key);
        m_out.streams.push_back(std::move(st));
        const int index = static_cast<int>(m_out.streams.size()) - 1;
        m_streamByHash.emplace(h, index);
        m_lastHash = h;
        return m_lastStream = index;
    }

    void readFacts(const LinePrefix& p, std::string_view text)
    {
        IdentityFact f;
        bool found = false;
        if (p.nccl == NcclLevel::Info)
            found = parseNcclIdentity(p.message, f);
        else if (startsWith(p.message, "#  Rank") || startsWith(p.message, "# Rank"))
            found = parseNcclTestsRank(p.message, f);
        if (!found)
            return;
        (void)text;
        f.file = m_file;
        f.line = m_lineNo;
        if (f.host.isEmpty())
            f.host = toQString(shortHostName(p.ncclHost));
        else
            f.host = toQString(shortHostName(f.host.toStdString()));
        if (f.pid < 0)
            f.pid = p.pid;
        if (f.ncclDev < 0)
            f.ncclDev = p.ncclDev;
        m_out.facts.push_back(std::move(f));
    }

    FileScan& m_out;
    const ScanContext& m_ctx;
    int m_file;
    RecordBuilder m_records;
    qint64 m_lineNo = 0;
    bool m_pasted = false;
    std::unordered_multimap<quint64, int> m_streamByHash;
    quint64 m_lastHash = 0;
    int m_lastStream = -1;
};

} // namespace

FileScan scanFile(const InputFile& input, int fileIndex, const ScanContext& ctx)
{
    FileScan out;
    out.info.path = input.path;
    out.info.displayPath = input.displayPath;
    out.rootFolder = input.rootFolder;
    out.hints = hintsFromPath(input.displayPath);
    if (input.inMemory)
        out.info.content = input.memory;

    QString error;
    std::unique_ptr<ByteStream> stream = ByteStream::open(input, error);
    if (!stream) {
        out.skipReason = error;
        return out;
    }
    out.info.compressed = stream->compressed();

    LineScanner scanner(out, ctx, fileIndex);
    scanner.setPasted(input.path == QLatin1String("<pasted text>"));
    constexpr qint64 kChunk = 1 << 20;
    std::vector<char> buf(static_cast<size_t>(kChunk + kMaxLineBytes));
    qint64 carry = 0; // bytes of an unfinished line at the start of buf
    qint64 streamPos = 0; // decompressed offset of buf[0]
    qint64 reported = 0;
    bool skippingRest = false; // inside a line already cut at kMaxLineBytes
    char separator = '\n';
    bool first = true;
    qint64 nulAt = -1;
    for (;;) {
        if (ctx.cancel && ctx.cancel->isCancelled())
            break;
        const qint64 n = stream->read(buf.data() + carry, kChunk);
        if (n < 0) {
            out.info.notes.push_back(stream->error());
            if (out.info.lineOffsets.empty())
                out.skipReason = stream->error();
            break;
        }
        if (first && n > 0) {
            first = false;
            const qint64 probe = std::min<qint64>(n, 8192);
            const void* nul = std::memchr(buf.data(), 0, static_cast<size_t>(probe));
            if (nul) {
                out.skipReason = QStringLiteral("binary file: NUL byte at offset %1")
                                     .arg(static_cast<const char*>(nul) - buf.data());
                return out;
            }
            // Topology captures sit beside the logs; they are recognised by content and handed back.
            if (looksLikeTopology(std::string_view(buf.data(), static_cast<size_t>(n)))
                && detectTopologyFormat(QByteArray(buf.data(), static_cast<qsizetype>(n)))
                    != TopologyFormat::Unknown) {
                out.topologyCapture = true;
                return out;
            }
            if (!std::memchr(buf.data(), '\n', static_cast<size_t>(n))
                && std::memchr(buf.data(), '\r', static_cast<size_t>(n)))
                separator = '\r'; // old Mac line ends
        }
        if (nulAt < 0 && n > 0) {
            const void* nul = std::memchr(buf.data() + carry, 0, static_cast<size_t>(n));
            if (nul) {
                nulAt = streamPos + (static_cast<const char*>(nul) - buf.data());
                out.info.notes.push_back(
                    QStringLiteral("NUL bytes in the text (first at byte %1): shown as U+FFFD").arg(nulAt));
            }
        }
        const qint64 avail = carry + n;
        const bool atEnd = n == 0;
        qint64 pos = 0;
        while (pos < avail) {
            const char* start = buf.data() + pos;
            const void* nl = std::memchr(start, separator, static_cast<size_t>(avail - pos));
            if (!nl) {
                if (atEnd) {
                    if (!skippingRest)
                        scanner.line(std::string_view(start, static_cast<size_t>(avail - pos)),
                            streamPos + pos, false);
                    pos = avail;
                }
                break;
            }
            const qint64 len = static_cast<const char*>(nl) - start;
            if (skippingRest) {
                skippingRest = false;
            } else {
                scanner.line(std::string_view(start, static_cast<size_t>(len)), streamPos + pos, false);
            }
            pos += len + 1;
        }
        carry = avail - pos;
        if (carry >= kMaxLineBytes && !skippingRest) {
            scanner.line(std::string_view(buf.data() + pos, static_cast<size_t>(kMaxLineBytes)),
                streamPos + pos, true);
            skippingRest = true;
        }
        if (skippingRest) {
            streamPos += avail; // drop the rest of the overlong line
            carry = 0;
        } else {
            std::memmove(buf.data(), buf.data() + pos, static_cast<size_t>(carry));
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
    out.info.lines = static_cast<qint64>(out.info.lineOffsets.size());
    return out;
}

} // namespace rankscope
