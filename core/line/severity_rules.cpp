// SPDX-License-Identifier: MIT
#include "severity_rules.h"

#include "cann_header.h"
#include "text_util.h"

#include <algorithm>
#include <cctype>

namespace rankscope {

namespace {

Severity fromLetter(char c)
{
    switch (c) {
    case 'E':
        return Severity::Error;
    case 'W':
        return Severity::Warn;
    case 'F':
    case 'C':
        return Severity::Fatal;
    default:
        return Severity::Info;
    }
}

} // namespace

bool isTracebackFrame(std::string_view m)
{
    const std::string_view t = trimLeft(m);
    return startsWith(t, "File \"") && t.find("\", line ") != std::string_view::npos;
}

// The name is read first, so an ordinary line ("step 12 | loss") is refused at its first space.
std::string_view exceptionName(std::string_view m)
{
    std::size_t end = 0;
    while (end < m.size() && end <= 120) {
        const char c = m[end];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'
                || c == '.'))
            break;
        ++end;
    }
    if (end == 0 || end > 120)
        return {};
    if (end < m.size() && !(m[end] == ':' && end + 1 < m.size() && m[end + 1] == ' '))
        return {};
    return m.substr(0, end);
}

namespace {

// "RuntimeError: x", "torch.distributed.DistBackendError: x", "ChildFailedError:" at column 0.
bool isExceptionLine(std::string_view m)
{
    const std::string_view name = exceptionName(m);
    return name.ends_with("Error") || name.ends_with("Exception") || name == "KeyboardInterrupt";
}

// Ray's task error, "ray.exceptions.RayTaskError(AcceleratorError): ray::f() (pid=1, ip=10.0.0.1)": the
// header of the remote traceback printed under it, whose last line is the exception it names.
bool isRayTaskErrorHeader(std::string_view m)
{
    const std::size_t open = m.find('(');
    if (open == std::string_view::npos || open > 120)
        return false;
    const std::string_view name = m.substr(0, open);
    if (!(name.ends_with("TaskError") || name.ends_with("ActorError"))
        || name.find(' ') != std::string_view::npos)
        return false;
    const std::size_t close = m.find("):", open);
    return close != std::string_view::npos && close - open <= 64
        && m.substr(open + 1, close - open - 1).find(' ') == std::string_view::npos;
}

// PyTorch 1.x's c10 logging header without a clock, "[E ProcessGroupNCCL.cpp:475] ": the letter, or 0.
char c10Letter(std::string_view s)
{
    if (s.size() < 8 || s[0] != '[' || !(s[1] == 'E' || s[1] == 'W' || s[1] == 'F') || s[2] != ' ')
        return 0;
    std::size_t pos = 3;
    bool dot = false;
    while (pos < s.size() && pos < 80
        && (std::isalnum(static_cast<unsigned char>(s[pos])) || s[pos] == '_' || s[pos] == '.'
            || s[pos] == '/' || s[pos] == '-')) {
        dot = dot || s[pos] == '.';
        ++pos;
    }
    if (!dot || pos + 2 >= s.size() || s[pos] != ':')
        return 0;
    const std::size_t digits = ++pos;
    while (pos < s.size() && pos - digits < 7 && std::isdigit(static_cast<unsigned char>(s[pos])))
        ++pos;
    return pos > digits && pos < s.size() && s[pos] == ']' ? s[1] : 0;
}

} // namespace

// NCCLCHECK's "%s:%d -> %d" (with an optional " (strerror)", " [Async thread]" after it) and 2.30's
// "%s:%d (%s) -> %d": the source file and line is the message's first word, so the test reads that word
// and at most one "(func)" after it. An ordinary INFO line ("AllReduce: opCount ...") is refused at its
// first space, without a search through the rest of the line.
bool isReturnTrail(std::string_view message)
{
    // Within the first 164 bytes, as the scanner's shortcut assumes (it looks for the '>' there).
    const std::string_view m = message.substr(0, 164);
    std::size_t space = 0;
    const std::size_t n = m.size();
    while (space < n && m[space] != ' ')
        ++space;
    if (space == n)
        return false;
    std::size_t digits = space;
    while (digits > 0 && m[digits - 1] >= '0' && m[digits - 1] <= '9')
        --digits;
    if (digits == space || digits < 2 || m[digits - 1] != ':')
        return false;
    const std::string_view file = m.substr(0, digits - 1);
    if (file.find('.') == std::string_view::npos)
        return false;
    std::string_view rest = m.substr(space + 1);
    if (!rest.empty() && rest[0] == '(') { // 2.30's function name
        const std::size_t close = rest.find(") ");
        if (close == std::string_view::npos || rest.substr(1, close - 1).find(' ') != std::string_view::npos)
            return false;
        rest.remove_prefix(close + 2);
    }
    return rest.size() >= 4 && rest.substr(0, 3) == "-> " && rest[3] >= '0' && rest[3] <= '9';
}

