// SPDX-License-Identifier: MIT
#include "identity_facts.h"

#include "text_util.h"

#include <QRegularExpression>
#include <charconv>
#include <re2/re2.h>

namespace rankscope {

namespace {

re2::StringPiece piece(std::string_view s)
{
    return re2::StringPiece(s.data(), s.size());
}
QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

// Digits as an int; -1 when empty or too large for one (std::stoi threw on "GPU 99999999999": the
// fuzzer's find, and an exception must not leave core/).
int toInt(const std::string& digits)
{
    int v = -1;
    const char* end = digits.data() + digits.size();
    const auto [at, ec] = std::from_chars(digits.data(), end, v);
    return ec == std::errc() && at == end ? v : -1;
}

bool parseInit(std::string_view m, IdentityFact& f)
{
    // Every form since 2.8 ends with "- Init START" or "- Init COMPLETE"; older ones lack nvmlDev/commId.
    static const RE2 re(
        R"(comm 0x[0-9a-f]+ rank (\d+) nranks (\d+) cudaDev (\d+)(?: nvmlDev (\d+))? busId ([0-9a-f]+))"
        R"((?:.*? commId (0x[0-9a-f]+))?.*?- ?Init (START|COMPLETE))");
    int rank = -1, nranks = -1, cuda = -1;
    std::string nvml, bus, comm, state;
    if (!RE2::PartialMatch(piece(m), re, &rank, &nranks, &cuda, &nvml, &bus, &comm, &state))
        return false;
    f.kind = IdentityFact::Kind::Init;
    f.rank = rank;
    f.nRanks = nranks;
    f.cudaDev = cuda;
    f.nvmlDev = toInt(nvml);
    f.busId = busIdFromNccl(bus);
    f.commId = qs(comm);
    f.initComplete = state == "COMPLETE";
    return true;
}

bool parseNodeInfo(std::string_view m, IdentityFact& f)
{
    static const RE2 re(
        R"(^comm 0x[0-9a-f]+ rank (\d+) nRanks (\d+) nNodes (\d+) localRanks \d+ localRank (\d+))");
    int rank = -1, nranks = -1, nodes = -1, local = -1;
    if (!RE2::PartialMatch(piece(m), re, &rank, &nranks, &nodes, &local))
        return false;
    f.kind = IdentityFact::Kind::NodeInfo;
    f.rank = rank;
    f.nRanks = nranks;
    f.nNodes = nodes;
    f.localRank = local;
    return true;
}

bool parseNetUsing(std::string_view m, IdentityFact& f)
{
    if (!startsWith(m, "NET/IB : Using") && !startsWith(m, "NET/Socket : Using"))
        return false;
    f.kind = IdentityFact::Kind::NetUsing;
    // " [0]mlx5_0:1/IB" per device (2.30 adds ":rail::plane"); sockets print " [0]ens1f0:10.0.0.1<0>".
    static const RE2 dev(R"(\[(\d+)\]([A-Za-z0-9_.\-]+)(?::(\d+))?(?::\d+)*(?:/(IB|RoCE))?)");
    const size_t semi = m.find("; OOB ");
    re2::StringPiece in = piece(m.substr(0, semi));
    int index = -1, port = -1;
    std::string name, portText, layer;
    while (RE2::FindAndConsume(&in, dev, &index, &name, &portText, &layer)) {
        port = toInt(portText);
        f.nics.push_back(NicUse { index, qs(name), port, qs(layer) });
    }
    if (semi != std::string_view::npos)
        f.text = qs(std::string(m.substr(semi + 6)));
    return true;
}

bool parseChannel(std::string_view m, IdentityFact& f)
{
    static const RE2 re(
        R"(^(?:Channel|Ring) \d+(?:/\d+)? : (\d+)(?:\[[0-9a-f]+\])? -> (\d+)(?:\[[0-9a-f]+\])? \[(send|receive)\] via NET/[A-Za-z]+/(\d+)((?:/GDRDMA)?))");
    int from = -1, to = -1, nic = -1;
    std::string dir, gdr;
    if (!RE2::PartialMatch(piece(m), re, &from, &to, &dir, &nic, &gdr))
        return false;
    f.kind = IdentityFact::Kind::ChannelNet;
    f.rank = dir == "send" ? from : to; // [receive] lines print the peer first
    f.channelNic = nic;
    f.gdr = !gdr.empty();
    return true;
}

// Inside a node NCCL prints a connection once, from the sending side, with no [send]/[receive]: the first
// rank is the writer's own (p2p.cc and shm.cc print myInfo->rank first). NCCL before 2.7 said "Ring" for
// "Channel", and its SHM transport "via direct shared memory".
bool parseLocalChannel(std::string_view m, IdentityFact& f)
{
    static const RE2 re(
        R"(^(?:Channel|Ring) \d+(?:/\d+)? : (\d+)\[[0-9a-f]+\] -> (\d+)\[[0-9a-f]+\] via (?:P2P/|SHM/|direct shared memory))");
    int from = -1, to = -1;
    if (!RE2::PartialMatch(piece(m), re, &from, &to))
        return false;
    f.kind = IdentityFact::Kind::ChannelLocal;
    f.rank = from;
    return true;
}

bool parseAffinity(std::string_view m, IdentityFact& f)
{
    static const RE2 re(
        R"(^(?:Setting affinity for GPU (\d+) to ([0-9a-fx,\-]+)|ncclTopoGetCpuAffinity: Affinity for GPU (\d+) is ([0-9a-fx,\-]+)))");
    std::string a, b, c, d;
    if (!RE2::PartialMatch(piece(m), re, &a, &b, &c, &d))
        return false;
    f.nvmlDev = toInt(a.empty() ? c : a);
    if (f.nvmlDev < 0)
        return false; // no GPU has such a number
    f.kind = IdentityFact::Kind::Affinity;
    f.text = qs(b.empty() ? d : b);
    return true;
}

bool parseBootstrap(std::string_view m, IdentityFact& f)
{
    static const RE2 re(R"(^Bootstrap ?: Using ([A-Za-z0-9_.\-]+):([0-9a-fA-F:.%]+)<\d+>)");
    std::string ifname, ip;
    if (!RE2::PartialMatch(piece(m), re, &ifname, &ip))
        return false;
    f.kind = IdentityFact::Kind::Bootstrap;
    f.text = qs(ip);
    return true;
}

} // namespace

bool parseNcclIdentity(std::string_view m, IdentityFact& f)
{
    if (m.empty() || !mayStartIdentityLine(m[0]))
        return false;
    switch (m[0]) {
    case 'c':
        // Each regex needs its literal: most 'c' lines ("cudaDriverVersion", "comm ... Destroy") skip both.
        return (m.find(" nNodes ") != std::string_view::npos && parseNodeInfo(m, f))
            || (m.find("Init ") != std::string_view::npos && parseInit(m, f));
    case 'n':
    case '[':
        return m.find("Init ") != std::string_view::npos && parseInit(m, f);
    case 'N':
        return parseNetUsing(m, f);
    case 'C':
    case 'R':
        if (m.find("via NET/") != std::string_view::npos)
            return parseChannel(m, f);
        return (m.find("via P2P/") != std::string_view::npos || m.find("via SHM/") != std::string_view::npos
                   || m.find("via direct shared memory") != std::string_view::npos)
            && parseLocalChannel(m, f);
    case 'S':
        return parseAffinity(m, f);
    case 'B':
        return parseBootstrap(m, f);
    default:
        return false;
    }
}

int rankTagIn(std::string_view message)
{
    constexpr std::string_view tag = "[rank=";
    const std::size_t at = message.find(tag);
    if (at == std::string_view::npos)
        return -1;
    const char* first = message.data() + at + tag.size();
    const char* last = message.data() + message.size();
    int rank = -1;
    const auto [end, ec] = std::from_chars(first, last, rank);
    if (ec != std::errc() || end == first || end == last || *end != ']' || rank < 0)
        return -1;
    // Two different tags on one line ("[rank=0] ... [rank=1]") name no single writer.
    const int other = rankTagIn(message.substr(static_cast<std::size_t>(end - message.data())));
    return other >= 0 && other != rank ? -1 : rank;
}

bool parseNcclTestsRank(std::string_view line, IdentityFact& f)
{
    // Older nccl-tests print no "Group", newer ones the device's PCI address ("[0000:0f:00]") for its bus.
    static const RE2 re(
        R"(^#\s+Rank\s+(\d+)\s+(?:Group\s+\d+\s+)?Pid\s+(\d+)\s+on\s+(\S+)\s+device\s+(\d+)\s+)"
        R"(\[(0x[0-9a-fA-F]+|[0-9a-fA-F]{4}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}(?:\.[0-7])?)\])");
    int rank = -1, dev = -1;
    long long pid = -1;
    std::string host, bus;
    if (!RE2::PartialMatch(piece(line), re, &rank, &pid, &host, &dev, &bus))
        return false;
    f.kind = IdentityFact::Kind::NcclTestsRank;
    f.rank = rank;
    f.pid = pid;
    f.host = qs(host);
    f.cudaDev = dev;
    f.ncclDev = dev;
    return true;
}

QString busIdFromNccl(std::string_view hex)
{
    // One conversion for the whole program: the topology model's, which also reads full BDFs.
    return normaliseBusId(QString::fromLatin1(hex.data(), static_cast<qsizetype>(hex.size())));
}

PathHints hintsFromPath(const QString& displayPath)
{
    PathHints h;
    static const QRegularExpression rankRe(QStringLiteral(R"((?:^|[/._-])rank[-_.]?0*(\d+)(?:[._/-]|$))"),
        QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression ncclRe(QStringLiteral(
        R"((?:^|/)nccl[._-]([A-Za-z0-9_\-]+(?:\.[A-Za-z0-9_\-]+)*)[._-](\d+)\.(?:log|txt|out))"));
    static const QRegularExpression attemptRe(
        QStringLiteral(R"((?:^|/)attempt_(\d+)/(\d+)/(?:stdout\.log|stderr\.log|error\.json))"));
    // A host-like folder: letters first, at least one digit, no "rank"/"attempt" words ("gpu-a01",
    // "node-12.cluster.local").
    static const QRegularExpression hostFolder(
        QStringLiteral(
            R"(^(?!rank|attempt|default|trainer|log|run)[A-Za-z][A-Za-z0-9-]*[0-9][A-Za-z0-9-]*(?:\.[A-Za-z][A-Za-z0-9-]*)*$)"),
        QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression attemptOnly(QStringLiteral(R"((?:^|/)attempt_(\d+)(?:/|$))"));
    QRegularExpressionMatch m = rankRe.match(displayPath);
    if (m.hasMatch())
        h.rank = m.captured(1).toInt();
    m = ncclRe.match(displayPath);
    if (m.hasMatch()) {
        h.host = m.captured(1).section(QLatin1Char('.'), 0, 0);
        h.pid = m.captured(2).toLongLong();
    }
    m = attemptRe.match(displayPath);
    if (m.hasMatch()) {
        h.attempt = m.captured(1).toInt();
        h.localRank = m.captured(2).toInt();
    } else if ((m = attemptOnly.match(displayPath)).hasMatch()) {
        h.attempt = m.captured(1).toInt();
    }
    const QStringList parts = displayPath.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    for (qsizetype i = parts.size() - 2; i >= 0; --i) {
        if (hostFolder.match(parts[i]).hasMatch()) {
            h.folderHost = parts[i].section(QLatin1Char('.'), 0, 0);
            break;
        }
    }
    return h;
}

} // namespace rankscope
