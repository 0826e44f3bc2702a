// SPDX-License-Identifier: MIT
// The kernel log and nvidia-smi -q against the incident: a GPU is a rank's by its bus id, a killed
// process by its pid, both on the capture's host.
#include "node_evidence_join_parts.h"

#include <map>

namespace rankscope::detail {

namespace {

// The Xids that are a cause in themselves, and the catalog entry that says what to do.
QString xidSignature(int xid)
{
    static const std::map<int, const char*> kCauses = { { 79, "xid-79-fallen-off-bus" },
        { 48, "xid-48-double-bit-ecc" }, { 74, "xid-74-nvlink-error" }, { 94, "xid-ecc-contained" },
        { 95, "xid-ecc-contained" }, { 119, "xid-gsp-timeout" }, { 120, "xid-gsp-timeout" },
        { 63, "xid-row-remap" }, { 64, "xid-row-remap" }, { 154, "xid-154-recovery-action" } };
    const auto it = kCauses.find(xid);
    return it == kCauses.end() ? QString() : QString::fromLatin1(it->second);
}

// Whether the initiating event is a symptom a killed process leaves behind (no failure found, a
// SIGKILL or child-failed summary, a watchdog timeout, a peer that closed its socket).
bool killLeavesThis(const NodeJoin& j)
{
    static const char* const kSymptoms[] = { "torchrun-", "pytorch-watchdog", "nccl-socket-connection-closed",
        "gloo-pair-connection-lost", "c10d-store-connection-reset", "openmpi-process-exited-on-signal",
        "srun-task-exited" };
    if (!j.init)
        return true;
    for (const char* s : kSymptoms) {
        if (j.initId.startsWith(QLatin1String(s)))
            return true;
    }
    return false;
}

QString rankText(const NodeJoin& j, int rank)
{
    if (rank < 0)
        return QString();
    return j.isInitRank(rank) ? QStringLiteral(", the GPU of rank %1, the initiating rank").arg(rank)
                              : QStringLiteral(", the GPU of rank %1").arg(rank);
}

int gpuIndexOf(const NodeJoin& j, const QString& host, const GpuQuery& g)
{
    if (const HostTopology* t = j.topo.host(host)) {
        const int at = t->gpuByBusId(g.busId);
        if (at >= 0 && t->gpus[static_cast<size_t>(at)].index >= 0)
            return t->gpus[static_cast<size_t>(at)].index;
    }
    return g.index;
}

} // namespace

void joinKernelLog(NodeJoin& j, const NodeCapture& c, const QString& host)
{
    for (const KernelRecord& r : c.kernel) {
        const QString source = c.where(r.line);
        switch (r.kind) {
        case KernelRecord::Kind::Xid:
        case KernelRecord::Kind::FallenOffBus: {
            const int rank = j.rankOfBusId(host, r.pci);
            const bool fallen = r.kind == KernelRecord::Kind::FallenOffBus;
            const QString what = fallen ? QStringLiteral("GPU fallen off the bus")
                                        : QStringLiteral("Xid %1").arg(r.xid)
                    + (r.xid == 79 ? QStringLiteral(" (fallen off the bus)") : QString());
            const QString text =
                QStringLiteral("%1 on %2%3").arg(what, j.gpuName(host, r.pci, rank), rankText(j, rank));
            const QString sig = fallen ? QStringLiteral("nvrm-gpu-fallen-off-bus") : xidSignature(r.xid);
            if (j.isInitRank(rank) && !sig.isEmpty()) {
                j.confirm(host, source, text, sig,
                    { { QStringLiteral("pci"), r.pci }, { QStringLiteral("xid"), QString::number(r.xid) } });
            } else {
                j.note(host, source, text);
            }
            break;
        }
        case KernelRecord::Kind::Aer: {
            const int rank = j.rankOfBusId(host, r.pci);
            const QString text = QStringLiteral("PCIe AER %1 error on %2%3")
                                     .arg(r.severity, j.gpuName(host, r.pci, rank), rankText(j, rank));
            if (j.isInitRank(rank) && r.severity.startsWith(QLatin1String("Uncorrected")))
                j.confirm(host, source, text, QStringLiteral("pcie-aer-uncorrected"), {});
            else if (rank >= 0 || r.severity.startsWith(QLatin1String("Uncorrected")))
                j.note(host, source, text);
            break;
        }
        case KernelRecord::Kind::OomKill: {
            const int rank = j.rankOfPid(host, r.pid);
            const bool cgroup = r.text.contains(QLatin1String("Memory cgroup"));
            const QString killer = cgroup ? QStringLiteral("the memory cgroup OOM killer")
                                          : QStringLiteral("the kernel OOM killer");
            if (rank < 0) {
                j.note(host, source,
                    QStringLiteral("%1 killed pid %2 (%3), no rank's pid in the logs")
                        .arg(killer)
                        .arg(r.pid)
                        .arg(r.process));
                break;
            }
            const QString text = QStringLiteral("%1 killed pid %2 (%3), rank %4 on %5")
                                     .arg(killer)
                                     .arg(r.pid)
                                     .arg(r.process)
                                     .arg(rank)
                                     .arg(host);
            if (j.isInitRank(rank) || killLeavesThis(j))
                j.confirm(host, source, text,
                    cgroup ? QStringLiteral("cgroup-oom-killer") : QStringLiteral("host-oom-killer"),
                    { { QStringLiteral("pid"), QString::number(r.pid) },
                        { QStringLiteral("process"), r.process } });
            else
                j.note(host, source, text);
            break;
        }
        case KernelRecord::Kind::Segfault: {
            const int rank = j.rankOfPid(host, r.pid);
            j.note(host, source,
                rank >= 0
                    ? QStringLiteral("segfault in pid %1 (%2), rank %3").arg(r.pid).arg(r.process).arg(rank)
                    : QStringLiteral("segfault in pid %1 (%2), no rank's pid in the logs")
                          .arg(r.pid)
                          .arg(r.process));
            break;
        }
        }
    }
}

void joinNvidiaSmi(NodeJoin& j, const NodeCapture& c, const QString& host)
{
    QStringList persistenceOff;
    qint64 persistenceLine = 0;
    for (const GpuQuery& g : c.gpus) {
        const int rank = j.rankOfBusId(host, g.busId);
        // The host's topology knows the GPU's index by its bus id; the capture's own order is the index
        // only when it lists every GPU (`nvidia-smi -i 4,5 -q` lists two, as 0 and 1).
        const int index = gpuIndexOf(j, host, g);
        const QString gpu = QStringLiteral("GPU %1 (%2)%3").arg(index).arg(g.busId, rankText(j, rank));
        const QString fabric = g.fabricState;
        if (!fabric.isEmpty() && fabric != QLatin1String("Completed") && fabric != QLatin1String("N/A")) {
            const QString text = QStringLiteral("fabric state of %1 is %2").arg(gpu, fabric);
            const bool fabricFailure = j.initId.startsWith(QLatin1String("fabric-manager"))
                || j.initId.startsWith(QLatin1String("nvls"))
                || j.initId.contains(QLatin1String("system-not-initialized"));
            if (fabricFailure)
                j.confirm(host, c.where(g.fabricLine), text,
                    QStringLiteral("fabric-manager-fabric-state-not-ready"), {});
            else
                j.note(host, c.where(g.fabricLine), text);
        }
        if (g.volatileUncorrected > 0)
            j.note(host, c.where(g.eccLine),
                QStringLiteral("%1 volatile uncorrectable ECC error(s) on %2")
                    .arg(g.volatileUncorrected)
                    .arg(gpu));
        if (g.retirementPending == QLatin1String("Yes") || g.retiredDouble > 0)
            j.note(host, c.where(g.retiredLine),
                QStringLiteral("retired pages on %1: %2 double-bit, retirement pending: %3")
                    .arg(gpu)
                    .arg(std::max<qint64>(g.retiredDouble, 0))
                    .arg(g.retirementPending.isEmpty() ? QStringLiteral("unknown") : g.retirementPending));
        if (g.persistenceMode == QLatin1String("Disabled")) {
            persistenceOff << QString::number(index);
            persistenceLine = persistenceLine ? persistenceLine : g.persistenceLine;
        }
    }
    if (!persistenceOff.isEmpty())
        j.note(host, c.where(persistenceLine),
            QStringLiteral(
                "persistence mode is Disabled on GPU %1 of %2 (each job start re-initialises the driver)")
                .arg(persistenceOff.join(QLatin1Char(',')), host));
}

} // namespace rankscope::detail
