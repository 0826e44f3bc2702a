// SPDX-License-Identifier: MIT
#include "node_evidence_join.h"

#include "byte_stream.h"
#include "node_evidence_join_parts.h"
#include "template_render.h"
#include "text_util.h"

#include <algorithm>

namespace rankscope {

using namespace detail;

namespace {

constexpr qint64 kMaxEvidenceBytes = 64LL << 20; // a kernel ring buffer or journal excerpt is far less

bool boundedAt(const QString& text, qsizetype at, qsizetype length)
{
    const auto isWordChar = [](QChar c) { return c.isLetterOrNumber(); };
    return (at == 0 || !isWordChar(text[at - 1]))
        && (at + length >= text.size() || !isWordChar(text[at + length]));
}

} // namespace

std::vector<NodeCapture> loadNodeEvidence(const std::vector<InputFile>& files)
{
    std::vector<NodeCapture> out;
    for (const InputFile& f : files) {
        QString error;
        std::unique_ptr<ByteStream> stream = ByteStream::open(f, error);
        QByteArray bytes;
        if (stream) {
            char buffer[1 << 16];
            qint64 n = 0;
            while ((n = stream->read(buffer, sizeof buffer)) > 0 && bytes.size() < kMaxEvidenceBytes)
                bytes.append(buffer, static_cast<qsizetype>(n));
            if (n < 0)
                error = stream->error();
        }
        if (!error.isEmpty()) {
            NodeCapture c;
            c.path = f.path;
            c.displayPath = f.displayPath;
            c.error = QStringLiteral("%1: %2").arg(f.displayPath, error);
            out.push_back(std::move(c));
            continue;
        }
        out.push_back(parseNodeCapture(bytes, f.path, f.displayPath));
    }
    return out;
}

QString nodeCaptureHost(const NodeCapture& c, const QStringList& hosts, QString* how)
{
    auto said = [how](const QString& text) {
        if (how)
            *how = text;
    };
    if (!c.contentHost.isEmpty()) {
        const QString named = shortHostName(c.contentHost);
        for (const QString& h : hosts) {
            if (shortHostName(h) == named) {
                said(QStringLiteral("named in the capture (%1)").arg(c.where(c.contentHostLine)));
                return h;
            }
        }
    }
    // The longest host its path names: "gpu-a01" must not lose to "gpu" in "dmesg.gpu-a01.txt".
    const QString path = c.displayPath.toLower();
    QString best;
    for (const QString& h : hosts) {
        const QString want = shortHostName(h);
        for (qsizetype at = path.indexOf(want); at >= 0 && !want.isEmpty(); at = path.indexOf(want, at + 1)) {
            if (boundedAt(path, at, want.size()) && want.size() > best.size()) {
                best = h;
                break;
            }
        }
    }
    if (!best.isEmpty()) {
        said(QStringLiteral("named by the file name"));
        return best;
    }
    if (hosts.size() == 1 && c.contentHost.isEmpty()) {
        said(QStringLiteral("the only host of the logs"));
        return hosts.front();
    }
    said(c.contentHost.isEmpty()
            ? QStringLiteral("names no host of the logs")
            : QStringLiteral("names host %1, which is not in the logs").arg(c.contentHost));
    return {};
}

namespace detail {

QString usedNicOf(const RankInfo* r)
{
    if (!r)
        return {};
    for (int idx : r->channelNics) {
        for (const NicUse& n : r->nics) {
            if (n.index == idx)
                return n.name;
        }
    }
    return r->nics.empty() ? QString() : r->nics.front().name;
}

void NodeJoin::note(const QString& host, const QString& source, const QString& text)
{
    others.push_back({ host, source, text, false });
}

void NodeJoin::confirm(const QString& host, const QString& source, const QString& text,
    const QString& signatureId, const std::vector<Capture>& captures, const QStringList& fixLines)
{
    confirmed.push_back({ host, source, text, true });
    d.confidence = QStringLiteral("high");
    d.confidenceReasons << QStringLiteral("node evidence: %1 (%2)").arg(text, source);
    QStringList lead;
    const int s = cat.indexOf(signatureId);
    if (!fixRendered && s >= 0 && signatureId != initId) {
        RenderContext ctx;
        ctx.host = host;
        ctx.captures = captures;
        for (const Capture& c : captures) {
            if (c.first == QLatin1String("nic"))
                ctx.nic = c.second;
        }
        const QString fix = renderProse(cat.signatures[static_cast<size_t>(s)].fix, ctx);
        if (!fix.isEmpty()) {
            lead << QStringLiteral("Node evidence (%1): %2. %3").arg(source, text, fix);
            fixRendered = true;
        }
    }
    for (const QString& l : fixLines)
        lead << l;
    fixLead << lead;
}

int NodeJoin::rankOfBusId(const QString& host, const QString& pci) const
{
    if (pci.isEmpty())
        return -1;
    for (const RankInfo& r : inc.ranks) {
        if (r.host == host && !r.busId.isEmpty() && normaliseBusId(r.busId) == pci)
            return r.rank;
    }
    return -1;
}

int NodeJoin::rankOfPid(const QString& host, qint64 pid) const
{
    if (pid < 0)
        return -1;
    for (const RankInfo& r : inc.ranks) {
        if (r.pid == pid && (r.host.isEmpty() || r.host == host))
            return r.rank;
    }
    for (const TorchrunFailure& t : inc.torchrunFailures) {
        if (t.pid == pid && t.rank >= 0 && (t.host.isEmpty() || shortHostName(t.host) == host))
            return t.rank;
    }
    return -1;
}

QString NodeJoin::gpuName(const QString& host, const QString& pci, int rank) const
{
    int index = -1;
    if (const HostTopology* t = topo.host(host)) {
        const int g = t->gpuByBusId(pci);
        if (g >= 0)
            index = t->gpus[static_cast<size_t>(g)].index;
    }
    if (index < 0 && rank >= 0) {
        const RankInfo* r = inc.rankInfo(rank);
        index = r ? (r->nvmlDev >= 0 ? r->nvmlDev : r->cudaDev) : -1;
    }
    return index >= 0 ? QStringLiteral("GPU %1 (%2)").arg(index).arg(pci) : pci;
}

QString NodeJoin::initCapture(const char* name) const
{
    if (!init)
        return {};
    for (const Capture& c : init->captures) {
        if (c.first == QLatin1String(name))
            return c.second;
    }
    return {};
}

QString NodeJoin::ranksOnHostUsing(const QString& host, const QString& nic) const
{
    std::vector<int> ranks;
    for (const RankInfo& r : inc.ranks) {
        if (r.host != host)
            continue;
        for (const NicUse& n : r.nics) {
            if (n.name == nic) {
                ranks.push_back(r.rank);
                break;
            }
        }
    }
    return ranks.empty() ? QString() : formatRankRanges(ranks);
}

} // namespace detail

void joinNodeEvidence(const Incident& inc, const Catalog& cat, const TopologySet& topo,
    const std::vector<NodeCapture>& captures, Diagnosis& d)
{
    if (captures.empty())
        return;
    NodeJoin j(inc, cat, topo, d);
    if (d.initiatingEvent >= 0 && d.initiatingEvent < static_cast<int>(inc.events.size())) {
        j.init = &inc.events[static_cast<size_t>(d.initiatingEvent)];
        j.initRank = inc.rankInfo(j.init->rank);
        if (d.signature >= 0 && d.signature < static_cast<int>(cat.signatures.size())) {
            j.initId = cat.signatures[static_cast<size_t>(d.signature)].id;
            j.initFamily = cat.signatures[static_cast<size_t>(d.signature)].family;
        }
    }
    QStringList hosts = inc.hosts(); // ranks' hosts, then hosts only events name (a rank-less NCCL line)
    for (const LogEvent& e : inc.events) {
        if (!e.host.isEmpty() && !hosts.contains(e.host))
            hosts << e.host;
    }
    for (const NodeCapture& c : captures) {
        if (!c.error.isEmpty()) {
            j.note(QString(), c.where(0), QStringLiteral("not read: %1").arg(c.error));
            continue;
        }
        QString how;
        const QString host = nodeCaptureHost(c, hosts, &how);
        if (host.isEmpty()) {
            j.note(QString(), c.where(0),
                QStringLiteral("%1 capture of an unknown host (%2), not used")
                    .arg(nodeCaptureKindName(c.kind), how));
            continue;
        }
        switch (c.kind) {
        case NodeCaptureKind::KernelLog:
            joinKernelLog(j, c, host);
            break;
        case NodeCaptureKind::IbStat:
        case NodeCaptureKind::IbvDevinfo:
            joinIbPorts(j, c, host);
            break;
        case NodeCaptureKind::NvidiaSmiQuery:
        case NodeCaptureKind::NvidiaSmiQueryXml:
            joinNvidiaSmi(j, c, host);
            break;
        case NodeCaptureKind::IpAddr:
        case NodeCaptureKind::Ifconfig:
            joinInterfaces(j, c, host);
            break;
        case NodeCaptureKind::None:
            break;
        }
    }
    if (!j.fixLead.isEmpty())
        d.fix = j.fixLead.join(QLatin1Char('\n'))
            + (d.fix.isEmpty() ? QString() : QStringLiteral("\n\n") + d.fix);
    d.nodeFindings = std::move(j.confirmed);
    for (NodeFinding& f : j.others)
        d.nodeFindings.push_back(std::move(f));
}

} // namespace rankscope
