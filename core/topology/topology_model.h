// SPDX-License-Identifier: MIT
// One GPU/NIC topology graph per host, whatever capture it came from (nvidia-smi, rocm-smi, NCCL XML,
// hwloc XML). Plain value types; parsers fill them, placement and reports only read them.
#pragma once

#include "text_util.h"

#include <QString>
#include <QStringList>
#include <QtGlobal>
#include <vector>

namespace rankscope {

// Link classes in increasing distance, as nvidia-smi and NCCL name them.
enum class PathClass : quint8
{
    Unknown,
    Self,
    NVLink,
    XGMI,
    PIX,
    PXB,
    PHB,
    NODE,
    SYS
};
QString pathClassName(PathClass c, int linkCount = 0); // "NV18", "XGMI", "PIX", ... "" for Unknown
PathClass parsePathClass(QStringView cell, int* linkCount = nullptr); // "NV18" -> NVLink, 18; "SOC" -> SYS
int pathRank(PathClass c); // smaller is closer; Unknown sorts last

enum class TopoNodeKind : quint8
{
    Machine,
    Numa,
    HostBridge,
    Switch,
    Gpu,
    Nic,
    Other
};

// A node of the PCI tree, reduced to what the path classes need: switches are kept once (their
// downstream ports dropped), as NCCL's own XML does.
struct TopoNode
{
    TopoNodeKind kind = TopoNodeKind::Other;
    int parent = -1; // index into HostTopology::tree
    QString busId; // normalised, when the node is a PCI function
    QString label; // "Package 0", "cpu numaid=1", "0000:16:00.0"
    int numa = -1;
    bool hostBridgesKnown =
        true; // false under an NCCL <cpu>: devices below it may sit on different host bridges
};

struct NumaNode
{
    int id = -1;
    QString cpus; // range list, "" when unknown
};

struct TopoGpu
{
    int index = -1; // nvidia-smi / NVML / rocm-smi index
    QString busId; // "0000:99:00.0", "" when the capture has none
    QString name; // "GPU3", or the product name when known
    int numa = -1;
    QString cpuAffinity; // range list
    int ncclRank = -1; // from NCCL XML <gpu rank>
    int node = -1; // index into tree, -1 when the capture has no tree
};

struct TopoNic
{
    QString name; // RDMA device name (mlx5_0, rdmap160s0); "" for a bare <pci> with no name
    QString busId;
    int port = -1;
    int ncclDev = -1; // NCCL net index from NCCL XML
    int legendIndex = -1; // n of nvidia-smi's NIC<n>
    int numa = -1;
    int node = -1;
    // True only when the capture says so: an OpenFabrics device (hwloc), an RDMA device name or class
    // (nvidia-smi, NCCL XML), GPUDirect RDMA (NCCL XML gdr="1"). A socket NIC (eth0) is never RDMA.
    bool rdma = true;
    QString displayName() const; // name, else "NIC@<busId>", else "NIC<n>"
};

struct GpuLink
{
    int a = -1, b = -1; // indexes into gpus, a < b
    PathClass path = PathClass::Unknown;
    int linkCount = 0; // NVLinks bonded (NV18), XGMI count
    int weight = -1; // rocm-smi
    int hops = -1; // rocm-smi
    QString p2p; // nvidia-smi topo -p2p overlay: OK, NS, CNS, GNS, TNS, U
    bool derived = false; // computed from the tree rather than printed by the capture
};

struct GpuNicLink
{
    int gpu = -1, nic = -1; // indexes into gpus / nics
    PathClass path = PathClass::Unknown;
    bool derived = false;
};

struct HostTopology
{
    QString host; // short host name, "" when unknown
    QStringList sources; // files merged into this graph
    QStringList formats; // one per source
    std::vector<NumaNode> numaNodes;
    std::vector<TopoNode> tree;
    std::vector<TopoGpu> gpus;
    std::vector<TopoNic> nics;
    std::vector<GpuLink> gpuLinks;
    std::vector<GpuNicLink> nicLinks;
    QStringList notes; // merge conflicts, dropped parts, derivation caveats
    // What the capture lacks: rows and cells a cut paste lost, unreadable values ("row GPU4: cells from
    // NIC7 on (the capture ends inside the row)"). Empty for a complete capture.
    QStringList missing;
    // hwloc: every CPU of the machine, and the ones the capturing process was allowed (a cgroup cpuset, as
    // inside a Slurm job); allowedCpus is "" when the process could use all of them.
    QString machineCpus;
    QString allowedCpus;
    // Where `host` came from: the capture's own content (hwloc HostName, a shell prompt), the file name,
    // or the caller (--host). Ties a capture to a host of the logs (topology_placement.cpp).
    enum class HostFrom : quint8
    {
        None,
        Content,
        FileName,
        Given
    };
    HostFrom hostFrom = HostFrom::None;

    int gpuByBusId(const QString& busId) const;
    int gpuByIndex(int index) const;
    int nicByName(const QString& name) const;
    int nicByBusId(const QString& busId) const;
    const GpuLink* gpuLink(int a, int b) const;
    const GpuNicLink* nicLink(int gpu, int nic) const;
    GpuLink& setGpuLink(int a, int b); // finds or appends
    GpuNicLink& setNicLink(int gpu, int nic); // finds or appends
};

// "nvidia-smi-topo.gpu-a02.txt" -> "gpu-a02"; "" when the name has no host part.
QString hostFromFileName(const QString& path);

// What a PCI function is, from its class, vendor and device ids (hwloc, NCCL XML). A GPU is a display,
// 3D or processing-accelerator function of a known compute part (any NVIDIA display function, AMD and
// Intel data-centre parts), or one that has a compute OS device (CUDA, NVML, RSMI, OpenCL, Level Zero):
// `hasComputeDevice`. Server-management graphics (ASPEED, Matrox, the ATI ES1000 1002:515e, virtual
// VGA) never is.
bool isManagementGraphics(unsigned vendor, unsigned device);
bool isGpuFunction(unsigned classId, unsigned vendor, unsigned device, bool hasComputeDevice);
// An RDMA (verbs) device name as NCCL_IB_HCA takes it: mlx5_0, mlx4_1, rdmap160s0, irdma0, bnxt_re0,
// hfi1_0, efa_0, qedr0, erdma_0, ionic_0, rxe0, siw0. A network interface (eth0, ens1f0, ib0, bond0) is not.
bool isRdmaDeviceName(const QString& name);

} // namespace rankscope
