#include "file_scanner.h"

#include "byte_compare.h"
#include "byte_stream.h"
#include "line_prefix.h"
#include "paste_rejoin.h"
#include "record_builder.h"
#include "repeated_glog_prefix.h"
#include "repeated_nccl_prefix.h"
#include "severity_rules.h"
#include "signature_catalog.h"
#include "signature_matcher.h"
#include "topology_loader.h"

#include <QDateTime>
#include <QFile>
#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>
#include <tuple>
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
        if (m_keepOffsets)
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

        if (m_ctx.shortcuts && !m_pasted && !m_restartPending && plainLine(text))
            return;
        tellLastStamp(); // the full parse may open an event that takes it as its previous stamp

        LinePrefix p;
        int glogEntry = -1;
        if (m_ctx.shortcuts && !m_pasted && m_glog.match(text, p)) {
            glogEntry = m_glog.lastEntry();
        } else {
            p = parseLinePrefix(text);
            if (!m_pasted)
                m_glog.learn(text, p);
        }
        const LineClass c = classifyLine(p);
        if (restartBefore(p) && m_lineNo > 1) {
            ++m_segment;
            m_out.restartLines.push_back(m_lineNo);
            m_out.restartOffsets.push_back(offset);
            m_repeat.forget(); // its streams are the previous attempt's
        }
        const int stream = streamIndex(p);
        m_repeat.learn(text, p, stream);
        if (glogEntry >= 0)
            m_glog.setStream(glogEntry, m_segment, stream);
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
            if (static_cast<size_t>(stream) < m_laterStamps.size())
                m_laterStamps[static_cast<size_t>(stream)].valid = false; // older than this one
            m_out.info.hasTimestamps = true;
            m_records.stampSeen(p.stamp, m_lineNo);
        }

        if (m_records.continueRecord(p, c, text, m_lineNo))
            return;

        ++st.counts[static_cast<size_t>(c.severity)];
        readFacts(p, text);
        noteStep(p.message, stream);
        if (p.nccl == NcclLevel::None && saysRestart(p.message)) { // torchrun's agent, never an NCCL line
            // The agent may say both in a row: one restart, not two.
            if (m_lastRestartMessage < 0 || m_lineNo - m_lastRestartMessage > 50)
                m_restartPending = true; // the lines after this one are the next attempt's
            m_lastRestartMessage = m_lineNo;
            m_bannerPid.clear();
        }

        MatchResult match;
        if (m_ctx.matcher)
            match = m_ctx.matcher->match(text); // runs the literal prefilter first, once
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

    void finish()
    {
        for (size_t i = 0; i < m_laterStamps.size() && i < m_out.streams.size(); ++i) {
            if (m_laterStamps[i].valid)
                m_out.streams[i].lastStamp = m_laterStamps[i].bytes.parse();
        }
        m_records.finish();
        for (size_t i = 0; i < m_stepDigits.size() && i < m_out.streams.size(); ++i) {
            if (m_stepDigits[i].size > 0)
                m_out.streams[i].lastStep =
                    toQString(std::string_view(m_stepDigits[i].digits, m_stepDigits[i].size));
        }
    }
    void setPasted(bool pasted) { m_pasted = pasted; }
    void keepOffsets(bool keep) { m_keepOffsets = keep; }
    qint64 lineCount() const { return m_lineNo; }

