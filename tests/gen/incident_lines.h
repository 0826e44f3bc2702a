// SPDX-License-Identifier: MIT
// The line templates of one generated job: NCCL 2.27.7 debug output, PyTorch ~2.7 c10 and torch logs, and the
// torchrun agent. Every emitter is a pure function of (job, rank, step), so files can be written in any
// order.
#pragma once

#include "incident_generator.h"
#include "line_writer.h"

#include <string>
#include <string_view>

namespace rankscope::testgen::detail {

struct Job
{
    GenOptions o;
    int nodes = 1;
    int nics = 1; // HCAs per node (mlx5_0..)
    qint64 faultMs = 0; // the injected fault (or, for Hang, the collective that never completes)
    qint64 stepMs = 1930;
    qint64 startMs = 0; // first training step
    qint64 launchMs = 0; // torchrun start
    int steps = 0; // training steps a healthy rank logs
    int seqNum = 0; // SeqNum of the collective that never completes
    quint64 commId = 0;

    int nodeOf(int rank) const { return rank / o.gpusPerNode; }
    int localOf(int rank) const { return rank % o.gpusPerNode; }
    int localRanks(int node) const;
    std::string host(int node) const; // NCCL short name
    std::string fqdn(int node) const; // what the torchrun summary prints
    std::string ip(int node) const;
    int agentPid(int node) const;
    int pid(int rank) const;
    bool warnFault() const; // a fault that prints an NCCL WARN
};

// Where the fault line landed in the output.
struct FaultMark
{
    QString file;
    qint64 line = 0;
};

void ncclInit(const Job& job, int rank, LineWriter& w, std::string_view prefix);
// The hung rank logs nothing from the last step on; its last logged COLL line is recorded in hangMark.
void ncclStep(
    const Job& job, int rank, int step, LineWriter& w, std::string_view prefix, FaultMark& hangMark);
void torchStep(const Job& job, int rank, int step, LineWriter& w, std::string_view prefix);
// The fault rank's NCCL WARN and its "-> N" trail; nothing for other ranks or faults without a WARN.
void ncclFault(const Job& job, int rank, LineWriter& w, std::string_view prefix, FaultMark& mark);
// The fault rank's PyTorch error, or a survivor's watchdog timeout; nothing for ranks the agent SIGTERMs.
void torchFault(const Job& job, int rank, LineWriter& w, std::string_view prefix);
// Application lines around the training loop, for the bench's shapes: Python `logging` lines
// ("2026-03-14 02:05:11,207 - INFO - train.py:88 - rank 81: step 6510 loss ..."), `lines` of them per
// step (1..4); one tqdm progress line whose updates are separated by '\r'; a warnings.warn pair.
void appLogStep(const Job& job, int rank, int step, int lines, LineWriter& w, std::string_view prefix);
void tqdmStep(const Job& job, int step, LineWriter& w, std::string_view prefix);
void warningPair(const Job& job, int rank, int step, LineWriter& w, std::string_view prefix);
void agentStart(const Job& job, int node, LineWriter& w);
void agentEnd(const Job& job, int node, LineWriter& w);

} // namespace rankscope::testgen::detail
