// SPDX-License-Identifier: MIT
#include "node_evidence.h"

#include "failure_words.h"
#include "node_evidence_parts.h"

#include <QFile>
#include <algorithm>
#include <cctype>
#include <cstring>
#include <map>

namespace rankscope {

using namespace detail;

namespace {

constexpr int kDetectLines = 300; // lines of the head that decide a kernel log
constexpr qint64 kMaxCaptureBytes = 64LL << 20; // a dmesg ring is a few MiB; refuse what is not one

QStringList splitLines(const QByteArray& content)
{
    QString text = QString::fromUtf8(content);
    if (text.startsWith(QChar(0xfeff)))
        text.remove(0, 1);
    QStringList lines = text.split(QLatin1Char('\n'));
    for (QString& l : lines) {
        if (l.endsWith(QLatin1Char('\r')))
            l.chop(1);
    }
    if (!lines.isEmpty() && lines.back().isEmpty())
        lines.removeLast();
    return lines;
}

// Whether the head is a kernel log: most of its first kDetectLines non-blank lines carry a kernel log's
// stamp, and some line is the kernel's. Every log file's head is asked, so a line that cannot start with a
// stamp (not '[', an ISO date, an upper-case month or "NVRM: ") is counted from its bytes, and the test
// stops once too many lines lack a stamp for any outcome but "no".
bool isKernelLog(const QByteArray& head)
{
    int nonBlank = 0, stamped = 0, kernel = 0, unstamped = 0;
    qsizetype at = head.startsWith("\xef\xbb\xbf") ? 3 : 0;
    while (at < head.size() && nonBlank < kDetectLines) {
        qsizetype end = head.indexOf('\n', at);
        if (end < 0)
            end = head.size();
        const QByteArrayView line(head.constData() + at, end - at);
        at = end + 1;
        const QByteArrayView trimmed = line.trimmed();
        if (trimmed.isEmpty())
            continue;
        ++nonBlank;
        const bool mayBeStamped = line.startsWith('[')
            || (line.size() > 10 && line[4] == '-' && line[10] == 'T') || (line[0] >= 'A' && line[0] <= 'Z')
            || trimmed.startsWith("NVRM: ");
        KernelLine k;
        if (mayBeStamped) {
            QString text = QString::fromUtf8(line);
            if (text.endsWith(QLatin1Char('\r')))
                text.chop(1);
            k = splitKernelLine(text);
        }
        stamped += k.stamped ? 1 : 0;
        kernel += k.kernel ? 1 : 0;
        // stamped * 10 >= N * 6 for the final N <= kDetectLines cannot hold once 40 % of kDetectLines lack
        // one.
        if (!k.stamped && ++unstamped * 10 > kDetectLines * 4)
            return false;
    }
    // Most lines carry a kernel log's prefix: a job log that quotes a few dmesg lines is a log.
    return kernel > 0 && stamped * 10 >= std::min(nonBlank, kDetectLines) * 6;
}

// "user@host:~$ ibstat", "(base) root@ubuntu:/data# ip addr": the host of a pasted capture.
void hostFromPrompt(const QStringList& lines, NodeCapture& out)
{
    static const QRegularExpression prompt =
        rx(R"(^\s*(?:\([^)]*\)\s*)?\[?[\w.-]+@([\w.-]+)[:\s][^$#]*[$#]\s*(?:sudo\s+)?)"
           R"((?:ip|ifconfig|ibstat|ibv_devinfo|dmesg|journalctl|nvidia-smi|show_gids)\b)");
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QRegularExpressionMatch m = prompt.match(lines[i]);
        if (m.hasMatch()) {
            out.contentHost = m.captured(1);
            out.contentHostLine = i + 1;
            return;
        }
    }
}

// The journal's host column: the host most of its lines name.
void hostFromJournal(const QStringList& lines, NodeCapture& out)
{
    std::map<QString, std::pair<int, qint64>> seen; // host -> count, first line
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const KernelLine k = splitKernelLine(lines[i]);
        if (k.host.isEmpty())
            continue;
        auto& [count, first] = seen[k.host];
        if (count++ == 0)
            first = i + 1;
    }
    int best = 0;
    for (const auto& [host, v] : seen) {
        if (v.first > best) {
            best = v.first;
            out.contentHost = host;
            out.contentHostLine = v.second;
        }
    }
}

} // namespace

