// SPDX-License-Identifier: MIT
// The wrappers that tools put in front of a job's own line before the launcher, PyTorch or NCCL prefix:
// indentation, ANSI colour codes (raw, or rendered as U+FFFD), log-viewer gutters, Markdown quotes, Ray
// "(Name pid=N, ip=...)", Determined "[ts] trial [rank=N] ||", a pod's own clock "ts pod >> ", OpenMPI
// "--tag-output" "[1,4]<stdout>:", pdsh/kubectl host tags "10.0.0.1: ", a runner's "name [stderr] ", docker
// compose's "service-1  | ", kubectl --prefix "[pod/name/container] " and UCX's crash banner
// "[host:pid:thread:tid] " and a log collector's RFC 3339 clock "2024-05-01T10:00:00.123456789Z ".
// They nest in any order; peelWrappers() takes off what it recognises, and what it does not know stays
// in the line, so a line is never lost to a prefix.
#pragma once

#include "timestamp.h"

#include <QtGlobal>
#include <string_view>

namespace rankscope {

struct LineWrappers
{
    bool any = false; // something was peeled
    int rank = -1; // Determined [rank=N], OpenMPI [job,rank]
    qint64 pid = -1; // Ray (pid=N)
    qint64 processPid = -1; // a crash handler's "[host:pid:thread:tid]" (UCX): the process itself
    std::string_view host; // pdsh/Talos "host: ", a pod ">>" name
    std::string_view ip; // Ray ip=
    std::string_view tag; // what the log calls the writer: "RayWorkerWrapper", "trial fa88a9df", "stderr"
    ParsedStamp stamp; // a wrapper's own clock (a pod's, Determined's, a CI runner's); offset meaningless
};

// Returns the line without the wrappers it starts with.
std::string_view peelWrappers(std::string_view line, LineWrappers& out);

// True when `s` starts with an ANSI SGR sequence (ESC '[' ... 'm'), the same rendered with U+FFFD for
// ESC, or the bare "[0m" that is left when the ESC byte was lost in a copy; `length` is its size.
bool readColourCode(std::string_view s, std::size_t& length);

} // namespace rankscope
