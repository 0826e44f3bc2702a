// SPDX-License-Identifier: MIT
// LineScanner's bookkeeping off the hot path: the stream of a new prefix, elastic restarts inside a file,
// NCCL identity facts, and what finish() hands to the FileScan.
#include "identity_facts.h"
#include "line_scanner.h"
#include "run_settings.h"
#include "setup_facts.h"
#include "text_util.h"

namespace rankscope {

namespace {

// nccl-tests' and rccl-tests' column header: "#       size         count      type   redop    root ...", and
// before 2018 "#      bytes             N    type      op     time  algbw ...". A paste may lose the '#' (a
// Markdown quote made it a heading mark); then the bandwidth columns must be there too.
bool isBenchTableHeader(std::string_view m)
{
    constexpr auto npos = std::string_view::npos;
    std::size_t first = m.find(" size ");
    bool columns = first != npos && m.find(" count ", first) != npos;
    if (!columns) {
        first = m.find(" bytes ");
        columns = first != npos && m.find(" N ", first) != npos;
    }
    return columns && m.find(" type ", first) != npos
        && (trimLeft(m).substr(0, 1) == "#" || m.find(" algbw ") != npos);
}

// A result row under it: the message size in bytes, then the element count ("  8   2   float   sum ...").
bool isBenchResultRow(std::string_view m)
{
    const std::string_view t = trimLeft(m);
    std::size_t i = 0;
    while (i < t.size() && t[i] >= '0' && t[i] <= '9')
        ++i;
    if (i == 0 || i == t.size() || t[i] != ' ')
        return false;
    const std::string_view rest = trimLeft(t.substr(i));
    return !rest.empty() && rest[0] >= '0' && rest[0] <= '9';
}

// "NCCL version 2.4.6+cuda10.0" with no NCCL prefix: the banner rank 0 prints bare.
bool isBareVersionBanner(std::string_view m)
{
    constexpr std::string_view kBanner = "NCCL version ";
    return m.size() > kBanner.size() && startsWith(m, kBanner) && m[kBanner.size()] >= '0'
        && m[kBanner.size()] <= '9';
}

} // namespace

void LineScanner::finish()
{
    flushCutLine();
    if (m_cutJoins > 0)
        m_out.info.notes.push_back((m_wrapAtSpaces
                ? QStringLiteral(
                    "%1 line(s) wrapped at spaces to %2 columns were read whole (the first at line %3)")
                : QStringLiteral(
                    "%1 line(s) cut at %2 columns by a terminal were read whole (the first at line %3)"))
                                       .arg(m_cutJoins)
                                       .arg(m_wrapWidth)
                                       .arg(m_firstCutLine));
    for (size_t i = 0; i < m_laterStamps.size() && i < m_out.streams.size(); ++i) {
        if (m_laterStamps[i].valid)
            m_out.streams[i].lastStamp = m_laterStamps[i].bytes.parse();
    }
    m_records.finish();
    if (m_ctx.foldRepeats)
        foldRepeats(true);
    // Every file's events stay until the incident is built: the room the vector grew to while repeats
    // came in (thousands of slots of a few hundred bytes, per file) goes now.
    m_out.events.shrink_to_fit();
    if (m_folder.folded() > 0)
        m_out.info.notes.push_back(QStringLiteral(
            "%1 repeated event(s) folded: each repeats, numbers aside, one of the first %2 of its "
            "kind from the same writer, which counts them (the last at line %3)")
                                       .arg(m_folder.folded())
                                       .arg(RepeatFolder::kKept)
                                       .arg(m_folder.lastFoldedLine()));
    for (size_t i = 0; i < m_stepDigits.size() && i < m_out.streams.size(); ++i) {
        if (m_stepDigits[i].size > 0)
            m_out.streams[i].lastStep =
                bytesToQString(std::string_view(m_stepDigits[i].digits, m_stepDigits[i].size));
    }
}

void LineScanner::foldRepeats(bool all)
{
    const std::size_t n = m_out.events.size();
    std::vector<int> pinned;
    m_records.pinnedEvents(pinned);
    if (!all && m_wrap.line >= 0 && m_wrap.event >= 0) // the line about to come may complete it
        pinned.push_back(m_wrap.event);
    m_folder.examine(m_out.events, all ? n : n - RepeatFolder::kSettle, std::move(pinned));
    if (!(all ? m_folder.hasDrops() : m_folder.worthCompacting(n)))
        return;
    const std::vector<int> remap = m_folder.compact(m_out.events);
    m_records.remapEvents(remap);
    if (m_wrap.event >= 0)
        m_wrap.event = remap[static_cast<std::size_t>(m_wrap.event)];
}

int LineScanner::streamIndex(const LinePrefix& p)
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
    key.host = bytesToQString(host);
    StreamStats st;
    st.key = std::move(key);
    m_out.streams.push_back(std::move(st));
    m_streamHosts.emplace_back(host);
    const int index = static_cast<int>(m_out.streams.size()) - 1;
    m_streamByHash.emplace(h, index);
    return m_lastStream = remember(index);
}

