// SPDX-License-Identifier: MIT
#include "incident_lines.h"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <vector>

namespace rankscope::testgen::detail {

namespace {

// ---- deterministic randomness: a hash of (seed, what, index) instead of a stateful generator ----

quint64 mix(quint64 x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

quint64 rnd(const Job& job, quint64 what, quint64 a, quint64 b = 0)
{
    return mix(mix(mix(job.o.seed ^ (what << 40)) ^ a) ^ b);
}

int rndInt(const Job& job, quint64 what, quint64 a, quint64 b, int lo, int hi) // [lo, hi]
{
    return lo + static_cast<int>(rnd(job, what, a, b) % static_cast<quint64>(hi - lo + 1));
}

double rndUnit(const Job& job, quint64 what, quint64 a, quint64 b = 0)
{
    return static_cast<double>(rnd(job, what, a, b) >> 11) / 9007199254740992.0;
}

// ---- formatting ----

void appendf(std::string& out, const char* format, ...) __attribute__((format(printf, 2, 3)));
void appendf(std::string& out, const char* format, ...)
{
    char buf[2048];
    va_list args;
    va_start(args, format);
    const int n = std::vsnprintf(buf, sizeof buf, format, args);
    va_end(args);
    if (n > 0)
        out.append(buf, static_cast<std::size_t>(std::min(n, static_cast<int>(sizeof buf) - 1)));
}

struct Civil
{
    int y, mo, d, h, mi, s, ms;
};

// Howard Hinnant's civil_from_days.
Civil civil(qint64 epochMs)
{
    qint64 secs = epochMs / 1000;
    int ms = static_cast<int>(epochMs % 1000);
    if (ms < 0) {
        ms += 1000;
        --secs;
    }
    qint64 days = secs / 86400;
    qint64 rem = secs % 86400;
    if (rem < 0) {
        rem += 86400;
        --days;
    }
    const qint64 z = days + 719468;
    const qint64 era = (z >= 0 ? z : z - 146096) / 146097;
    const qint64 doe = z - era * 146097;
    const qint64 yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const qint64 doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const qint64 mp = (5 * doy + 2) / 153;
    const int d = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
    const int mo = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
    const int y = static_cast<int>(yoe + era * 400 + (mo <= 2 ? 1 : 0));
    return { y, mo, d, static_cast<int>(rem / 3600), static_cast<int>(rem / 60 % 60),
        static_cast<int>(rem % 60), ms };
}

// TorchLogsFormatter: "W0314 02:05:11.207000 " (zero-padded MMDD, msecs*1000 as on Python 3.12).
void torchHeader(std::string& out, char sev, qint64 ms, int pid, const char* where)
{
    const Civil c = civil(ms);
    appendf(out, "%c%02d%02d %02d:%02d:%02d.%06d %d %s] ", sev, c.mo, c.d, c.h, c.mi, c.s, c.ms * 1000, pid,
        where);
}

// c10 logger: "[E314 02:17:44.791203518 " (unpadded MMDD; the fraction is CLOCK_MONOTONIC nanos).
void c10Header(std::string& out, int rank, qint64 ms, int nanos, const char* fileLine)
{
    const Civil c = civil(ms);
    appendf(out, "[rank%d]:[E%d %02d:%02d:%02d.%09d %s] ", rank, c.mo * 100 + c.d, c.h, c.mi, c.s, nanos,
        fileLine);
}

std::string ncclWarnStamp(qint64 ms)
{
    const Civil c = civil(ms);
    std::string s;
    appendf(s, "[%04d-%02d-%02d %02d:%02d:%02d] ", c.y, c.mo, c.d, c.h, c.mi, c.s);
    return s;
}

std::string summaryTime(qint64 ms)
{
    const Civil c = civil(ms);
    std::string s;
    appendf(s, "%04d-%02d-%02d_%02d:%02d:%02d", c.y, c.mo, c.d, c.h, c.mi, c.s);
    return s;
}

// ---- per-rank identity ----

struct Rank
{
    int rank, node, local, pid, dev, svcTid, progTid, nic;
    quint64 comm;
    unsigned busId;
    std::string host;
};

Rank rankOf(const Job& job, int rank)
{
    static constexpr unsigned kBus[] = { 0x18000, 0x2a000, 0x3a000, 0x5d000, 0x9a000, 0xab000, 0xba000,
        0xdb000 };
    Rank r {};
    r.rank = rank;
    r.node = job.nodeOf(rank);
    r.local = job.localOf(rank);
    r.pid = job.pid(rank);
    r.dev = r.local;
    r.svcTid = r.pid + 79 + job.o.gpusPerNode;
    r.progTid = r.svcTid + 7;
    r.nic = r.local * job.nics / job.o.gpusPerNode;
    r.comm = 0x550000000000ull | (rnd(job, 1, static_cast<quint64>(rank)) & 0xfffffffff0ull);
    r.busId = kBus[r.local % 8] + 0x100000u * static_cast<unsigned>(r.local / 8);
    r.host = job.host(r.node);
    return r;
}

std::string infoPrefix(const Rank& r, int tid)
{
    std::string s;
    appendf(s, "%s:%d:%d [%d] NCCL INFO ", r.host.c_str(), r.pid, tid, r.dev);
    return s;
}

bool firstHalf(const Job& job, int local)
{
    return job.o.gpusPerNode < 2 || local < job.o.gpusPerNode / 2;
}

const char* cpuSet(const Job& job, int local)
{
    return firstHalf(job, local) ? "0-31,64-95" : "32-63,96-127";
}

class Emit
{
public:
    Emit(LineWriter& w, std::string_view prefix)
        : w_(w)
        , prefix_(prefix)
    {
    }
    std::string line;
    void put()
    {
        w_.put(prefix_, line);
        line.clear();
    }
    void put(std::string_view text) { w_.put(prefix_, text); }
    qint64 nextLine() const { return w_.lines() + 1; }
    const QString& path() const { return w_.path(); }

private:
    LineWriter& w_;
    std::string_view prefix_;
};

void info(Emit& e, const std::string& pfx, const char* text)
{
    e.line = pfx;
    e.line += text;
    e.put();
}

// The c10 frames and exception tails, verbatim from a PyTorch 2.7 wheel (addresses invented).
const char* const kLib = "/usr/local/lib/python3.12/dist-packages/torch/lib/";

void frames(Emit& e, const std::vector<const char*>& symbols)
{
    int i = 0;
    for (const char* sym : symbols) {
        const bool libc = std::string_view(sym).starts_with("<unknown");
        appendf(e.line, "frame #%d: %s (0x7f3a%08x in %s%s)", i, sym,
            0x0c2e41d1u + static_cast<unsigned>(i) * 0x1a3u, libc ? "/lib/x86_64-linux-gnu/" : kLib,
            libc         ? "libc.so.6"
                : i == 0 ? "libc10.so"
                         : "libtorch_cuda.so");
        e.put();
        ++i;
    }
}

struct NcclError
{
    const char* text;
    const char* detail;
};

NcclError errorFor(Fault f)
{
    if (f == Fault::IbRetryExceeded)
        return { "remote process exited or there was a network error",
            "ncclRemoteError: A call failed possibly due to a network error or a remote process exiting "
            "prematurely." };
    return {
        "unhandled system error (run with NCCL_DEBUG=INFO for details)",
        "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error. "
    };
}

// The text of the fault's NCCL WARN (after "NCCL WARN ").
std::string warnMessage(const Job& job, const Rank& r)
{
    std::string s;
    switch (job.o.fault) {
    case Fault::IbRetryExceeded: {
        const int next = (r.rank + 1) % job.o.ranks;
        int peerNode = job.nodeOf(next);
        if (peerNode == r.node)
            peerNode = (r.node + 1) % job.nodes;
        appendf(s,
            "NET/IB: Got completion from peer %s<%d> with status=12 opcode=0 len=0 vendor err 129 (Send) hca "
            "mlx5_%d",
            job.ip(peerNode).c_str(), rndInt(job, 2, static_cast<quint64>(r.rank), 0, 32768, 60999), r.nic);
        break;
    }
    case Fault::ShmTooSmall: {
        static constexpr char kAlnum[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
        std::string name;
        for (quint64 i = 0; i < 6; ++i)
            name += kAlnum[rnd(job, 3, static_cast<quint64>(r.rank), i) % 62];
        appendf(s,
            "Error while creating shared memory segment /dev/shm/nccl-%s (size 9637888), error: No space "
            "left "
            "on device (28)",
            name.c_str());
        break;
    }
    case Fault::None:
    case Fault::Hang:
        break;
    }
    return s;
}

void failureBlock(
    std::vector<std::string>& out, const Job& job, int node, int rank, int exitCode, qint64 ms, int idx)
{
    std::string s;
    appendf(s, "[%d]:", idx);
    out.push_back(s);
    out.push_back("  time      : " + summaryTime(ms));
    out.push_back("  host      : " + job.fqdn(node));
    s.clear();
    appendf(s, "  rank      : %d (local_rank: %d)", rank, job.localOf(rank));
    out.push_back(s);
    s.clear();
    appendf(s, "  exitcode  : %d (pid: %d)", exitCode, job.pid(rank));
    out.push_back(s);
    out.push_back("  error_file: <N/A>");
    s.clear();
    if (exitCode < 0)
        appendf(s, "  traceback : Signal 6 (SIGABRT) received by PID %d", job.pid(rank));
    else
        s = "  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html";
    out.push_back(s);
}

} // namespace

// ---- Job ----

int Job::localRanks(int node) const
{
    return std::min(o.gpusPerNode, o.ranks - node * o.gpusPerNode);
}

std::string Job::host(int node) const
{
    std::string s = o.hostPrefix.toStdString();
    appendf(s, "%02d", node + 1);
    return s;
}

std::string Job::fqdn(int node) const
{
    return host(node) + ".cluster.local";
}

std::string Job::ip(int node) const
{
    std::string s;
    appendf(s, "10.10.%d.%d", node / 240, node % 240 + 11);
    return s;
}

int Job::agentPid(int node) const
{
    return 20000 + static_cast<int>(rnd(*this, 4, static_cast<quint64>(node)) % 2000000);
}

int Job::pid(int rank) const
{
    return agentPid(nodeOf(rank)) + 22 + localOf(rank);
}

bool Job::warnFault() const
{
    return o.fault == Fault::IbRetryExceeded || o.fault == Fault::ShmTooSmall;
}

// ---- NCCL ----

void ncclInit(const Job& job, int rank, LineWriter& w, std::string_view prefix)
{
    const Rank r = rankOf(job, rank);
    const std::string p = infoPrefix(r, r.pid);
    const std::string ip = job.ip(r.node);
    const int n = job.o.ranks;
    Emit e(w, prefix);
    info(e, p, "NCCL_SOCKET_IFNAME set by environment to ens1f0");
    appendf(e.line, "%sBootstrap: Using ens1f0:%s<0>", p.c_str(), ip.c_str());
    e.put();
    info(e, p, "cudaDriverVersion 12090");
    info(e, p, "NCCL version 2.27.7+cuda12.9");
    info(e, p, "NET/Plugin: Could not find: libnccl-net.so. ");
    e.line = p + "NCCL_IB_HCA set to ";
    for (int i = 0; i < job.nics; ++i)
        appendf(e.line, "%smlx5_%d", i ? "," : "", i);
    e.put();
    e.line = p + "NET/IB : Using";
    for (int i = 0; i < job.nics; ++i)
        appendf(e.line, " [%d]mlx5_%d:1/IB", i, i);
    appendf(e.line, " [RO]; OOB ens1f0:%s<0>", ip.c_str());
    e.put();
    info(e, p, "Initialized NET plugin IB");
    info(e, p, "Assigned NET plugin IB to comm");
    info(e, p, "Using network IB");
    appendf(e.line, "%sDMA-BUF is available on GPU device %d", p.c_str(), r.dev);
    e.put();
    appendf(e.line,
        "%sncclCommInitRankConfig comm 0x%llx rank %d nranks %d cudaDev %d nvmlDev %d busId %x commId "
        "0x%016llx "
        "- Init START",
        p.c_str(), static_cast<unsigned long long>(r.comm), rank, n, r.dev, r.dev, r.busId,
        static_cast<unsigned long long>(job.commId));
    e.put();
    if (rank == 0)
        info(e, p, "RAS client listening socket at ::1<28028>");
    const double boot = 0.35 + rndUnit(job, 5, static_cast<quint64>(rank)) * 0.1;
    appendf(e.line,
        "%sBootstrap timings total %.6f (create 0.000041, send 0.000198, recv %.6f, ring 0.009874, delay "
        "0.000000)",
        p.c_str(), boot, boot - 0.0101);
    e.put();
    info(e, p, "TUNER/Plugin: Could not find: libnccl-tuner.so. Using internal tuner plugin.");
    appendf(e.line, "%sSetting affinity for GPU %d to %s", p.c_str(), r.dev, cpuSet(job, r.local));
    e.put();
    appendf(e.line, "%scomm 0x%llx rank %d nRanks %d nNodes %d localRanks %d localRank %d MNNVL 0", p.c_str(),
        static_cast<unsigned long long>(r.comm), rank, n, job.nodes, job.localRanks(r.node), r.local);
    e.put();
    if (rank == 0) {
        for (int c = 0; c < 2; ++c) {
            appendf(e.line, "%sChannel %02d/02 :", p.c_str(), c);
            for (int i = 0; i < n; ++i) {
                if (e.line.size() - p.size() > 120) {
                    e.line += " ...";
                    break;
                }
                appendf(e.line, " %d", i);
            }
            e.put();
        }
    }
    const int lr = job.localRanks(r.node);
    const int down = r.local + 1 < lr ? rank + 1 : -1;
    const int up = r.local > 0 ? rank - 1 : (r.node > 0 ? (r.node - 1) / 2 * job.o.gpusPerNode : -1);
    const int child =
        r.local == 0 && (2 * r.node + 1) < job.nodes ? (2 * r.node + 1) * job.o.gpusPerNode : -1;
    appendf(e.line, "%sTrees [0] %d/%d/-1->%d->%d [1] %d/%d/-1->%d->%d", p.c_str(), down, child, rank, up,
        down, child, rank, up);
    e.put();
    info(e, p, "P2P Chunksize set to 131072");
    const int core = firstHalf(job, r.local) ? 2 + r.local * 4 : 34 + (r.local - job.o.gpusPerNode / 2) * 4;
    appendf(e.line, "%s[Proxy Service] Device %d CPU core %d", infoPrefix(r, r.svcTid).c_str(), r.dev, core);
    e.put();
    appendf(e.line, "%s[Proxy Progress] Device %d CPU core %d", infoPrefix(r, r.progTid).c_str(), r.dev,
        core + 1);
    e.put();
    if (rank == 0)
        info(e, p, "Check P2P Type isAllDirectP2p 0 directMode 0");
    const int prev = (rank + n - 1) % n, next = (rank + 1) % n;
    const bool gdrOff = job.o.fault == Fault::IbRetryExceeded && rank == job.o.faultRank;
    const char* gdr = gdrOff ? "" : "/GDRDMA";
    for (int c = 0; c < 2; ++c) {
        if (n > 1 && job.nodeOf(prev) != r.node) {
            appendf(e.line, "%sChannel %02d/0 : %d[%d] -> %d[%d] [receive] via NET/IB/%d%s", p.c_str(), c,
                prev, job.localOf(prev), rank, r.dev, r.nic, gdr);
            e.put();
        }
    }
    for (int c = 0; c < 2; ++c) {
        if (n < 2)
            break;
        if (job.nodeOf(next) == r.node)
            appendf(e.line, "%sChannel %02d/0 : %d[%d] -> %d[%d] via P2P/CUMEM", p.c_str(), c, rank, r.dev,
                next, job.localOf(next));
        else
            appendf(e.line, "%sChannel %02d/0 : %d[%d] -> %d[%d] [send] via NET/IB/%d%s", p.c_str(), c, rank,
                r.dev, next, job.localOf(next), r.nic, gdr);
        e.put();
    }
    info(e, p, "Connected all rings, use ring PXN 0 GDR 1");
    info(e, p, "Connected all trees");
    info(e, p, "threadThresholds 8/8/64 | 64/8/64 | 512 | 512");
    info(e, p,
        "2 coll channels, 2 collnet channels, 0 nvls channels, 2 p2p channels, 2 p2p channels per peer");
    if (rank == 0)
        info(e, p, "CC Off, workFifoBytes 1048576");
    appendf(e.line,
        "%sncclCommInitRankConfig comm 0x%llx rank %d nranks %d cudaDev %d nvmlDev %d busId %x commId "
        "0x%016llx "
        "- Init COMPLETE",
        p.c_str(), static_cast<unsigned long long>(r.comm), rank, n, r.dev, r.dev, r.busId,
        static_cast<unsigned long long>(job.commId));
    e.put();
    appendf(e.line,
        "%sInit timings - ncclCommInitRankConfig: rank %d nranks %d total %.2f (kernels 0.21, alloc 0.03, "
        "bootstrap %.2f, allgathers 0.02, topo 0.35, graphs 0.01, connections 0.52, rest 0.07)",
        p.c_str(), rank, n, boot + 1.21, boot);
    e.put();
}

static bool logsStep(const Job& job, int rank, int step)
{
    return !(job.o.fault == Fault::Hang && rank == job.o.faultRank && step >= job.steps - 1);
}

void ncclStep(const Job& job, int rank, int step, LineWriter& w, std::string_view prefix, FaultMark& hangMark)
{
    if (!logsStep(job, rank, step))
        return;
    const Rank r = rankOf(job, rank);
    Emit e(w, prefix);
    const unsigned long long buf = 0x7f3a40000000ull + (static_cast<unsigned long long>(r.local) << 32);
    appendf(e.line,
        "%s:%d:%d [%d] NCCL INFO AllReduce: opCount %x sendbuff 0x%llx recvbuff 0x%llx count 26214400 "
        "datatype "
        "7 op 0 root 0 comm 0x%llx [nranks=%d] stream 0x%llx",
        r.host.c_str(), r.pid, r.pid, r.dev, static_cast<unsigned>(job.seqNum - job.steps + step), buf, buf,
        static_cast<unsigned long long>(r.comm), job.o.ranks,
        static_cast<unsigned long long>(r.comm + 0x10f0c0));
    if (job.o.fault == Fault::Hang && rank == job.o.faultRank) {
        hangMark.file = e.path();
        hangMark.line = e.nextLine();
    }
    e.put();
}

void torchStep(const Job& job, int rank, int step, LineWriter& w, std::string_view prefix)
{
    if (!logsStep(job, rank, step))
        return;
    const Rank r = rankOf(job, rank);
    const qint64 ms = job.startMs + step * job.stepMs
        + rndInt(job, 6, static_cast<quint64>(rank), static_cast<quint64>(step), 0,
            static_cast<int>(std::min<qint64>(job.stepMs / 4, 40)));
    const double progress = static_cast<double>(step) / std::max(1, job.steps);
    const double loss =
        2.3 + 8.0 * std::exp(-6.0 * progress) + 0.05 * rndUnit(job, 7, static_cast<quint64>(step));
    const double gradNorm = 0.6 + 0.4 * rndUnit(job, 8, static_cast<quint64>(step));
    Emit e(w, prefix);
    appendf(e.line, "[rank%d]:", rank);
    torchHeader(e.line, 'I', ms, r.pid, "train.py:212");
    appendf(e.line, "step %d | loss %.4f | grad_norm %.3f | lr 3.00e-04 | %.2f s/it", step + 1, loss,
        gradNorm, static_cast<double>(job.stepMs) / 1000.0);
    e.put();
}

void ncclFault(const Job& job, int rank, LineWriter& w, std::string_view prefix, FaultMark& mark)
{
    if (!job.warnFault() || rank != job.o.faultRank)
        return;
    const Rank r = rankOf(job, rank);
    Emit e(w, prefix);
    const bool shm = job.o.fault == Fault::ShmTooSmall;
    const int tid = shm ? r.pid : r.progTid;
    const int result = job.o.fault == Fault::IbRetryExceeded ? 6 : 2;
    if (shm) {
        // A node-local group initialises lazily at its first collective; its SHM segment does not fit
        // /dev/shm.
        const std::string p = infoPrefix(r, r.pid);
        const quint64 comm = r.comm + 0x2a7c40;
        const quint64 commId = rnd(job, 9, static_cast<quint64>(r.node));
        appendf(e.line,
            "%sncclCommInitRankConfig comm 0x%llx rank %d nranks %d cudaDev %d nvmlDev %d busId %x commId "
            "0x%016llx - Init START",
            p.c_str(), static_cast<unsigned long long>(comm), r.local, job.localRanks(r.node), r.dev, r.dev,
            r.busId, static_cast<unsigned long long>(commId));
        e.put();
        appendf(e.line, "%sSetting affinity for GPU %d to %s", p.c_str(), r.dev, cpuSet(job, r.local));
        e.put();
        appendf(e.line, "%scomm 0x%llx rank %d nRanks %d nNodes 1 localRanks %d localRank %d MNNVL 0",
            p.c_str(), static_cast<unsigned long long>(comm), r.local, job.localRanks(r.node),
            job.localRanks(r.node), r.local);
        e.put();
    }
    e.put(std::string_view()); // every NCCL WARN starts with "\n"
    e.line = ncclWarnStamp(job.faultMs);
    appendf(e.line, "%s:%d:%d [%d] %s NCCL WARN %s", r.host.c_str(), r.pid, tid, r.dev,
        shm ? "misc/shmutils.cc:121" : "transport/net_ib.cc:2458", warnMessage(job, r).c_str());
    mark.file = e.path();
    mark.line = e.nextLine();
    e.put();
    const std::string p = infoPrefix(r, tid);
    if (shm) {
        for (const char* site :
            { "transport/shm.cc:531", "transport.cc:197", "init.cc:1351", "init.cc:1628" }) {
            appendf(e.line, "%s%s -> %d", p.c_str(), site, result);
            e.put();
        }
    } else {
        appendf(e.line, "%stransport/net.cc:1227 -> %d", p.c_str(), result);
        e.put();
        appendf(e.line, "%sproxy.cc:934 -> %d [Progress Thread]", p.c_str(), result);
        e.put();
    }
}

namespace {

void asyncErrorBlock(const Job& job, const Rank& r, Emit& e)
{
    const NcclError err = errorFor(job.o.fault);
    const std::string warn = warnMessage(job, r);
    const std::string pg = "[PG ID 0 PG GUID 0(default_pg) Rank " + std::to_string(r.rank) + "]";
    int nanos = rndInt(job, 10, static_cast<quint64>(r.rank), 0, 100000000, 800000000);
    auto header = [&](const char* fileLine) {
        c10Header(e.line, r.rank, job.faultMs, nanos, fileLine);
        nanos += rndInt(job, 11, static_cast<quint64>(nanos), 0, 5000, 300000);
    };
    auto exceptionTail = [&](bool full) {
        e.line = err.detail;
        e.put();
        e.put("Last error:");
        e.put(warn);
        e.put("Exception raised from checkForNCCLErrorsInternal at "
              "/pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:2311 (most recent call first):");
        if (full)
            frames(e,
                { "c10::Error::Error(c10::SourceLocation, std::string) + 0x98",
                    "c10d::ProcessGroupNCCL::checkForNCCLErrorsInternal(std::shared_ptr<c10d::NCCLComm>&) + "
                    "0x2a1",
                    "c10d::ProcessGroupNCCL::WorkNCCL::checkAndSetException() + 0x7c",
                    "c10d::ProcessGroupNCCL::watchdogHandler() + 0x6a4",
                    "c10d::ProcessGroupNCCL::ncclCommWatchdog() + 0x14d", "<unknown function> + 0x9caa4" });
        else
            frames(e,
                { "c10::Error::Error(c10::SourceLocation, std::string) + 0x98",
                    "c10d::ProcessGroupNCCL::checkForNCCLErrorsInternal(std::shared_ptr<c10d::NCCLComm>&) + "
                    "0x2a1" });
        e.put("");
    };
    header("ProcessGroupNCCL.cpp:593");
    appendf(e.line,
        "[Rank %d] Collective WorkNCCL(SeqNum=%d, OpType=ALLREDUCE, NumelIn=26214400, NumelOut=26214400, "
        "Timeout(ms)=600000) raised the following async exception: NCCL error: %s, NCCL version 2.27.7",
        r.rank, job.seqNum, err.text);
    e.put();
    exceptionTail(true);
    header("ProcessGroupNCCL.cpp:2168");
    appendf(e.line,
        "%s  failure detected by watchdog at work sequence id: %d PG status: last enqueued work: %d, "
        "last completed work: %d",
        pg.c_str(), job.seqNum, job.seqNum, job.seqNum - 1);
    e.put();
    header("ProcessGroupNCCL.cpp:667");
    e.line +=
        "Stack trace of the failed collective not found, potentially because FlightRecorder is disabled. You "
        "can enable it by setting TORCH_NCCL_TRACE_BUFFER_SIZE to a non-zero value.";
    e.put();
    header("ProcessGroupNCCL.cpp:681");
    appendf(e.line,
        "[Rank %d] Some NCCL operations have failed or timed out. Due to the asynchronous nature of "
        "CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data.",
        r.rank);
    e.put();
    header("ProcessGroupNCCL.cpp:695");
    appendf(e.line, "[Rank %d] To avoid data inconsistency, we are taking the entire process down.", r.rank);
    e.put();
    header("ProcessGroupNCCL.cpp:1895");
    appendf(e.line,
        "%s Process group watchdog thread terminated with exception: NCCL error: %s, NCCL version 2.27.7",
        pg.c_str(), err.text);
    e.put();
    exceptionTail(true);
    e.put("terminate called after throwing an instance of 'c10::DistBackendError'");
    appendf(e.line,
        "  what():  %s Process group watchdog thread terminated with exception: NCCL error: %s, NCCL "
        "version 2.27.7",
        pg.c_str(), err.text);
    e.put();
    exceptionTail(false);
}

void timeoutBlock(const Job& job, const Rank& r, Emit& e)
{
    const qint64 ms = job.faultMs + 600000 + rndInt(job, 12, static_cast<quint64>(r.rank), 0, 0, 300);
    const int ranFor = 600000 + rndInt(job, 13, static_cast<quint64>(r.rank), 0, 5, 90);
    const std::string pg = "[PG ID 0 PG GUID 0(default_pg) Rank " + std::to_string(r.rank) + "]";
    int nanos = rndInt(job, 14, static_cast<quint64>(r.rank), 0, 100000000, 800000000);
    std::string timeout;
    appendf(timeout,
        "[Rank %d] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=%d, OpType=ALLREDUCE, "
        "NumelIn=26214400, NumelOut=26214400, Timeout(ms)=600000) ran for %d milliseconds before timing out.",
        r.rank, job.seqNum, ranFor);
    auto header = [&](const char* fileLine) {
        c10Header(e.line, r.rank, ms, nanos, fileLine);
        nanos += rndInt(job, 15, static_cast<quint64>(nanos), 0, 5000, 300000);
    };
    auto tail = [&](bool full) {
        e.put("Exception raised from checkTimeout at "
              "/pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:632 "
              "(most recent call first):");
        std::vector<const char*> syms = { "c10::Error::Error(c10::SourceLocation, std::string) + 0x98",
            "c10d::ProcessGroupNCCL::WorkNCCL::checkTimeout(std::optional<std::chrono::"
            "duration<long, std::ratio<1l, 1000l> > >) + 0x2b4" };
        if (full) {
            syms.push_back("c10d::ProcessGroupNCCL::watchdogHandler() + 0x890");
            syms.push_back("c10d::ProcessGroupNCCL::ncclCommWatchdog() + 0x14d");
            syms.push_back("<unknown function> + 0x9caa4");
        }
        frames(e, syms);
        e.put("");
    };
    header("ProcessGroupNCCL.cpp:632");
    e.line += timeout;
    e.put();
    header("ProcessGroupNCCL.cpp:2168");
    appendf(e.line,
        "%s  failure detected by watchdog at work sequence id: %d PG status: last enqueued work: %d, "
        "last completed work: %d",
        pg.c_str(), job.seqNum, job.seqNum, job.seqNum - 1);
    e.put();
    header("ProcessGroupNCCL.cpp:667");
    e.line +=
        "Stack trace of the failed collective not found, potentially because FlightRecorder is disabled. You "
        "can enable it by setting TORCH_NCCL_TRACE_BUFFER_SIZE to a non-zero value.";
    e.put();
    header("ProcessGroupNCCL.cpp:2004");
    appendf(e.line, "%s First PG on this rank to signal dumping.", pg.c_str());
    e.put();
    header("ProcessGroupNCCL.cpp:681");
    appendf(e.line,
        "[Rank %d] Some NCCL operations have failed or timed out. Due to the asynchronous nature of "
        "CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data.",
        r.rank);
    e.put();
    header("ProcessGroupNCCL.cpp:695");
    appendf(e.line, "[Rank %d] To avoid data inconsistency, we are taking the entire process down.", r.rank);
    e.put();
    header("ProcessGroupNCCL.cpp:1895");
    appendf(e.line, "%s Process group watchdog thread terminated with exception: %s", pg.c_str(),
        timeout.c_str());
    e.put();
    tail(true);
    e.put("terminate called after throwing an instance of 'c10::DistBackendError'");
    appendf(e.line, "  what():  %s Process group watchdog thread terminated with exception: %s", pg.c_str(),
        timeout.c_str());
    e.put();
    tail(false);
}

// The Python exception of a rank whose lazily created node-local communicator failed (torch prefixes
// tracebacks with [rankN]: once the process group exists).
void shmTraceback(const Job& job, const Rank& r, Emit& e)
{
    const NcclError err = errorFor(job.o.fault);
    std::string pre;
    appendf(pre, "[rank%d]: ", r.rank);
    const std::vector<std::string> lines = {
        "Traceback (most recent call last):",
        "  File \"/workspace/train.py\", line 311, in <module>",
        "    main()",
        "  File \"/workspace/train.py\", line 287, in main",
        "    dist.all_reduce(grad_sq, group=node_group)",
        "  File \"/usr/local/lib/python3.12/dist-packages/torch/distributed/c10d_logger.py\", line 81, in "
        "wrapper",
        "    return func(*args, **kwargs)",
        "           ^^^^^^^^^^^^^^^^^^^^^",
        "  File \"/usr/local/lib/python3.12/dist-packages/torch/distributed/distributed_c10d.py\", line "
        "2810, in "
        "all_reduce",
        "    work = group.allreduce([tensor], opts)",
        "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
        std::string("torch.distributed.DistBackendError: NCCL error in: "
                    "/pytorch/torch/csrc/distributed/c10d/NCCLUtils.cpp:77, ")
            + err.text + ", NCCL version 2.27.7",
        err.detail,
        "Last error:",
        warnMessage(job, r),
    };
    for (const std::string& l : lines) {
        e.line = pre + l;
        e.put();
    }
}

} // namespace

void torchFault(const Job& job, int rank, LineWriter& w, std::string_view prefix)
{
    if (job.o.fault == Fault::None)
        return;
    const Rank r = rankOf(job, rank);
    Emit e(w, prefix);
    if (rank == job.o.faultRank) {
        if (job.o.fault == Fault::ShmTooSmall)
            shmTraceback(job, r, e);
        else if (job.o.fault != Fault::Hang)
            asyncErrorBlock(job, r, e);
        return;
    }
    // The fault node's agent SIGTERMs its other workers as soon as the fault rank exits.
    if (job.warnFault() && r.node == job.nodeOf(job.o.faultRank))
        return;
    timeoutBlock(job, r, e);
}

// ---- torchrun agent ----

void agentStart(const Job& job, int node, LineWriter& w)
{
    Emit e(w, {});
    const int apid = job.agentPid(node);
    const char* lines[] = {
        "",
        "*****************************************",
        "Setting OMP_NUM_THREADS environment variable for each process to be 1 in default, to avoid your "
        "system "
        "being overloaded, please further tune the variable for optimal performance in your application as "
        "needed. ",
        "*****************************************",
    };
    for (const char* l : lines) {
        torchHeader(e.line, 'W', job.launchMs, apid, "torch/distributed/run.py:766");
        e.line += l;
        e.put();
    }
}

void agentEnd(const Job& job, int node, LineWriter& w)
{
    Emit e(w, {});
    const int apid = job.agentPid(node);
    const int lr = job.localRanks(node);
    const int base = node * job.o.gpusPerNode;
    if (job.o.fault == Fault::None) {
        torchHeader(
            e.line, 'I', job.faultMs + 2000, apid, "torch/distributed/elastic/agent/server/api.py:879");
        e.line +=
            "[default] worker group successfully finished. Waiting 300 seconds for other agents to finish.";
        e.put();
        return;
    }
    const bool faultNode = node == job.nodeOf(job.o.faultRank);
    std::vector<int> failed;
    std::vector<int> terminated;
    int exitCode = -6;
    qint64 failMs = job.faultMs + 601000;
    if (faultNode && job.warnFault()) {
        failed.push_back(job.o.faultRank);
        for (int l = 0; l < lr; ++l) {
            if (base + l != job.o.faultRank)
                terminated.push_back(base + l);
        }
        failMs = job.faultMs + 1000;
        if (job.o.fault == Fault::ShmTooSmall)
            exitCode = 1;
    } else {
        for (int l = 0; l < lr; ++l) {
            if (base + l == job.o.faultRank)
                terminated.push_back(base + l); // the hung rank never exits by itself
            else
                failed.push_back(base + l);
        }
    }
    if (failed.empty())
        return;
    for (int rank : terminated) {
        torchHeader(e.line, 'W', failMs, apid, "torch/distributed/elastic/multiprocessing/api.py:900");
        appendf(e.line, "Sending process %d closing signal SIGTERM", job.pid(rank));
        e.put();
    }
    torchHeader(e.line, 'E', failMs + 480, apid, "torch/distributed/elastic/multiprocessing/api.py:874");
    appendf(e.line, "failed (exitcode: %d) local_rank: %d (pid: %d) of binary: /usr/bin/python3", exitCode,
        job.localOf(failed.front()), job.pid(failed.front()));
    e.put();
    for (const char* l : {
             "Traceback (most recent call last):",
             "  File \"/usr/local/bin/torchrun\", line 8, in <module>",
             "    sys.exit(main())",
             "             ^^^^^^",
             "  File "
             "\"/usr/local/lib/python3.12/dist-packages/torch/distributed/elastic/multiprocessing/errors/"
             "__init__.py\", line 357, in wrapper",
             "    return f(*args, **kwargs)",
             "           ^^^^^^^^^^^^^^^^^^",
             "  File \"/usr/local/lib/python3.12/dist-packages/torch/distributed/run.py\", line 901, in main",
             "    run(args)",
             "  File \"/usr/local/lib/python3.12/dist-packages/torch/distributed/run.py\", line 892, in run",
             "    elastic_launch(",
             "  File \"/usr/local/lib/python3.12/dist-packages/torch/distributed/launcher/api.py\", line "
             "143, in "
             "__call__",
             "    return launch_agent(self._config, self._entrypoint, list(args))",
             "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
             "  File \"/usr/local/lib/python3.12/dist-packages/torch/distributed/launcher/api.py\", line "
             "277, in "
             "launch_agent",
             "    raise ChildFailedError(",
             "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ",
         })
        e.put(l);
    // ChildFailedError.format_msg(): root = earliest failure, ties by dict order (the first local rank).
    const qint64 whole = failMs / 1000 * 1000;
    std::vector<std::string> root, others;
    failureBlock(root, job, node, failed.front(), exitCode, whole, 0);
    for (std::size_t i = 1; i < failed.size(); ++i)
        failureBlock(others, job, node, failed[i], exitCode, whole, static_cast<int>(i));
    const std::string title = "train.py FAILED";
    std::size_t width = title.size();
    for (const auto* block : { &root, &others }) {
        for (const std::string& l : *block)
            width = std::max(width, l.size());
    }
    const std::string eq(std::min<std::size_t>(width, 60), '='), dash(eq.size(), '-');
    e.put(eq);
    e.put(title);
    e.put(dash);
    e.put("Failures:");
    if (others.empty())
        e.put("  <NO_OTHER_FAILURES>");
    for (const std::string& l : others)
        e.put(l);
    e.put(dash);
    e.put("Root Cause (first observed failure):");
    for (const std::string& l : root)
        e.put(l);
    e.put(eq);
}

// ---- application lines (the bench's shapes) ----

namespace {

// Python logging's default asctime: "2026-03-14 02:05:11,207".
void pyStamp(std::string& out, qint64 ms)
{
    const Civil c = civil(ms);
    appendf(out, "%04d-%02d-%02d %02d:%02d:%02d,%03d", c.y, c.mo, c.d, c.h, c.mi, c.s, c.ms);
}

qint64 stepStart(const Job& job, int rank, int step)
{
    return job.startMs + step * job.stepMs
        + rndInt(job, 6, static_cast<quint64>(rank), static_cast<quint64>(step), 0,
            static_cast<int>(std::min<qint64>(job.stepMs / 4, 40)));
}

} // namespace

void appLogStep(const Job& job, int rank, int step, int lines, LineWriter& w, std::string_view prefix)
{
    if (!logsStep(job, rank, step))
        return;
    Emit e(w, prefix);
    const qint64 ms = stepStart(job, rank, step);
    const double progress = static_cast<double>(step) / std::max(1, job.steps);
    const double loss =
        2.3 + 8.0 * std::exp(-6.0 * progress) + 0.05 * rndUnit(job, 7, static_cast<quint64>(step));
    const double u = rndUnit(job, 9, static_cast<quint64>(rank), static_cast<quint64>(step));
    const int n = std::clamp(lines, 1, 4);
    pyStamp(e.line, ms);
    appendf(e.line, " - INFO - train.py:88 - rank %d: step %d loss %.4f lr 3.00e-04 tokens/s %d", rank,
        step + 1, loss, 410000 + static_cast<int>(u * 9000));
    e.put();
    if (n > 1) {
        pyStamp(e.line, ms + 3);
        appendf(e.line, " - INFO - data.py:141 - rank %d: batch %d fetched in %.1f ms (queue depth %d)", rank,
            step + 1, 2.0 + 6.0 * u, 1 + static_cast<int>(u * 7));
        e.put();
    }
    if (n > 2) {
        pyStamp(e.line, ms + 5);
        appendf(e.line, " - DEBUG - optim.py:57 - rank %d: grad_norm %.3f clip 1.0 loss_scale 65536.0", rank,
            0.6 + 0.4 * u);
        e.put();
    }
    if (n > 3) {
        pyStamp(e.line, ms + 9);
        appendf(e.line, " - INFO - metrics.py:33 - rank %d: throughput %.1f samples/s mfu %.3f", rank,
            96.0 + 4.0 * u, 0.41 + 0.02 * u);
        e.put();
    }
}

void tqdmStep(const Job& job, int step, LineWriter& w, std::string_view prefix)
{
    // tqdm rewrites its bar in place: updates separated by '\r', one '\n' when the line is left.
    Emit e(w, prefix);
    const int total = std::max(1, job.steps) * 4; // four micro-batches a step, one update each
    for (int k = 1; k <= 4; ++k) {
        const int done = std::min(total, step * 4 + k);
        const int pct = done * 100 / total;
        const int bar = pct / 10;
        appendf(e.line, "\rtrain: %3d%%|%.*s%.*s| %d/%d [%02d:%02d<%02d:%02d, %.2fit/s]", pct, bar,
            "##########", 10 - bar, "          ", done, total, done / 60 % 60, done % 60,
            (total - done) / 60 % 60, (total - done) % 60, 4000.0 / static_cast<double>(job.stepMs));
    }
    e.put();
}

void warningPair(const Job& job, int rank, int step, LineWriter& w, std::string_view prefix)
{
    if (!logsStep(job, rank, step))
        return;
    Emit e(w, prefix);
    e.put("/usr/local/lib/python3.12/dist-packages/torch/utils/checkpoint.py:295: FutureWarning: "
          "`torch.cpu.amp.autocast(args...)` is deprecated. Please use `torch.amp.autocast('cpu', args...)` "
          "instead.");
    e.put("  with torch.enable_grad(), device_autocast_ctx, "
          "torch.cpu.amp.autocast(**ctx.cpu_autocast_kwargs):  "
          "# type: ignore[attr-defined]");
    e.put("/usr/local/lib/python3.12/dist-packages/torch/nn/modules/module.py:1747: UserWarning: "
          "Using a non-full backward hook when the forward contains multiple autograd Nodes is deprecated.");
    e.put("  warnings.warn(");
}

} // namespace rankscope::testgen::detail
