// SPDX-License-Identifier: MIT
// The log header of Huawei's CANN stack (HCCL, the Ascend runtime, torch_npu), which no other
// framework writes: a bracketed level word, then the writer and a clock with dashes between date and time.
//   "[ERROR] HCCL(23457,all_reduce_test):2023-10-16-08:41:56.291.748 [comm_base.cc:967][23468]text"
//   "[ERROR] 2024-05-21-11:57:54 (PID:927000, Device:3, RankID:3) ERR02200 DIST call hccl api failed."
// and its error-code lines, which print the code before the clock:
//   "EJ0001: 2024-05-21-11:57:54.167.645 Failed to initialize the HCCP process."
//   "EE9999: [PID: 540988] 2025-04-27-03:11:08.089.335 get error: ..."
#pragma once

#include "timestamp.h"

#include <QtGlobal>
#include <string_view>

namespace rankscope {

struct CannHeader
{
    ParsedStamp stamp; // kind Cann; offset 0, length up to the end of the clock
    qint64 pid = -1; // "HCCL(pid,...)", "(PID:n, ...)"
    qint64 tid = -1; // the "[tid]" after the source location
    int device = -1; // "Device:3"
    int rank = -1; // "RankID:3"
    std::size_t messageStart = 0; // where the text after the header starts
};

// The "[LEVEL] ..." header at the start of text; false (and `out` untouched) when there is none.
bool readCannHeader(std::string_view text, CannHeader& out);

// The length of a CANN error code at the start of text ("EJ0001: " is 8), 0 when there is none. The code's
// first letter is its level: E for an error, W for a warning.
std::size_t cannCodeLength(std::string_view text);

// CANN's own account of a failure, "EJ0001: ...", "EE9999: [PID: n] <clock> get error: ...": an error code
// that says more than the title of an internal error ("EE9999: Inner Error!", whose details follow under
// the same code). `message` is the line after its prefixes, trimmed.
bool isCannRuntimeReport(std::string_view message);

// The clock of an error-code line after its code: "EJ0001: <clock>" or "EE9999: [PID: n] <clock>". Its
// offset is relative to text's start; `pid` is set when the line names it.
ParsedStamp cannCodeClock(std::string_view text, qint64& pid);

} // namespace rankscope