QString nodeCaptureKindName(NodeCaptureKind k)
{
    switch (k) {
    case NodeCaptureKind::KernelLog:
        return QStringLiteral("kernel log");
    case NodeCaptureKind::IbStat:
        return QStringLiteral("ibstat");
    case NodeCaptureKind::IbvDevinfo:
        return QStringLiteral("ibv_devinfo");
    case NodeCaptureKind::NvidiaSmiQuery:
        return QStringLiteral("nvidia-smi -q");
    case NodeCaptureKind::NvidiaSmiQueryXml:
        return QStringLiteral("nvidia-smi -q -x");
    case NodeCaptureKind::IpAddr:
        return QStringLiteral("ip addr");
    case NodeCaptureKind::Ifconfig:
        return QStringLiteral("ifconfig");
    case NodeCaptureKind::None:
        break;
    }
    return QStringLiteral("not node evidence");
}

QString NodeCapture::where(qint64 line) const
{
    return line > 0 ? QStringLiteral("%1:%2").arg(displayPath).arg(line) : displayPath;
}

NodeCaptureKind detectNodeCapture(const QByteArray& head)
{
    const auto size = static_cast<size_t>(head.size());
    if (head.startsWith("\x1f\x8b") || std::memchr(head.constData(), 0, size))
        return NodeCaptureKind::None;
    if (memmem(head.constData(), size, "<nvidia_smi_log", 15)) // memmem: QByteArray::contains() is slower
        return NodeCaptureKind::NvidiaSmiQueryXml;
    // Every log file's head comes through here. A capture shows what it is in its first kCueBytes (its
    // command's first lines, after a prompt at most): without any literal the line patterns below need
    // there, only the kernel-log test is left. A log that quotes `ip addr` further down stays a log.
    static constexpr const char* kCues[] = { "CA '", "hca_id:", "ibv_devinfo", "PORT_", "GID[",
        "==NVSMI LOG==", "Attached GPUs", "mtu", "inet", "link/", ": flags=", "Link encap:" };
    constexpr qsizetype kCueBytes = 8192;
    const auto cueBytes = static_cast<size_t>(std::min(head.size(), kCueBytes));
    const bool anyCue = std::any_of(std::begin(kCues), std::end(kCues),
        [&](const char* c) { return memmem(head.constData(), cueBytes, c, std::strlen(c)) != nullptr; });
    if (!anyCue)
        return isKernelLog(head) ? NodeCaptureKind::KernelLog : NodeCaptureKind::None;
    const QStringList lines = splitLines(head);
    static const QRegularExpression ibstatCa = rx(R"(^CA '[^']+'\s*$)");
    static const QRegularExpression ibstatState = rx(R"(^\s+State:\s+\w)");
    static const QRegularExpression devinfoPort = rx(R"(^\s+state:\s+PORT_[A-Z_]+)");
    static const QRegularExpression gidLine = rx(R"(^\s*GID\[\s*\d+\]:\s+\S)");
    static const QRegularExpression ipLink = rx(R"(^\d+:\s+[\w.@-]+:\s+<[A-Z_,-]*>\s+mtu\s)");
    static const QRegularExpression ipOneLine = rx(R"(^\d+:\s+[\w.@-]+\s+(?:inet6?|link/\w+)\s+\S)");
    static const QRegularExpression ifconfigNew = rx(R"(^[\w.:-]+: flags=\d+<[A-Z_,]*>)");
    static const QRegularExpression ifconfigOld = rx(R"(^[\w.:-]+\s+Link encap:)");
    bool ca = false, caState = false, hca = false, devState = false, gid = false, nvsmi = false,
         attached = false;
    int ipLines = 0, ifconfigLines = 0;
    // Each pattern is tried only on a line that holds its leading literal.
    auto digitsThenColon = [](const QString& l) {
        qsizetype i = 0;
        while (i < l.size() && l[i].isDigit())
            ++i;
        return i > 0 && i < l.size() && l[i] == QLatin1Char(':');
    };
    // The first line that is a capture's own: a failure line above it (a comment that quotes the error, then
    // the output it asks about) makes the file a log, whose failure would otherwise be read by nobody.
    qsizetype firstCaptureLine = -1;
    bool failureAbove = false;
    for (const QString& l : lines) {
        const bool before =
            !ca && !hca && !devState && !gid && !nvsmi && !attached && ipLines == 0 && ifconfigLines == 0;
        if (before) {
            ++firstCaptureLine;
            const std::string line = l.toStdString();
            failureAbove =
                failureAbove || (hasFailureWord(line) && !isReporterProse(line) && !isHeadingLeadIn(line));
        }
        ca = ca || (l.startsWith(QLatin1String("CA '")) && ibstatCa.match(l).hasMatch());
        caState = caState || (ca && l.contains(QLatin1String("State:")) && ibstatState.match(l).hasMatch());
        hca = hca || l.trimmed().startsWith(QLatin1String("hca_id:"))
            || l.contains(QLatin1String("ibv_devinfo"));
        devState = devState || (l.contains(QLatin1String("PORT_")) && devinfoPort.match(l).hasMatch());
        gid = gid || (l.contains(QLatin1String("GID[")) && gidLine.match(l).hasMatch());
        nvsmi = nvsmi || l.contains(QLatin1String("==NVSMI LOG=="));
        attached = attached || l.startsWith(QLatin1String("Attached GPUs"));
        if (digitsThenColon(l))
            ipLines += ipLink.match(l).hasMatch() || ipOneLine.match(l).hasMatch() ? 1 : 0;
        if (l.contains(QLatin1String(": flags=")) || l.contains(QLatin1String("Link encap:")))
            ifconfigLines += ifconfigNew.match(l).hasMatch() || ifconfigOld.match(l).hasMatch() ? 1 : 0;
    }
    if (failureAbove && firstCaptureLine < lines.size())
        return NodeCaptureKind::None;
    if (ca && caState)
        return NodeCaptureKind::IbStat;
    if (hca && (devState || gid))
        return NodeCaptureKind::IbvDevinfo;
    if (nvsmi || attached)
        return NodeCaptureKind::NvidiaSmiQuery;
    if (ipLines > 0)
        return NodeCaptureKind::IpAddr;
    if (ifconfigLines > 0)
        return NodeCaptureKind::Ifconfig;
    if (isKernelLog(head))
        return NodeCaptureKind::KernelLog;
    return NodeCaptureKind::None;
}

