// SPDX-License-Identifier: MIT
// ip addr, ip -o addr and ifconfig (net-tools 1.x "inet addr:" and 2.x "inet"): interface names, the UP
// flag and the addresses, for checking NCCL_SOCKET_IFNAME against the host.
#include "node_evidence_parts.h"

namespace rankscope::detail {

namespace {

NetInterface& interfaceNamed(NodeCapture& out, QString name, qint64 line)
{
    const qsizetype at = name.indexOf(QLatin1Char('@')); // "eth0@if12": a veth's peer
    if (at > 0)
        name.truncate(at);
    for (NetInterface& i : out.interfaces) {
        if (i.name == name)
            return i;
    }
    out.interfaces.push_back({});
    out.interfaces.back().name = name;
    out.interfaces.back().line = line;
    return out.interfaces.back();
}

void addAddress(NetInterface& i, const QString& family, QString address)
{
    const qsizetype slash = address.indexOf(QLatin1Char('/'));
    if (slash > 0)
        address.truncate(slash);
    QStringList& list = family == QLatin1String("inet6") ? i.ipv6 : i.ipv4;
    if (!list.contains(address))
        list << address;
}

} // namespace

void parseIpAddr(const QStringList& lines, NodeCapture& out)
{
    static const QRegularExpression link = rx(R"(^\d+:\s+([\w.@-]+):\s+<([A-Z_,-]*)>)");
    static const QRegularExpression address = rx(R"(^\s+(inet6?)\s+(\S+))");
    static const QRegularExpression oneLine = rx(R"(^\d+:\s+([\w.@-]+)\s+(inet6?|link/\w+)\s+(\S+))");
    NetInterface* current = nullptr;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QString& l = lines[i];
        QRegularExpressionMatch m;
        if ((m = link.match(l)).hasMatch()) {
            current = &interfaceNamed(out, m.captured(1), i + 1);
            const QStringList flags = m.captured(2).split(QLatin1Char(','));
            current->up = flags.contains(QLatin1String("UP")) && !flags.contains(QLatin1String("NO-CARRIER"));
        } else if ((m = oneLine.match(l)).hasMatch()) {
            // ip -o addr prints no flags: an interface with an address there is taken as up.
            NetInterface& itf = interfaceNamed(out, m.captured(1), i + 1);
            if (m.captured(2).startsWith(QLatin1String("inet"))) {
                itf.up = true;
                addAddress(itf, m.captured(2), m.captured(3));
            } else if (l.contains(QLatin1String("state UP")) || l.contains(QLatin1String("<UP"))
                || l.contains(QLatin1String(",UP"))) {
                itf.up = true;
            }
            current = nullptr;
        } else if (current && (m = address.match(l)).hasMatch()) {
            addAddress(*current, m.captured(1), m.captured(2));
        }
    }
    if (out.interfaces.empty())
        out.error = QStringLiteral("%1: ip addr output without an interface").arg(out.displayPath);
}

void parseIfconfig(const QStringList& lines, NodeCapture& out)
{
    static const QRegularExpression headerNew = rx(R"(^([\w.:-]+?):? flags=\d+<([A-Z_,]*)>)");
    static const QRegularExpression headerOld = rx(R"(^([\w.:-]+)\s+Link encap:)");
    static const QRegularExpression inet = rx(R"(^\s+inet (?:addr:)?(\d+\.\d+\.\d+\.\d+))");
    static const QRegularExpression inet6 = rx(R"(^\s+inet6 (?:addr: ?)?([0-9a-fA-F:]+))");
    static const QRegularExpression oldFlags = rx(R"(^\s+(?:UP\s|.*\bUP\b.*\bMTU:))");
    NetInterface* current = nullptr;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QString& l = lines[i];
        QRegularExpressionMatch m;
        if ((m = headerNew.match(l)).hasMatch()) {
            current = &interfaceNamed(out, m.captured(1), i + 1);
            current->up = m.captured(2).split(QLatin1Char(',')).contains(QLatin1String("UP"));
        } else if ((m = headerOld.match(l)).hasMatch()) {
            current = &interfaceNamed(out, m.captured(1), i + 1);
        } else if (!current || l.trimmed().isEmpty()) {
            continue;
        } else if ((m = inet.match(l)).hasMatch()) {
            addAddress(*current, QStringLiteral("inet"), m.captured(1));
        } else if ((m = inet6.match(l)).hasMatch()) {
            addAddress(*current, QStringLiteral("inet6"), m.captured(1));
        } else if (oldFlags.match(l).hasMatch()) {
            current->up = true; // net-tools 1.x: "UP BROADCAST RUNNING MULTICAST  MTU:1500"
        }
    }
    if (out.interfaces.empty())
        out.error = QStringLiteral("%1: ifconfig output without an interface").arg(out.displayPath);
}

} // namespace rankscope::detail
