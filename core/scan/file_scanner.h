// SPDX-License-Identifier: MIT
// Scans one input in a single pass: splits lines, peels prefixes, reads stamps and severities, joins
// multi-line records, and keeps only what the analysis needs (events, identity facts, per-stream stats)
// plus a line index of 8 bytes per line.
#pragma once

#include "scan_records.h"
#include "wrap_width.h"

#include <string_view>
#include <vector>

namespace rankscope {

FileScan scanFile(const InputFile& input, int fileIndex, const ScanContext& context);

// What every scan of `input` starts with, before its bytes are read: the names, the path hints, a pasted
// text's hard wraps joined (with a note) into `source`, an in-memory input's bytes. The tests' reference
// scan starts the same way.
FileScan startScan(const InputFile& input, InputFile& source);
bool isPastedInput(const InputFile& input); // text pasted or dropped into the window
// The spaces every non-blank line of a file's first read starts with (a log pasted as an indented
// Markdown block or under a list item): LineScanner takes them off each line. 0 for almost every file.
int commonIndent(std::string_view firstRead);

// A file with elastic restarts inside it becomes one scan per attempt (segment 0, 1, ...): events, facts and
// streams go by line; every part keeps the whole file's line index. Files without restarts come back as is.
std::vector<FileScan> splitRestarts(FileScan&& scan);

// torchrun's error.json (one per failed local rank): {"message": {"message": ..., "extraInfo":
// {"py_callstack": ..., "timestamp": "<unix s>"}}} or {"message": "..."}. Becomes one ERROR event.
bool isTorchrunErrorJson(const InputFile& input);

} // namespace rankscope
