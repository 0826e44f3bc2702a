// SPDX-License-Identifier: MIT
// ibstat / ibv_devinfo and ip addr / ifconfig against the incident: a port that is down under a rank's
// NIC, the RoCE v2 IPv4 GID for NCCL_IB_GID_INDEX, and whether NCCL_SOCKET_IFNAME names an interface
// the host has.
#include "byte_stream.h"
#include "node_evidence_join_parts.h"

#include <QRegularExpression>
#include <set>

namespace rankscope::detail {

namespace {

constexpr qint64 kIfnameScanBytes = 8LL << 20; // NCCL prints its environment at init, near the top

bool ibFailure(const NodeJoin& j)
{
    return j.initFamily == QLatin1String("ib") || j.initId.startsWith(QLatin1String("nccl-ib"));
}

// The RoCE v2 GID with an IPv4 address (not link-local) of lowest index: the one NCCL should use.
const GidEntry* roceV2Ipv4(const IbPort& p)
{
    for (const GidEntry& g : p.gids) {
        if (g.type.contains(QLatin1String("v2")) && !g.ipv4.isEmpty()
            && !g.ipv4.startsWith(QLatin1String("169.254.")))
            return &g;
    }
    return nullptr;
}

void joinGidTable(NodeJoin& j, const NodeCapture& c, const QString& host, const IbPort& p)
{
    const QString dev = p.device.isEmpty() ? QStringLiteral("the device") : p.device;
    const GidEntry* g = roceV2Ipv4(p);
    if (!g) {
        const bool typed =
            std::any_of(p.gids.begin(), p.gids.end(), [](const GidEntry& e) { return !e.type.isEmpty(); });
        j.note(host, c.where(p.gids.front().line),
            typed
                ? QStringLiteral("the GID table of %1 has no RoCE v2 entry with an IPv4 address").arg(dev)
                : QStringLiteral("the GID table of %1 names no GID types (ibv_devinfo before rdma-core 28); "
                                 "show_gids prints them")
                      .arg(dev));
        return;
    }
    const QString port = p.port >= 0 ? QStringLiteral(" port %1").arg(p.port) : QString();
    const QString text = QStringLiteral("GID[%1] of %2%3 on %4 is RoCE v2 with IPv4 address %5")
                             .arg(g->index)
                             .arg(dev, port, host, g->ipv4);
    const QString used = j.initCapture("gid_index");
    if (used == QString::number(g->index)) {
        j.note(host, c.where(g->line),
            text + QStringLiteral(", the index NCCL already used: the GID index is not what failed"));
        return;
    }
    j.confirm(host, c.where(g->line), text, j.initId, {},
        { QStringLiteral("export NCCL_IB_GID_INDEX=%1   # on %2: GID[%1] of %3 is RoCE v2 with IPv4 %4 (%5)")
                .arg(g->index)
                .arg(host, dev, g->ipv4, c.where(g->line)) });
}

struct IfnameSetting
{
    QString value, source;
};

IfnameSetting socketIfnameFromLogs(const Incident& inc, const QString& host)
{
    static const QRegularExpression re(QStringLiteral(
        R"(NCCL_SOCKET_IFNAME(?: set by environment to | set to |=)["']?([\^=]?[\w.,:@^=-]+))"));
    std::set<int> files;
    for (const RankInfo& r : inc.ranks) {
        if (r.host == host)
            files.insert(r.files.begin(), r.files.end());
    }
    if (files.empty()) {
        for (int i = 0; i < static_cast<int>(inc.files.size()); ++i)
            files.insert(i);
    }
    for (int fi : files) {
        const FileInfo& f = inc.files[static_cast<size_t>(fi)];
        InputFile in;
        in.path = f.path;
        in.displayPath = f.displayPath;
        in.memory = f.content;
        in.inMemory = !f.content.isEmpty();
        QString error;
        std::unique_ptr<ByteStream> s = ByteStream::open(in, error);
        if (!s)
            continue;
        QByteArray bytes;
        char buffer[1 << 16];
        qint64 n = 0;
        while (bytes.size() < kIfnameScanBytes && (n = s->read(buffer, sizeof buffer)) > 0)
            bytes.append(buffer, static_cast<qsizetype>(n));
        for (qsizetype at = bytes.indexOf("NCCL_SOCKET_IFNAME"); at >= 0;
             at = bytes.indexOf("NCCL_SOCKET_IFNAME", at + 1)) {
            const qsizetype start = bytes.lastIndexOf('\n', at) + 1;
            const qsizetype end = bytes.indexOf('\n', at);
            const QString line = QString::fromUtf8(bytes.mid(start, end < 0 ? -1 : end - start));
            const QRegularExpressionMatch m = re.match(line);
            if (m.hasMatch())
                return { m.captured(1),
                    QStringLiteral("%1:%2").arg(f.displayPath).arg(bytes.left(start).count('\n') + 1) };
        }
    }
    return {};
}

bool usable(const NetInterface& i)
{
    return i.up && (!i.ipv4.isEmpty() || std::any_of(i.ipv6.begin(), i.ipv6.end(), [](const QString& a) {
        return !a.startsWith(QLatin1String("fe80"), Qt::CaseInsensitive);
    }));
}

// NCCL_SOCKET_IFNAME: comma-separated prefixes, "^" excludes them, "=" makes them exact names.
bool matchesIfname(const QString& setting, const QString& name)
{
    QString spec = setting;
    const bool exclude = spec.startsWith(QLatin1Char('^'));
    if (exclude)
        spec.remove(0, 1);
    const bool exact = spec.startsWith(QLatin1Char('='));
    if (exact)
        spec.remove(0, 1);
    bool hit = false;
    for (const QString& p : spec.split(QLatin1Char(','), Qt::SkipEmptyParts))
        hit = hit || (exact ? name == p : name.startsWith(p));
    return exclude ? !hit : hit;
}

} // namespace

void joinIbPorts(NodeJoin& j, const NodeCapture& c, const QString& host)
{
    const QString initNic = j.initCapture("nic").isEmpty() ? usedNicOf(j.initRank) : j.initCapture("nic");
    const bool initHere = j.init && j.init->host == host;
    for (const IbPort& p : c.ports) {
        if (!p.active() && !p.state.isEmpty()) {
            const QString users = j.ranksOnHostUsing(host, p.device);
            const QString text =
                QStringLiteral("%1 port %2 on %3 is %4 (physical state %5%6)%7")
                    .arg(p.device.isEmpty() ? QStringLiteral("the HCA") : p.device)
                    .arg(p.port)
                    .arg(host, p.state,
                        p.physicalState.isEmpty() ? QStringLiteral("unknown") : p.physicalState,
                        p.linkLayer.isEmpty() ? QString() : QStringLiteral(", ") + p.linkLayer,
                        users.isEmpty() ? QString() : QStringLiteral(", used by ranks %1").arg(users));
            const bool onInitNic = initHere && (initNic.isEmpty() || initNic == p.device);
            if (onInitNic && ibFailure(j))
                j.confirm(host, c.where(p.stateLine), text, QStringLiteral("nccl-ib-port-down"),
                    { { QStringLiteral("nic"), p.device },
                        { QStringLiteral("port"), QString::number(p.port) } });
            else
                j.note(host, c.where(p.stateLine), text);
        }
        const bool gidFailure = j.initId == QLatin1String("nccl-roce-gid-index")
            || (ibFailure(j) && p.linkLayer == QLatin1String("Ethernet"));
        const bool ourPort = p.device.isEmpty() ? c.ports.size() == 1 : p.device == initNic;
        if (gidFailure && initHere && ourPort && !p.gids.empty())
            joinGidTable(j, c, host, p);
    }
}

void joinInterfaces(NodeJoin& j, const NodeCapture& c, const QString& host)
{
    const IfnameSetting setting = socketIfnameFromLogs(j.inc, host);
    if (setting.value.isEmpty())
        return;
    QStringList matching, candidates;
    const NetInterface* suggestion = nullptr;
    for (const NetInterface& i : c.interfaces) {
        if (matchesIfname(setting.value, i.name) && usable(i))
            matching << i.name;
        const bool virtualOrLoop = i.name == QLatin1String("lo") || i.name.startsWith(QLatin1String("docker"))
            || i.name.startsWith(QLatin1String("virbr")) || i.name.startsWith(QLatin1String("veth"));
        if (!virtualOrLoop && usable(i)) {
            candidates << QStringLiteral("%1 (%2)").arg(i.name, (i.ipv4 + i.ipv6).join(QLatin1String(", ")));
            suggestion = suggestion ? suggestion : &i;
        }
    }
    if (!matching.isEmpty()) {
        j.note(host, c.where(0),
            QStringLiteral("NCCL_SOCKET_IFNAME=%1 (%2) matches %3 on %4, up with an address")
                .arg(setting.value, setting.source, matching.join(QLatin1String(", ")), host));
        return;
    }
    const QString text =
        QStringLiteral("NCCL_SOCKET_IFNAME=%1 (%2) matches no interface of %3 that is up with an "
                       "address; %3 has %4")
            .arg(setting.value, setting.source, host,
                candidates.isEmpty() ? QStringLiteral("none besides loopback")
                                     : candidates.join(QLatin1String(", ")));
    const QString source = suggestion ? c.where(suggestion->line) : c.where(0);
    const bool socketFailure = j.initFamily == QLatin1String("socket")
        || j.initFamily == QLatin1String("rendezvous") || j.initFamily == QLatin1String("hang") || !j.init;
    if (!socketFailure || !suggestion) {
        j.note(host, source, text);
        return;
    }
    j.confirm(host, source, text, j.initId, {},
        { QStringLiteral("export NCCL_SOCKET_IFNAME=%1   # on %2, instead of %3: %1 is up with %4 (%5)")
                .arg(suggestion->name, host, setting.value,
                    (suggestion->ipv4 + suggestion->ipv6).join(QLatin1String(", ")), source) });
}

} // namespace rankscope::detail
