// SPDX-License-Identifier: MIT
// Internal to the node evidence join: what each capture family's join needs from the incident.
#pragma once

#include "node_evidence_join.h"

namespace rankscope::detail {

struct NodeJoin
{
    NodeJoin(const Incident& i, const Catalog& c, const TopologySet& t, Diagnosis& diagnosis)
        : inc(i)
        , cat(c)
        , topo(t)
        , d(diagnosis)
    {
    }
    const Incident& inc;
    const Catalog& cat;
    const TopologySet& topo;
    Diagnosis& d;
    const LogEvent* init = nullptr; // the initiating event, null when no failure was found
    const RankInfo* initRank = nullptr;
    QString initId; // its signature's id, "" when none
    QString initFamily;
    bool fixRendered = false; // a confirmed signature's fix already leads the fix
    std::vector<NodeFinding> confirmed, others;
    QStringList fixLead; // put in front of the fix, in order

    void note(const QString& host, const QString& source, const QString& text);
    // A finding that settles the cause: confidence high, and when `signatureId` is not the initiating
    // signature, that entry's fix (filled from `captures`) leads the fix; `fixLines` follow it.
    void confirm(const QString& host, const QString& source, const QString& text, const QString& signatureId,
        const std::vector<Capture>& captures, const QStringList& fixLines = {});

    int rankOfBusId(const QString& host, const QString& pci) const; // -1 when no rank of host has it
    int rankOfPid(const QString& host, qint64 pid) const; // ranks' pids and torchrun's failure pids
    // "GPU 2 (0000:44:00.0)": the index from the host's topology, else from the rank's NCCL lines.
    QString gpuName(const QString& host, const QString& pci, int rank) const;
    QString initCapture(const char* name) const; // a named capture of the initiating event
    bool isInitRank(int rank) const { return rank >= 0 && initRank && initRank->rank == rank; }
    QString ranksOnHostUsing(const QString& host, const QString& nic) const; // "0-3", "" for none
};

QString usedNicOf(const RankInfo* r); // the NIC its channels use, else the first it listed

} // namespace rankscope::detail