LineClass classifyLine(const LinePrefix& p, bool mayHoldLevelWord)
{
    LineClass out;
    const std::string_view m = p.message;
    switch (p.nccl) {
    case NcclLevel::Warn:
        out.severity = Severity::Warn;
        return out;
    case NcclLevel::Info:
        if (isReturnTrail(m))
            out.shape = LineShape::NcclReturnTrail;
        return out;
    case NcclLevel::Trace:
    case NcclLevel::Call:
        return out;
    case NcclLevel::None:
        break;
    }
    return classifyMessage(p.stamp.severity, m, mayHoldLevelWord);
}

bool endsTracebackAsException(std::string_view m)
{
    const std::string_view name = exceptionName(m);
    if (name.empty() || name.front() == '.' || name.back() == '.' || (name[0] >= '0' && name[0] <= '9'))
        return false;
    if (name.size() < m.size())
        return true; // "Name: message"
    // A bare name ("KeyboardInterrupt", "SystemExit") is a class: its last part starts with a capital.
    const std::size_t dot = name.rfind('.');
    const char first = name[dot == std::string_view::npos ? 0 : dot + 1];
    return first >= 'A' && first <= 'Z';
}

LineClass classifyMessage(char letter, std::string_view m, bool mayHoldLevelWord)
{
    LineClass out;
    if (letter != 0)
        out.severity = fromLetter(letter);
    // CANN's error codes lead their line ("EJ0001: ...", "W11001: ..."): the code's letter is its level.
    // Seven bytes at the start, so no level cue is needed for them.
    if (letter == 0 && cannCodeLength(m) != 0)
        out.severity = m[0] == 'E' ? Severity::Error : Severity::Warn;
    // Every word compared below holds one of kLevelCues (tst_severity_rules checks it on every test line).
    if (!mayHoldLevelWord)
        return out;

    const char first = m.empty() ? '\0' : m[0];
    // A traceback may follow a message on its line ("Scheduler hit an exception: Traceback (most recent call
    // last):", SGLang's): the record starts there all the same.
    constexpr std::string_view kTraceback = "Traceback (most recent call last):";
    if ((first == 'T' && startsWith(m, "Traceback (most recent call last)"))
        || (m.size() > kTraceback.size() && m.substr(m.size() - kTraceback.size()) == kTraceback)) {
        out.shape = LineShape::TracebackStart;
        out.severity = Severity::Error;
        return out;
    }
    if ((first == 'r' || first == 'R') && isRayTaskErrorHeader(m)) {
        out.shape = LineShape::TracebackStart;
        out.severity = Severity::Error;
        return out;
    }
    if ((first == 't' && startsWith(m, "terminate called after throwing"))
        || (first == 'S' && startsWith(m, "Segmentation fault"))
        || (first == 'F' && startsWith(m, "Fatal Python error"))) {
        out.severity = Severity::Fatal;
        return out;
    }
    // A logger's ERROR header before it (vLLM's and Ray's workers print every line of a traceback behind
    // one) leaves it the exception line that heads the traceback's record.
    if ((out.severity == Severity::Info || out.severity >= Severity::Error) && isExceptionLine(m)) {
        out.shape = LineShape::ExceptionLine;
        out.severity = std::max(out.severity, Severity::Error);
        return out;
    }
    if (out.severity != Severity::Info || letter != 0)
        return out; // a glog letter is the framework's own level: no need to look for level words

    // Words that logging frameworks print; only near the start, where levels live. One pass over the head
    // that stops at the few bytes a level word can start with (this runs on every non-NCCL line).
    const std::string_view head = m.substr(0, 96);
    bool fatal = false, error = false, warn = startsWith(m, "WARN ");
    for (size_t i = 0; i < head.size() && !fatal; ++i) {
        const std::string_view at = head.substr(i);
        switch (head[i]) {
        case 'F':
            fatal = startsWith(at, "FATAL");
            break;
        case 'C':
            fatal = startsWith(at, "CRITICAL");
            break;
        case 'E':
            error = error || startsWith(at, "ERROR");
            break;
        case 'N':
            error = error || startsWith(at, "NVRM: Xid");
            break;
        case 'O':
            error = error || startsWith(at, "Out of memory: Killed");
            break;
        case 'o':
            error = error || startsWith(at, "oom-kill");
            break;
        case 'W':
            warn = warn || startsWith(at, "WARNING");
            break;
        case '|': // oneCCL's "|CCL_WARN| " ("|CCL_ERROR|" holds "ERROR")
            warn = warn || startsWith(at, "|CCL_WARN|");
            break;
        case '[': {
            const char c10 = c10Letter(at);
            fatal = startsWith(at, "[F]") || c10 == 'F';
            error = error || startsWith(at, "[E]") || c10 == 'E';
            warn = warn || startsWith(at, "[W]") || startsWith(at, "[WARN]") || c10 == 'W';
            break;
        }
        default:
            break;
        }
    }
    if (fatal)
        out.severity = Severity::Fatal;
    else if (error)
        out.severity = Severity::Error;
    else if (warn)
        out.severity = Severity::Warn;
    return out;
}

} // namespace rankscope
