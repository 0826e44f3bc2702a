// SPDX-License-Identifier: MIT
// Severity of one physical line, from its prefixes and a few well-known words.
#pragma once

#include "line_prefix.h"
#include "log_model.h"

namespace rankscope {

enum class LineShape : quint8
{
    Plain,
    TracebackStart, // "Traceback (most recent call last):"
    ExceptionLine, // "RuntimeError: ..." at column 0
    NcclReturnTrail, // NCCL INFO "file.cc:123 -> 6"
};

struct LineClass
{
    Severity severity = Severity::Info;
    LineShape shape = LineShape::Plain;
};

// `mayHoldLevelWord` false says that the line holds none of kLevelCues (core/model/level_cues.h), as the
// block search found: a line without an NCCL prefix is then plain at its stamp's level, unread.
LineClass classifyLine(const LinePrefix& prefix, bool mayHoldLevelWord = true);
// The part of classifyLine for a line without an NCCL prefix: `letter` is its stamp's glog severity letter
// (0 when it has none) and `message` the text after every prefix.
LineClass classifyMessage(char letter, std::string_view message, bool mayHoldLevelWord = true);
// NCCL's return-code trail, as an INFO message: "transport/net.cc:1227 -> 6", "init.cc:1234 -> 6 [Async
// thread]", 2.30's "transport/net.cc:1227 (ncclNetConnect) -> 6".
bool isReturnTrail(std::string_view message);
// '  File "/x/pynccl.py", line 118, in all_reduce', indented or not: one frame of a Python traceback.
bool isTracebackFrame(std::string_view line);
// The exception's dotted name when `message` has the shape of Python's last traceback line (a name of at
// most 120 characters, then ": " or the end of the line); empty otherwise.
std::string_view exceptionName(std::string_view message);
// Whether an unindented line under a traceback's frames can be its exception line: a dotted name and ": "
// ("paddle.fluid.core.EnforceNotMet: ...", "socket.timeout: timed out"), or a bare class name
// ("SystemExit"). Looser than ExceptionLine, which needs no open traceback and so asks for a name that ends
// in Error or Exception.
bool endsTracebackAsException(std::string_view message);

// A shortcut for the bulk of a console: true when `message` starts with a word of letters, digits, '_' or
// '.' followed by a space ("step 2790 | loss ..."), and not with one of the few letters a fatal or
// traceback line starts with. classifyMessage('I', message) is then plain INFO. False says nothing.
inline bool isPlainInfoMessage(std::string_view m)
{
    if (m.empty() || m[0] == 'T' || m[0] == 't' || m[0] == 'S' || m[0] == 'F')
        return false;
    std::size_t i = 0;
    const std::size_t n = m.size() < 120 ? m.size() : 120;
    for (; i < n; ++i) {
        const char c = m[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'
                || c == '.'))
            break;
    }
    return i > 0 && i < n && m[i] == ' ';
}

} // namespace rankscope
