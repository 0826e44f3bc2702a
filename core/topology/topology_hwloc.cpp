// SPDX-License-Identifier: MIT
// hwloc XML through the hwloc C API: I/O objects kept (KEEP_ALL), libxml2 disabled so that entity
// declarations are never expanded, and hwloc's stderr messages captured into the error.
#include "topology_hwloc_check.h"
#include "topology_loader.h"

#include <QMutex>
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <hwloc.h>
#include <hwloc/distances.h>
#include <hwloc/export.h>
#include <memory>
#include <type_traits>
#include <unistd.h>

namespace rankscope {

namespace {

// hwloc stores the number its XML gives for these enum fields unchecked: bridge_type="2-1" makes an
// upstream type of 2, which no enumerator has. They are read as numbers, never as the enum, so a hostile
// capture cannot make loading them undefined (found by fuzz_topology_hwloc under UBSan).
template <typename Enum> unsigned numberIn(const Enum& field)
{
    std::underlying_type_t<Enum> raw;
    static_assert(sizeof raw == sizeof field);
    std::memcpy(&raw, &field, sizeof raw);
    return static_cast<unsigned>(raw);
}

template <typename Enum> bool holds(const Enum& field, Enum value)
{
    return numberIn(field) == static_cast<unsigned>(value);
}

struct TopologyDeleter
{
    void operator()(hwloc_topology_t t) const { hwloc_topology_destroy(t); }
};
using TopologyPtr = std::unique_ptr<std::remove_pointer_t<hwloc_topology_t>, TopologyDeleter>;

struct FileDeleter
{
    void operator()(FILE* f) const { std::fclose(f); }
};

// Runs `fn` with fd 2 redirected to a temporary file and returns what was written there. hwloc reports
// XML errors only on stderr. The mutex keeps two loads from swapping stderr under each other.
template <typename Fn> QString captureStderr(Fn fn)
{
    static QMutex mutex;
    QMutexLocker lock(&mutex);
    std::unique_ptr<FILE, FileDeleter> tmp(std::tmpfile());
    const int saved = tmp ? ::dup(2) : -1;
    if (saved < 0) {
        fn();
        return {};
    }
    std::fflush(stderr);
    ::dup2(::fileno(tmp.get()), 2);
    fn();
    std::fflush(stderr);
    ::dup2(saved, 2);
    ::close(saved);
    std::rewind(tmp.get());
    QByteArray text;
    char buf[4096];
    size_t n = 0;
    while ((n = std::fread(buf, 1, sizeof buf, tmp.get())) > 0 && text.size() < 65536)
        text.append(buf, static_cast<qsizetype>(n));
    return QString::fromLocal8Bit(text).trimmed();
}

QString cpusetList(hwloc_const_bitmap_t set)
{
    if (!set)
        return {};
    char* s = nullptr;
    if (hwloc_bitmap_list_asprintf(&s, set) < 0 || !s)
        return {};
    QString out = QString::fromLatin1(s);
    std::free(s);
    return out;
}

QString busIdOf(hwloc_obj_t o)
{
    const auto& p = o->attr->pcidev;
    return QStringLiteral("%1:%2:%3.%4")
        .arg(p.domain, 4, 16, QLatin1Char('0'))
        .arg(p.bus, 2, 16, QLatin1Char('0'))
        .arg(p.dev, 2, 16, QLatin1Char('0'))
        .arg(p.func);
}

int trailingIndex(const char* name, const char* prefix)
{
    const QString n = QString::fromLatin1(name ? name : "");
    const QString p = QString::fromLatin1(prefix);
    if (!n.startsWith(p))
        return -1;
    bool ok = false;
    const int v = n.mid(p.size()).toInt(&ok);
    return ok ? v : -1;
}

struct Walker
{
    HostTopology& t;
    QString source;