int LineScanner::remember(int stream)
{
    m_recentHit = m_recentNext;
    m_recent[m_recentNext] = stream;
    m_recentNext = (m_recentNext + 1) % m_recent.size();
    return stream;
}

bool LineScanner::restartBefore(const LinePrefix& p)
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
    const Channel ch { p.launcherRank, p.teeLocalRank, p.globalRank, std::string(shortHostName(p.ncclHost)) };
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

// The host's NCCL build, network plugin and network (setup_facts.h): each key once per host.
void LineScanner::readSetup(const LinePrefix& p)
{
    SetupFact f;
    if (p.ncclHost.empty() || !readSetupFact(p.message, f))
        return;
    f.host = QString::fromUtf8(p.ncclHost.data(), static_cast<qsizetype>(p.ncclHost.size()));
    for (const SetupFact& known : m_out.setupFacts)
        if (known.key == f.key && known.host == f.host)
            return;
    f.line = m_lineNo;
    m_out.setupFacts.push_back(std::move(f));
}

// A paste that stripped NCCL's prefix and level still says NCCL went on with its sockets ("Initialized NET
// plugin Socket", "Using network Socket"): the one setup fact the diagnosis reads without a host.
void LineScanner::readBareSocketSetup(std::string_view m)
{
    SetupFact f;
    if (!readSetupFact(m, f)
        || !(f.key == QLatin1String(kSocketTransportFact)
            || (f.key == QLatin1String("network") && f.value == QLatin1String("Socket"))))
        return;
    // Under its own key, whichever line said it: a host-less "network" would be compared across hosts.
    f.key = QLatin1String(kSocketTransportFact);
    f.value = f.group = QStringLiteral("initialised");
    for (const SetupFact& known : m_out.setupFacts)
        if (known.key == f.key && known.host.isEmpty())
            return;
    f.line = m_lineNo;
    m_out.setupFacts.push_back(std::move(f));
}

