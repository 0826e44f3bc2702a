// SPDX-License-Identifier: MIT
// NCCL topology XML (NCCL_TOPO_DUMP_FILE / NCCL_TOPO_FILE): <system><cpu><pci>...<gpu>/<nic><net>.
// Read with QXmlStreamReader, which never fetches external entities; a DOCTYPE is refused outright
// because NCCL never writes one, so internal entity bombs cannot expand.
#include "cpuset.h"
#include "topology_loader.h"

#include <QXmlStreamReader>
#include <algorithm>
#include <map>

namespace rankscope {

namespace {

constexpr int kMaxDepth = 64;

struct Link
{
    int gpuSlot;
    QString target;
    int count;
    bool nvswitch;
    bool xgmi;
};

int attrInt(const QXmlStreamAttributes& a, QLatin1String name, int fallback = -1)
{
    bool ok = false;
    const int v = a.value(name).toInt(&ok);
    return ok ? v : fallback;
}

// Class is "0x030200" (24-bit) or "0x0302"; returns the base-class byte and sub-class byte.
std::pair<int, int> pciClass(QStringView cls)
{
    bool ok = false;
    QStringView hex = cls.startsWith(u"0x") ? cls.mid(2) : cls;
    const uint v = hex.toUInt(&ok, 16);
    if (!ok || hex.isEmpty())
        return { -1, -1 };
    const uint full = hex.size() <= 4 ? v << 8 : v;
    return { static_cast<int>((full >> 16) & 0xff), static_cast<int>((full >> 8) & 0xff) };
}

} // namespace

TopologyParse parseNcclTopoXml(const QByteArray& xml, const QString& sourceName)
{
    TopologyParse out;
    out.format = TopologyFormat::NcclXml;
    HostTopology& t = out.topo;
    t.sources << sourceName;
    QXmlStreamReader r(xml);
    auto fail = [&](const QString& what) {
        out.error = QStringLiteral("%1:%2: %3").arg(sourceName).arg(r.lineNumber()).arg(what);
        return out;
    };

    t.tree.push_back(TopoNode { TopoNodeKind::Machine, -1, {}, QStringLiteral("system"), -1, true });
    std::vector<int> stack; // tree node of each open element (-1 for non-tree elements)
    std::vector<QString> names; // open element names
    std::vector<Link> links;
    std::vector<bool> bare; // per tree node: a pci whose kind is settled by its class at close
    std::vector<bool> rdmaClass; // per tree node: a <pci> of InfiniBand class (0x0207, 0x0c06)
    bool sawSystem = false;
    int numa = -1;
    QString cpuAffinity;

    auto parentNode = [&]() {
        for (auto it = stack.rbegin(); it != stack.rend(); ++it)
            if (*it >= 0)
                return *it;
        return 0;
    };

    while (!r.atEnd()) {
        const QXmlStreamReader::TokenType tok = r.readNext();
        if (tok == QXmlStreamReader::DTD)
            return fail(
                QStringLiteral("DOCTYPE/entity declarations are not allowed in an NCCL topology XML"));
        if (tok == QXmlStreamReader::EndElement) {
            const int node = stack.back();
            if (names.back() == u"pci" && node >= 0 && bare[static_cast<size_t>(node)]) {
                TopoNode& n = t.tree[static_cast<size_t>(node)];
                if (n.kind == TopoNodeKind::Nic) { // a NIC-class <pci> without <nic><net>: keep it nameless
                    TopoNic nic;
                    nic.busId = n.busId;
                    nic.numa = numa;
                    nic.node = node;
                    nic.rdma =
                        rdmaClass[static_cast<size_t>(node)]; // InfiniBand class; Ethernet says nothing
                    t.nics.push_back(nic);
                } else if (n.kind == TopoNodeKind::Gpu) {
                    TopoGpu g;
                    g.busId = n.busId;
                    g.numa = numa;
                    g.cpuAffinity = cpuAffinity;
                    g.node = node;
                    t.gpus.push_back(g);
                }
            }
            stack.pop_back();
            names.pop_back();
            continue;
        }
        if (tok != QXmlStreamReader::StartElement)
            continue;
        if (stack.size() >= kMaxDepth)
            return fail(QStringLiteral("elements nested deeper than %1").arg(kMaxDepth));
        const QString name = r.name().toString();
        const QXmlStreamAttributes a = r.attributes();
        int node = -1;
        if (names.empty()) {
            if (name != u"system")
                return fail(QStringLiteral("root element is <%1>, expected <system>").arg(name));
            sawSystem = true;
        } else if (name == u"cpu") {
            numa = attrInt(a, QLatin1String("numaid"));
            const CpuSetParse cs = parseCpuHexMask(a.value(QLatin1String("affinity")));
            cpuAffinity = cs.error.isEmpty() ? cs.set.toRangeList() : QString();
            if (!a.value(QLatin1String("affinity")).isEmpty() && !cs.error.isEmpty())
                t.notes << QStringLiteral("%1:%2: cpu affinity: %3")
                               .arg(sourceName)
                               .arg(r.lineNumber())
                               .arg(cs.error);
            t.numaNodes.push_back(NumaNode { numa, cpuAffinity });
            node = static_cast<int>(t.tree.size());
            t.tree.push_back(TopoNode { TopoNodeKind::Numa, parentNode(), {},
                QStringLiteral("cpu numaid=%1").arg(numa), numa, false });
        } else if (name == u"pci") {
            const QString busId = normaliseBusId(a.value(QLatin1String("busid")).toString());
            if (busId.isEmpty())
                return fail(QStringLiteral("<pci> has no readable busid (\"%1\")")
                                .arg(a.value(QLatin1String("busid")).toString()));
            const auto [base, sub] = pciClass(a.value(QLatin1String("class")));
            TopoNodeKind kind = TopoNodeKind::Other;
            bool okVendor = false, okDevice = false;
            const uint vendor = a.value(QLatin1String("vendor")).toUInt(&okVendor, 16);
            const uint device = a.value(QLatin1String("device")).toUInt(&okDevice, 16);
            const auto classId = static_cast<unsigned>(base << 8 | sub);
            if (base == 0x06 && sub == 0x04)
                kind = TopoNodeKind::Switch;
            else if (base == 0x03 || classId == 0x1200) {
                // A bare <pci> of a display class: a GPU when it is a compute part (or, with no vendor
                // given, as NCCL lists only GPUs and NICs); never server-management graphics.
                if (!okVendor ? base == 0x03 : isGpuFunction(classId, vendor, okDevice ? device : 0, false))
                    kind = TopoNodeKind::Gpu;
            } else if (base == 0x02 || (base == 0x0c && sub == 0x06))
                kind = TopoNodeKind::Nic;
            node = static_cast<int>(t.tree.size());
            t.tree.push_back(TopoNode { kind, parentNode(), busId, busId, numa, true });
            rdmaClass.resize(t.tree.size(), false);
            rdmaClass[static_cast<size_t>(node)] =
                (base == 0x02 && sub == 0x07) || (base == 0x0c && sub == 0x06);
        } else if (name == u"gpu") {
            const int pci = parentNode();
            TopoGpu g;
            g.busId = t.tree[static_cast<size_t>(pci)].busId;
            g.index = attrInt(a, QLatin1String("dev"));
            g.name = QStringLiteral("GPU%1").arg(g.index);
            g.ncclRank = attrInt(a, QLatin1String("rank"));
            g.numa = numa;
            g.cpuAffinity = cpuAffinity;
            g.node = pci;
            t.tree[static_cast<size_t>(pci)].kind = TopoNodeKind::Gpu;
            t.gpus.push_back(g);
        } else if (name == u"net") {
            const int pci = parentNode();
            TopoNic nic;
            nic.name = a.value(QLatin1String("name")).toString();
            nic.busId = t.tree[static_cast<size_t>(pci)].busId;
            nic.port = attrInt(a, QLatin1String("port"));
            nic.ncclDev = attrInt(a, QLatin1String("dev"));
            nic.numa = numa;
            nic.node = pci;
            // RDMA only on evidence: an RDMA device name, GPUDirect RDMA, or an InfiniBand <pci>. NCCL's
            // socket transport writes its interfaces here too (<net name="eth0" gdr="0">).
            rdmaClass.resize(t.tree.size(), false);
            nic.rdma = isRdmaDeviceName(nic.name) || attrInt(a, QLatin1String("gdr"), 0) == 1
                || rdmaClass[static_cast<size_t>(pci)];
            if (!nic.rdma)
                t.notes << QStringLiteral("%1:%2: %3 is a socket NIC (no RDMA device, gdr=\"%4\"): not an "
                                          "NCCL_IB_HCA device")
                               .arg(sourceName)
                               .arg(r.lineNumber())
                               .arg(nic.name.isEmpty() ? QStringLiteral("<net>") : nic.name,
                                   a.value(QLatin1String("gdr")).toString());
            if (t.tree[static_cast<size_t>(pci)].kind != TopoNodeKind::Numa)
                t.tree[static_cast<size_t>(pci)].kind = TopoNodeKind::Nic;
            t.nics.push_back(nic);
        } else if (name == u"nvlink" || name == u"xgmi") {
            if (t.gpus.empty() || names.back() != u"gpu")
                return fail(QStringLiteral("<%1> outside a <gpu>").arg(name));
            const QString tclass = a.value(QLatin1String("tclass")).toString();
            links.push_back(Link { static_cast<int>(t.gpus.size()) - 1,
                normaliseBusId(a.value(QLatin1String("target")).toString()),
                attrInt(a, QLatin1String("count"), 1), pciClass(tclass).first == 0x06, name == u"xgmi" });
        }
        stack.push_back(node);
        names.push_back(name);
        bare.resize(t.tree.size(), false);
        if (name == u"pci")
            bare[static_cast<size_t>(node)] = true;
        if ((name == u"gpu" || name == u"nic") && stack.size() >= 2) // the <pci> above is described, not bare
            bare[static_cast<size_t>(parentNode())] = false;
    }
    if (r.hasError())
        return fail(r.errorString());
    if (!sawSystem)
        return fail(QStringLiteral("no <system> element"));

    // Bare GPUs have no dev index: number them in PCI bus order, as nvidia-smi does.
    std::vector<QString> bareBus;
    for (const TopoGpu& g : t.gpus)
        if (g.index < 0)
            bareBus.push_back(g.busId);
    std::sort(bareBus.begin(), bareBus.end());
    for (TopoGpu& g : t.gpus)
        if (g.index < 0) {
            g.index = static_cast<int>(std::find(bareBus.begin(), bareBus.end(), g.busId) - bareBus.begin());
            g.name = QStringLiteral("GPU%1").arg(g.index);
        }

    // NVLink/XGMI: direct GPU targets, or NVSwitches. NCCL merges all NVSwitches into one node, and each
    // GPU's links to it are the sum over the switches (an HGX H100 GPU: 5+5+4+4 = 18 links to four
    // switches); a pair through the switches gets the smaller of the two sums, as nvidia-smi's NV18.
    std::map<int, int> switchLinks; // GPU slot -> links to the NVSwitch set
    for (const Link& l : links)
        if (l.nvswitch)
            switchLinks[l.gpuSlot] += std::max(0, l.count);
    for (auto a = switchLinks.begin(); a != switchLinks.end(); ++a)
        for (auto b = std::next(a); b != switchLinks.end(); ++b) {
            GpuLink& gl = t.setGpuLink(a->first, b->first);
            gl.path = PathClass::NVLink;
            gl.linkCount = std::max(gl.linkCount, std::min(a->second, b->second));
        }
    for (const Link& l : links) {
        if (l.nvswitch)
            continue;
        const int peer = t.gpuByBusId(l.target);
        if (peer < 0 || peer == l.gpuSlot)
            continue; // a CPU or unknown target: no GPU pair
        GpuLink& gl = t.setGpuLink(l.gpuSlot, peer);
        gl.path = l.xgmi ? PathClass::XGMI : PathClass::NVLink;
        gl.linkCount = std::max(gl.linkCount, l.count);
    }
    derivePathClasses(t);
    return out;
}

} // namespace rankscope
