// SPDX-License-Identifier: MIT
// Node evidence: what a node's own tools printed around an incident (the kernel log, ibstat and
// ibv_devinfo, nvidia-smi -q, ip addr / ifconfig), recognised by content and parsed into plain values
// that keep the line each fact came from. analysis/ joins them with a diagnosis.
#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <QtGlobal>
#include <vector>

namespace rankscope {

enum class NodeCaptureKind : quint8
{
    None,
    KernelLog, // dmesg (any --time-format), journalctl -k, /var/log/kern.log
    IbStat, // ibstat
    IbvDevinfo, // ibv_devinfo [-v]
    NvidiaSmiQuery, // nvidia-smi -q
    NvidiaSmiQueryXml, // nvidia-smi -q -x
    IpAddr, // ip addr, ip -o addr
    Ifconfig
};
QString nodeCaptureKindName(NodeCaptureKind k); // "dmesg", "ibstat", ...

struct KernelRecord
{
    enum class Kind : quint8
    {
        Xid,
        FallenOffBus, // "NVRM: GPU at ... has fallen off the bus" without an Xid on the same line
        Aer,
        OomKill,
        Segfault
    };
    Kind kind = Kind::Xid;
    qint64 line = 0; // 1-based
    QString text; // the message, without the kernel log's time and host prefix
    QString pci; // normalised "0000:44:00.0"; "" when the record names none
    int xid = -1;
    qint64 pid = -1; // the killed or faulting process; for an Xid the pid the driver names
    QString process;
    QString severity; // AER: "Corrected", "Uncorrected (Fatal)", ...
};

struct GidEntry
{
    int index = -1;
    QString gid; // as printed
    QString type; // "RoCE v2", "RoCE v1", "IB/RoCE v1"; "" when the tool is too old to print it
    QString ipv4; // the IPv4 address of an IPv4-mapped GID, else ""
    qint64 line = 0;
};

struct IbPort
{
    QString device; // mlx5_0; "" when a pasted fragment does not name it
    int port = -1;
    QString state; // Active, Down, Initializing, Armed (ibv_devinfo's PORT_ACTIVE is read as Active)
    QString physicalState; // LinkUp, Disabled, Polling, ...
    QString linkLayer; // InfiniBand, Ethernet
    QString rate; // "200" (Gb/s, ibstat) or "4X 25.0 Gbps" (ibv_devinfo)
    qint64 line = 0; // the port's first line
    qint64 stateLine = 0;
    std::vector<GidEntry> gids;
    bool active() const { return state == QLatin1String("Active"); }
};

struct GpuQuery
{
    int index = -1; // order in the capture, which is nvidia-smi's index order
    QString busId; // normalised
    qint64 line = 0;
    QString persistenceMode; // Enabled, Disabled
    qint64 persistenceLine = 0;
    QString fabricState; // Completed, In Progress, Not Started, N/A
    qint64 fabricLine = 0;
    qint64 volatileUncorrected = -1; // volatile double-bit / DRAM uncorrectable total; -1 when absent
    qint64 eccLine = 0;
    qint64 retiredSingle = -1, retiredDouble = -1;
    QString retirementPending; // Yes, No
    qint64 retiredLine = 0;
};

struct NetInterface
{
    QString name; // eth0 (ip's "eth0@if12" is read as eth0)
    bool up = false; // UP flag
    QStringList ipv4, ipv6; // without the prefix length
    qint64 line = 0;
};

struct NodeCapture
{
    QString path, displayPath;
    NodeCaptureKind kind = NodeCaptureKind::None;
    QString contentHost; // the host the capture names (journal host column, shell prompt); "" if none
    qint64 contentHostLine = 0;
    QString error; // names the file and the line; empty when read
    std::vector<KernelRecord> kernel;
    std::vector<IbPort> ports;
    std::vector<GpuQuery> gpus;
    std::vector<NetInterface> interfaces;
    QString where(qint64 line) const; // "dmesg.gpu-a01.txt:12"
};

// What the head of a file is; None for anything else (a log, a topology capture).
NodeCaptureKind detectNodeCapture(const QByteArray& head);

// Parses a capture of a known kind (detectNodeCapture() when kind is None).
NodeCapture parseNodeCapture(
    const QByteArray& content, const QString& path, const QString& displayPath, NodeCaptureKind kind = {});
NodeCapture loadNodeCapture(const QString& path, const QString& displayPath);

} // namespace rankscope
