// SPDX-License-Identifier: MIT
#include "attribution.h"

#include "event_order.h"

#include <QHash>
#include <QSet>
#include <algorithm>
#include <future>
#include <map>
#include <tuple>
#include <unordered_map>
#include <utility>

namespace rankscope {

namespace {

using ProcKey = std::tuple<QString, qint64, int>; // host, pid, device (-1 = any)
using HostPid = std::pair<QString, qint64>;

// Hash tables, not trees: a tree compares host names as strings at every level, for every stream of
// every file (measured: a fifth of building a 1024-rank incident).
struct KeyHash
{
    std::size_t operator()(const ProcKey& k) const
    {
        return qHashMulti(0, std::get<0>(k), std::get<1>(k), std::get<2>(k));
    }
    std::size_t operator()(const HostPid& k) const { return qHashMulti(0, k.first, k.second); }
};

// "file:line" of a fact, formatted only when a warning quotes it: most facts never need it.
struct Where
{
    const QString& path;
    qint64 line = -1; // -1: the file as a whole
    QString text() const { return line < 0 ? path : QStringLiteral("%1:%2").arg(path).arg(line); }
};

struct Joiner
{
    std::vector<FileScan>& scans;
    Incident& inc;
    std::map<int, RankInfo> ranks;
    std::unordered_map<ProcKey, int, KeyHash> byProcDev; // (host, pid, dev) -> rank
    std::unordered_map<HostPid, QSet<int>, KeyHash> byProc; // (host, pid) -> ranks
    std::map<std::pair<QString, int>, int> byHostLocal; // (host, local rank) -> rank
    std::unordered_map<ProcKey, int, KeyHash> worldSize; // nranks of the communicator behind byProcDev
    // pid -> ranks that a wrapped process stated for itself (WrapperRank): the wrapper's host is an IP or
    // nothing, NCCL's is a name, so these are keyed by pid alone and used only when the pid is unambiguous.
    std::unordered_map<qint64, QSet<int>> byWrapperPid;
    // (host, pid) -> ranks that a process's Channel lines give it (rank 1 prints "Channel 00 : 1[1] -> 0[0]
    // via SHM/...", "... [send] via NET/..." and "... -> 1[1] [receive] via NET/..."): used only for a
    // process without an Init line (a paste that cut it), and only when they agree, since a process in
    // several communicators prints several numberings.
    std::unordered_map<HostPid, QSet<int>, KeyHash> byChannelProc;
    QSet<QString> warned;

    void warn(const QString& text)
    {
        if (!warned.contains(text)) {
            warned.insert(text);
            inc.warnings.push_back(text);
        }
    }

    RankInfo& rank(int r)
    {
        RankInfo& info = ranks[r];
        info.rank = r;
        return info;
    }

    void setHost(RankInfo& info, const QString& host, const Where& source)
    {
        if (host.isEmpty())
            return;
        const QString shortName = host.section(QLatin1Char('.'), 0, 0);
        const bool numeric = host.front().isDigit() && host.count(QLatin1Char('.')) == 3;
        const QString name = numeric ? host : shortName;
        if (!info.hostAliases.contains(host))
            info.hostAliases.push_back(host);
        if (info.host.isEmpty())
            info.host = name;
        else if (info.host != name && !numeric)
            warn(QStringLiteral("rank %1: host %2 (from %3) disagrees with %4")
                     .arg(info.rank)
                     .arg(host, source.text(), info.host));
    }

    // "ens1f0:10.10.0.12<0>" or "10.10.0.12" -> "10.10.0.12"
    static void addAddress(RankInfo& info, QString text)
    {
        const qsizetype lt = text.indexOf(QLatin1Char('<'));
        if (lt >= 0)
            text.truncate(lt);
        const qsizetype colon = text.indexOf(QLatin1Char(':'));
        if (colon >= 0 && text.count(QLatin1Char(':')) == 1)
            text = text.mid(colon + 1);
        if (!text.isEmpty() && !info.addresses.contains(text))
            info.addresses.push_back(text);
    }

