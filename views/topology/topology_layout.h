// SPDX-License-Identifier: MIT
// The topology graph as boxes and edges, lstopo style: one box per NUMA node holding PCIe switch boxes
// holding GPU and NIC boxes, plus the GPU–NIC paths to draw and the GPU–GPU links for a matrix inset.
// Built from one host's capture and the rank placement; geometry is in logical pixels, measured with
// the font the painter will use, so the screen and the SVG/PNG exports share one layout.
#pragma once

#include "topology_placement.h"

#include <QFont>
#include <QPolygonF>
#include <QRectF>
#include <QString>
#include <QStringList>
#include <utility>
#include <vector>

namespace rankscope {

struct TopologyDeviceBox
{
    bool gpu = true;
    int index = -1; // into HostTopology::gpus or ::nics
    QString name; // "GPU3", "mlx5_0": the edge endpoints' names
    QString title; // "GPU3 · 0000:99:00.0 · H100 PCIe"
    QString subtitle; // "rank 7", "ranks 4, 12", "not in NCCL's NIC list"
    std::vector<int> ranks;
    bool initiating = false; // the initiating rank's GPU
    bool warn = false; // subtitle is a warning (a NIC NCCL did not list)
    QRectF rect;
};

// A PCIe switch (from the tree, or inferred from PIX/PXB pairs), or a loose device with no switch.
struct TopologyGroupBox
{
    QString label; // "PCIe switch 0000:16:00.0", "" when unframed
    bool framed = false;
    std::vector<int> devices; // into TopologyScene::devices, GPUs first
    int lanes = 0; // bracket lanes reserved right of its devices, for edges between stacked boxes
    QRectF rect;
};

struct TopologyNumaBox
{
    QString label; // "NUMA 0 · CPUs 0-31,64-95", "unplaced (NUMA unknown)"
    bool unplaced = false;
    std::vector<int> groups; // into TopologyScene::groups
    QRectF rect;
};

struct TopologyEdge
{
    enum Kind : quint8
    {
        GpuNic,
        GpuGpu
    };
    Kind kind = GpuNic;
    int fromBox = -1, toBox = -1; // into TopologyScene::devices
    QString from, to; // "GPU3", "mlx5_0"
    PathClass pathClass = PathClass::Unknown;
    QString label; // "SYS", "NV18"
    QString text; // the drawn pill: "SYS", plus "· rank 7" when not every rank on the GPU used it
    bool isSys = false, dashed = false, highlighted = false;
    bool used = false; // a rank's NCCL channels went over it
    bool derived = false; // computed from the tree, not printed by the capture
    std::vector<int> ranks;
    QPolygonF path; // GpuNic only
    QPointF labelPos;
};

struct TopologyScene
{
    QString host;
    QString title; // "gpu-a02 — nvidia-smi topo -m + NCCL topology XML"
    int initiatingRank = -1;
    std::vector<TopologyDeviceBox> devices;
    std::vector<TopologyGroupBox> groups;
    std::vector<TopologyNumaBox> numas;
    std::vector<TopologyEdge> edges; // GPU–NIC (drawn as lines) then GPU–GPU (drawn in the inset)
    QStringList findings; // for the host: placement findings, notes, what could not be drawn
    QString gpuGpuSummary; // "GPU↔GPU: NV18 between all 8 GPUs", when a matrix is not needed
    std::vector<int> matrixGpus; // GPU indexes (into HostTopology::gpus) of the inset, in order
    QRectF titleRect, legendRect, matrixRect;
    QSizeF size;
    int deviceBox(bool gpu, int index) const; // into devices, -1 when absent
    bool showsInitiating() const; // the initiating rank's GPU or NIC path is on this host
};

// The legend's rows: each GPU–NIC class and what it means, closest first.
std::vector<std::pair<PathClass, QString>> topologyLegendRows();

// Everything but geometry. `hostIndex` is the host's index in the TopologySet the placement refers to.
TopologyScene buildTopologyScene(const HostTopology& host, int hostIndex, const PlacementResult* placement,
    int initiatingRank, bool allNicPaths);
// Sizes and positions every box, edge and inset for `font` (pixel-sized, so any paint device agrees).
void layoutTopologyScene(TopologyScene& scene, const QFont& font);

} // namespace rankscope
