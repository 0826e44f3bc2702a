// SPDX-License-Identifier: MIT
// Placing an incident's ranks on the topology: each rank's GPU, the NICs its channels used and their
// path class, its CPU affinity against its GPU's NUMA node; findings for the diagnosis and the
// per-local-rank NCCL_IB_HCA mapping that would fix a bad GPU/NIC pairing.
#pragma once

#include "log_model.h"
#include "topology_loader.h"

#include <QString>
#include <QStringList>
#include <vector>

namespace rankscope {

struct TopologyFinding
{
    enum Kind
    {
        SysPath,
        AffinityOffNuma,
        NicMissing,
        NicOffNuma, // a GPU's nearest RDMA NIC is on another NUMA node (captures without logs)
        NoRdmaNic, // the host shows NICs, none of them RDMA: NCCL_IB_HCA does not apply
        NoP2p, // nvidia-smi -p2p: a GPU pair without peer-to-peer access
        CapturePartial, // the capture lacks rows, cells or values (HostTopology::missing)
        UnusedCapture // a capture of no host in the logs: listed, never used for a fix
    };
    Kind kind = SysPath;
    QString host;
    int rank = -1; // -1 for host-level findings (NicMissing)
    QString gpu; // "GPU3 0000:99:00.0"
    QString nic; // "mlx5_0"
    QString pathClass; // "SYS"
    QString detail; // one sentence for the report
};
// "sys-path", "affinity-off-numa", "nic-missing", "nic-off-numa", "no-rdma-nic", "no-p2p",
// "capture-partial", "capture-unknown-host"
QString findingKindName(TopologyFinding::Kind k);

struct NicPlacement
{
    int ncclIndex = -1; // NET/IB/<n>
    QString name; // from the rank's "NET/IB : Using" list; "" when the index is not in it
    int topoNic = -1; // index into HostTopology::nics, -1 when the capture lacks it
    PathClass path = PathClass::Unknown;
};

struct RankPlacement
{
    enum class Affinity : quint8
    {
        Unknown,
        OnGpuNuma,
        OffGpuNuma
    };
    int rank = -1;
    QString host;
    int localRank = -1;
    int hostIndex = -1; // into TopologySet::hosts, -1 when no capture covers the host
    int gpu = -1; // into HostTopology::gpus
    QString matchedBy; // "busId", "nvmlDev", "cudaDev", or "" when unplaced
    std::vector<NicPlacement> nics;
    Affinity affinity = Affinity::Unknown;
    QString note; // why the rank could not be placed, or what was assumed
};

struct HcaChoice
{
    QString host;
    int localRank = -1;
    int gpuIndex = -1;
    QString gpuBusId;
    QString nic;
    PathClass path = PathClass::Unknown;
    QString text() const; // "local rank 3 (GPU3 0000:99:00.0) → mlx5_1 (PIX)"
};

// Each local rank on its GPU's NUMA node (else on its GPU's CPU affinity), for srun and numactl.
struct CpuBinding
{
    QString host;
    int localRank = -1;
    int gpuIndex = -1;
    int numa = -1; // -1 when the capture gives no NUMA node
    QString cpus; // range list, "" when unknown
    QString text() const; // "local rank 3 (GPU3): NUMA1, CPUs 32-63,96-127"
};

// How one capture (an entry of TopologySet::hosts) was tied to a host of the logs: by its own content
// (the hostname it holds, then its GPUs' bus ids), then by its file name, then, with one host in the
// logs and one capture, by being the only pair. A capture tied to no host is used for nothing.
struct CaptureBinding
{
    QString host; // the host of the logs, "" when none
    QString how; // "hostname", "bus ids", "file name", "--host", "the only host and the only capture"
    QString why; // for an unbound capture: why not ("its hostname mirage004 is not in the logs")
};

struct PlacementResult
{
    std::vector<RankPlacement> ranks;
    std::vector<TopologyFinding> findings;
    std::vector<HcaChoice> hca; // per host, per local rank
    // One line per distinct mapping, guarded by the hosts it is for (`case $(hostname -s) in gpu-a02)
    // case $LOCAL_RANK in ...`); a capture of no known host (captures without logs) gets the bare case.
    QStringList hcaScripts;
    std::vector<CaptureBinding> captures; // per TopologySet::hosts entry (placeRanks only)
    std::vector<CpuBinding> cpu; // per host, per local rank (placeCapturesOnly only)
    QStringList cpuScripts; // `srun --cpu-bind=...` and numactl lines, per host
};

PlacementResult placeRanks(const std::vector<RankInfo>& ranks, const TopologySet& topology);

// Ties each capture to a host of the logs (CaptureBinding). Pure: placeRanks() calls it.
std::vector<CaptureBinding> bindCaptures(const TopologySet& topology, const std::vector<RankInfo>& ranks);
// The same, applied: a capture tied to a host by content takes that host's name, and captures tied to one
// host merge. Done by analyze() before it places the ranks, so that what is drawn names the hosts of the
// logs. A capture tied to no host keeps its name (or none) and stays apart.
void attributeCaptures(TopologySet& topology, const std::vector<RankInfo>& ranks);

// Captures without logs: what the topology implies on its own. Local rank n is GPU n (index order).
// The closest RDMA NIC of each GPU (NCCL_IB_HCA), each rank's NUMA node or CPUs (srun --cpu-bind,
// numactl), and findings: a GPU whose nearest RDMA NIC is on another NUMA node, no RDMA NIC at all,
// GPU pairs without P2P, and what the capture lacks.
PlacementResult placeCapturesOnly(const TopologySet& topology);

// Each GPU's closest NIC (ties spread over the NICs); local rank = the GPU its ranks use, else the
// GPU index. Exposed for hosts with a capture but no logs.
std::vector<HcaChoice> closestNicPerLocalRank(
    const HostTopology& host, const std::vector<RankPlacement>& placed);
QString hcaCaseScript(const std::vector<HcaChoice>& choices); // for one host: `case $LOCAL_RANK in ... esac`
// Every host's script, hosts with the same mapping on one line: `case $(hostname -s) in a|b) <script>;;
// esac`.
QStringList hcaScriptsByHost(const std::vector<HcaChoice>& choices);

} // namespace rankscope