private:
    // The two shortcuts, the one that took the line before first: a file is NCCL lines or console lines.
    bool plainLine(std::string_view text)
    {
        const bool glogFirst = m_glogFirst;
        if (glogFirst ? plainGlogLine(text) : plainNcclLine(text))
            return true;
        if (!(glogFirst ? plainNcclLine(text) : plainGlogLine(text)))
            return false;
        m_glogFirst = !glogFirst;
        return true;
    }

    bool plainNcclLine(std::string_view text)
    {
        std::string_view message;
        int stream = -1;
        return m_repeat.match(text, message, stream) && plainInfoLine(text, message, stream);
    }

    // A line that repeats the NCCL INFO prefix of its stream: when its message cannot carry an identity
    // fact, a restart banner, a return trail or a step, and no signature can match it, counting it is
    // all there is to do. Returns false to send the line through the full parse.
    bool plainInfoLine(std::string_view text, std::string_view message, int stream)
    {
        if (!message.empty()) {
            switch (message[0]) {
            case 'c': // the first letters of the identity lines (identity_facts.cpp) and of "step "
            case 'n':
            case '[':
            case 'N':
            case 'C':
            case 'S':
            case 'B':
            case 's':
                return false;
            default:
                break;
            }
        }
        if (std::memchr(message.data(), '>', std::min<size_t>(message.size(), 164)))
            return false; // maybe "file.cc:123 -> 2"
        if (m_ctx.matcher && m_ctx.matcher->mayMatch(text))
            return false;
        StreamStats& st = m_out.streams[static_cast<size_t>(stream)];
        ++st.lines;
        ++st.counts[static_cast<size_t>(Severity::Info)];
        return true;
    }

    // A glog line that repeats a remembered header ("[default4]:[rank36]:I0314 02:10:43.212000 53386
    // train.py:212] step 2790 | loss ..."): an INFO line of a known stream, whose message is no traceback,
    // exception, fact, restart or signature, only adds to its stream's counts and last stamp. Returns false
    // to send the line through the full parse.
    bool plainGlogLine(std::string_view text)
    {
        const int entry = m_glog.headerEntry(text);
        if (entry < 0 || m_glog.severityOf(entry, text) != 'I'
            || m_records.collecting(m_glog.launcherRankOf(entry), m_glog.teeLocalRankOf(entry)))
            return false;
        const int stream = m_glog.stream(entry, m_segment);
        if (stream < 0 || !m_out.streams[static_cast<size_t>(stream)].hasStamp)
            return false;
        std::string_view m = text.substr(m_glog.headerEnd(entry));
        if (!isPlainInfoMessage(m)) { // the exact rules: leading spaces, an NCCL prefix, a fact, the class
            if (!m_glog.messageOf(entry, text, m) || (!m.empty() && m[0] == '#'))
                return false;
            const LineClass c = classifyMessage('I', m);
            if (c.severity != Severity::Info || c.shape != LineShape::Plain)
                return false;
        }
        if (saysRestart(m) || (m_ctx.matcher && m_ctx.matcher->mayMatch(text)))
            return false;
        StreamStats& st = m_out.streams[static_cast<size_t>(stream)];
        ++st.lines;
        ++st.counts[static_cast<size_t>(Severity::Info)];
        st.lastLine = m_lineNo;
        if (m_records.waitingForStamp()) { // an earlier event takes this stamp as its next one: now
            tellLastStamp();
            m_glog.stampOf(entry, text, st.lastStamp);
            if (static_cast<size_t>(stream) < m_laterStamps.size())
                m_laterStamps[static_cast<size_t>(stream)].valid = false;
            m_records.stampSeen(st.lastStamp, m_lineNo);
        } else {
            // Kept as bytes: the stream's next line will most likely replace it.
            if (m_laterStamps.size() <= static_cast<size_t>(stream))
                m_laterStamps.resize(static_cast<size_t>(stream) + 1);
            LaterStamp& later = m_laterStamps[static_cast<size_t>(stream)];
            m_glog.stampBytes(entry, text, later.bytes);
            later.valid = true;
            m_untoldStream = stream;
            m_untoldLine = m_lineNo;
        }
        noteStep(m, stream);
        return true;
    }

    // The last stamped line, when the console shortcut kept its stamp as bytes: the record builder is told
    // of it before anything can ask it for the previous stamp.
    void tellLastStamp()
    {
        if (m_untoldStream < 0)
            return;
        const ParsedStamp s = m_laterStamps[static_cast<size_t>(m_untoldStream)].bytes.parse();
        m_records.stampSeen(s, m_untoldLine);
        m_untoldStream = -1;
    }

    // "step 2790 | loss ...": the stream's last step, kept as bytes and made a QString in finish().
    void noteStep(std::string_view message, int stream)
    {
        if (message.size() < 5 || message[0] != 's' || message.substr(0, 5) != "step ")
            return;
        if (m_stepDigits.size() <= static_cast<size_t>(stream))
            m_stepDigits.resize(static_cast<size_t>(stream) + 1);
        StepDigits& step = m_stepDigits[static_cast<size_t>(stream)];
        if (message.size() >= 5 + 8) {
            // Eight bytes at once: the high bit of each byte that is no digit, the first of them ends it.
            const quint64 word = loadWord(message.data() + 5);
            const quint64 x = word ^ 0x3030303030303030ull; // digits become 0..9
            const quint64 nonDigit =
                (((x & 0x7F7F7F7F7F7F7F7Full) + 0x7676767676767676ull) | x) & 0x8080808080808080ull;
            if (nonDigit != 0) {
                std::memcpy(step.digits, &word, 8);
                step.size = static_cast<quint8>(std::countr_zero(nonDigit) / 8);
                return;
            }
        }
        const std::string_view rest = message.substr(5, sizeof(StepDigits::digits));
        quint8 digits = 0;
        for (const char c : rest) {
            if (static_cast<unsigned>(c - '0') > 9u)
                break;
            step.digits[digits++] = c;
        }
        step.size = digits;
    }

    // torchrun's agent announcing the next attempt. 'w' is a rare letter: most messages are passed over
    // by one memchr.
    static bool saysRestart(std::string_view message)
    {
        return !message.empty() && std::memchr(message.data(), 'w', message.size())
            && (message.find("will restart worker group") != std::string_view::npos
                || message.find("Restarting worker group") != std::string_view::npos);
    }

    int streamIndex(const LinePrefix& p)
    {
        StreamKey key;
        key.launcherRank = p.launcherRank;
        key.teeLocalRank = p.teeLocalRank;
        key.globalRank = p.globalRank;
        key.pid = p.pid >= 0 ? p.pid : p.rayPid;
        key.dev = p.ncclDev;
        key.segment = m_segment;
        std::string_view host = !p.ncclHost.empty() ? p.ncclHost : !p.pdshHost.empty() ? p.pdshHost : p.rayIp;
        host = shortHostName(host);
        // The hot path: most lines belong to the stream of the line before. Keys are compared on plain
        // fields and the host bytes, so no QString is made unless the stream is new.
        auto same = [&](int index) {
            const StreamKey& k = m_out.streams[static_cast<size_t>(index)].key;
            return k.launcherRank == key.launcherRank && k.teeLocalRank == key.teeLocalRank
                && k.globalRank == key.globalRank && k.pid == key.pid && k.dev == key.dev
                && k.segment == key.segment && m_streamHosts[static_cast<size_t>(index)] == host;
        };
        if (m_lastStream >= 0 && same(m_lastStream))
            return m_lastStream;
        // An interleaved console takes turns between a few streams: try the recent ones, the one after the
        // last hit first, before hashing the key.
        for (size_t k = 1; k <= m_recent.size(); ++k) {
            const size_t slot = (m_recentHit + k) % m_recent.size();
            if (m_recent[slot] >= 0 && same(m_recent[slot])) {
                m_recentHit = slot;
                return m_lastStream = m_recent[slot];
            }
        }
        quint64 h = static_cast<quint64>(key.launcherRank + 2) * 1000003u;
        h = (h ^ static_cast<quint64>(key.teeLocalRank + 2)) * 1000003u;
        h = (h ^ static_cast<quint64>(key.globalRank + 2)) * 1000003u;
        h = (h ^ static_cast<quint64>(key.pid + 2)) * 1000003u;
        h = (h ^ static_cast<quint64>(key.dev + 2)) * 1000003u;
        h = (h ^ static_cast<quint64>(key.segment)) * 1000003u;
        h ^= std::hash<std::string_view>()(host);
        auto [it, end] = m_streamByHash.equal_range(h);
        for (; it != end; ++it) {
            if (same(it->second))
                return m_lastStream = remember(it->second);
        }
        key.host = toQString(host);
        StreamStats st;
        st.key = std::move(key);
        m_out.streams.push_back(std::move(st));
        m_streamHosts.emplace_back(host);
        const int index = static_cast<int>(m_out.streams.size()) - 1;
        m_streamByHash.emplace(h, index);
        return m_lastStream = remember(index);
    }

    int remember(int stream)
    {
        m_recentHit = m_recentNext;
        m_recent[m_recentNext] = stream;
        m_recentNext = (m_recentNext + 1) % m_recent.size();
        return stream;
    }

    // Elastic restarts inside one file: torchrun's agent says so, or a rank prints a new NCCL banner from a
    // new process. Returns true when the line starts a new attempt.
    bool restartBefore(const LinePrefix& p)
    {
        if (m_restartPending) {
            m_restartPending = false;
            return true;
        }
        if (p.nccl != NcclLevel::Info || p.pid < 0 || !startsWith(p.message, "NCCL version"))
            return false;
        // Only where one channel is one process: a prefixed channel, or a file named after its rank.
        const bool channelKnown = p.launcherRank >= 0 || p.teeLocalRank >= 0 || p.globalRank >= 0
            || m_out.hints.rank >= 0 || m_out.hints.localRank >= 0;
        if (!channelKnown)
            return false;
        // The host is part of the channel: a console of several nodes has a [default3]: on each.
        const Channel ch { p.launcherRank, p.teeLocalRank, p.globalRank,
            std::string(shortHostName(p.ncclHost)) };
        auto it = m_bannerPid.find(ch);
        if (it == m_bannerPid.end()) {
            m_bannerPid.emplace(ch, p.pid);
            return false;
        }
        if (it->second == p.pid)
            return false;
        m_bannerPid.clear();
        m_bannerPid.emplace(ch, p.pid);
        return true;
    }

    void readFacts(const LinePrefix& p, std::string_view text)
    {
        const bool testsHeader = p.nccl == NcclLevel::None && !p.message.empty() && p.message[0] == '#';
        if (p.nccl != NcclLevel::Info && !testsHeader)
            return; // most lines: no fact to build (an IdentityFact holds QStrings)
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
    RepeatedNcclPrefix m_repeat;
    RepeatedGlogPrefix m_glog;
    struct StepDigits
    {
        char digits[20];
        quint8 size = 0;
    };
    std::vector<StepDigits> m_stepDigits; // per stream: the number of its last "step N" line
    qint64 m_lineNo = 0;
    bool m_pasted = false;
    bool m_keepOffsets = true;
    bool m_glogFirst = false; // the glog shortcut took the last plain line
    struct LaterStamp
    {
        GlogStampBytes bytes;
        bool valid = false; // newer than the stream's lastStamp, which it replaces in finish()
    };
    std::vector<LaterStamp> m_laterStamps; // per stream
    int m_untoldStream = -1; // the stream of the last stamped line, when the record builder has not seen it
    qint64 m_untoldLine = 0;
    std::unordered_multimap<quint64, int> m_streamByHash;
    std::vector<std::string> m_streamHosts; // host bytes of each stream, for allocation-free compares
    int m_lastStream = -1;
    std::array<int, 16> m_recent = { -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1 };
    size_t m_recentHit = 0; // the slot of the last stream found there
    size_t m_recentNext = 0; // the slot the next stream found by hash goes to
    int m_segment = 0;
    bool m_restartPending = false;
    qint64 m_lastRestartMessage = -1;
    using Channel = std::tuple<int, int, int, std::string>;
    std::map<Channel, qint64> m_bannerPid; // pid of each channel's last "NCCL version" banner
};

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
    const QString text = toQString(message);
    e.message = text.section(QLatin1Char('\n'), 0, 0);
    e.text = QStringLiteral("error.json: ") + e.message;
    QStringList more = text.split(QLatin1Char('\n')).mid(1);
    more += toQString(callstack).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
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