    int addNode(TopoNodeKind kind, int parent, const QString& busId, const QString& label, int numa)
    {
        t.tree.push_back(TopoNode { kind, parent, busId, label, numa, true });
        return static_cast<int>(t.tree.size()) - 1;
    }

    void device(hwloc_obj_t o, int parent, int numa, const QString& cpus)
    {
        const unsigned cls = o->attr->pcidev.class_id;
        const unsigned short vendor = o->attr->pcidev.vendor_id;
        int gpuIndex = -1, nvml = -1, cuda = -1, rsmi = -1, ze = -1;
        bool compute = false; // a CUDA, NVML, RSMI, OpenCL or Level Zero OS device below the function
        QString nicName, netName, gpuModel;
        int port = -1;
        for (hwloc_obj_t c = o->io_first_child; c; c = c->next_sibling) {
            if (c->type != HWLOC_OBJ_OS_DEVICE)
                continue;
            nvml = std::max(nvml, trailingIndex(c->name, "nvml"));
            cuda = std::max(cuda, trailingIndex(c->name, "cuda"));
            rsmi = std::max(rsmi, trailingIndex(c->name, "rsmi"));
            ze = std::max(ze, trailingIndex(c->name, "ze"));
            const QString osName = QString::fromLatin1(c->name ? c->name : "");
            compute = compute || nvml >= 0 || cuda >= 0 || rsmi >= 0 || ze >= 0
                || osName.startsWith(QLatin1String("opencl"));
            if (const char* m = hwloc_obj_get_info_by_name(c, "GPUModel"))
                gpuModel = QString::fromUtf8(m);
            if (holds(c->attr->osdev.type, HWLOC_OBJ_OSDEV_OPENFABRICS)) {
                nicName = QString::fromLatin1(c->name);
                if (const char* st = hwloc_obj_get_info_by_name(c, "Port1State")) {
                    port = 1;
                    if (QByteArray(st) != "4") // 4 = ACTIVE
                        t.notes << QStringLiteral("%1: %2 port 1 state %3 (not ACTIVE)")
                                       .arg(source, nicName, QString::fromLatin1(st));
                }
            } else if (holds(c->attr->osdev.type, HWLOC_OBJ_OSDEV_NETWORK) && netName.isEmpty()) {
                netName = QString::fromLatin1(c->name);
            }
        }
        gpuIndex = nvml >= 0 ? nvml : cuda >= 0 ? cuda : rsmi >= 0 ? rsmi : ze;
        const bool isGpu = isGpuFunction(cls, vendor, o->attr->pcidev.device_id, compute);
        if (!isGpu)
            gpuIndex = -1;
        if (!isGpu && (cls >> 8) == 0x03 && isManagementGraphics(vendor, o->attr->pcidev.device_id))
            t.notes << QStringLiteral("%1: %2 (%3:%4) is server-management graphics, not a GPU")
                           .arg(source, busIdOf(o))
                           .arg(vendor, 4, 16, QLatin1Char('0'))
                           .arg(o->attr->pcidev.device_id, 4, 16, QLatin1Char('0'));
        const bool isNic = !isGpu && ((cls >> 8) == 0x02 || !nicName.isEmpty());
        const QString bus = busIdOf(o);
        const int node = addNode(isGpu ? TopoNodeKind::Gpu
                : isNic                ? TopoNodeKind::Nic
                                       : TopoNodeKind::Other,
            parent, bus, bus, numa);
        if (isGpu) {
            TopoGpu g;
            g.index = gpuIndex;
            g.busId = bus;
            g.name = gpuModel;
            g.numa = numa;
            g.cpuAffinity = cpus;
            g.node = node;
            t.gpus.push_back(g);
        } else if (isNic) {
            TopoNic n;
            n.name = nicName.isEmpty() ? netName : nicName;
            n.rdma = !nicName.isEmpty();
            n.busId = bus;
            n.port = port;
            n.numa = numa;
            n.node = node;
            t.nics.push_back(n);
        }
    }

