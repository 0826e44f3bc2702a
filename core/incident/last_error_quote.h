// SPDX-License-Identifier: MIT
// NCCL's own error text, quoted by the exception that reports it. PyTorch (and the launchers that tag
// its lines) print NCCL's last WARN after a "Last error:" line of the exception message; without
// NCCL_DEBUG that quoted line is the only place the failure is named, and the exception header above it
// only reports it. The record keeps its signature (the scanner already took the quoted line's); the
// event's first line becomes the quoted one, so the initiating line is the cause, not the wrapper.
#pragma once

#include "log_model.h"

#include <vector>

namespace rankscope {

// Re-anchors each event whose record quotes NCCL's failure after "Last error:" at the quoted line, whether
// or not the catalog knows the quoted words (the signature stays the record's best match). Leaves NCCL WARN
// records (their "-> N" trails are collected by thread, not by position) and records cut at the continuation
// limit alone: their line offsets are not known.
void anchorQuotedLastErrors(std::vector<LogEvent>& events);

} // namespace rankscope