    void mapProcess(const QString& host, qint64 pid, int dev, int r, int nranks, const Where& where)
    {
        if (pid < 0)
            return;
        const ProcKey key { host, pid, dev };
        auto it = byProcDev.find(key);
        if (it == byProcDev.end() || worldSize[key] < nranks) {
            byProcDev[key] = r;
            worldSize[key] = nranks;
        } else if (it->second != r && worldSize[key] == nranks) {
            warn(QStringLiteral("%1: process %2:%3 is both rank %4 and rank %5")
                     .arg(where.text(), host)
                     .arg(pid)
                     .arg(it->second)
                     .arg(r));
        }
        byProc[{ host, pid }].insert(r);
    }

    void readFacts()
    {
        // Init lines first: they define which process is which rank.
        for (const FileScan& s : scans) {
            for (const IdentityFact& f : s.facts) {
                const Where where { s.info.displayPath, f.line };
                if (f.kind == IdentityFact::Kind::Init || f.kind == IdentityFact::Kind::NcclTestsRank) {
                    mapProcess(f.host, f.pid, f.ncclDev, f.rank, f.nRanks, where);
                } else if (f.kind == IdentityFact::Kind::WrapperRank && f.pid >= 0) {
                    byWrapperPid[f.pid].insert(f.rank);
                } else if ((f.kind == IdentityFact::Kind::ChannelLocal
                               || f.kind == IdentityFact::Kind::ChannelNet)
                    && f.pid >= 0) {
                    byChannelProc[{ f.host, f.pid }].insert(f.rank);
                }
            }
        }
        for (const FileScan& s : scans) {
            for (const IdentityFact& f : s.facts) {
                const Where where { s.info.displayPath, f.line };
                int r = f.rank;
                if (f.kind == IdentityFact::Kind::Init || f.kind == IdentityFact::Kind::NcclTestsRank) {
                    const ProcKey key { f.host, f.pid, f.ncclDev };
                    if (byProcDev[key] != f.rank)
                        continue; // a sub-communicator's numbering, not the world rank
                    RankInfo& info = rank(r);
                    setHost(info, f.host, where);
                    info.pid = f.pid;
                    info.cudaDev = f.cudaDev;
                    if (f.nvmlDev >= 0)
                        info.nvmlDev = f.nvmlDev;
                    if (!f.busId.isEmpty())
                        info.busId = f.busId;
                    if (!f.commId.isEmpty())
                        info.commId = f.commId;
                    info.nRanks = std::max(info.nRanks, f.nRanks);
                    info.initStarted = true;
                    info.initCompleted =
                        info.initCompleted || f.initComplete || f.kind == IdentityFact::Kind::NcclTestsRank;
                    continue;
                }
                if (f.kind == IdentityFact::Kind::TorchrunFailure
                    || f.kind == IdentityFact::Kind::WrapperRank)
                    continue; // torchrun's: after every process is known (below), so a pid mismatch is seen
                // The other facts describe a process: find its rank.
                r = resolveProcess(f.host, f.pid, f.ncclDev);
                if (r < 0)
                    continue;
                RankInfo& info = rank(r);
                switch (f.kind) {
                case IdentityFact::Kind::NodeInfo:
                    if (f.rank == r) {
                        info.localRank = f.localRank;
                        info.nNodes = f.nNodes;
                    }
                    break;
                case IdentityFact::Kind::NetUsing:
                    info.nics = f.nics;
                    addAddress(info, f.text);
                    break;
                case IdentityFact::Kind::Bootstrap:
                    addAddress(info, f.text);
                    break;
                case IdentityFact::Kind::ChannelNet:
                    if (f.rank == r
                        && std::find(info.channelNics.begin(), info.channelNics.end(), f.channelNic)
                            == info.channelNics.end())
                        info.channelNics.push_back(f.channelNic);
                    if (f.rank == r)
                        info.gdr = info.gdr || f.gdr;
                    break;
                case IdentityFact::Kind::Affinity:
                    info.cpuAffinity = f.text;
                    break;
                default:
                    break;
                }
            }
        }
        for (const FileScan& s : scans) {
            for (const IdentityFact& f : s.facts) {
                const Where where { s.info.displayPath, f.line };
                if (f.kind == IdentityFact::Kind::TorchrunFailure) {
                    TorchrunFailure tf { f.host, f.rank, f.localRank, f.exitCode, f.pid, f.text, f.rootCause,
                        -1, f.line };
                    tf.file = static_cast<int>(&s - scans.data());
                    inc.torchrunFailures.push_back(tf);
                    if (f.rank < 0)
                        continue;
                    RankInfo& info = rank(f.rank);
                    setHost(info, f.host, where);
                    if (f.localRank >= 0)
                        info.localRank = f.localRank;
                    if (info.pid < 0)
                        info.pid = f.pid;
                    else if (f.pid >= 0 && info.pid != f.pid)
                        warn(
                            QStringLiteral("rank %1: torchrun's summary (%2) gives pid %3, NCCL gives pid %4")
                                .arg(f.rank)
                                .arg(where.text())
                                .arg(f.pid)
                                .arg(info.pid));
                    continue;
                }
            }
        }
        for (auto& [r, info] : ranks) {
            if (!info.host.isEmpty() && info.localRank >= 0)
                byHostLocal[{ info.host, info.localRank }] = r;
        }
    }

