// SPDX-License-Identifier: MIT
// Peels the prefixes that launchers, PyTorch and NCCL put in front of a log line, and
// returns the attribution facts they carry. Works on raw bytes: it runs on every line.
#pragma once

#include "text_util.h"
#include "timestamp.h"

#include <QtGlobal>
#include <string_view>

namespace rankscope {

enum class NcclLevel : quint8
{
    None,
    Info,
    Warn,
    Trace,
    Call
};

struct LinePrefix
{
    int launcherRank = -1; // srun --label "12: " or MPICH -prepend-rank "[12] "
    int teeLocalRank = -1; // torchrun --tee "[default3]:", TorchX "[trainer3]:"
    int globalRank = -1; // c10 / TORCHELASTIC prefix "[rank7]:"
    std::string_view pdshHost; // pdsh "gpu-a01: "
    std::string_view rayIp; // Ray "(RayWorkerWrapper pid=1, ip=10.0.0.1) "
    std::string_view sourceTag; // what a wrapper calls the writer ("RayWorkerWrapper", "trial fa88a9df")
    ParsedStamp wrapperStamp; // a wrapper's own clock (a pod's, Determined's)
    bool wrapped = false; // a wrapper (see line_wrappers.h) came before the prefixes
    qint64 rayPid = -1;
    std::string_view ncclHost; // NCCL "host:pid:tid [dev]"
    qint64 pid = -1;
    qint64 tid = -1;
    int ncclDev = -1;
    NcclLevel nccl = NcclLevel::None;
    ParsedStamp stamp; // offsets are relative to afterLauncher, unless stampBorrowed
    // The line has no clock of its own and stamp is the wrapper's (wrapperStamp): it has no span in
    // afterLauncher (offset and length are 0), only a time.
    bool stampBorrowed = false;
    // The clock is a collector's (syslog / journald "host prog[pid]: "), not the program's: every line of a
    // traceback gets its own, so, as with a borrowed stamp, it does not end a record by itself.
    bool collectorClock = false;
    std::string_view afterLauncher; // the line without launcher, tee and rank prefixes
    std::string_view message; // the text after every prefix (NCCL: after "NCCL WARN ")
    bool teeOnly() const { return teeLocalRank >= 0 && globalRank < 0; }
};

// mayHoldGluedTag false: the caller knows the line holds no "][default" or "][rank" (kLevelCues), so no tag
// glued to a progress bar is looked for.
LinePrefix parseLinePrefix(std::string_view line, bool mayHoldGluedTag = true);

// An NCCL level ("NCCL WARN ", "NCCL INFO ") in a message whose NCCL prefix was cut, masked or wrapped:
// sets p.nccl and p.message when the message has one and p.nccl is None. parseLinePrefix() does it; a
// caller that filled `p` another way (the scanner's glog shortcut) calls it itself.
void readNcclLevelAnywhere(LinePrefix& p);

} // namespace rankscope