    // PCI bridges: hwloc keeps every port; keep the even depths (switch upstream ports) and fold the
    // odd ones (root ports, switch downstream ports) into their parent, as NCCL's XML does.
    void io(hwloc_obj_t o, int parent, int numa, const QString& cpus)
    {
        int here = parent;
        if (o->type == HWLOC_OBJ_BRIDGE) {
            if (holds(o->attr->bridge.upstream_type, HWLOC_OBJ_BRIDGE_HOST))
                here = addNode(TopoNodeKind::HostBridge, parent, {}, QStringLiteral("host bridge"), numa);
            else if (o->attr->bridge.depth >= 2 && o->attr->bridge.depth % 2 == 0)
                here = addNode(TopoNodeKind::Switch, parent, busIdOf(o), busIdOf(o), numa);
        } else if (o->type == HWLOC_OBJ_PCI_DEVICE) {
            device(o, parent, numa, cpus);
            return;
        }
        for (hwloc_obj_t c = o->io_first_child; c; c = c->next_sibling)
            io(c, here, numa, cpus);
    }

    void cpuSide(hwloc_obj_t o)
    {
        if (o->io_arity > 0) {
            const int numa =
                o->nodeset && hwloc_bitmap_weight(o->nodeset) == 1 ? hwloc_bitmap_first(o->nodeset) : -1;
            const QString label = QStringLiteral("%1 %2")
                                      .arg(QString::fromLatin1(hwloc_obj_type_string(o->type)))
                                      .arg(o->logical_index);
            const int here = addNode(TopoNodeKind::Numa, 0, {}, label, numa);
            const QString cpus = cpusetList(o->complete_cpuset ? o->complete_cpuset : o->cpuset);
            for (hwloc_obj_t c = o->io_first_child; c; c = c->next_sibling)
                io(c, here, numa, cpus);
        }
        for (hwloc_obj_t c = o->first_child; c; c = c->next_sibling)
            cpuSide(c);
    }
};

// The PCI function an object of a distance matrix stands for: the object itself, or an OS device's parent.
hwloc_obj_t pciFunctionOf(hwloc_obj_t o)
{
    while (o && o->type == HWLOC_OBJ_OS_DEVICE)
        o = o->parent;
    return o && o->type == HWLOC_OBJ_PCI_DEVICE ? o : nullptr;
}

// hwloc puts only GPUs, NVSwitches and CPU-side objects (POWER) in the NVLink matrix, and marks the
// switches with subtype NVSwitch; a switch whose config space hwloc could not read has class 0000
// (one of the DGX-2's twelve).
bool isNvSwitch(hwloc_obj_t o)
{
    if (!o || o->type != HWLOC_OBJ_PCI_DEVICE)
        return false;
    if (o->subtype && std::strcmp(o->subtype, "NVSwitch") == 0)
        return true;
    const unsigned cls = o->attr->pcidev.class_id;
    return (cls >> 8) == 0x06 && o->attr->pcidev.vendor_id == 0x10de;
}

struct DistancesDeleter
{
    hwloc_topology_t topo;
    void operator()(hwloc_distances_s* d) const { hwloc_distances_release(topo, d); }
};

// Every distance matrix of that name (hwloc keeps one per backend run).
std::vector<std::unique_ptr<hwloc_distances_s, DistancesDeleter>> distancesNamed(
    hwloc_topology_t topo, const char* name)
{
    std::vector<std::unique_ptr<hwloc_distances_s, DistancesDeleter>> out;
    unsigned nr = 0;
    if (hwloc_distances_get_by_name(topo, name, &nr, nullptr, 0) != 0 || nr == 0)
        return out;
    std::vector<hwloc_distances_s*> raw(nr, nullptr);
    if (hwloc_distances_get_by_name(topo, name, &nr, raw.data(), 0) != 0)
        return out;
    for (unsigned i = 0; i < nr && i < raw.size(); ++i)
        if (raw[i])
            out.emplace_back(raw[i], DistancesDeleter { topo });
    return out;
}

// NVLink from hwloc's NVLinkBandwidth matrix (the NVML backend): GPU rows and columns are nvml OS devices,
// the others NVSwitches (NVIDIA PCI bridges) or POWER CPUs. Each active link adds its unidirectional
// bandwidth, 20000 MB/s for NVLink 1 (P100) and 25000 MB/s for NVLink 2-4, so bandwidth / per-link =
// links. Through NVSwitches a pair gets the smaller of the two GPUs' links to the switch set, as NCCL
// and nvidia-smi count it (DGX-2: NV6; HGX H100: NV18). XGMI (the RSMI backend's XGMIBandwidth and
// XGMIHops) marks a pair XGMI. Pairs the matrices join override what the PCI tree would say.
void readGpuDistances(hwloc_topology_t topo, HostTopology& t, const QString& source)
{
    auto gpuSlot = [&](hwloc_obj_t o) {
        const hwloc_obj_t pci = pciFunctionOf(o);
        return pci ? t.gpuByBusId(busIdOf(pci)) : -1;
    };
    for (const auto& d : distancesNamed(topo, "NVLinkBandwidth")) {
        const unsigned n = d->nbobjs;
        std::vector<int> slot(n, -1);
        std::vector<bool> nvswitch(n, false);
        for (unsigned i = 0; i < n; ++i) {
            slot[i] = gpuSlot(d->objs[i]);
            nvswitch[i] = slot[i] < 0 && isNvSwitch(pciFunctionOf(d->objs[i]));
        }
        auto value = [&](unsigned i, unsigned j) { return d->values[static_cast<size_t>(i) * n + j]; };
        // Per-link bandwidth of each GPU: 20000 when its model is a P100 or its values are multiples of
        // 20000 but not of 25000.
        std::vector<hwloc_uint64_t> perLink(n, 25000);
        std::vector<hwloc_uint64_t> toSwitches(n, 0);
        for (unsigned i = 0; i < n; ++i) {
            if (slot[i] < 0)
                continue;
            bool all25 = true, all20 = true;
            for (unsigned j = 0; j < n; ++j) {
                const hwloc_uint64_t v = j == i ? 0 : value(i, j);
                all25 = all25 && v % 25000 == 0;
                all20 = all20 && v % 20000 == 0;
                if (nvswitch[j])
                    toSwitches[i] += v;
            }
            const QString model = t.gpus[static_cast<size_t>(slot[i])].name;
            if (model.contains(QLatin1String("P100")) || (!all25 && all20))
                perLink[i] = 20000;
        }
        int pairs = 0;
        for (unsigned i = 0; i < n; ++i)
            for (unsigned j = i + 1; j < n; ++j) {
                if (slot[i] < 0 || slot[j] < 0 || slot[i] == slot[j])
                    continue;
                const hwloc_uint64_t per = std::max(perLink[i], perLink[j]);
                hwloc_uint64_t bw = std::max(value(i, j), value(j, i));
                if (bw == 0)
                    bw = std::min(toSwitches[i], toSwitches[j]);
                if (bw == 0)
                    continue;
                GpuLink& l = t.setGpuLink(slot[i], slot[j]);
                l.path = PathClass::NVLink;
                l.linkCount = static_cast<int>(std::max<hwloc_uint64_t>(1, (bw + per / 2) / per));
                l.derived = false;
                ++pairs;
            }
        if (pairs > 0)
            t.notes << QStringLiteral(
                "%1: NVLink classes of %2 GPU pair(s) from hwloc's NVLinkBandwidth matrix")
                           .arg(source)
                           .arg(pairs);
    }
    for (const char* name : { "XGMIBandwidth", "XGMIHops" }) {
        const bool hops = std::strcmp(name, "XGMIHops") == 0;
        for (const auto& d : distancesNamed(topo, name)) {
            const unsigned n = d->nbobjs;
            for (unsigned i = 0; i < n; ++i)
                for (unsigned j = i + 1; j < n; ++j) {
                    const int a = gpuSlot(d->objs[i]), b = gpuSlot(d->objs[j]);
                    const hwloc_uint64_t v = std::max(
                        d->values[static_cast<size_t>(i) * n + j], d->values[static_cast<size_t>(j) * n + i]);
                    if (a < 0 || b < 0 || a == b || v == 0)
                        continue;
                    GpuLink& l = t.setGpuLink(a, b);
                    l.path = PathClass::XGMI;
                    l.derived = false;
                    if (hops)
                        l.hops = static_cast<int>(std::min<hwloc_uint64_t>(v, 1000));
                }
        }
    }
}

} // namespace

TopologyParse parseHwlocXml(const QByteArray& xml, const QString& sourceName)
{
    TopologyParse out;
    out.format = TopologyFormat::HwlocXml;
    HostTopology& t = out.topo;
    t.sources << sourceName;
    // The minimal parser never expands entities; refuse declarations up front as well.
    if (xml.contains("<!ENTITY")) {
        out.error =
            QStringLiteral("%1: entity declarations are not allowed in a topology XML").arg(sourceName);
        return out;
    }
    // Malformed XML and objects hwloc 2.9 would crash on are refused, with their line, before hwloc.
    if (const QString bad = hwlocXmlPrecheckError(xml); !bad.isEmpty()) {
        out.error = QStringLiteral("%1: hwloc could not load the XML: %2").arg(sourceName, bad);
        return out;
    }
    qputenv("HWLOC_LIBXMLIMPORT", "0");
    if (!qEnvironmentVariableIsSet("HWLOC_XML_VERBOSE"))
        qputenv("HWLOC_XML_VERBOSE", "1"); // without it hwloc fails silently
    if (qgetenv("HWLOC_LIBXMLIMPORT") != "0") {
        out.error = QStringLiteral("%1: could not force hwloc's minimal XML parser").arg(sourceName);
        return out;
    }

    hwloc_topology_t raw = nullptr;
    if (hwloc_topology_init(&raw) != 0) {
        out.error = QStringLiteral("%1: hwloc_topology_init failed").arg(sourceName);
        return out;
    }
    TopologyPtr topo(raw);
    hwloc_topology_set_io_types_filter(raw, HWLOC_TYPE_FILTER_KEEP_ALL);
    // A capture taken inside a job's cpuset (or exported with lstopo --disallowed) keeps the CPUs and
    // NUMA nodes outside it: they are still the machine's, and GPUs sit on them.
    hwloc_topology_set_flags(raw, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED);
    // hwloc wants the size including the terminating NUL. A deep copy guarantees that NUL: an implicitly
    // shared copy of a QByteArray::fromRawData() view has none, and hwloc read one byte past the end
    // (found by fuzz_topology_hwloc).
    const QByteArray buffer(xml.constData(), xml.size());
    int rc = -1;
    const QString messages = captureStderr([&] {
        rc = hwloc_topology_set_xmlbuffer(raw, buffer.constData(), static_cast<int>(buffer.size()) + 1);
        if (rc == 0)
            rc = hwloc_topology_load(raw);
    });
    if (rc != 0) {
        out.error = QStringLiteral("%1: hwloc could not load the XML%2")
                        .arg(sourceName,
                            messages.isEmpty() ? QString()
                                               : QStringLiteral(" (hwloc: ")
                                    + messages.simplified().left(2000) + QLatin1Char(')'));
        return out;
    }
    if (!messages.isEmpty())
        t.notes << QStringLiteral("%1: hwloc: %2").arg(sourceName, messages.left(2000));

    const hwloc_obj_t root = hwloc_get_root_obj(raw);
    if (const char* h = hwloc_obj_get_info_by_name(root, "HostName")) {
        t.host = shortHostName(QString::fromUtf8(h));
        t.hostFrom = t.host.isEmpty() ? HostTopology::HostFrom::None : HostTopology::HostFrom::Content;
    }
    t.tree.push_back(TopoNode { TopoNodeKind::Machine, -1, {}, QStringLiteral("Machine"), -1, true });
    // complete_cpuset: the CPUs of the machine, also those an older capture left out as disallowed.
    for (hwloc_obj_t n = nullptr; (n = hwloc_get_next_obj_by_type(raw, HWLOC_OBJ_NUMANODE, n));)
        t.numaNodes.push_back(NumaNode {
            static_cast<int>(n->os_index), cpusetList(n->complete_cpuset ? n->complete_cpuset : n->cpuset) });
    t.machineCpus = cpusetList(root->complete_cpuset ? root->complete_cpuset : root->cpuset);
    if (const hwloc_const_cpuset_t allowed = hwloc_topology_get_allowed_cpuset(raw);
        allowed && root->complete_cpuset && !hwloc_bitmap_isequal(allowed, root->complete_cpuset)) {
        t.allowedCpus = cpusetList(allowed);
        const char* cgroup = hwloc_obj_get_info_by_name(root, "LinuxCgroup");
        t.notes << QStringLiteral(
            "%1: captured inside a cpuset%2: the capturing process could use CPUs %3 of "
            "the machine's %4; the others are kept")
                       .arg(sourceName,
                           cgroup ? QStringLiteral(" (cgroup %1)").arg(QString::fromUtf8(cgroup)) : QString(),
                           t.allowedCpus.isEmpty() ? QStringLiteral("none") : t.allowedCpus, t.machineCpus);
    }
    Walker { t, sourceName }.cpuSide(root);

    // GPUs without an nvml/cuda/rsmi device get indexes after the known ones, in bus order.
    std::vector<size_t> unnamed;
    int next = 0;
    for (size_t i = 0; i < t.gpus.size(); ++i) {
        if (t.gpus[i].index < 0)
            unnamed.push_back(i);
        else
            next = std::max(next, t.gpus[i].index + 1);
    }
    std::sort(unnamed.begin(), unnamed.end(),
        [&](size_t a, size_t b) { return t.gpus[a].busId < t.gpus[b].busId; });
    for (size_t i : unnamed)
        t.gpus[i].index = next++;
    for (TopoGpu& g : t.gpus)
        if (g.name.isEmpty())
            g.name = QStringLiteral("GPU%1").arg(g.index);
    readGpuDistances(raw, t, sourceName);
    derivePathClasses(t);
    return out;
}

HwlocExport exportLocalHwlocXml()
{
    HwlocExport out;
    hwloc_topology_t raw = nullptr;
    if (hwloc_topology_init(&raw) != 0) {
        out.error = QStringLiteral("hwloc_topology_init failed");
        return out;
    }
    TopologyPtr topo(raw);
    hwloc_topology_set_io_types_filter(raw, HWLOC_TYPE_FILTER_KEEP_ALL);
    // Run inside a Slurm job's cpuset, the capture must still hold the CPUs and NUMA nodes outside it.
    hwloc_topology_set_flags(raw, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED);
    if (hwloc_topology_load(raw) != 0) {
        out.error = QStringLiteral("hwloc could not discover this machine's topology");
        return out;
    }
    char* buf = nullptr;
    int len = 0;
    if (hwloc_topology_export_xmlbuffer(raw, &buf, &len, 0) != 0 || !buf) {
        out.error = QStringLiteral("hwloc could not export the topology as XML");
        return out;
    }
    out.xml = QByteArray(buf, std::max(0, len - 1)); // len counts the terminating NUL
    hwloc_free_xmlbuffer(raw, buf);
    return out;
}

} // namespace rankscope