    int resolveProcess(const QString& host, qint64 pid, int dev) const
    {
        if (pid < 0)
            return -1;
        auto it = byProcDev.find({ host, pid, dev });
        if (it != byProcDev.end())
            return it->second;
        auto all = byProc.find({ host, pid });
        if (all != byProc.end() && all->second.size() == 1)
            return *all->second.begin();
        if (all != byProc.end())
            return -1; // NCCL knows this process under several ranks: a wrapper's word does not choose
        auto channels = byChannelProc.find({ host, pid });
        if (channels != byChannelProc.end() && channels->second.size() == 1)
            return *channels->second.begin();
        auto wrapped = byWrapperPid.find(pid);
        if (wrapped != byWrapperPid.end() && wrapped->second.size() == 1)
            return *wrapped->second.begin();
        return -1;
    }

    // Rank of a stream, from the most specific source that knows; -1 when none does.
    int resolveStream(const FileScan& s, const StreamKey& k, int fileRank, const QString& fileHost,
        const QHash<int, int>& teeRank) const
    {
        if (k.globalRank >= 0)
            return k.globalRank;
        if (k.launcherRank >= 0)
            return k.launcherRank;
        if (k.pid >= 0) {
            const int r = resolveProcess(k.host, k.pid, k.dev);
            if (r >= 0)
                return r;
        }
        if (k.teeLocalRank >= 0) {
            auto it = teeRank.find(k.teeLocalRank);
            if (it != teeRank.end())
                return it.value();
            auto hl = byHostLocal.find({ fileHost, k.teeLocalRank });
            if (hl != byHostLocal.end())
                return hl->second;
            return -1;
        }
        (void)s;
        return fileRank;
    }

