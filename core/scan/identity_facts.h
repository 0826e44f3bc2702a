// SPDX-License-Identifier: MIT
// Facts that tie a process to a rank, a GPU and a NIC, read from NCCL identity lines, nccl-tests
// headers and torchrun failure summaries. The attribution step joins them across files.
#pragma once

#include "log_model.h"

#include <QString>
#include <string_view>
#include <vector>

namespace rankscope {

// The first letters of the NCCL INFO messages that carry identity facts (comm/ncclCommInitRank init lines,
// "[n] NCCL INFO ...", NET/IB Using, Channel (Ring before NCCL 2.7), Setting affinity, Bootstrap) and NCCL's
// setup lines ("NCCL version"): parseNcclIdentity() reads nothing else, so a scanner shortcut may skip any
// other INFO line.
constexpr bool mayStartIdentityLine(char first)
{
    switch (first) {
    case 'c':
    case 'n':
    case '[':
    case 'N':
    case 'C':
    case 'R':
    case 'S':
    case 'B':
        return true;
    default:
        return false;
    }
}

struct IdentityFact
{
    enum class Kind : quint8
    {
        Init, // "... comm 0x.. rank R nranks N cudaDev D nvmlDev M busId B commId C - Init START/COMPLETE"
        NodeInfo, // "comm 0x.. rank R nRanks N nNodes K localRanks L localRank l"
        NetUsing, // "NET/IB : Using [0]mlx5_0:1/IB ...; OOB ens1f0:10.0.0.1<0>"
        ChannelNet, // "Channel 00/0 : 7[3] -> 0[0] [send] via NET/IB/0(/GDRDMA)"
        ChannelLocal, // "Channel 01/0 : 1[1] -> 0[0] via P2P/CUMEM/read", "... via SHM/direct/direct"
        Affinity, // "Setting affinity for GPU 3 to 32-63,96-127"
        Bootstrap, // "Bootstrap: Using ens1f0:10.10.0.12<0>"
        NcclTestsRank, // "#  Rank  2 Group  0 Pid 3164639 on fengyun device  0 [0x01] ..."
        TorchrunFailure, // one block of torchrun's ChildFailedError summary
        WrapperRank, // a wrapped process states its rank: "(pid=767) ... [rank=0]", "(pid=9) [rank1]:[E..."
    };
    Kind kind = Kind::Init;
    int file = -1;
    qint64 line = 0;
    QString host; // from the line prefix (NCCL) or the content
    qint64 pid = -1;
    int ncclDev = -1; // the [dev] of the NCCL prefix
    int rank = -1;
    int nRanks = -1;
    int nNodes = -1;
    int localRank = -1;
    int cudaDev = -1;
    int nvmlDev = -1;
    QString busId; // normalised "0000:99:00.0"
    QString commId;
    bool initComplete = false;
    std::vector<NicUse> nics; // NetUsing
    int channelNic = -1; // ChannelNet
    bool gdr = false; // ChannelNet
    QString text; // Affinity cpuset, Bootstrap/OOB address, torchrun time
    int exitCode = 0; // TorchrunFailure
    bool rootCause = false; // TorchrunFailure: the "Root Cause" block
};

// Reads the facts an NCCL INFO message carries (message = text after "NCCL INFO ").
// Returns false when the message is not an identity line.
bool parseNcclIdentity(std::string_view message, IdentityFact& fact);

// The rank a line states for its writer in a "[rank=N]" tag (Ray SGD's "Setting up process group for: ...
// [rank=N]", vLLM and Determined workers' "[rank=N]"); -1 when it has none or more than one.
int rankTagIn(std::string_view message);

// "#  Rank  2 Group  0 Pid 3164639 on fengyun device  0 [0x01] NVIDIA H100"
bool parseNcclTestsRank(std::string_view line, IdentityFact& fact);

// NCCL's busId "%lx" ("99000") to a PCI BDF ("0000:99:00.0").
QString busIdFromNccl(std::string_view hex);

// Facts a file name carries: rank-0003.log, rank_3.txt, nccl.gpu-a02.52117.log, attempt_1/3/stderr.log.
struct PathHints
{
    int rank = -1;
    int localRank = -1;
    int attempt = -1;
    QString host;
    qint64 pid = -1;
    QString folderHost; // a folder on the path named like a host ("gpu-a01/rank3.log"): a weaker hint
};
PathHints hintsFromPath(const QString& displayPath);

} // namespace rankscope
