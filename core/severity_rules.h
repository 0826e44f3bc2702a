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

} // namespace rankscope