void LineScanner::readFacts(const LinePrefix& p, std::string_view text)
{
    if (p.rayPid >= 0)
        readWrapperRank(p);
    if (m_out.benchTableLine > 0 && !m_out.benchResultRow && p.nccl == NcclLevel::None)
        m_out.benchResultRow = isBenchResultRow(p.message);
    // The header without its '#' (lost to a Markdown quote) is still right-aligned: it starts with spaces,
    // which keeps the search for its bandwidth column off the other lines of the hot path.
    const bool testsHeader = p.nccl == NcclLevel::None && !p.message.empty()
        && (p.message[0] == '#'
            || (p.message[0] == ' ' && m_out.benchTableLine == 0
                && p.message.find(" algbw ") != std::string_view::npos));
    if (testsHeader && m_out.benchTableLine == 0 && isBenchTableHeader(p.message))
        m_out.benchTableLine = m_lineNo;
    // Variables the run had (run_settings.h): a few per file; a file that repeats them adds nothing.
    const size_t settings = m_out.envSettings.size();
    if (p.nccl == NcclLevel::None && settings < kMaxEnvSettings)
        readShellAssignments(p.message, m_out.envSettings);
    else if (p.nccl == NcclLevel::Info && settings < kMaxEnvSettings)
        readNcclEnvLine(p.message, m_out.envSettings);
    for (size_t i = settings; i < m_out.envSettings.size(); ++i)
        m_out.envSettings[i].line = m_lineNo;
    if (p.nccl == NcclLevel::Info && m_out.setupFacts.size() < kMaxSetupFacts)
        readSetup(p);
    else if (p.nccl == NcclLevel::None && !p.message.empty() && (p.message[0] == 'I' || p.message[0] == 'U')
        && m_out.setupFacts.size() < kMaxSetupFacts)
        readBareSocketSetup(p.message);
    // NCCL_DEBUG=VERSION, and NCCL before 2.5 at any level, print the banner bare: setup began all the same.
    if (p.nccl == NcclLevel::None && !m_out.ncclInitSeen && isBareVersionBanner(p.message)) {
        m_out.ncclInitSeen = true;
        m_out.ncclInitLine = m_lineNo;
    }
    if (p.nccl != NcclLevel::Info && !testsHeader)
        return; // most lines: no fact to build (an IdentityFact holds QStrings)
    if (p.nccl == NcclLevel::Info) {
        // How far NCCL's setup got, for a hang without an error line (diagnosis: a stall in init).
        const std::string_view m = p.message;
        if (!m_out.ncclInitSeen
            && (startsWith(m, "NCCL version") || startsWith(m, "Bootstrap")
                || m.find("Init START") != std::string_view::npos)) {
            m_out.ncclInitSeen = true;
            m_out.ncclInitLine = m_lineNo;
        }
        if (m.find("Init COMPLETE") != std::string_view::npos) {
            m_out.ncclInitComplete = true;
            m_out.ncclInitCompleteLine = m_lineNo;
        }
    }
    IdentityFact f;
    bool found = false;
    if (p.nccl == NcclLevel::Info)
        found = parseNcclIdentity(p.message, f);
    else if (p.message.size() > 8 && p.message[0] == '#'
        && startsWith(trimLeft(p.message.substr(1)), "Rank "))
        found = parseNcclTestsRank(p.message, f);
    if (!found)
        return;
    (void)text;
    f.file = m_file;
    f.line = m_lineNo;
    if (f.host.isEmpty())
        f.host = bytesToQString(shortHostName(p.ncclHost));
    else
        f.host = bytesToQString(shortHostName(f.host.toStdString()));
    if (f.pid < 0)
        f.pid = p.pid;
    if (f.ncclDev < 0)
        f.ncclDev = p.ncclDev;
    m_out.facts.push_back(std::move(f));
}

// A Ray worker's line that states its rank ("[rankN]:" prefix, "[rank=N]" tag) names the rank of the
// wrapper's pid, so that its other lines (NCCL's, the traceback's) are that rank's too (attribution).
// Ray lines never take the scanner's shortcuts, so every one of them comes here.
void LineScanner::readWrapperRank(const LinePrefix& p)
{
    const int rank = p.globalRank >= 0 ? p.globalRank : rankTagIn(p.message);
    if (rank < 0)
        return;
    IdentityFact f;
    f.kind = IdentityFact::Kind::WrapperRank;
    f.file = m_file;
    f.line = m_lineNo;
    f.pid = p.rayPid;
    f.rank = rank;
    f.host = bytesToQString(shortHostName(!p.ncclHost.empty() ? p.ncclHost : p.rayIp));
    m_out.facts.push_back(std::move(f));
}

} // namespace rankscope
