// SPDX-License-Identifier: MIT
// The level vocabulary of a line without an NCCL prefix, as literals the block search looks for. Every
// word that classifyMessage() (core/line/severity_rules.cpp) compares a message against holds one of these,
// case-sensitively: a line in which the search found none of them is plain at its stamp's own level, and
// its message is not read again (docs/scanner.md, "Pattern-first classification").
#pragma once

#include <string_view>

namespace rankscope {

inline constexpr std::string_view kLevelCues[] = {
    "Traceback", // "Traceback (most recent call last)"
    "terminate called", // "terminate called after throwing"
    "Segmentation fault",
    "Fatal Python error",
    "Error", // an exception line: "RuntimeError: ...", "torch.distributed.DistBackendError"
    "Exception", // "ValueError"'s sibling: "...Exception: ..."
    "KeyboardInterrupt",
    "FATAL",
    "CRITICAL",
    "ERROR",
    "NVRM: Xid",
    "Out of memory: Killed",
    "oom-kill",
    "WARN", // "WARNING", "[WARN]", "WARN "
    "[F]",
    "[E]",
    "[W]",
    "[E ", // PyTorch 1.x's c10 log header "[E ProcessGroupNCCL.cpp:475] ", "[W socket.cpp:601] "
    "[W ",
    "[F ",
    // A tag glued to the end of a progress bar ("...4866.01 examples/s][default2]:[E ..."): the line after it
    // is another rank's and has a level of its own (parseLinePrefix() looks for it only then).
    "][default",
    "][rank",
};

} // namespace rankscope
