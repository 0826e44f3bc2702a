// SPDX-License-Identifier: MIT
// Environment variables a log shows set for the run: NCCL prints each one it read at init, and a pasted
// terminal holds the command line that started the job. A fix that says to set a variable the run already
// had is one the user has tried; the fix renderer says so (fix_render.h).
#pragma once

#include "log_model.h"

#include <string_view>
#include <vector>

namespace rankscope {

// "NCCL_P2P_DISABLE set by environment to 1." (the message after "NCCL INFO "). Appends and returns true
// when the message is such a line.
bool readNcclEnvLine(std::string_view message, std::vector<EnvSetting>& out);

// A shell line that sets variables for a command: "NCCL_P2P_DISABLE=1 NCCL_DEBUG=INFO ./all_reduce_perf",
// behind a prompt ("$ ", "root@node:/x# ", "(env) user@host:~$ "), or "export NCCL_IB_DISABLE=1". Only the
// variables of the libraries a fix names (NCCL_, TORCH_, CUDA_, GLOO_, FI_, UCX_, HSA_, ...). Cheap on
// other lines: most fail at their first character.
void readShellAssignments(std::string_view message, std::vector<EnvSetting>& out);

} // namespace rankscope
