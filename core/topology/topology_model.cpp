// SPDX-License-Identifier: MIT
#include "topology_model.h"

#include <QFileInfo>
#include <QRegularExpression>

namespace rankscope {

QString pathClassName(PathClass c, int linkCount)
{
    switch (c) {
    case PathClass::Unknown:
        return {};
    case PathClass::Self:
        return QStringLiteral("X");
    case PathClass::NVLink:
        return linkCount > 0 ? QStringLiteral("NV%1").arg(linkCount) : QStringLiteral("NV");
    case PathClass::XGMI:
        return QStringLiteral("XGMI");
    case PathClass::PIX:
        return QStringLiteral("PIX");
    case PathClass::PXB:
        return QStringLiteral("PXB");
    case PathClass::PHB:
        return QStringLiteral("PHB");
    case PathClass::NODE:
        return QStringLiteral("NODE");
    case PathClass::SYS:
        return QStringLiteral("SYS");
    }
    return {};
}

PathClass parsePathClass(QStringView cell, int* linkCount)
{
    const QString c = cell.trimmed().toString().toUpper();
    if (linkCount)
        *linkCount = 0;
    if (c == u"X")
        return PathClass::Self;
    if (c.startsWith(u"NV")) {
        bool ok = false;
        const int n = c.mid(2).toInt(&ok);
        if (!ok || n <= 0)
            return PathClass::Unknown;
        if (linkCount)
            *linkCount = n;
        return PathClass::NVLink;
    }
    if (c == u"XGMI")
        return PathClass::XGMI;
    if (c == u"PIX")
        return PathClass::PIX;
    if (c == u"PXB")
        return PathClass::PXB;
    if (c == u"PHB")
        return PathClass::PHB;
    if (c == u"NODE")
        return PathClass::NODE;
    if (c == u"SYS" || c == u"SOC") // SOC: older drivers' name for SYS
        return PathClass::SYS;
    return PathClass::Unknown;
}

int pathRank(PathClass c)
{
    return c == PathClass::Unknown ? 100 : static_cast<int>(c);
}

QString TopoNic::displayName() const
{
    if (!name.isEmpty())
        return name;
    if (!busId.isEmpty())
        return QStringLiteral("NIC@") + busId;
    return QStringLiteral("NIC%1").arg(legendIndex);
}

int HostTopology::gpuByBusId(const QString& busId) const
{
    const QString want = normaliseBusId(busId);
    for (size_t i = 0; !want.isEmpty() && i < gpus.size(); ++i)
        if (gpus[i].busId == want)
            return static_cast<int>(i);
    return -1;
}

int HostTopology::gpuByIndex(int index) const
{
    for (size_t i = 0; index >= 0 && i < gpus.size(); ++i)
        if (gpus[i].index == index)
            return static_cast<int>(i);
    return -1;
}

int HostTopology::nicByName(const QString& name) const
{
    for (size_t i = 0; !name.isEmpty() && i < nics.size(); ++i)
        if (nics[i].name == name)
            return static_cast<int>(i);
    return -1;
}

int HostTopology::nicByBusId(const QString& busId) const
{
    const QString want = normaliseBusId(busId);
    for (size_t i = 0; !want.isEmpty() && i < nics.size(); ++i)
        if (nics[i].busId == want)
            return static_cast<int>(i);
    return -1;
}

const GpuLink* HostTopology::gpuLink(int a, int b) const
{
    if (a > b)
        std::swap(a, b);
    for (const GpuLink& l : gpuLinks)
        if (l.a == a && l.b == b)
            return &l;
    return nullptr;
}

const GpuNicLink* HostTopology::nicLink(int gpu, int nic) const
{
    for (const GpuNicLink& l : nicLinks)
        if (l.gpu == gpu && l.nic == nic)
            return &l;
    return nullptr;
}

GpuLink& HostTopology::setGpuLink(int a, int b)
{
    if (a > b)
        std::swap(a, b);
    for (GpuLink& l : gpuLinks)
        if (l.a == a && l.b == b)
            return l;
    GpuLink l;
    l.a = a;
    l.b = b;
    gpuLinks.push_back(l);
    return gpuLinks.back();
}

GpuNicLink& HostTopology::setNicLink(int gpu, int nic)
{
    for (GpuNicLink& l : nicLinks)
        if (l.gpu == gpu && l.nic == nic)
            return l;
    GpuNicLink l;
    l.gpu = gpu;
    l.nic = nic;
    nicLinks.push_back(l);
    return nicLinks.back();
}

QString hostFromFileName(const QString& path)
{
    // "<kind>.<host>[.<domain>...].<ext>": the host is the second dot-separated part, when it can be a
    // host name (letters, digits and '-', at least one letter): "hwloc-xml-2.14_nvidiaDGX2.xml" names none.
    const QStringList parts = QFileInfo(path).fileName().split(u'.');
    if (parts.size() < 3)
        return {};
    static const QRegularExpression hostLabel(
        QStringLiteral("^(?=[A-Za-z0-9-]*[A-Za-z])[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$"));
    if (!hostLabel.match(parts.at(1)).hasMatch())
        return {};
    return shortHostName(parts.at(1));
}

bool isManagementGraphics(unsigned vendor, unsigned device)
{
    switch (vendor) {
    case 0x1a03: // ASPEED (AST2xxx BMC graphics)
    case 0x102b: // Matrox (G200eR2, G200eW3 on server boards)
    case 0x18ca: // XGI (older BMCs)
    case 0x126f: // Silicon Motion
    case 0x1013: // Cirrus Logic (emulated by hypervisors)
    case 0x1234: // Bochs / QEMU standard VGA
    case 0x1b36: // Red Hat QXL
    case 0x1af4: // virtio-gpu
    case 0x15ad: // VMware SVGA
    case 0x1414: // Hyper-V synthetic video
        return true;
    case 0x1002: // ATI ES1000 / RN50: the Radeon core of many server BMCs
        return device == 0x515e || device == 0x5159;
    case 0x19e5: // Huawei iBMC graphics
        return device == 0x1711;
    default:
        return false;
    }
}

bool isGpuFunction(unsigned classId, unsigned vendor, unsigned device, bool hasComputeDevice)
{
    const unsigned base = classId >> 8;
    if (isManagementGraphics(vendor, device) || !(base == 0x03 || classId == 0x1200))
        return false;
    if (hasComputeDevice)
        return true;
    switch (vendor) {
    case 0x10de: // NVIDIA: every display or 3D function is a CUDA device
        return true;
    case 0x1002: // AMD Instinct: display controller (0380) or processing accelerator (1200); a Radeon
    case 0x8086: // (0300) needs a compute device. Intel Data Center GPU Max / Flex: 0380.
    case 0x1d94: // Hygon DCU
        return classId == 0x0380 || classId == 0x1200;
    default:
        return false;
    }
}

bool isRdmaDeviceName(const QString& name)
{
    static const QRegularExpression re(QStringLiteral("^(?:mlx[45]_\\w+|ibp\\w+|rocep\\w+|iwp\\w+|rdmap\\w+|"
                                                      "irdma\\w*|i40iw\\d+|bnxt_re\\w*|hfi1_\\d+|qib\\d+"
                                                      "|efa_?\\d+|qedr\\d+|erdma_?\\d+|ionic_?\\d+|rxe\\w*|"
                                                      "siw\\w*|mana_?\\d+|cxgb4_\\d+|hns_?\\d+|ocrdma\\d+"
                                                      "|vmw_pvrdma\\d+|usnic_\\d+)$"));
    return re.match(name).hasMatch();
}

} // namespace rankscope
