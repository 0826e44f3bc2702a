// SPDX-License-Identifier: MIT
// dmesg (raw, -T, --time-format iso), journalctl -k (short, short-iso) and kern.log: Xid, a GPU fallen
// off the bus, PCIe AER, the OOM killer and segfaults, each with the line it was printed on.
#include "node_evidence_parts.h"
#include "text_util.h"

#include <set>

namespace rankscope::detail {

KernelLine splitKernelLine(const QString& line)
{
    static const QRegularExpression dmesgRaw = rx(R"(^\[\s*\d+\.\d+\]\s?(.*)$)");
    static const QRegularExpression dmesgHuman =
        rx(R"(^\[[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \d{4}\]\s?(.*)$)");
    static const QRegularExpression iso =
        rx(R"(^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:[,.]\d+)?(?:[+-]\d\d:?\d\d|Z)?\s(.*)$)");
    static const QRegularExpression syslog = rx(R"(^[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d\s(.*)$)");
    static const QRegularExpression hostTag = rx(R"(^(\S+) ([\w./@-]+(?:\[\d+\])?): ?(.*)$)");
    KernelLine k;
    QRegularExpressionMatch m;
    QString rest;
    bool journal = false;
    // Each stamp is tried only where its first bytes can be: every log file's head is asked.
    const bool bracket = line.startsWith(QLatin1Char('['));
    const bool isoShape = line.size() > 10 && line[4] == QLatin1Char('-') && line[10] == QLatin1Char('T');
    const bool upper = !line.isEmpty() && line[0] >= QLatin1Char('A') && line[0] <= QLatin1Char('Z');
    if (bracket && ((m = dmesgRaw.match(line)).hasMatch() || (m = dmesgHuman.match(line)).hasMatch())) {
        rest = m.captured(1);
    } else if (isoShape && (m = iso.match(line)).hasMatch()) {
        rest = m.captured(1);
        journal = hostTag.match(rest).hasMatch() && rest.contains(QLatin1String(" kernel: "));
    } else if (upper && (m = syslog.match(line)).hasMatch()) {
        rest = m.captured(1);
        journal = true;
    } else if (line.trimmed().startsWith(QLatin1String("NVRM: "))) {
        k.stamped = k.kernel = true;
        k.message = line.trimmed();
        return k;
    } else {
        return k;
    }
    k.stamped = true;
    if (journal) {
        const QRegularExpressionMatch t = hostTag.match(rest);
        if (!t.hasMatch())
            return k;
        k.host = t.captured(1);
        k.kernel = t.captured(2) == QLatin1String("kernel");
        rest = t.captured(3);
        // kern.log and journalctl -k --dmesg keep the kernel's own stamp after the tag.
        if ((m = dmesgRaw.match(rest)).hasMatch())
            rest = m.captured(1);
    } else {
        k.kernel = true;
    }
    k.message = rest;
    return k;
}

namespace {

QString pciIn(const QString& text)
{
    static const QRegularExpression bdf =
        rx(R"(\b((?:[0-9a-fA-F]{4,8}:)?[0-9a-fA-F]{2}:[0-9a-fA-F]{2}(?:\.[0-7])?)\b)");
    const QRegularExpressionMatch m = bdf.match(text);
    return m.hasMatch() ? normaliseBusId(m.captured(1)) : QString();
}

} // namespace

void parseKernelLog(const QStringList& lines, NodeCapture& out)
{
    static const QRegularExpression xid =
        rx(R"(NVRM: Xid \(PCI:([0-9a-fA-F:.]+)\): (\d+)(?:, pid=(\d+|'?<unknown>'?))?(?:, name=([^,]+))?)");
    static const QRegularExpression fallenAt =
        rx(R"(NVRM: GPU at (?:PCI:)?([0-9a-fA-F:.]+) has fallen off the bus)");
    static const QRegularExpression gpuNamed = rx(R"(NVRM: The NVIDIA GPU ([0-9a-fA-F:.]+))");
    static const QRegularExpression oom = rx(
        R"((?:Out of memory|Memory cgroup out of memory): Kill(?:ed)? process (\d+) \((.+?)\)(?= total-vm| score|,|\s*$))");
    static const QRegularExpression oomBare = rx(R"(^Killed process (\d+) \((.+?)\)(?= total-vm|,|\s*$))");
    static const QRegularExpression oomKillLine = rx(R"(oom-kill:constraint=[^,]*,.*task=([^,]+),pid=(\d+))");
    static const QRegularExpression segfault = rx(R"(([^\s\[]+)\[(\d+)\]: segfault at [0-9a-fA-F]+ ip )");
    static const QRegularExpression aer = rx(
        R"(AER: (Corrected|Uncorrected \((?:Fatal|Non-Fatal)\)|Multiple (?:Corrected|Uncorrected \((?:Fatal|Non-Fatal)\))) error)");
    static const QRegularExpression busError = rx(R"(PCIe Bus Error: severity=([^,]+),)");
    std::set<qint64> oomPids; // the oom-kill summary and "Killed process" name the same victim
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const KernelLine k = splitKernelLine(lines[i]);
        if (!k.kernel)
            continue;
        const QString& msg = k.message;
        const qint64 lineNo = i + 1;
        KernelRecord r;
        r.line = lineNo;
        r.text = msg.trimmed();
        QRegularExpressionMatch m;
        if ((m = xid.match(msg)).hasMatch()) {
            r.kind = KernelRecord::Kind::Xid;
            r.pci = normaliseBusId(m.captured(1));
            r.xid = m.captured(2).toInt();
            bool ok = false;
            const qint64 pid = m.captured(3).toLongLong(&ok);
            r.pid = ok ? pid : -1;
            r.process = m.captured(4).trimmed();
        } else if ((m = fallenAt.match(msg)).hasMatch()) {
            r.kind = KernelRecord::Kind::FallenOffBus;
            r.pci = normaliseBusId(m.captured(1));
        } else if ((m = gpuNamed.match(msg)).hasMatch()) {
            // Newer drivers wrap the sentence over three NVRM lines: the GPU first, "fallen off" after.
            bool fallen = false;
            for (qsizetype j = i; j < std::min(lines.size(), i + 4) && !fallen; ++j)
                fallen = lines[j].contains(QLatin1String("fallen off the bus"));
            if (!fallen)
                continue;
            r.kind = KernelRecord::Kind::FallenOffBus;
            r.pci = normaliseBusId(m.captured(1));
        } else if ((m = oom.match(msg)).hasMatch() || (m = oomBare.match(msg.trimmed())).hasMatch()) {
            r.kind = KernelRecord::Kind::OomKill;
            r.pid = m.captured(1).toLongLong();
            r.process = m.captured(2);
            if (!oomPids.insert(r.pid).second)
                continue;
        } else if ((m = oomKillLine.match(msg)).hasMatch()) {
            r.kind = KernelRecord::Kind::OomKill;
            r.pid = m.captured(2).toLongLong();
            r.process = m.captured(1);
            if (!oomPids.insert(r.pid).second)
                continue;
        } else if ((m = segfault.match(msg)).hasMatch()) {
            r.kind = KernelRecord::Kind::Segfault;
            r.process = m.captured(1);
            r.pid = m.captured(2).toLongLong();
        } else if ((m = aer.match(msg)).hasMatch() || (m = busError.match(msg)).hasMatch()) {
            r.kind = KernelRecord::Kind::Aer;
            r.severity = m.captured(1).trimmed();
            // "pcieport 0000:00:01.0: AER: ... error received: 0000:01:00.0": the device that erred.
            const qsizetype received = msg.indexOf(QLatin1String("received:"));
            r.pci = received >= 0 ? pciIn(msg.mid(received)) : QString();
            if (r.pci.isEmpty())
                r.pci = pciIn(msg);
        } else {
            continue;
        }
        out.kernel.push_back(std::move(r));
    }
}

} // namespace rankscope::detail
