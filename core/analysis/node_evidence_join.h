// SPDX-License-Identifier: MIT
// Node evidence meets the diagnosis: each capture is tied to a host of the incident, and what it says
// about that host's ranks (an Xid on a rank's GPU, the OOM killer taking a rank's pid, a port down, the
// GID table, the interfaces) becomes a NodeFinding with its capture line; a finding that settles the
// cause raises the confidence and fills the fix with the node's real values.
#pragma once

#include "diagnosis_types.h"
#include "input_discovery.h"
#include "node_evidence.h"
#include "topology_loader.h"

#include <vector>

namespace rankscope {

// Reads the captures discovery found (plain, gzip or in-memory inputs).
std::vector<NodeCapture> loadNodeEvidence(const std::vector<InputFile>& files);

// The incident host a capture belongs to: the host its content names, else a host its path names
// ("dmesg.gpu-a01.txt", "gpu-a01/ibstat.txt"), else the only host of the logs when the capture names
// none. "" when it belongs to no host of the incident; `how` says which rule decided.
QString nodeCaptureHost(const NodeCapture& capture, const QStringList& hosts, QString* how = nullptr);

void joinNodeEvidence(const Incident& incident, const Catalog& catalog, const TopologySet& topology,
    const std::vector<NodeCapture>& captures, Diagnosis& diagnosis);

namespace detail {

struct NodeJoin; // node_evidence_join.cpp
void joinKernelLog(NodeJoin& j, const NodeCapture& c, const QString& host);
void joinNvidiaSmi(NodeJoin& j, const NodeCapture& c, const QString& host);
void joinIbPorts(NodeJoin& j, const NodeCapture& c, const QString& host);
void joinInterfaces(NodeJoin& j, const NodeCapture& c, const QString& host);

} // namespace detail

} // namespace rankscope
