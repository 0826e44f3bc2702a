// SPDX-License-Identifier: MIT
#include "line_prefix.h"

#include "cann_header.h"
#include "line_wrappers.h"
#include "text_util.h"

#include <algorithm>
#include <cstring>

namespace rankscope {

namespace {

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}
bool isAlpha(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// Reads digits at pos; returns -1 when there are none (or too many to be a rank/pid).
qint64 readNumber(std::string_view s, size_t& pos)
{
    const size_t start = pos;
    qint64 value = 0;
    while (pos < s.size() && isDigit(s[pos]) && pos - start < 12) {
        value = value * 10 + (s[pos] - '0');
        ++pos;
    }
    return pos == start ? -1 : value;
}

// "[default3]:" / "[trainer12]:" / "[rank7]:" -> role, number, length consumed. TorchX names a replica's
// process by its local rank after a bar, "[trainer0|3]:": then `number` is that rank and `tag` is
// "trainer0", what the log calls the replica (`tag` is the whole bracket text otherwise).
bool readBracketRole(
    std::string_view s, std::string_view& role, std::string_view& tag, int& number, size_t& length)
{
    if (s.size() < 4 || s[0] != '[')
        return false;
    size_t pos = 1;
    while (pos < s.size() && pos < 40 && (isAlpha(s[pos]) || s[pos] == '_'))
        ++pos;
    if (pos == 1)
        return false;
    role = s.substr(1, pos - 1);
    qint64 n = readNumber(s, pos);
    if (n < 0 || n > 10'000'000 || pos >= s.size())
        return false;
    tag = s.substr(1, pos - 1);
    if (s[pos] == '|') {
        ++pos;
        n = readNumber(s, pos);
        if (n < 0 || n > 10'000'000 || pos >= s.size())
            return false;
    }
    if (s[pos] != ']')
        return false;
    ++pos;
    // "[rank8]:" and, from Python-side loggers (gloo's fallback warning), "[rank8] " without the colon;
    // other roles need the colon ("[step3] loss" is no writer).
    const bool colon = pos < s.size() && s[pos] == ':';
    if (!colon && !(role == "rank" && pos < s.size() && s[pos] == ' '))
        return false;
    if (colon)
        ++pos;
    if (pos < s.size() && s[pos] == ' ')
        ++pos;
    number = static_cast<int>(n);
    length = pos;
    return true;
}

// Where a tee or c10 tag ("[default2]:", "[rank3]:") is glued to the end of a tqdm bar ("...|
// 726000/9672101 [02:32<30:38, 4866.01 examples/s][default2]:[E ..."): the bar's "%|" comes first and its
// closing ']' right before the tag. npos otherwise.
size_t gluedRoleTag(std::string_view s)
{
    const size_t bar = s.substr(0, 200).find("%|");
    if (bar == std::string_view::npos)
        return std::string_view::npos;
    for (size_t at = s.find("][", bar); at != std::string_view::npos && at < 400; at = s.find("][", at + 1)) {
        std::string_view role, tag;
        int number = -1;
        size_t used = 0;
        if (readBracketRole(s.substr(at + 1), role, tag, number, used)
            && (role == "default" || role == "rank"))
            return at + 1;
    }
    return std::string_view::npos;
}

// "12: " (srun --label; the label may be right-aligned with spaces).
bool readSrunLabel(std::string_view s, int& rank, size_t& length)
{
    size_t pos = 0;
    while (pos < s.size() && pos < 8 && s[pos] == ' ')
        ++pos;
    const qint64 n = readNumber(s, pos);
    if (n < 0 || n > 1'000'000 || pos + 1 >= s.size() || s[pos] != ':' || s[pos + 1] != ' ')
        return false;
    rank = static_cast<int>(n);
    length = pos + 2;
    return true;
}

// "[12] " (MPICH -prepend-rank). dmesg "[123.45]" has a dot and is not taken.
bool readMpiRank(std::string_view s, int& rank, size_t& length)
{
    if (s.size() < 4 || s[0] != '[')
        return false;
    size_t pos = 1;
    const qint64 n = readNumber(s, pos);
    if (n < 0 || n > 1'000'000 || pos + 1 >= s.size() || s[pos] != ']' || s[pos + 1] != ' ')
        return false;
    rank = static_cast<int>(n);
    length = pos + 2;
    return true;
}

bool isHostChar(char c)
{
    return isAlpha(c) || isDigit(c) || c == '-' || c == '.' || c == '_';
}

// A field a reporter masked before pasting: "XXXXXX", "xxx", "***", "<pid>", "<host>".
bool isMaskToken(std::string_view s)
{
    if (s.size() >= 3 && s.front() == '<' && s.back() == '>')
        return true;
    // "[REDACTED]", "{hostname}": a bracketed word (no digits, so never a tag such as "[1,3]").
    if (s.size() >= 3 && ((s.front() == '[' && s.back() == ']') || (s.front() == '{' && s.back() == '}')))
        return std::all_of(
            s.begin() + 1, s.end() - 1, [](char c) { return isAlpha(c) || c == '_' || c == '-'; });
    if (s.size() < 3)
        return false;
    const bool stars = s.find_first_not_of("*#?") == std::string_view::npos;
    const bool exes = s.find_first_not_of("Xx") == std::string_view::npos;
    return stars || exes;
}

// A number, or a mask in its place (-1, and `masked` set); false when neither is there.
bool readNumberOrMask(std::string_view s, size_t& pos, qint64& value, bool& masked)
{
    value = readNumber(s, pos);
    if (value >= 0)
        return true;
    size_t end = pos;
    while (end < s.size() && end - pos < 40 && s[end] != ':' && s[end] != ' ')
        ++end;
    if (!isMaskToken(s.substr(pos, end - pos)))
        return false;
    pos = end;
    masked = true;
    return true;
}

// NCCL "host:pid:tid [dev] " (the [dev] part is absent on NCCL CALL lines).
bool readNcclPrefix(std::string_view s, LinePrefix& p, size_t& length)
{
    size_t pos = 0;
    while (pos < s.size() && pos < 256 && s[pos] != ':' && s[pos] != ' ')
        ++pos;
    std::string_view host = s.substr(0, pos);
    // A reporter who masked the host may leave a space before the colon ("NAME :69438:69438 [0] "): taken
    // only with the device field after it.
    const bool spaced = pos > 0 && pos + 1 < s.size() && s[pos] == ' ' && s[pos + 1] == ':';
    if (spaced)
        ++pos;
    if (pos >= s.size() || s[pos] != ':')
        return false; // an empty host (":166:1226 [0]") is a masked or unset one: NCCL still printed it
    // A host cut at the start by the paste ("-worker-1") or masked ("<host>", "***") names no machine.
    if (!host.empty() && (host[0] == '-' || host[0] == '.' || isMaskToken(host)))
        host = {};
    ++pos;
    // "host:pid:tid", either number masked, or both at once ("host:XXXXXX [5]").
    qint64 pid = -1, tid = -1;
    bool masked = false;
    if (!readNumberOrMask(s, pos, pid, masked) || pos >= s.size())
        return false;
    if (s[pos] == ':') {
        ++pos;
        if (!readNumberOrMask(s, pos, tid, masked) || pos >= s.size() || s[pos] != ' ')
            return false;
    } else if (!(masked && s[pos] == ' ')) {
        return false;
    }
    ++pos;
    int dev = -1;
    if (pos < s.size() && s[pos] == '[') {
        size_t q = pos + 1;
        const qint64 d = readNumber(s, q);
        if (d < 0 || q >= s.size() || s[q] != ']')
            return false;
        dev = static_cast<int>(d);
        pos = q + 1;
        if (pos < s.size() && s[pos] == ' ')
            ++pos;
    }
    if (spaced && dev < 0)
        return false;
    p.ncclHost = host;
    p.pid = pid;
    p.tid = tid;
    p.ncclDev = dev;
    length = pos;
    return true;
}

void readNcclLevel(std::string_view rest, LinePrefix& p)
{
    struct Marker
    {
        std::string_view text;
        NcclLevel level;
    };
    static constexpr Marker markers[] = { { "NCCL INFO ", NcclLevel::Info },
        { "NCCL WARN ", NcclLevel::Warn }, { "NCCL TRACE ", NcclLevel::Trace },
        { "NCCL CALL ", NcclLevel::Call } };
    // INFO follows the prefix directly; WARN and TRACE come after "file:line (func) ".
    const std::string_view window = rest.substr(0, 400);
    for (const Marker& m : markers) {
        const size_t at = window.find(m.text);
        if (at != std::string_view::npos) {
            p.nccl = m.level;
            p.message = rest.substr(at + m.text.size());
            return;
        }
    }
    // NCCL 2.3 and older print the level without "NCCL": "host:pid:tid [3] INFO bootstrap.cu:45 -> 2",
    // "host:pid:tid [3] include/socket.h:371 WARN Connection closed by remote peer".
    if (startsWith(rest, "INFO ")) {
        p.nccl = NcclLevel::Info;
        p.message = rest.substr(5);
        return;
    }
    const std::size_t space = rest.substr(0, 96).find(' ');
    if (space != std::string_view::npos && space > 2 && isDigit(rest[space - 1])
        && rest.substr(0, space).find(':') != std::string_view::npos) {
        const std::string_view after = rest.substr(space + 1);
        if (startsWith(after, "WARN ") || after == "WARN") {
            p.nccl = NcclLevel::Warn;
            p.message = after.substr(std::min<std::size_t>(5, after.size()));
            return;
        }
    }
    // "NCCL WARN" with nothing after it, or the prefix alone: still an NCCL line.
    p.nccl = NcclLevel::Info;
    p.message = rest;
}

// What the wrappers say about the writer, in the prefix's own fields.
void applyWrappers(const LineWrappers& w, LinePrefix& p)
{
    p.wrapped = true;
    if (w.pid >= 0)
        p.rayPid = w.pid;
    if (w.processPid >= 0 && p.pid < 0)
        p.pid = w.processPid;
    if (!w.ip.empty())
        p.rayIp = w.ip;
    if (!w.host.empty() && p.pdshHost.empty())
        p.pdshHost = w.host;
    if (w.rank >= 0 && p.globalRank < 0)
        p.globalRank = w.rank;
    if (!w.tag.empty() && p.sourceTag.empty())
        p.sourceTag = w.tag;
    if (w.stamp.found() && !p.wrapperStamp.found())
        p.wrapperStamp = w.stamp;
}

// After oneCCL's clock: ":( 4456) ", the writing thread (gettid(); the main thread's is the pid).
void readOneCclThread(std::string_view& rest, LinePrefix& p)
{
    if (rest.size() < 4 || rest[0] != ':' || rest[1] != '(')
        return;
    size_t pos = 2;
    while (pos < rest.size() && rest[pos] == ' ')
        ++pos;
    const qint64 tid = readNumber(rest, pos);
    if (tid < 0 || pos >= rest.size() || rest[pos] != ')')
        return;
    p.tid = tid;
    rest.remove_prefix(pos + 1);
    while (!rest.empty() && rest[0] == ' ')
        rest.remove_prefix(1);
}

// After a syslog or journalctl clock: "host prog[pid]: " (or "host kernel: "), the writer's host and pid.
// The program must carry its pid or be the kernel, so that a message's "Some text: ..." is not taken.
bool readSyslogSource(std::string_view s, std::string_view& host, qint64& pid, size_t& length)
{
    size_t pos = 0;
    while (pos < s.size() && pos < 64 && isHostChar(s[pos]))
        ++pos;
    if (pos == 0 || pos >= s.size() || s[pos] != ' ')
        return false;
    const size_t hostEnd = pos++;
    const size_t prog = pos;
    while (pos < s.size() && pos - prog < 64 && (isHostChar(s[pos]) || s[pos] == '/'))
        ++pos;
    if (pos == prog || pos >= s.size())
        return false;
    qint64 n = -1;
    if (s[pos] == '[') {
        ++pos;
        n = readNumber(s, pos);
        if (n < 0 || pos >= s.size() || s[pos] != ']')
            return false;
        ++pos;
    } else if (s.substr(prog, pos - prog) != "kernel") {
        return false;
    }
    if (pos + 1 >= s.size() || s[pos] != ':' || s[pos + 1] != ' ')
        return false;
    host = s.substr(0, hostEnd);
    pid = n;
    length = pos + 2;
    return true;
}

// "graph/rings.cc:38 NCCL WARN": an NCCL file:line and level right after a bracketed number.
bool isDeviceOnlyPrefix(std::string_view s)
{
    const std::string_view head = s.substr(0, 160);
    const size_t at = head.find(" NCCL ");
    if (at == std::string_view::npos)
        return startsWith(s, "NCCL INFO ") || startsWith(s, "NCCL WARN ");
    const std::string_view before = head.substr(0, at);
    // A source location: "graph/rings.cc:38", "misc/shmutils.cc:88", and before NCCL 2.9 the headers that
    // held the code, "include/shm.h:28" (NVIDIA/nccl#525: "[3] include/shm.h:28 NCCL WARN ...").
    return before.find(' ') == std::string_view::npos
        && (before.find(".c") != std::string_view::npos || before.find(".h:") != std::string_view::npos)
        && before.find(':') != std::string_view::npos;
}

// Another bracketed prefix follows ("[rank3]:", "[default0]:", a c10 header "[E314 ...]").
bool isBracketPrefix(std::string_view s)
{
    return s.size() > 3 && s[0] == '[' && (isAlpha(s[1]) || s[1] == '[');
}

// " NCCL WARN " or "NCCL INFO " somewhere in a line whose NCCL prefix was cut, masked or wrapped.
bool findNcclLevel(std::string_view rest, LinePrefix& p)
{
    const std::string_view head = rest.substr(0, 400);
    const size_t at = head.find("NCCL ");
    if (at == std::string_view::npos || (at > 0 && head[at - 1] != ' ' && head[at - 1] != ']'))
        return false;
    const std::string_view level = head.substr(at + 5, 5);
    // WARN anywhere is a failure word; INFO only where a cut prefix left it first ("NCCL INFO file:N -> 6"),
    // so an application message that quotes "NCCL INFO" keeps its own text.
    if (level == "WARN " || level == "WARN" || (level == "INFO " && at == 0)) {
        readNcclLevel(rest, p);
        return p.nccl != NcclLevel::Info || level == "INFO ";
    }
    return false;
}

} // namespace

namespace {

// After CANN's header: the writer's pid, thread, device and rank it names; returns the message.
std::string_view readCannWriter(std::string_view s, LinePrefix& p)
{
    CannHeader h;
    if (!readCannHeader(s, h))
        return s.substr(static_cast<size_t>(p.stamp.length));
    if (h.pid >= 0 && p.pid < 0)
        p.pid = h.pid;
    if (h.tid >= 0 && p.tid < 0)
        p.tid = h.tid;
    if (h.device >= 0 && p.ncclDev < 0)
        p.ncclDev = h.device;
    if (h.rank >= 0 && p.globalRank < 0)
        p.globalRank = h.rank;
    return s.substr(std::min(h.messageStart, s.size()));
}

} // namespace

LinePrefix parseLinePrefix(std::string_view line, bool mayHoldGluedTag)
{
    LinePrefix p;
    size_t len = 0;
    int n = -1;

    // Wrappers of the tools around the job (Ray, Determined, a pod's clock, pdsh by address, colour
    // codes, indentation), then the launcher prefixes: srun --label, MPICH.
    LineWrappers w;
    std::string_view s = peelWrappers(line, w);
    if (w.any)
        applyWrappers(w, p);
    if (!s.empty() && (isDigit(s[0]) || s[0] == ' ') && readSrunLabel(s, n, len)) {
        p.launcherRank = n;
        s.remove_prefix(len);
    } else if (!s.empty() && s[0] == '[' && readMpiRank(s, n, len)) {
        // MPICH writes its tag at the start of the line: behind indentation alone, "[7] finished collective
        // #182" is an item of a report (PyTorch's desync report) and names no writer.
        const std::string_view peeled = line.substr(0, line.size() - s.size());
        const bool indentedOnly =
            !peeled.empty() && peeled.find_first_not_of(" \t") == std::string_view::npos;
        if (isDeviceOnlyPrefix(s.substr(len))) {
            p.ncclDev = n; // "[7] graph/rings.cc:38 NCCL WARN ...": an NCCL line cut down to its device
            s.remove_prefix(len);
        } else if (isBracketPrefix(s.substr(len))) {
            s.remove_prefix(len); // a log viewer's line number before "[rank3]:"
        } else if (!indentedOnly) {
            p.launcherRank = n;
            s.remove_prefix(len);
        }
    }
    // Wrappers nest in any order: "[1830] [rank3]:" after an MPI tag, "(pid=767) host:pid:tid" after srun's
    // "3: ", a pdsh host or a pod's clock. What could start one is peeled again after each layer.
    // True when a wrapper that names or tags the writer was peeled (not only indentation or a colour code).
    const auto peelInner = [&p](std::string_view& v) {
        if (v.empty() || !(v[0] == '[' || v[0] == '(' || v[0] == '\x1b' || v[0] == ' ' || v[0] == '`'))
            return false;
        LineWrappers inner;
        v = peelWrappers(v, inner);
        if (inner.any)
            applyWrappers(inner, p);
        return inner.pid >= 0 || inner.rank >= 0 || !inner.tag.empty() || !inner.host.empty();
    };
    peelInner(s);

    // torchrun --tee "[default3]:" then c10 "[rank7]:" (either may be missing), wherever a wrapper
    // layer ends: after a pdsh host or a pod's clock too ("gpu-node12: [rank0]:     raise ...").
    const auto readRoles = [&p](std::string_view& v) {
        std::string_view role, tag;
        int number = -1;
        size_t used = 0;
        for (int i = 0; i < 2 && !v.empty() && v[0] == '['; ++i) {
            if (!readBracketRole(v, role, tag, number, used))
                break;
            if (role == "rank") {
                p.globalRank = number; // c10's own tag outranks an MPI or Determined wrapper's rank
            } else if (p.teeLocalRank < 0) {
                p.teeLocalRank = number;
                // A role other than torchrun's "default" names the writer (TorchX's "trainer3"): its lane.
                if (role != "default" && p.sourceTag.empty())
                    p.sourceTag = tag;
            } else {
                break;
            }
            v.remove_prefix(used);
        }
    };
    readRoles(s);
    // A progress bar written without a newline (tqdm's "...4866.01 examples/s]") and another rank's line
    // glued after it: the tag that follows the bar starts the line that matters; the bar says nothing.
    if (const size_t glued = mayHoldGluedTag ? gluedRoleTag(s) : std::string_view::npos;
        glued != std::string_view::npos) {
        s.remove_prefix(glued);
        p.teeLocalRank = p.globalRank = -1;
        p.sourceTag = {};
        readRoles(s);
    }

    // pdsh "host: " where host looks like a machine name (letters and digits, no spaces).
    if (p.launcherRank < 0 && !s.empty() && isAlpha(s[0])) {
        size_t pos = 0;
        bool digit = false;
        while (pos < s.size() && pos < 64 && isHostChar(s[pos])) {
            digit = digit || isDigit(s[pos]);
            ++pos;
        }
        // A host name without digits is taken only when the NCCL prefix after it repeats it ("MLVM:
        // MLVM:1:2"): "Error: ..." and "test: Test ..." are messages.
        const bool named = pos + 1 < s.size() && s[pos] == ':' && s[pos + 1] == ' ';
        if (named && !digit)
            digit = startsWith(s.substr(pos + 2), s.substr(0, pos)) && s.size() > 2 * pos + 2
                && s[2 * pos + 2] == ':';
        // CANN's error codes ("EE9999: Inner Error!", "EI0006: ...") are no host.
        if (pos == 6 && cannCodeLength(s) != 0)
            digit = false;
        if (digit && named) {
            p.pdshHost = s.substr(0, pos);
            // Slurm's daemons name their node after a dash ("slurmstepd-gpu20-15: error: ..."): the
            // node is the host, the daemon the writer.
            for (const std::string_view daemon :
                { std::string_view("slurmstepd-"), std::string_view("slurmd-") })
                if (p.pdshHost.size() > daemon.size() && startsWith(p.pdshHost, daemon)) {
                    p.sourceTag = p.pdshHost.substr(0, daemon.size() - 1);
                    p.pdshHost.remove_prefix(daemon.size());
                }
            s.remove_prefix(pos + 2);
            peelInner(s);
            readRoles(s);
        }
    }

    p.afterLauncher = s;
    p.message = s;
    p.stamp = findTimestamp(s);
    // SGLang names the writer inside its clock's brackets ("TP3", "DP1 TP3").
    if (p.stamp.tagsLength > 0 && p.sourceTag.empty())
        p.sourceTag =
            s.substr(static_cast<size_t>(p.stamp.tagsOffset), static_cast<size_t>(p.stamp.tagsLength));
    std::string_view rest = s;
    if (p.stamp.kind == StampKind::Cann) {
        rest = readCannWriter(s, p);
        p.message = rest;
    } else if (!p.stamp.found()) {
        // CANN's error-code line ("EJ0001: <clock> ..."): the code stays in the message, the entries read it.
        qint64 pid = -1;
        p.stamp = cannCodeClock(s, pid);
        if (pid >= 0 && p.pid < 0)
            p.pid = pid;
    } else if (p.stamp.offset == 0) {
        rest = s.substr(static_cast<size_t>(p.stamp.length));
        // c10, glog and torch headers go on with "thread file:line] " before the message.
        if (p.stamp.kind == StampKind::Glog || p.stamp.kind == StampKind::TorchLogs
            || p.stamp.kind == StampKind::LevelWordHeader) {
            const size_t close = rest.substr(0, 256).find("] ");
            if (close != std::string_view::npos)
                rest.remove_prefix(close + 1);
        }
        // vLLM's header ends in one space; more is the message's own indentation (a traceback's source line
        // that its logger printed behind the header: isIndentedSource() in the scanner reads it).
        if (p.stamp.kind == StampKind::LevelWordHeader && !rest.empty() && rest[0] == ' ')
            rest.remove_prefix(1);
        else
            while (!rest.empty() && rest[0] == ' ')
                rest.remove_prefix(1);
        readOneCclThread(rest, p);
        std::string_view syslogHost;
        qint64 syslogPid = -1;
        size_t syslogLength = 0;
        if ((p.stamp.kind == StampKind::Syslog || p.stamp.kind == StampKind::Iso8601)
            && readSyslogSource(rest, syslogHost, syslogPid, syslogLength)) {
            if (p.pdshHost.empty())
                p.pdshHost = syslogHost;
            rest.remove_prefix(syslogLength);
            p.collectorClock = true;
        }
        if (p.stamp.kind != StampKind::Glog && p.stamp.kind != StampKind::TorchLogs
            && p.stamp.kind != StampKind::LevelWordHeader) {
            // "2024-05-01T10:00:00Z (pid=767) host:767:767 [0] NCCL INFO": a clock, then Ray. A clock with
            // a wrapper after it is the wrapper's (Metaflow's "<clock> [run/step/task (pid N)] "): it stamps
            // every line the wrapper passes on, a traceback's frames too.
            if (peelInner(rest))
                p.collectorClock = true;
            readRoles(rest);
        }
        // The program syslog names is the writer unless it forwards another's lines (Ray's driver).
        if (syslogPid >= 0 && p.pid < 0 && p.rayPid < 0)
            p.pid = syslogPid;
        p.message = rest;
    }
    // A host starts with a letter or digit, unless the paste cut it ("-worker-1:") or masked it ("***:",
    // "<host>:"); an unset one is empty (":166:1226").
    if (!rest.empty()
        && (isAlpha(rest[0]) || isDigit(rest[0]) || rest[0] == ':' || rest[0] == '-' || rest[0] == '.'
            || rest[0] == '*' || rest[0] == '<' || rest[0] == '#' || rest[0] == '[' || rest[0] == '{')
        && readNcclPrefix(rest, p, len)) {
        readNcclLevel(rest.substr(len), p);
    } else {
        readNcclLevelAnywhere(p);
    }
    if (!p.stamp.found() && p.wrapperStamp.found()) {
        p.stamp = p.wrapperStamp; // the wrapper's clock is the only one the line has
        p.stamp.offset = p.stamp.length = 0;
        p.stampBorrowed = true;
    }
    return p;
}

namespace {

// "trainer/0 [1]:host:pid:tid [1] NCCL INFO ...": a whole NCCL prefix behind a wrapper nobody taught the
// parser. It is taken where a word starts (after a blank, ':', ']', '|' or a Markdown backtick) and the
// level follows it: INFO at once, WARN and TRACE after the "file:line" NCCL puts between them.
bool readEmbeddedNcclPrefix(LinePrefix& p)
{
    const std::string_view head = p.message.substr(0, 400);
    const size_t level = head.find(" NCCL ");
    if (level == std::string_view::npos)
        return false;
    for (size_t i = 1; i < level; ++i) {
        const char before = head[i - 1];
        if (!(before == ' ' || before == ':' || before == ']' || before == '|' || before == '`')
            || !isHostChar(head[i]))
            continue;
        LinePrefix found;
        size_t len = 0;
        if (!readNcclPrefix(head.substr(i), found, len) || i + len > level + 1)
            continue;
        const std::string_view after = p.message.substr(i + len);
        const size_t marker = after.find("NCCL ");
        const std::string_view between = after.substr(0, marker);
        if (marker == std::string_view::npos || std::count(between.begin(), between.end(), ' ') > 2)
            continue; // only "file:line " or "file:line (function) " stands between prefix and level
        readNcclLevel(after, found);
        if (found.message.data() == after.data())
            continue; // no level marker after all
        p.ncclHost = found.ncclHost;
        p.pid = found.pid;
        p.tid = found.tid;
        p.ncclDev = found.ncclDev;
        p.nccl = found.nccl;
        p.message = found.message;
        return true;
    }
    return false;
}

} // namespace

void readNcclLevelAnywhere(LinePrefix& p)
{
    if (p.nccl != NcclLevel::None || p.message.find("NCCL ") == std::string_view::npos)
        return;
    if (readEmbeddedNcclPrefix(p))
        return;
    LinePrefix level;
    if (findNcclLevel(p.message, level)) {
        p.nccl = level.nccl;
        p.message = level.message;
    }
}

} // namespace rankscope
