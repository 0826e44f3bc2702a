// SPDX-License-Identifier: MIT
// Deriving nvidia-smi's path classes from a PCI tree (hwloc XML, NCCL XML), by the legend's rules:
// PIX = through at most one PCIe switch; PXB = several switches, no host bridge; PHB = through a host
// bridge; NODE = between host bridges of one NUMA node; SYS = across NUMA nodes.
#include "topology_loader.h"

namespace rankscope {

namespace {

std::vector<int> chainToRoot(const HostTopology& t, int node)
{
    std::vector<int> chain;
    // Bounded walk: a malformed parent cycle cannot loop forever.
    for (int n = node; n >= 0 && chain.size() <= t.tree.size(); n = t.tree[static_cast<size_t>(n)].parent)
        chain.push_back(n);
    return chain;
}

int numaOf(const HostTopology& t, const std::vector<int>& chain)
{
    for (int n : chain)
        if (t.tree[static_cast<size_t>(n)].numa >= 0)
            return t.tree[static_cast<size_t>(n)].numa;
    return -1;
}

} // namespace

PathClass derivePathClass(const HostTopology& t, int nodeA, int nodeB)
{
    const auto size = static_cast<int>(t.tree.size());
    if (nodeA < 0 || nodeB < 0 || nodeA >= size || nodeB >= size)
        return PathClass::Unknown;
    if (nodeA == nodeB)
        return PathClass::PIX; // two ports of one PCI function
    const std::vector<int> ca = chainToRoot(t, nodeA), cb = chainToRoot(t, nodeB);
    const int numaA = numaOf(t, ca), numaB = numaOf(t, cb);
    if (numaA >= 0 && numaB >= 0 && numaA != numaB)
        return PathClass::SYS;

    size_t ia = 0, ib = 0;
    int lca = -1;
    for (ia = 0; ia < ca.size() && lca < 0; ++ia)
        for (ib = 0; ib < cb.size(); ++ib)
            if (ca[ia] == cb[ib]) {
                lca = ca[ia];
                break;
            }
    if (lca < 0)
        return PathClass::SYS; // separate trees: nothing in common below the machine
    --ia; // ia, ib: positions of the LCA in each chain

    const TopoNode& top = t.tree[static_cast<size_t>(lca)];
    switch (top.kind) {
    case TopoNodeKind::Machine:
        return PathClass::SYS;
    case TopoNodeKind::Numa:
        // NCCL's <cpu> hides host bridges; NCCL itself calls this PHB, so do the same.
        return top.hostBridgesKnown ? PathClass::NODE : PathClass::PHB;
    case TopoNodeKind::HostBridge:
        return PathClass::PHB;
    case TopoNodeKind::Switch: {
        int switches = 1; // the common one
        for (size_t k = 1; k < ia; ++k)
            switches += t.tree[static_cast<size_t>(ca[k])].kind == TopoNodeKind::Switch ? 1 : 0;
        for (size_t k = 1; k < ib; ++k)
            switches += t.tree[static_cast<size_t>(cb[k])].kind == TopoNodeKind::Switch ? 1 : 0;
        return switches == 1 ? PathClass::PIX : PathClass::PXB;
    }
    case TopoNodeKind::Gpu:
    case TopoNodeKind::Nic:
    case TopoNodeKind::Other:
        return PathClass::PIX; // one device below the other
    }
    return PathClass::Unknown;
}

void derivePathClasses(HostTopology& t)
{
    for (size_t a = 0; a < t.gpus.size(); ++a)
        for (size_t b = a + 1; b < t.gpus.size(); ++b) {
            const PathClass pc = derivePathClass(t, t.gpus[a].node, t.gpus[b].node);
            const GpuLink* have = t.gpuLink(static_cast<int>(a), static_cast<int>(b));
            if (pc == PathClass::Unknown || (have && have->path != PathClass::Unknown))
                continue;
            GpuLink& l = t.setGpuLink(static_cast<int>(a), static_cast<int>(b));
            l.path = pc;
            l.derived = true;
        }
    for (size_t g = 0; g < t.gpus.size(); ++g)
        for (size_t n = 0; n < t.nics.size(); ++n) {
            const PathClass pc = derivePathClass(t, t.gpus[g].node, t.nics[n].node);
            const GpuNicLink* have = t.nicLink(static_cast<int>(g), static_cast<int>(n));
            if (pc == PathClass::Unknown || (have && have->path != PathClass::Unknown))
                continue;
            GpuNicLink& l = t.setNicLink(static_cast<int>(g), static_cast<int>(n));
            l.path = pc;
            l.derived = true;
        }
}

} // namespace rankscope
