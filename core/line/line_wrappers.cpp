// SPDX-License-Identifier: MIT
#include "line_wrappers.h"

#include "text_util.h"
#include "wrapper_clocks.h"
#include "wrapper_scan.h"

#include <algorithm>
#include <iterator>

namespace rankscope {

namespace {

using namespace wrapper_scan;

constexpr int kMaxRounds = 8; // wrappers nest; a line never carries more than a few

// Ray's "ip=10.0.0.5" field inside the parentheses, from `from` on, up to the next ',' or the end.
void readRayIp(std::string_view fields, std::size_t from, LineWrappers& w)
{
    const std::size_t ip = fields.find("ip=", from);
    if (ip == std::string_view::npos)
        return;
    std::size_t end = ip + 3;
    while (end < fields.size() && fields[end] != ',')
        ++end;
    w.ip = fields.substr(ip + 3, end - ip - 3);
}

// Ray's own processes name themselves without a pid: "(raylet)", "(gcs_server)", "(autoscaler +2m3s)",
// "(raylet, ip=10.0.0.5)". Their lines (the memory monitor's kills) are the node's, not a worker's.
bool readRaySystemTag(std::string_view inner, LineWrappers& w)
{
    static constexpr std::string_view kComponents[] = { "raylet", "gcs_server", "autoscaler", "dashboard",
        "log_monitor", "monitor" };
    for (const std::string_view name : kComponents) {
        if (!startsWith(inner, name))
            continue;
        const std::string_view rest = inner.substr(name.size());
        if (!rest.empty() && rest[0] != ',' && rest[0] != ' ')
            return false;
        readRayIp(rest, 0, w);
        w.tag = name;
        return true;
    }
    return false;
}

// Ray: "(RayWorkerWrapper pid=2376582) ", "(pid=767) ", "(Worker pid=509, ip=10.3.32.122) ",
// "(MegatronPolicyWorker[rank=8] pid=3294808, ip=10.109.19.209) ".
bool readRay(std::string_view s, LineWrappers& w, std::size_t& length)
{
    if (s.size() < 7 || s[0] != '(')
        return false;
    const std::size_t close = s.substr(0, 200).find(')');
    if (close == std::string_view::npos)
        return false;
    const std::string_view inner = s.substr(1, close - 1);
    const std::size_t at = inner.find("pid=");
    if (at == std::string_view::npos && readRaySystemTag(inner, w)) { // "(raylet) ", "(raylet, ip=...) "
        length = close + 1 < s.size() && s[close + 1] == ' ' ? close + 2 : close + 1;
        return true;
    }
    if (at == std::string_view::npos || (at > 0 && inner[at - 1] != ' '))
        return false;
    std::size_t pos = at + 4;
    const qint64 pid = readNumber(inner, pos);
    if (pid < 0 || (pos < inner.size() && inner[pos] != ','))
        return false;
    readRayIp(inner, pos, w);
    w.pid = pid;
    if (at > 1)
        w.tag = inner.substr(0, at - 1);
    // An actor named with its rank: "(MegatronPolicyWorker[rank=8] pid=3294808, ip=...)" (NeMo RL).
    if (const std::size_t tagged = w.tag.find("[rank="); tagged != std::string_view::npos && w.rank < 0) {
        std::size_t digits = tagged + 6;
        const qint64 rank = readNumber(w.tag, digits);
        if (rank >= 0 && digits < w.tag.size() && w.tag[digits] == ']')
            w.rank = static_cast<int>(rank);
    }
    length = close + 1;
    if (length < s.size() && s[length] == ' ')
        ++length;
    return length == s.size() || s[length - 1] == ' ' || s[length] == '\x1b' || s[length] == '\xEF';
}

// Determined: "[2024-02-27T21:35:28.893536Z] fa88a9df [rank=4] || ", "[...Z] fa88a9df || ", or with the
// trial's state, "[2020-06-09T20:10:40Z] cf108822 [RUNNING] ||  ".
bool readDetermined(std::string_view s, LineWrappers& w, std::size_t& length)
{
    if (s.size() < 20 || s[0] != '[')
        return false;
    const std::size_t close = s.substr(0, 48).find("] ");
    if (close == std::string_view::npos)
        return false;
    const ParsedStamp stamp = findTimestamp(s.substr(1, close - 1));
    if (!stamp.found())
        return false;
    const std::size_t idStart = close + 2;
    const std::size_t idEnd = wordEnd(s, idStart, 40);
    if (idEnd == idStart || idEnd >= s.size() || s[idEnd] != ' ')
        return false;
    std::size_t pos = idEnd + 1;
    int rank = -1;
    // The trial's state, when the agent prints it: "[RUNNING] ", "[PULLING] ".
    if (pos + 3 < s.size() && s[pos] == '[' && s[pos + 1] >= 'A' && s[pos + 1] <= 'Z') {
        std::size_t end = pos + 1;
        while (end < s.size() && end - pos < 16 && s[end] >= 'A' && s[end] <= 'Z')
            ++end;
        if (startsWith(s.substr(end), "] "))
            pos = end + 2;
    }
    if (startsWith(s.substr(pos), "[rank=")) {
        pos += 6;
        const qint64 n = readNumber(s, pos);
        if (n < 0 || n > 10'000'000 || !startsWith(s.substr(pos), "] "))
            return false;
        rank = static_cast<int>(n);
        pos += 2;
    }
    if (!startsWith(s.substr(pos), "||"))
        return false;
    pos += 2;
    while (pos < s.size() && pos < 64 && s[pos] == ' ')
        ++pos;
    w.stamp = stamp;
    w.rank = rank;
    w.tag = s.substr(idStart, idEnd - idStart);
    length = pos;
    return true;
}

// OpenMPI --tag-output "[1,4]<stdout>:" and horovodrun "[1]<stderr>:".
bool readMpiTag(std::string_view s, LineWrappers& w, std::size_t& length)
{
    if (s.size() < 10 || s[0] != '[')
        return false;
    std::size_t pos = 1;
    qint64 n = readNumber(s, pos);
    if (n < 0)
        return false;
    std::string_view host;
    if (pos < s.size() && s[pos] == ',') {
        ++pos;
        // SageMaker's mpirun names the rank and the host: "[1,mpirank:3,algo-2]<stderr>:".
        const bool named = startsWith(s.substr(pos), "mpirank:");
        if (named)
            pos += 8;
        n = readNumber(s, pos);
        if (n < 0)
            return false;
        if (named && pos < s.size() && s[pos] == ',') {
            const std::size_t hostEnd = wordEnd(s, pos + 1, 64);
            if (hostEnd == pos + 1)
                return false;
            host = s.substr(pos + 1, hostEnd - pos - 1);
            pos = hostEnd;
        }
    }
    const std::string_view rest = s.substr(pos);
    for (const std::string_view tag : { "]<stdout>:", "]<stderr>:", "]<stddiag>:" }) {
        if (startsWith(rest, tag) && n <= 10'000'000) {
            w.rank = static_cast<int>(n);
            if (!host.empty())
                w.host = host;
            length = pos + tag.size();
            return true;
        }
    }
    return false;
}

// pdsh or Talos with an address for a host: "10.10.23.10: ", then Talos' "kern: warning: ".
bool readAddressHost(std::string_view s, LineWrappers& w, std::size_t& length)
{
    std::size_t pos = 0;
    int dots = 0;
    while (pos < s.size() && pos < 40 && (isDigit(s[pos]) || s[pos] == '.')) {
        dots += s[pos] == '.';
        ++pos;
    }
    if (dots != 3 || !startsWith(s.substr(pos), ": "))
        return false;
    w.host = s.substr(0, pos);
    length = pos + 2;
    return true;
}

// A kernel log's facility and level, as Talos and journald exports print them: "kern: warning: ".
bool readKernelFacility(std::string_view s, LineWrappers& w, std::size_t& length)
{
    if (!startsWith(s, "kern: ") && !startsWith(s, "kernel: "))
        return false;
    std::size_t pos = s[4] == ':' ? 6 : 8;
    const std::size_t end = wordEnd(s, pos, 12);
    if (end > pos && startsWith(s.substr(end), ": "))
        pos = end + 2;
    w.tag = "kernel";
    length = pos;
    return true;
}

// A benchmark runner's "name [stderr] " / "name [stdout] ".
bool readStreamTag(std::string_view s, LineWrappers& w, std::size_t& length)
{
    const std::size_t end = wordEnd(s, 0, 120);
    if (end == 0)
        return false;
    const std::string_view rest = s.substr(end);
    if (!startsWith(rest, " [stderr] ") && !startsWith(rest, " [stdout] "))
        return false;
    w.tag = s.substr(0, end);
    length = end + 10;
    return true;
}

// docker compose's "service-1  | " (v2) or "service_1     | " (v1): a name that ends in the replica
// number, padding to the longest service name, and a bar.
bool readComposeService(std::string_view s, LineWrappers& w, std::size_t& length)
{
    const std::size_t end = wordEnd(s, 0, 80);
    if (end < 3 || !isDigit(s[end - 1]))
        return false;
    std::size_t digits = end;
    while (digits > 0 && isDigit(s[digits - 1]))
        --digits;
    if (digits < 2 || (s[digits - 1] != '-' && s[digits - 1] != '_'))
        return false;
    std::size_t pos = end;
    while (pos < s.size() && pos - end < 64 && s[pos] == ' ')
        ++pos;
    if (pos == end || pos + 1 >= s.size() || s[pos] != '|' || s[pos + 1] != ' ')
        return false;
    w.tag = s.substr(0, end);
    length = pos + 2;
    return true;
}

// kubectl logs --prefix: "[pod/trainer-worker-0/pytorch] ".
bool readKubectlPrefix(std::string_view s, LineWrappers& w, std::size_t& length)
{
    if (!startsWith(s, "[pod/"))
        return false;
    const std::size_t close = s.substr(0, 300).find("] ");
    if (close == std::string_view::npos)
        return false;
    const std::string_view inner = s.substr(5, close - 5);
    const std::size_t slash = inner.find('/');
    if (slash == 0 || slash == std::string_view::npos || inner.find(' ') != std::string_view::npos)
        return false;
    w.tag = inner.substr(0, slash);
    length = close + 2;
    return true;
}

// UCX's log and crash-handler banner (HPC-X, OpenMPI over UCX): "[host:pid:thread:tid] ", the pid
// left-aligned in five columns ("[node3:1    :0:381] Caught signal 7 (Bus error ...)").
bool readUcxBanner(std::string_view s, LineWrappers& w, std::size_t& length)
{
    std::size_t pos = 1;
    while (pos < s.size() && pos < 80 && s[pos] != ':' && s[pos] != ']' && s[pos] != ' ')
        ++pos;
    if (pos == 1 || pos >= s.size() || s[pos] != ':')
        return false;
    const std::string_view host = s.substr(1, pos - 1);
    ++pos;
    const qint64 pid = readNumber(s, pos);
    while (pos < s.size() && pos < 120 && s[pos] == ' ')
        ++pos;
    if (pid < 0 || pos >= s.size() || s[pos] != ':')
        return false;
    ++pos;
    const std::size_t thread = wordEnd(s, pos, 32); // a thread number or name
    if (thread == pos || thread >= s.size() || s[thread] != ':')
        return false;
    pos = thread + 1;
    if (readNumber(s, pos) < 0 || !startsWith(s.substr(pos), "] "))
        return false;
    w.host = host;
    w.processPid = pid;
    length = pos + 2;
    return true;
}

// NVIDIA SHARP's (libsharp's) log header: "[host:rank:pid - tree_ops.c:314][2024-05-30 12:26:47] ERROR ...":
// the host, the pid, and the clock; the level word starts the message.
bool readSharpHeader(std::string_view s, LineWrappers& w, std::size_t& length)
{
    // Only inside the first bracket: "[default0]:" and other tags end before any " - ".
    const std::size_t bracket = s.substr(0, 128).find(']');
    const std::size_t dash = bracket == std::string_view::npos ? bracket : s.substr(0, bracket).find(" - ");
    if (dash == std::string_view::npos)
        return false;
    const std::string_view head = s.substr(1, dash - 1);
    const std::size_t colon = head.find(':');
    const std::size_t last = head.rfind(':');
    if (colon == std::string_view::npos || colon == 0 || last == colon)
        return false;
    std::size_t pos = last + 1;
    const qint64 pid = readNumber(head, pos);
    if (pid < 0 || pos != head.size())
        return false;
    const std::size_t close = bracket;
    if (close + 1 >= s.size() || s[close + 1] != '[')
        return false;
    const std::string_view clock = s.substr(close + 1);
    const ParsedStamp stamp = findTimestamp(clock);
    if (!stamp.found() || stamp.offset != 0 || clock.size() <= static_cast<std::size_t>(stamp.length))
        return false;
    std::size_t end = close + 1 + static_cast<std::size_t>(stamp.length);
    while (end < s.size() && s[end] == ' ')
        ++end;
    w.host = head.substr(0, colon);
    w.processPid = pid;
    w.stamp = stamp;
    length = end;
    return true;
}

// "[8-4-4-4-12 hex] ": a run's or request's UUID a workflow tool puts after its tag.
std::size_t uuidTag(std::string_view s)
{
    static constexpr std::size_t kDashes[] = { 9, 14, 19, 24 };
    if (s.size() < 39 || s[0] != '[' || s[37] != ']' || s[38] != ' ')
        return 0;
    for (std::size_t i = 1; i < 37; ++i) {
        const char c = s[i];
        const bool dash = std::find(std::begin(kDashes), std::end(kDashes), i) != std::end(kDashes);
        if (dash ? c != '-' : !(isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')))
            return 0;
    }
    return 39;
}

// Metaflow's task tag: "[177/train/578 (pid 28936)] " (run, step, task and the task's pid), and the UUID
// tag a flow may add after it.
bool readMetaflow(std::string_view s, LineWrappers& w, std::size_t& length)
{
    // The name holds no space, so " (pid " can only be at the first space (one memchr, not a compare at
    // every space of an ordinary line that starts with '[').
    const std::size_t open = s.substr(0, 160).find(' ');
    if (open == std::string_view::npos || open < 4 || s.substr(open, 6) != " (pid ")
        return false;
    const std::string_view name = s.substr(1, open - 1);
    if (name.find('/') == std::string_view::npos || name.find(' ') != std::string_view::npos
        || name.find(']') != std::string_view::npos)
        return false;
    std::size_t pos = open + 6;
    const qint64 pid = readNumber(s, pos);
    if (pid < 0 || s.substr(pos, 3) != ")] ")
        return false;
    w.pid = pid;
    w.tag = name;
    length = pos + 3;
    length += uuidTag(s.substr(length));
    return true;
}

// A log aggregator's count of the lines it folded into this one (Monarch's "[7 similar log lines] "): the
// line after it is the job's own.
bool readSimilarLines(std::string_view s, std::size_t& length)
{
    std::size_t pos = 1;
    if (s.size() < 24 || s[0] != '[' || readNumber(s, pos) < 0)
        return false;
    constexpr std::string_view kTail = " similar log lines] ";
    if (s.substr(pos, kTail.size()) != kTail)
        return false;
    length = pos + kTail.size();
    return true;
}

bool peelOne(std::string_view s, LineWrappers& w, std::size_t& length)
{
    const char c = s[0];
    if (c == ' ' || c == '\t') {
        std::size_t pos = 0;
        while (pos < s.size() && pos < 32 && (s[pos] == ' ' || s[pos] == '\t'))
            ++pos;
        // Only before a wrapper or a bracketed prefix: a traceback's indentation is part of its text.
        if (pos < s.size() && (s[pos] == '(' || s[pos] == '[' || s[pos] == '|' || s[pos] == '\x1b')) {
            length = pos;
            return true;
        }
        return false;
    }
    if (readColourCode(s, length))
        return true;
    // A Markdown quote (an empty quoted line is a bare ">"), a CI log gutter.
    if ((c == '>' && (s.size() == 1 || s[1] == ' ')) || (c == '|' && s.size() >= 2 && s[1] == ' ')) {
        length = std::min<std::size_t>(s.size(), 2);
        return true;
    }
    // A Markdown code mark the paste kept in front of the line ("`(RayWorker pid=1) ...", "```[rank0]:"),
    // when a wrapper or prefix follows it.
    if (c == '`') {
        std::size_t pos = 0;
        while (pos < s.size() && pos < 3 && s[pos] == '`')
            ++pos;
        if (pos < s.size() && (s[pos] == '(' || s[pos] == '[' || isWordChar(s[pos]))) {
            length = pos;
            return true;
        }
        return false;
    }
    if (c == '(')
        return readRay(s, w, length);
    if (c == '[')
        return readDetermined(s, w, length) || readMpiTag(s, w, length) || readSimilarLines(s, length)
            || readKubectlPrefix(s, w, length) || readUcxBanner(s, w, length) || readSharpHeader(s, w, length)
            || readMetaflow(s, w, length);
    if (isDigit(c))
        return readAddressHost(s, w, length) || readPodClock(s, w, length) || readCollectorClock(s, w, length)
            || readMinuteClock(s, length);
    if (c == 'k')
        return readKernelFacility(s, w, length);
    if (c >= 'A' && c <= 'W' && readMpiTimestamp(s, w, length))
        return true;
    return readStreamTag(s, w, length) || readComposeService(s, w, length);
}

} // namespace

bool readColourCode(std::string_view s, std::size_t& length)
{
    std::size_t pos = 0;
    if (startsWith(s, "\x1b["))
        pos = 2;
    else if (startsWith(s, "\xEF\xBF\xBD[")) // ESC shown as U+FFFD by a copy
        pos = 4;
    else if (startsWith(s, "["))
        pos = 1; // the ESC byte lost: only "[0m" and "[NNm" forms, checked below
    else
        return false;
    const std::size_t digits = pos;
    while (pos < s.size() && pos - digits < 12 && (isDigit(s[pos]) || s[pos] == ';'))
        ++pos;
    if (pos >= s.size() || s[pos] != 'm' || (digits == 1 && pos == digits))
        return false;
    length = pos + 1;
    if (digits == 1 && length < s.size() && s[length] != ' ')
        return false; // "[36mfoo" without ESC is too unlike a colour code to drop
    return true;
}

std::string_view peelWrappers(std::string_view line, LineWrappers& out)
{
    std::string_view s = line;
    for (int round = 0; round < kMaxRounds && !s.empty(); ++round) {
        std::size_t length = 0;
        if (!peelOne(s, out, length) || length == 0 || length > s.size())
            break;
        s.remove_prefix(length);
        out.any = true;
    }
    return s;
}

} // namespace rankscope
