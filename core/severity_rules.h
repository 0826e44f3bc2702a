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

LineClass classifyLine(const LinePrefix& prefix);
// The part of classifyLine for a line without an NCCL prefix: `letter` is its stamp's glog severity letter
// (0 when it has none) and `message` the text after every prefix.
LineClass classifyMessage(char letter, std::string_view message);

} // namespace rankscope
