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
        NicMissing
    };
    Kind kind = SysPath;
    QString host;
    int rank = -1; // -1 for host-level findings (NicMissing)
    QString gpu; // "GPU3 0000:99:00.0"
    QString nic; // "mlx5_0"
    QString pathClass; // "SYS"
    QString detail; // one sentence for the report
};
QString findingKindName(TopologyFinding::Kind k); // "sys-path", "affinity-off-numa", "nic-missing"

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

struct PlacementResult
{
    std::vector<RankPlacement> ranks;
    std::vector<TopologyFinding> findings;
    std::vector<HcaChoice> hca; // per host, per local rank
    QStringList hcaScripts; // one bash `case $LOCAL_RANK` snippet per distinct host mapping
};

PlacementResult placeRanks(const std::vector<RankInfo>& ranks, const TopologySet& topology);

// Each GPU's closest NIC (ties spread over the NICs); local rank = the GPU its ranks use, else the
// GPU index. Exposed for hosts with a capture but no logs.
std::vector<HcaChoice> closestNicPerLocalRank(
    const HostTopology& host, const std::vector<RankPlacement>& placed);
QString hcaCaseScript(const std::vector<HcaChoice>& choices); // for one host

} // namespace rankscope
