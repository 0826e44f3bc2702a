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
        int gpuIndex = -1, nvml = -1, cuda = -1, rsmi = -1;
        QString nicName, netName, gpuModel;
        int port = -1;
        for (hwloc_obj_t c = o->io_first_child; c; c = c->next_sibling) {
            if (c->type != HWLOC_OBJ_OS_DEVICE)
                continue;
            nvml = std::max(nvml, trailingIndex(c->name, "nvml"));
            cuda = std::max(cuda, trailingIndex(c->name, "cuda"));
            rsmi = std::max(rsmi, trailingIndex(c->name, "rsmi"));
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
        gpuIndex = nvml >= 0 ? nvml : cuda >= 0 ? cuda : rsmi;
        const bool gpuVendor = vendor == 0x10de || vendor == 0x1002;
        const bool isGpu = gpuIndex >= 0 || ((cls >> 8) == 0x03 && gpuVendor);
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
            const QString cpus = cpusetList(o->cpuset);
            for (hwloc_obj_t c = o->io_first_child; c; c = c->next_sibling)
                io(c, here, numa, cpus);
        }
        for (hwloc_obj_t c = o->first_child; c; c = c->next_sibling)
            cpuSide(c);
    }
};

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
    if (const char* h = hwloc_obj_get_info_by_name(root, "HostName"))
        t.host = shortHostName(QString::fromUtf8(h));
    t.tree.push_back(TopoNode { TopoNodeKind::Machine, -1, {}, QStringLiteral("Machine"), -1, true });
    for (hwloc_obj_t n = nullptr; (n = hwloc_get_next_obj_by_type(raw, HWLOC_OBJ_NUMANODE, n));)
        t.numaNodes.push_back(NumaNode { static_cast<int>(n->os_index), cpusetList(n->cpuset) });
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