NodeCapture parseNodeCapture(
    const QByteArray& content, const QString& path, const QString& displayPath, NodeCaptureKind kind)
{
    NodeCapture out;
    out.path = path;
    out.displayPath = displayPath.isEmpty() ? path : displayPath;
    out.kind = kind == NodeCaptureKind::None ? detectNodeCapture(content.left(65536)) : kind;
    if (out.kind == NodeCaptureKind::None) {
        out.error = QStringLiteral("%1: not a node evidence capture").arg(out.displayPath);
        return out;
    }
    if (out.kind == NodeCaptureKind::NvidiaSmiQueryXml) {
        parseNvidiaSmiQueryXml(content, out);
        return out;
    }
    const QStringList lines = splitLines(content);
    switch (out.kind) {
    case NodeCaptureKind::KernelLog:
        hostFromJournal(lines, out);
        parseKernelLog(lines, out);
        break;
    case NodeCaptureKind::IbStat:
        parseIbStat(lines, out);
        break;
    case NodeCaptureKind::IbvDevinfo:
        parseIbvDevinfo(lines, out);
        break;
    case NodeCaptureKind::NvidiaSmiQuery:
        parseNvidiaSmiQuery(lines, out);
        break;
    case NodeCaptureKind::IpAddr:
        parseIpAddr(lines, out);
        break;
    case NodeCaptureKind::Ifconfig:
        parseIfconfig(lines, out);
        break;
    case NodeCaptureKind::NvidiaSmiQueryXml:
    case NodeCaptureKind::None:
        break;
    }
    if (out.contentHost.isEmpty())
        hostFromPrompt(lines, out);
    return out;
}

NodeCapture loadNodeCapture(const QString& path, const QString& displayPath)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        NodeCapture out;
        out.path = path;
        out.displayPath = displayPath.isEmpty() ? path : displayPath;
        out.error = QStringLiteral("%1: cannot open: %2").arg(out.displayPath, file.errorString());
        return out;
    }
    if (file.size() > kMaxCaptureBytes) {
        NodeCapture out;
        out.path = path;
        out.displayPath = displayPath.isEmpty() ? path : displayPath;
        out.error = QStringLiteral("%1: %2 bytes, more than a node capture holds; not read")
                        .arg(out.displayPath)
                        .arg(file.size());
        return out;
    }
    return parseNodeCapture(file.readAll(), path, displayPath);
}

} // namespace rankscope
