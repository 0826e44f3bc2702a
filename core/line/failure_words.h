// SPDX-License-Identifier: MIT
// The failure vocabulary: the words every troubleshooting guide greps for. A line that carries one
// anywhere is an event, whatever prefix it has, so no error line is lost to a format we do not know.
#pragma once

#include <string_view>

namespace rankscope {

// True when `line` holds a failure word: "NCCL WARN", "ERROR", "FATAL", "CRITICAL", "[FATAL ERROR]",
// "Traceback", "...Error:", "...Exception:", "error:", "failed", "failure", "Fatal error" (MPI's aborts),
// "timed out", "timing out", "operation timeout", "Socket Timeout", "Caught signal", "Unhandled exception",
// "Segmentation fault", "Bus error", "Killed", "exit code"/"exitcode", "NVRM: Xid", glibc's heap aborts
// ("free(): ...", "malloc(): ...", "double free or corruption"), OpenMPI's "*** Process received signal ***"
// (the usual cases of each). Lower-case "error" alone is not one ("no error", "error_count=0"), nor "timeout"
// alone ("timeout=1800"). Every word it accepts holds one of kFailurePhrases (signature_matcher.h), which the
// scanner's prefilter passes (tst_failure_words).
bool hasFailureWord(std::string_view line);

// The reporter's prose around a paste, never an event: a label that leads into it ("Error:", "**Error
// info:**"; at most four words of letters, capitalised at most at their start, then ':' and nothing else)
// or a Markdown heading (a whole line in bold, "## Heading").
bool isHeadingLeadIn(std::string_view line);

// A reporter's sentence around a paste ("On a 4 GPU server I still get the NCCL errors:"): eight words or
// more, one of them "I", "my", "we", "our" or "me". Only for a line with no log structure of its own (no
// stamp, prefix or level): a program's message does not speak in the first person.
bool isReporterProse(std::string_view line);

} // namespace rankscope
