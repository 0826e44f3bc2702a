// SPDX-License-Identifier: MIT
// Reading topology captures: format detection by content, one parser per format, and merging several
// captures into one graph per host.
#pragma once

#include "topology_model.h"

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <vector>

namespace rankscope {

enum class TopologyFormat : quint8
{
    Unknown,
    NvidiaSmiMatrix,
    NvidiaSmiP2p,
    RocmSmi,
    NcclXml,
    HwlocXml
};
QString topologyFormatName(TopologyFormat f);

struct TopologyParse
{
    HostTopology topo;
    TopologyFormat format = TopologyFormat::Unknown;
    QString error; // names the source and, for text formats, the line; empty on success
};

// Each parser names `sourceName` in its errors and records it in topo.sources.
TopologyParse parseNvidiaSmiTopo(const QByteArray& text, const QString& sourceName); // topo -m / -mp / -p2p x
TopologyParse parseRocmSmiTopo(const QByteArray& text, const QString& sourceName);
TopologyParse parseNcclTopoXml(const QByteArray& xml, const QString& sourceName);
TopologyParse parseHwlocXml(const QByteArray& xml, const QString& sourceName);

// This machine's topology as hwloc XML, I/O devices included (for `rankscope capture-topology`).
struct HwlocExport
{
    QByteArray xml;
    QString error;
};
HwlocExport exportLocalHwlocXml();

// A capture's text in any Unicode encoding that starts with a byte order mark (UTF-16LE from a PowerShell
// `>` redirect, UTF-16BE, UTF-32, UTF-8 with BOM) as UTF-8; other bytes as they are. Every parser and
// detectTopologyFormat() read through it; discovery too, before it takes a NUL for a binary file.
QByteArray captureTextAsUtf8(const QByteArray& content);

TopologyFormat detectTopologyFormat(const QByteArray& content);
// Detects the format and parses. Host: `host` when given, else the capture's own (hwloc HostName, the
// shell prompt in front of a pasted nvidia-smi or rocm-smi command),
// else the file name ("nvidia-smi-topo.gpu-a02.txt" -> gpu-a02).
TopologyParse parseTopologyCapture(
    const QByteArray& content, const QString& sourceName, const QString& host = {});
TopologyParse loadTopologyFile(const QString& path, const QString& host = {});

struct TopologySet
{
    std::vector<HostTopology> hosts; // one per host; captures of the same host merged
    QStringList errors; // one per file that could not be read
    const HostTopology* host(const QString& name) const; // compares short names
};
// Captures of one host merge: by host name (the capture's own, the file name's, or `host`), and a capture
// without one joins the single other capture whose content shows the same machine (same GPU bus ids,
// indexes and names, and parts that complete each other: a `-p2p` status matrix and a `-m` class matrix).
TopologySet loadTopologyFiles(const QStringList& paths, const QString& host = {});

// Merges a second capture of the same host: GPUs matched by bus id, else index; NICs by name, else bus
// id. A printed link class wins over a derived one; two printed classes that disagree keep the first
// and add a note. The tree is taken from the first capture that has one.
void mergeHostTopology(HostTopology& into, const HostTopology& from);

// Fills missing GPU-GPU and GPU-NIC classes from the tree by nvidia-smi's rules (topology_path_class.cpp).
void derivePathClasses(HostTopology& topo);
PathClass derivePathClass(const HostTopology& topo, int nodeA, int nodeB);

} // namespace rankscope