FileScan scanFile(const InputFile& input, int fileIndex, const ScanContext& ctx)
{
    FileScan out;
    out.info.path = input.path;
    out.info.displayPath = input.displayPath;
    out.rootFolder = input.rootFolder;
    out.hints = hintsFromPath(input.displayPath);
    const bool pasted = input.path == QLatin1String("<pasted text>");
    InputFile source = input;
    if (pasted) {
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
    scanner.setPasted(pasted);
    scanner.keepOffsets(ctx.lineIndex || input.inMemory);
    // Small reads keep the copy and the scan that follows it inside L2.
    constexpr qint64 kChunk = 128 << 10;
    // One buffer per worker thread, reused across files: a folder of 100,000 small files must not pay for
    // zeroing 2 MiB each.
    static thread_local std::vector<char> buf;
    if (buf.size() < static_cast<size_t>(kChunk + kMaxLineBytes))
        buf.resize(static_cast<size_t>(kChunk + kMaxLineBytes));
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
            if (scanner.lineCount() == 0)
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
                && std::memchr(buf.data(), '\r', static_cast<size_t>(n))) {
                separator = '\r'; // old Mac line ends
                scanner.keepOffsets(true);
            }
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
    out.info.lines = scanner.lineCount();
    return out;
}

} // namespace rankscope