    void resolveFiles();
    QString contentHost(const FileScan& s) const;
    std::vector<QString> fileHosts() const;
};

// The host a file's lines come from, by content first (the ranks its streams resolve to), then its name.
QString Joiner::contentHost(const FileScan& s) const
{
    QHash<QString, int> votes;
    for (const StreamStats& st : s.streams) {
        if (!st.key.host.isEmpty()) {
            ++votes[st.key.host];
            continue;
        }
        const int r = st.key.globalRank >= 0 ? st.key.globalRank : st.key.launcherRank;
        auto ri = r >= 0 ? ranks.find(r) : ranks.end();
        if (ri != ranks.end() && !ri->second.host.isEmpty())
            ++votes[ri->second.host];
    }
    QString best = s.hints.host;
    for (auto it = votes.begin(); it != votes.end(); ++it) {
        if (best.isEmpty() || it.value() > votes.value(best))
            best = it.key();
    }
    return best;
}

// Hosts of files without one of their own: a host-named folder on the path (a name that looks like a host,
// or any folder named like a host the logs mention), else the host of the other files in the same folder
// or the folder above (torchrun --log-dir keeps one folder per local rank under one attempt folder).
std::vector<QString> Joiner::fileHosts() const
{
    std::vector<QString> hosts(scans.size());
    QSet<QString> known;
    for (const auto& [r, info] : ranks) {
        if (!info.host.isEmpty())
            known.insert(info.host);
    }
    QHash<QString, QHash<QString, int>> byFolder;
    // Everything before the last '/', `up` times: what section('/', 0, -2) gave, at a tenth of the cost.
    auto folderOf = [](const QString& path, int up) {
        QStringView f = path;
        for (int i = 0; i < up; ++i) {
            const qsizetype slash = f.lastIndexOf(QLatin1Char('/'));
            f = slash < 0 ? QStringView() : f.left(slash);
        }
        return f.toString();
    };
    for (size_t fi = 0; fi < scans.size(); ++fi) {
        const FileScan& s = scans[fi];
        QString host = contentHost(s);
        if (host.isEmpty()) {
            const QStringList parts = s.info.displayPath.split(QLatin1Char('/'), Qt::SkipEmptyParts);
            for (qsizetype i = parts.size() - 2; i >= 0 && host.isEmpty(); --i) {
                const QString shortName = parts[i].section(QLatin1Char('.'), 0, 0);
                if (known.contains(shortName))
                    host = shortName;
            }
            if (host.isEmpty())
                host = s.hints.folderHost;
        }
        hosts[fi] = host;
        if (!host.isEmpty()) {
            ++byFolder[folderOf(s.info.path, 1)][host];
            ++byFolder[folderOf(s.info.path, 2)][host];
        }
    }
    for (size_t fi = 0; fi < scans.size(); ++fi) {
        if (!hosts[fi].isEmpty())
            continue;
        for (int up = 1; up <= 2 && hosts[fi].isEmpty(); ++up) {
            auto it = byFolder.constFind(folderOf(scans[fi].info.path, up));
            if (it != byFolder.constEnd() && it->size() == 1)
                hosts[fi] = it->begin().key();
        }
    }
    return hosts;
}

void Joiner::resolveFiles()
{
    const std::vector<QString> hostOfFile = fileHosts();
    for (size_t fi = 0; fi < scans.size(); ++fi) {
        FileScan& s = scans[fi];
        // [defaultN]:[rankM]: lines teach this file which local rank is which global rank.
        QHash<int, int> teeRank;
        QHash<QString, int> hostVotes;
        for (const StreamStats& st : s.streams) {
            if (st.key.teeLocalRank >= 0 && st.key.globalRank >= 0) {
                auto it = teeRank.find(st.key.teeLocalRank);
                if (it != teeRank.end() && it.value() != st.key.globalRank)
                    warn(QStringLiteral("%1: [default%2]: is both rank %3 and rank %4")
                             .arg(s.info.displayPath)
                             .arg(st.key.teeLocalRank)
                             .arg(it.value())
                             .arg(st.key.globalRank));
                else
                    teeRank.insert(st.key.teeLocalRank, st.key.globalRank);
            }
        }
        // The file's own rank: its name, or the one process whose lines it holds.
        int fileRank = s.hints.rank;
        if (fileRank < 0 && s.hints.pid >= 0)
            fileRank = resolveProcess(s.hints.host, s.hints.pid, -1);
        QSet<int> contentRanks;
        QSet<qint64> rankedPids; // the processes whose own lines name their rank (by pid; -1: a rank tag)
        for (const StreamStats& st : s.streams) {
            const int r = resolveStream(s, st.key, -1, QString(), teeRank);
            if (r >= 0) {
                contentRanks.insert(r);
                rankedPids.insert(st.key.pid);
                auto ri = ranks.find(r);
                if (ri != ranks.end() && !ri->second.host.isEmpty())
                    ++hostVotes[ri->second.host];
            }
        }
        QString fileHost = s.hints.host;
        for (auto it = hostVotes.begin(); it != hostVotes.end(); ++it) {
            if (fileHost.isEmpty() || it.value() > hostVotes.value(fileHost))
                fileHost = it.key();
        }
        if (fileHost.isEmpty())
            fileHost = hostOfFile[fi];
        if (!s.hints.folderHost.isEmpty() && !hostVotes.isEmpty() && !hostVotes.contains(s.hints.folderHost)
            && hostVotes.size() == 1)
            warn(QStringLiteral("%1: the folder says host %2, its lines say host %3")
                     .arg(s.info.displayPath, s.hints.folderHost, fileHost));
        if (fileRank >= 0 && contentRanks.size() == 1 && !contentRanks.contains(fileRank))
            warn(QStringLiteral("%1: the file name says rank %2, its lines say rank %3")
                     .arg(s.info.displayPath)
                     .arg(fileRank)
                     .arg(*contentRanks.begin()));
        if (fileRank < 0 && s.hints.localRank >= 0 && !fileHost.isEmpty()) {
            auto hl = byHostLocal.find({ fileHost, s.hints.localRank });
            if (hl != byHostLocal.end())
                fileRank = hl->second;
        }
        // A file with one process in it (an NCCL_DEBUG_FILE, a per-rank log) owns its unprefixed lines;
        // in a multiplexed console (tee or launcher prefixes) they belong to the launcher, not a rank.
        const bool multiplexed = std::any_of(s.streams.begin(), s.streams.end(),
            [](const StreamStats& st) { return st.key.teeLocalRank >= 0 || st.key.launcherRank >= 0; });
        // The one rank its lines name is the file's only when the file is that process's: a line of another
        // pid than the ranked one (a paste of two processes, one of which never printed its rank) is not
        // given it. A rank known only from "[rankN]:" tags has no pid to tell its process apart.
        bool rankByPid = false; // the file's rank came from its lines, and a pid of its own names it
        if (fileRank < 0 && contentRanks.size() == 1 && !multiplexed) {
            fileRank = *contentRanks.begin();
            rankByPid =
                std::any_of(rankedPids.begin(), rankedPids.end(), [](qint64 pid) { return pid >= 0; });
        }

        std::vector<int> streamRank(s.streams.size(), -1);
        for (size_t i = 0; i < s.streams.size(); ++i) {
            StreamStats& st = s.streams[i];
            const bool otherProcess = rankByPid && st.key.pid >= 0 && !rankedPids.contains(st.key.pid);
            const int r = resolveStream(s, st.key, otherProcess ? -1 : fileRank, fileHost, teeRank);
            streamRank[i] = r;
            s.streams[i].rank = r;
            if (r < 0) {
                s.info.unattributedLines += st.lines;
                continue;
            }
            RankInfo& info = rank(r);
            if (info.host.isEmpty())
                setHost(info, st.key.host.isEmpty() ? fileHost : st.key.host, Where { s.info.displayPath });
            // A process that stated its rank through its wrapper (Ray's "(pid=767)" with "[rank=0]") is that
            // rank's process, when NCCL gave it none.
            if (info.pid < 0 && st.key.pid >= 0) {
                const auto wrapped = byWrapperPid.find(st.key.pid);
                if (wrapped != byWrapperPid.end() && wrapped->second.size() == 1
                    && *wrapped->second.begin() == r)
                    info.pid = st.key.pid;
                const auto channels = byChannelProc.find({ st.key.host, st.key.pid });
                if (channels != byChannelProc.end() && channels->second.size() == 1
                    && *channels->second.begin() == r)
                    info.pid = st.key.pid;
            }
            if (info.localRank < 0 && st.key.teeLocalRank >= 0)
                info.localRank = st.key.teeLocalRank;
            if (!st.lastStep.isEmpty())
                info.lastStep = st.lastStep;
            for (size_t k = 0; k < 4; ++k)
                info.severityCounts[k] += st.counts[k];
            if (std::find(info.files.begin(), info.files.end(), static_cast<int>(fi)) == info.files.end())
                info.files.push_back(static_cast<int>(fi));
        }
        for (ScannedEvent& ev : s.events) {
            LogEvent& e = ev.event;
            if (e.rank < 0 && ev.stream >= 0)
                e.rank = streamRank[static_cast<size_t>(ev.stream)];
            if (e.rank >= 0) {
                const RankInfo& info = rank(e.rank);
                if (e.host.isEmpty())
                    e.host = info.host;
                if (e.localRank < 0)
                    e.localRank = info.localRank;
                if (e.pid < 0)
                    e.pid = info.pid;
                if (info.nvmlDev >= 0)
                    e.device = info.nvmlDev;
                else if (e.device < 0)
                    e.device = info.cudaDev;
            }
        }
    }
}

} // namespace

void buildIncident(std::vector<FileScan>& scans, Incident& inc)
{
    // The events' times and order depend on nothing attribution writes (see sortEvents()): a second
    // core sorts them meanwhile.
    const int fileBase = static_cast<int>(inc.files.size());
    std::future<EventOrder> order =
        std::async(std::launch::async, [&scans, earlier = std::move(inc.events), fileBase]() mutable {
            return sortEvents(scans, std::move(earlier), fileBase);
        });
    inc.events.clear();
    Joiner j { scans, inc, {}, {}, {}, {}, {}, {}, {}, {} };
    j.readFacts();
    j.resolveFiles();
    QHash<QString, bool> setupSeen; // "key\nhost" of inc.setupFacts (a later incident's own)
    for (const SetupFact& f : inc.setupFacts)
        setupSeen.insert(f.key + QLatin1Char('\n') + f.host, true);
    for (std::size_t i = 0; i < scans.size(); ++i) {
        if (scans[i].ncclInitSeen && inc.ncclInitFile < 0) {
            inc.ncclInitFile = fileBase + static_cast<int>(i);
            inc.ncclInitLine = scans[i].ncclInitLine;
        }
        inc.ncclInitCompleted = inc.ncclInitCompleted || scans[i].ncclInitComplete;
        if (scans[i].ncclInitComplete && inc.ncclInitCompleteFile < 0) {
            inc.ncclInitCompleteFile = fileBase + static_cast<int>(i);
            inc.ncclInitCompleteLine = scans[i].ncclInitCompleteLine;
        }
        if (scans[i].ncclInitComplete)
            inc.linesAfterInitComplete =
                std::max(inc.linesAfterInitComplete, scans[i].info.lines - scans[i].ncclInitCompleteLine);
        if (scans[i].benchTableLine > 0 && !scans[i].benchResultRow && inc.benchTableFile < 0) {
            inc.benchTableFile = fileBase + static_cast<int>(i);
            inc.benchTableLine = scans[i].benchTableLine;
        }
        mergeLaunch(inc.launch, fileBase + static_cast<int>(i), scans[i].launch);
        for (const EnvSetting& e : scans[i].envSettings) {
            const bool known = std::any_of(inc.envSettings.begin(), inc.envSettings.end(),
                [&](const EnvSetting& k) { return k.name == e.name && k.value == e.value; });
            if (!known && inc.envSettings.size() < kMaxEnvSettings)
                inc.envSettings.push_back({ e.name, e.value, fileBase + static_cast<int>(i), e.line });
        }
        // Each setup key once per host, where first seen: a job's hosts are compared on these.
        for (const SetupFact& f : scans[i].setupFacts) {
            if (inc.setupFacts.size() < kMaxIncidentSetupFacts
                && !std::exchange(setupSeen[f.key + QLatin1Char('\n') + f.host], true)) {
                inc.setupFacts.push_back(f);
                inc.setupFacts.back().file = fileBase + static_cast<int>(i);
            }
        }
        for (const StreamStats& st : scans[i].streams)
            inc.progressSeen = inc.progressSeen || !st.lastStep.isEmpty();
    }
    // Each rank is moved out and its map node freed at once: with 100,000 ranks the map and the vector
    // would otherwise both be whole at the end.
    inc.ranks.clear();
    inc.ranks.reserve(j.ranks.size());
    while (!j.ranks.empty()) {
        auto node = j.ranks.extract(j.ranks.begin());
        inc.ranks.push_back(std::move(node.mapped()));
    }
    placeEvents(scans, inc, order.get());
}

} // namespace rankscope
