// SPDX-License-Identifier: MIT
// Collateral (every later failure, grouped), suspects (hung or silent ranks) and torchrun's own view.
#include "diagnosis.h"
#include "diagnosis_parts.h"

#include <QDateTime>
#include <algorithm>
#include <map>
#include <set>

namespace rankscope::detail {

namespace {

QString captureValue(const LogEvent& e, const char* name)
{
    for (const Capture& c : e.captures) {
        if (c.first == QLatin1String(name))
            return c.second;
    }
    return {};
}

// What identifies lines without a rank: their processes ("pid 9821 on H100-1, pid 68738 on H100-5", or
// "12 processes on 3 hosts" past three), else what the log calls their writer ("kernel"), else one host,
// else one file's name; empty when they share none of these.
QString rankless(const Incident& inc, const std::set<std::pair<QString, qint64>>& processes,
    const std::set<QString>& sources, const std::set<int>& files)
{
    const bool allPids =
        std::all_of(processes.begin(), processes.end(), [](const auto& p) { return p.second >= 0; });
    if (allPids && !processes.empty()) {
        std::set<QString> hosts;
        QStringList named;
        for (const auto& [host, pid] : processes) {
            hosts.insert(host);
            named << (host.isEmpty() ? QStringLiteral("pid %1").arg(pid)
                                     : QStringLiteral("pid %1 on %2").arg(pid).arg(host));
        }
        if (named.size() <= 3)
            return named.join(QStringLiteral(", "));
        return QStringLiteral("%1 processes on %2 host(s)").arg(named.size()).arg(hosts.size());
    }
    if (sources.size() == 1 && !sources.begin()->isEmpty())
        return *sources.begin();
    std::set<QString> hosts;
    for (const auto& process : processes)
        hosts.insert(process.first);
    if (hosts.size() == 1 && !hosts.begin()->isEmpty())
        return *hosts.begin();
    if (files.size() == 1) {
        const QString& path = inc.files[static_cast<size_t>(*files.begin())].displayPath;
        return path.mid(path.lastIndexOf(QLatin1Char('/')) + 1);
    }
    return {};
}

} // namespace

int roleOf(const Incident& inc, const Catalog& cat, int event)
{
    const LogEvent& e = inc.events[static_cast<size_t>(event)];
    if (e.signature < 0 || e.signature >= static_cast<int>(cat.signatures.size()))
        return kUnmatchedRoleRank;
    return roleRank(cat.signatures[static_cast<size_t>(e.signature)].role);
}

QString peerDescription(const Incident& inc, const QString& peer)
{
    std::vector<int> ranks;
    QString host;
    for (const RankInfo& r : inc.ranks) {
        if (r.addresses.contains(peer)) {
            ranks.push_back(r.rank);
            host = r.host;
        }
    }
    if (ranks.empty())
        return QStringLiteral("peer %1").arg(peer);
    return QStringLiteral("peer %1 = %2 (ranks %3)").arg(peer, host, formatRankRanges(ranks));
}

void fillCollateral(const Incident& inc, const Catalog& cat, Diagnosis& d)
{
    struct Group
    {
        std::set<int> ranks;
        int events = 0;
        int first = -1;
        QString seq;
        QString peer;
        std::set<std::pair<QString, qint64>> processes; // (host, pid) of the lines without a rank
        std::set<QString> sources;
        std::set<int> files;
    };
    std::map<int, Group> groups; // by signature (-1 = unmatched failures)
    const int init = d.initiatingEvent;
    const int initRank = init >= 0 ? inc.events[static_cast<size_t>(init)].rank : -1;
    const qint64 initPid = init >= 0 ? inc.events[static_cast<size_t>(init)].pid : -1;
    const QString initHost = init >= 0 ? inc.events[static_cast<size_t>(init)].host : QString();
    for (int i = 0; i < static_cast<int>(inc.events.size()); ++i) {
        const LogEvent& e = inc.events[static_cast<size_t>(i)];
        if (i == init || e.severity < Severity::Warn
            || roleOf(inc, cat, i) == roleRank(SignatureRole::Context))
            continue;
        if (e.rank >= 0 && e.rank == initRank)
            continue; // the initiating rank's own follow-up is its record, not collateral
        if (e.rank < 0 && e.signature < 0)
            continue; // agent chatter without a rank or a signature says nothing about the ranks
        Group& g = groups[e.signature];
        if (e.rank >= 0) {
            g.ranks.insert(e.rank);
        } else {
            g.processes.insert({ e.host, e.pid });
            g.sources.insert(e.source);
            g.files.insert(e.file);
        }
        g.events += 1 + e.repeats; // the repeats folded into it (scan/repeat_folding.h) happened too
        if (g.first < 0)
            g.first = i;
        if (g.seq.isEmpty())
            g.seq = captureValue(e, "seq");
        if (g.peer.isEmpty())
            g.peer = captureValue(e, "peer");
        d.collateralEvents.push_back(i);
    }
    for (auto& [sig, g] : groups) {
        CollateralGroup out;
        out.signature = sig;
        out.label = sig >= 0 ? cat.signatures[static_cast<size_t>(sig)].title
                             : QStringLiteral("other failures (no signature)");
        if (!g.seq.isEmpty())
            out.label += QStringLiteral(" at SeqNum %1").arg(g.seq);
        out.rankCount = static_cast<int>(g.ranks.size());
        out.ranks = formatRankRanges(std::vector<int>(g.ranks.begin(), g.ranks.end()));
        out.eventCount = g.events;
        out.firstEvent = g.first;
        if (!g.peer.isEmpty())
            out.pointsTo = peerDescription(inc, g.peer);
        // The initiating process's own later failures, when no rank is known, are its follow-up: said so,
        // since the list is otherwise of other ranks.
        out.sameProcess = g.ranks.empty() && init >= 0 && g.processes.size() == 1
            && g.processes.begin()->second >= 0 && g.processes.begin()->second == initPid
            && g.processes.begin()->first == initHost;
        if (out.sameProcess)
            out.writer = QStringLiteral("the initiating process itself (%1)")
                             .arg(rankless(inc, g.processes, g.sources, g.files));
        else if (g.ranks.empty())
            out.writer = sig >= 0 && isLauncherFamily(cat.signatures[static_cast<size_t>(sig)].family)
                ? QStringLiteral("launcher")
                : rankless(inc, g.processes, g.sources, g.files);
        d.collateral.push_back(std::move(out));
    }
    // Named failures first (they explain), the most widespread first; launcher lines last.
    std::sort(
        d.collateral.begin(), d.collateral.end(), [](const CollateralGroup& a, const CollateralGroup& b) {
            if ((a.rankCount > 0) != (b.rankCount > 0))
                return a.rankCount > 0;
            if ((a.signature >= 0) != (b.signature >= 0))
                return a.signature >= 0;
            if (a.rankCount != b.rankCount)
                return a.rankCount > b.rankCount;
            return a.firstEvent < b.firstEvent;
        });
}

void fillSuspects(const Incident& inc, const Catalog& cat, Diagnosis& d)
{
    // Ranks that a communicator expects but that left no line at all.
    int world = 0;
    for (const RankInfo& r : inc.ranks)
        world = std::max(world, r.nRanks);
    std::set<int> seen;
    for (const RankInfo& r : inc.ranks)
        seen.insert(r.rank);
    for (int r = 0; r < world && d.suspects.size() < 64; ++r) {
        if (!seen.count(r))
            d.suspects.push_back(
                { r, QString(), QStringLiteral("no log line although nranks is %1").arg(world), QString() });
    }

    // Watchdog timeouts name a SeqNum: a rank with no failure of its own while others timed out never reached
    // it.
    std::set<int> timedOut, failed;
    QString seq;
    for (int i = 0; i < static_cast<int>(inc.events.size()); ++i) {
        const LogEvent& e = inc.events[static_cast<size_t>(i)];
        if (e.rank < 0 || e.severity < Severity::Warn)
            continue;
        failed.insert(e.rank);
        const QString s = captureValue(e, "seq");
        if (!s.isEmpty() && roleOf(inc, cat, i) == roleRank(SignatureRole::Symptom)) {
            timedOut.insert(e.rank);
            seq = s;
        }
    }
    if (!timedOut.empty()) {
        for (const RankInfo& r : inc.ranks) {
            if (!failed.count(r.rank))
                d.suspects.push_back({ r.rank, r.host,
                    QStringLiteral("printed no error while %1 rank(s) timed out at SeqNum %2: probably never "
                                   "reached that collective")
                        .arg(timedOut.size())
                        .arg(seq),
                    QString() });
        }
        // Ranks count from 0: one below the highest that timed out exists even when it left no line at all.
        // Two or more timeouts and fewer such gaps than timeouts: those are the ranks the others waited for.
        std::vector<int> gaps;
        for (int r = 0; r < *timedOut.rbegin() && gaps.size() < timedOut.size(); ++r)
            if (!seen.count(r) && !failed.count(r)
                && std::none_of(
                    d.suspects.begin(), d.suspects.end(), [r](const Suspect& s) { return s.rank == r; }))
                gaps.push_back(r);
        if (timedOut.size() >= 2 && gaps.size() < timedOut.size())
            for (const int r : gaps)
                d.suspects.push_back({ r, QString(),
                    QStringLiteral("no line at all while %1 rank(s) up to rank %2 timed out at SeqNum %3: it "
                                   "probably never reached that collective, and its own output says why")
                        .arg(timedOut.size())
                        .arg(*timedOut.rbegin())
                        .arg(seq),
                    QString() });
    }

    // PyTorch's desync report (TORCH_NCCL_DESYNC_DEBUG) lists the ranks at the lowest collective number: the
    // others are ahead of them and only waited.
    for (const LogEvent& e : inc.events) {
        const QString lagging = captureValue(e, "lagging");
        if (lagging.isEmpty())
            continue;
        const QString behind = captureValue(e, "seq");
        for (const QString& part : lagging.split(u',', Qt::SkipEmptyParts)) {
            bool ok = false;
            const int rank = part.trimmed().toInt(&ok);
            const bool already = std::any_of(
                d.suspects.begin(), d.suspects.end(), [&](const Suspect& s) { return s.rank == rank; });
            if (!ok || already || d.suspects.size() >= 64)
                continue;
            const auto* info = inc.rankInfo(rank);
            d.suspects.push_back({ rank, info ? info->host : QString(),
                behind.isEmpty() ? QStringLiteral("PyTorch's desync report names it as a lagging rank")
                                 : QStringLiteral("PyTorch's desync report names it as a lagging rank: it is "
                                                  "behind the others at collective #%1")
                                       .arg(behind),
                QStringLiteral("PyTorch's desync report") });
        }
    }

    // "last completed work: N" from the watchdog: a rank that completed fewer collectives than the others
    // is the straggler they were waiting for, even when its own failure looks like everyone else's.
    std::map<int, long long> completed;
    for (const LogEvent& e : inc.events) {
        const QString c = captureValue(e, "last_completed");
        if (e.rank >= 0 && !c.isEmpty())
            completed[e.rank] = std::max(completed[e.rank], c.toLongLong());
    }
    long long most = 0;
    for (const auto& [rank, n] : completed)
        most = std::max(most, n);
    for (const auto& [rank, n] : completed) {
        if (n >= most)
            continue;
        const auto* info = inc.rankInfo(rank);
        d.suspects.push_back({ rank, info ? info->host : QString(),
            QStringLiteral("its last completed collective is %1 while other ranks completed %2: the others "
                           "waited for it")
                .arg(n)
                .arg(most),
            QStringLiteral("the watchdog's completed-work counts") });
    }

    // Ranks whose logs stop well before the others' (a straggler or a silent death).
    std::vector<qint64> lasts;
    for (const RankInfo& r : inc.ranks) {
        if (r.timesKnown)
            lasts.push_back(r.lastTime.ms);
    }
    if (lasts.size() >= 3) {
        std::vector<qint64> sorted = lasts;
        std::nth_element(sorted.begin(), sorted.begin() + static_cast<long>(sorted.size() / 2), sorted.end());
        const qint64 median = sorted[sorted.size() / 2];
        for (const RankInfo& r : inc.ranks) {
            // A rank that printed its own failure before stopping is not silent: it died of it.
            if (!r.timesKnown || median - r.lastTime.ms < 60'000 || failed.count(r.rank))
                continue;
            const bool already = std::any_of(
                d.suspects.begin(), d.suspects.end(), [&](const Suspect& s) { return s.rank == r.rank; });
            if (!already)
                d.suspects.push_back({ r.rank, r.host,
                    QStringLiteral("its log stops at %1, %2 s before most ranks")
                        .arg(formatTime(r.lastTime))
                        .arg((median - r.lastTime.ms) / 1000),
                    QString() });
        }
    }
}

namespace {

// "gpu-a02, gpu-a03, gpu-a04, … gpu-a128": every item up to six, else the first three and the last.
QString shortList(const QStringList& items)
{
    if (items.size() <= 6)
        return items.join(QStringLiteral(", "));
    return QStringList(items.mid(0, 3)).join(QStringLiteral(", ")) + QStringLiteral(", … ") + items.last();
}

const QString kTorchrunWhy = QStringLiteral(
    "torchrun's summary only sees the workers of its own node, and its times are whole seconds, so a tie "
    "goes to the first failure in dict order.");

} // namespace

void fillTorchrunNotes(const Incident& inc, Diagnosis& d)
{
    if (d.initiatingEvent < 0)
        return;
    const LogEvent& init = inc.events[static_cast<size_t>(d.initiatingEvent)];
    // "<who> as "Root Cause" (time, exitcode), but <init> failed first", for one node or a group of them.
    const auto namesOther = [&init](const QString& who, const TorchrunFailure& f) -> QString {
        return who
            + QStringLiteral(" as \"Root Cause\" (time %1, exitcode %2), but rank %3 failed first at %4. ")
                  .arg(f.time)
                  .arg(f.exitCode)
                  .arg(init.rank)
                  .arg(formatTime(init.time))
            + kTorchrunWhy;
    };
    std::vector<const TorchrunFailure*> others; // naming another rank, in rank order below
    for (const TorchrunFailure& f : inc.torchrunFailures) {
        if (!f.rootCause || f.rank < 0)
            continue;
        TorchrunNote n;
        n.host = f.host;
        n.rank = f.rank;
        if (f.rank == init.rank) {
            n.text =
                QStringLiteral("torchrun on %1 agrees: its Root Cause is rank %2").arg(f.host).arg(f.rank);
            d.torchrunSummary << n.text;
        } else {
            n.text = namesOther(QStringLiteral("torchrun on %1 names rank %2").arg(f.host).arg(f.rank), f);
            others.push_back(&f);
        }
        d.torchrun.push_back(std::move(n));
    }
    std::stable_sort(others.begin(), others.end(),
        [](const TorchrunFailure* a, const TorchrunFailure* b) { return a->rank < b->rank; });
    // Groups by time and exit code, in the order of their lowest rank.
    std::map<std::pair<QString, int>, size_t> groupOf;
    std::vector<std::vector<const TorchrunFailure*>> groups;
    for (const TorchrunFailure* f : others) {
        const auto [it, added] = groupOf.try_emplace({ f->time, f->exitCode }, groups.size());
        if (added)
            groups.emplace_back();
        groups[it->second].push_back(f);
    }
    for (const std::vector<const TorchrunFailure*>& group : groups) {
        QStringList hosts, ranks;
        for (const TorchrunFailure* f : group) {
            hosts << f->host;
            ranks << QString::number(f->rank);
        }
        const QString who = hosts.size() == 1
            ? QStringLiteral("torchrun on %1 names rank %2").arg(hosts[0], ranks[0])
            : QStringLiteral("torchrun on %1 nodes (%2) names a rank of its own node (%3)")
                  .arg(hosts.size())
                  .arg(shortList(hosts), shortList(ranks));
        d.torchrunSummary << namesOther(who, *group.front());
    }
}

} // namespace rankscope::detail

namespace rankscope {

bool isLauncherFamily(const QString& family)
{
    return family == QLatin1String("launcher") || family == QLatin1String("torchrun");
}

QString collateralWho(const CollateralGroup& g)
{
    if (g.rankCount > 0)
        return QStringLiteral("%1 rank(s) [%2]").arg(g.rankCount).arg(g.ranks);
    if (g.sameProcess)
        return g.writer;
    return g.writer.isEmpty() ? QStringLiteral("no rank") : QStringLiteral("%1 (no rank)").arg(g.writer);
}

QString collateralHeading(const std::vector<CollateralGroup>& groups)
{
    const bool same =
        std::any_of(groups.begin(), groups.end(), [](const CollateralGroup& g) { return g.sameProcess; });
    return same
        ? QStringLiteral("Collateral (later failures: other ranks, and the initiating process's follow-up)")
        : QStringLiteral("Collateral (later failures on other ranks)");
}

} // namespace rankscope
