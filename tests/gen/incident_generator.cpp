// SPDX-License-Identifier: MIT
#include "incident_generator.h"

#include "incident_lines.h"

#include <QDir>
#include <QFileInfo>
#include <algorithm>
#include <functional>
#include <vector>

namespace rankscope::testgen {

using namespace detail;

namespace {

constexpr qint64 kFaultMs = 1773454664000; // 2026-03-14T02:17:44Z, the sample job's WARN
constexpr int kSmallSteps = 20;
constexpr int kHealthyExtraSteps = 5;
constexpr qint64 kMaxSpanMs = 6 * 3600 * 1000; // a long run squeezes its steps into six hours

// Writes (or, in a dry run, only measures) every file of one layout.
class Composer
{
public:
    Composer(const Job& job, const QString& outDir, bool dryRun, int firstStep, int endStep)
        : job_(job)
        , dir_(outDir)
        , dryRun_(dryRun)
        , first_(firstStep)
        , end_(endStep)
    {
        for (int l = 0; l < job.o.gpusPerNode; ++l)
            prefixes_.push_back("[default" + std::to_string(l) + "]:");
        if (job.o.layout == Layout::GlogConsole || job.o.layout == Layout::SrunLabelled) {
            for (int r = 0; r < job.o.ranks; ++r) {
                rankPrefixes_.push_back("[rank" + std::to_string(r) + "]:");
                taskLabels_.push_back(std::to_string(r) + ": ");
            }
        }
    }

    bool run()
    {
        switch (job_.o.layout) {
        case Layout::PerRankFiles:
            return perRank();
        case Layout::NcclDebugFiles:
            return ncclDebugFiles();
        case Layout::TorchrunLogDir:
            return torchrunLogDir();
        case Layout::Combined:
            return combined();
        case Layout::PythonLogging:
            return pythonLogging();
        case Layout::TorchrunConsole:
            return torchrunConsole();
        case Layout::GlogConsole:
            return labelledConsole(QStringLiteral("console.log"), rankPrefixes_, false);
        case Layout::SrunLabelled:
            return labelledConsole(QStringLiteral("slurm.out"), taskLabels_, true);
        }
        return false;
    }

    qint64 bytes = 0;
    int files = 0;
    FaultMark mark, hangMark;
    QString error;

private:
    using Body = std::function<void(LineWriter&)>;

    bool file(const QString& relative, const Body& body)
    {
        LineWriter w;
        if (!dryRun_) {
            const QString path =
                dir_.absoluteFilePath(job_.o.gzip ? relative + QStringLiteral(".gz") : relative);
            if (!QDir().mkpath(QFileInfo(path).absolutePath())) {
                error = QStringLiteral("cannot create folder %1").arg(QFileInfo(path).absolutePath());
                return false;
            }
            if (!w.open(path, job_.o.gzip)) {
                error = w.error();
                return false;
            }
        }
        body(w);
        if (!w.close()) {
            error = w.error();
            return false;
        }
        bytes += w.bytes();
        ++files;
        return true;
    }

    std::string_view prefix(int rank) const
    {
        return prefixes_[static_cast<std::size_t>(job_.localOf(rank))];
    }
    QString host(int node) const { return QString::fromStdString(job_.host(node)); }
    int nodeBase(int node) const { return node * job_.o.gpusPerNode; }

    bool perRank()
    {
        for (int r = 0; r < job_.o.ranks; ++r) {
            const bool ok =
                file(QStringLiteral("rank-%1.log").arg(r, 4, 10, QLatin1Char('0')), [&](LineWriter& w) {
                    ncclInit(job_, r, w, {});
                    for (int s = first_; s < end_; ++s) {
                        torchStep(job_, r, s, w, {});
                        ncclStep(job_, r, s, w, {}, hangMark);
                    }
                    ncclFault(job_, r, w, {}, mark);
                    torchFault(job_, r, w, {});
                });
            if (!ok)
                return false;
        }
        return true;
    }

    // NCCL_DEBUG_FILE=nccl.%h.%p.log and torchrun --tee 3 on every node.
    bool ncclDebugFiles()
    {
        for (int r = 0; r < job_.o.ranks; ++r) {
            const QString name = QStringLiteral("nccl.%1.%2.log").arg(host(job_.nodeOf(r))).arg(job_.pid(r));
            if (!file(name, [&](LineWriter& w) { ncclStream(r, w, {}); }))
                return false;
        }
        for (int n = 0; n < job_.nodes; ++n) {
            const QString name = QStringLiteral("torchrun.%1.console.log").arg(host(n));
            const bool ok = file(name, [&](LineWriter& w) {
                agentStart(job_, n, w);
                const int base = nodeBase(n), lr = job_.localRanks(n);
                for (int s = first_; s < end_; ++s) {
                    for (int r = base; r < base + lr; ++r)
                        torchStep(job_, r, s, w, prefix(r));
                }
                for (int r = base; r < base + lr; ++r)
                    torchFault(job_, r, w, prefix(r));
                agentEnd(job_, n, w);
            });
            if (!ok)
                return false;
        }
        return true;
    }

    // torchrun --log-dir: <log_dir>/<run_id>_<random>/attempt_0/<local_rank>/{stdout,stderr}.log, one run
    // folder per node agent; NCCL's default destination is stdout.
    bool torchrunLogDir()
    {
        for (int n = 0; n < job_.nodes; ++n) {
            const QString run = QStringLiteral("none_%1").arg(
                static_cast<qint64>(job_.agentPid(n)) * 7919 % 99991 + 100000, 0, 36);
            const int base = nodeBase(n), lr = job_.localRanks(n);
            for (int r = base; r < base + lr; ++r) {
                const QString dir = QStringLiteral("%1/attempt_0/%2/").arg(run).arg(job_.localOf(r));
                if (!file(dir + QStringLiteral("stdout.log"), [&](LineWriter& w) { ncclStream(r, w, {}); }))
                    return false;
                const bool ok = file(dir + QStringLiteral("stderr.log"), [&](LineWriter& w) {
                    for (int s = first_; s < end_; ++s)
                        torchStep(job_, r, s, w, {});
                    torchFault(job_, r, w, {});
                });
                if (!ok)
                    return false;
            }
            const QString console = QStringLiteral("torchrun.%1.console.log").arg(host(n));
            const bool ok = file(console, [&](LineWriter& w) {
                agentStart(job_, n, w);
                agentEnd(job_, n, w);
            });
            if (!ok)
                return false;
        }
        return true;
    }

    // Every node's torchrun console (--tee 3) collected into one file, in time order.
    bool combined()
    {
        return file(QStringLiteral("console.log"), [&](LineWriter& w) {
            const int fr = job_.o.fault == Fault::None ? -1 : job_.o.faultRank;
            const int faultNode = fr < 0 ? -1 : job_.nodeOf(fr);
            for (int n = 0; n < job_.nodes; ++n)
                agentStart(job_, n, w);
            for (int r = 0; r < job_.o.ranks; ++r)
                ncclInit(job_, r, w, prefix(r));
            for (int s = first_; s < end_; ++s) {
                for (int r = 0; r < job_.o.ranks; ++r) {
                    torchStep(job_, r, s, w, prefix(r));
                    ncclStep(job_, r, s, w, prefix(r), hangMark);
                }
            }
            if (fr >= 0) {
                ncclFault(job_, fr, w, prefix(fr), mark);
                torchFault(job_, fr, w, prefix(fr));
            }
            const bool earlyAgent = job_.warnFault(); // the fault node's agent reacts within a second
            if (earlyAgent)
                agentEnd(job_, faultNode, w);
            for (int r = 0; r < job_.o.ranks; ++r) {
                if (r != fr)
                    torchFault(job_, r, w, prefix(r));
            }
            for (int n = 0; n < job_.nodes; ++n) {
                if (!(earlyAgent && n == faultNode))
                    agentEnd(job_, n, w);
            }
        });
    }

    // Per-rank files whose bulk is application logging: four logging lines, then NCCL's, every step.
    bool pythonLogging()
    {
        for (int r = 0; r < job_.o.ranks; ++r) {
            const bool ok =
                file(QStringLiteral("rank-%1.log").arg(r, 4, 10, QLatin1Char('0')), [&](LineWriter& w) {
                    ncclInit(job_, r, w, {});
                    for (int s = first_; s < end_; ++s) {
                        appLogStep(job_, r, s, 4, w, {});
                        ncclStep(job_, r, s, w, {}, hangMark);
                    }
                    ncclFault(job_, r, w, {}, mark);
                    torchFault(job_, r, w, {});
                });
            if (!ok)
                return false;
        }
        return true;
    }

    // torchrun --tee 3 of every node in one file: each step, every rank's logging and NCCL lines, local
    // rank 0's tqdm bar, and every 50 steps a warnings.warn pair per rank.
    bool torchrunConsole()
    {
        return file(QStringLiteral("console.log"), [&](LineWriter& w) {
            const int fr = job_.o.fault == Fault::None ? -1 : job_.o.faultRank;
            for (int n = 0; n < job_.nodes; ++n)
                agentStart(job_, n, w);
            for (int r = 0; r < job_.o.ranks; ++r)
                ncclInit(job_, r, w, prefix(r));
            for (int s = first_; s < end_; ++s) {
                for (int r = 0; r < job_.o.ranks; ++r) {
                    appLogStep(job_, r, s, 2, w, prefix(r));
                    ncclStep(job_, r, s, w, prefix(r), hangMark);
                    if (job_.localOf(r) == 0)
                        tqdmStep(job_, s, w, prefix(r));
                    if (s % 50 == 1)
                        warningPair(job_, r, s, w, prefix(r));
                }
            }
            faultTail(w, fr, [&](int r) { return prefix(r); });
        });
    }

    // One console, each rank's lines behind its own prefix ([rankN]: or srun -l's "N: "). PyTorch's own
    // lines carry [rankN]: already: under glog prefixes they are written as they are.
    bool labelledConsole(const QString& name, const std::vector<std::string>& labels, bool labelTorch)
    {
        return file(name, [&](LineWriter& w) {
            const int fr = job_.o.fault == Fault::None ? -1 : job_.o.faultRank;
            auto label = [&](int r) { return std::string_view(labels[static_cast<std::size_t>(r)]); };
            auto torchLabel = [&](int r) { return labelTorch ? label(r) : std::string_view(); };
            for (int r = 0; r < job_.o.ranks; ++r)
                ncclInit(job_, r, w, label(r));
            for (int s = first_; s < end_; ++s) {
                for (int r = 0; r < job_.o.ranks; ++r) {
                    torchStep(job_, r, s, w, torchLabel(r));
                    ncclStep(job_, r, s, w, label(r), hangMark);
                }
            }
            faultTail(w, fr, torchLabel);
        });
    }

    template <typename Prefix> void faultTail(LineWriter& w, int fr, const Prefix& pre)
    {
        if (fr >= 0) {
            ncclFault(job_, fr, w, pre(fr), mark);
            torchFault(job_, fr, w, pre(fr));
        }
        for (int r = 0; r < job_.o.ranks; ++r) {
            if (r != fr)
                torchFault(job_, r, w, pre(r));
        }
    }

    void ncclStream(int r, LineWriter& w, std::string_view pre)
    {
        ncclInit(job_, r, w, pre);
        for (int s = first_; s < end_; ++s)
            ncclStep(job_, r, s, w, pre, hangMark);
        ncclFault(job_, r, w, pre, mark);
    }

    const Job& job_;
    QDir dir_;
    bool dryRun_;
    int first_, end_;
    std::vector<std::string> prefixes_;
    std::vector<std::string> rankPrefixes_; // [rankN]:
    std::vector<std::string> taskLabels_; // "N: " (srun -l)
};

void setSteps(Job& job, int steps)
{
    job.steps = steps;
    job.seqNum = steps + 12; // a few warm-up collectives precede the first step
    job.stepMs = 1930;
    if (static_cast<qint64>(steps) * job.stepMs > kMaxSpanMs)
        job.stepMs = std::max<qint64>(1, kMaxSpanMs / steps);
    job.startMs = job.faultMs - static_cast<qint64>(steps) * job.stepMs - 2000;
    job.launchMs = job.startMs - 25000;
}

qint64 measure(const Job& job, int first, int end)
{
    Composer c(job, QString(), true, first, end);
    c.run();
    return c.bytes;
}

// Enough steps for the target size: fixed part (init, fault, summaries) plus steps of measured size.
int stepsFor(Job job, qint64 target)
{
    setSteps(job, kSmallSteps);
    const qint64 fixed = measure(job, 0, 0);
    qint64 perStep = std::max<qint64>(1, measure(job, 0, 1) - fixed);
    int steps = static_cast<int>(std::clamp<qint64>((target - fixed) / perStep, 1, 100000000));
    // Numbers grow wider with the step: re-measure in the middle of the run.
    setSteps(job, steps);
    perStep = std::max<qint64>(1, measure(job, steps / 2, steps / 2 + 1) - fixed);
    return static_cast<int>(std::clamp<qint64>((target - fixed) / perStep, 1, 100000000));
}

QString validate(const GenOptions& o)
{
    if (o.ranks < 1 || o.ranks > 1000000)
        return QStringLiteral("ranks must be in 1..1000000 (got %1)").arg(o.ranks);
    if (o.gpusPerNode < 1 || o.gpusPerNode > 64)
        return QStringLiteral("gpusPerNode must be in 1..64 (got %1)").arg(o.gpusPerNode);
    if (o.fault != Fault::None && (o.faultRank < 0 || o.faultRank >= o.ranks))
        return QStringLiteral("faultRank %1 is outside 0..%2").arg(o.faultRank).arg(o.ranks - 1);
    if (o.targetBytes < 0)
        return QStringLiteral("targetBytes must not be negative (got %1)").arg(o.targetBytes);
    if (o.hostPrefix.isEmpty())
        return QStringLiteral("hostPrefix must not be empty");
    return {};
}

} // namespace

GenResult generateIncident(const GenOptions& o, const QString& outDir)
{
    GenResult result;
    result.error = validate(o);
    if (!result.error.isEmpty())
        return result;
    if (!QDir().mkpath(outDir)) {
        result.error = QStringLiteral("cannot create output folder %1").arg(outDir);
        return result;
    }
    Job job;
    job.o = o;
    job.nodes = (o.ranks + o.gpusPerNode - 1) / o.gpusPerNode;
    job.nics = std::min(o.gpusPerNode, 8);
    job.faultMs = kFaultMs;
    job.commId = (static_cast<quint64>(o.seed) * 0x9e3779b97f4a7c15ull) ^ 0x6b1f0c2a9e7d4431ull;
    // A healthy small run gets past the step where the faulty ones fail, as a fixed job would.
    const int smallSteps = o.fault == Fault::None ? kSmallSteps + kHealthyExtraSteps : kSmallSteps;
    setSteps(job, o.targetBytes == 0 ? smallSteps : stepsFor(job, o.targetBytes));

    Composer c(job, QDir(outDir).absolutePath(), false, 0, job.steps);
    if (!c.run()) {
        result.error = c.error;
        return result;
    }
    result.files = c.files;
    result.bytes = c.bytes;
    if (o.fault != Fault::None) {
        result.faultRank = o.faultRank;
        result.faultHost = QString::fromStdString(job.host(job.nodeOf(o.faultRank)));
        const FaultMark& m = o.fault == Fault::Hang ? c.hangMark : c.mark;
        result.faultFile = m.file;
        result.faultLine = m.line;
    }
    return result;
}

bool parseFault(const QString& name, Fault& out)
{
    static const std::pair<const char*, Fault> names[] = { { "none", Fault::None },
        { "ib", Fault::IbRetryExceeded }, { "shm", Fault::ShmTooSmall }, { "hang", Fault::Hang } };
    for (const auto& [n, f] : names) {
        if (name == QLatin1String(n)) {
            out = f;
            return true;
        }
    }
    return false;
}

bool parseLayout(const QString& name, Layout& out)
{
    static const std::pair<const char*, Layout> names[] = { { "per-rank", Layout::PerRankFiles },
        { "nccl", Layout::NcclDebugFiles }, { "torchrun", Layout::TorchrunLogDir },
        { "combined", Layout::Combined }, { "pylog", Layout::PythonLogging },
        { "console", Layout::TorchrunConsole }, { "glog", Layout::GlogConsole },
        { "srun", Layout::SrunLabelled } };
    for (const auto& [n, l] : names) {
        if (name == QLatin1String(n)) {
            out = l;
            return true;
        }
    }
    return false;
}

qint64 parseSize(const QString& text)
{
    QString t = text.trimmed().toUpper();
    if (t.endsWith(QLatin1Char('B')))
        t.chop(1);
    qint64 unit = 1;
    if (!t.isEmpty()) {
        const QChar last = t.back();
        if (last == QLatin1Char('K'))
            unit = qint64(1) << 10;
        else if (last == QLatin1Char('M'))
            unit = qint64(1) << 20;
        else if (last == QLatin1Char('G'))
            unit = qint64(1) << 30;
        if (unit != 1)
            t.chop(1);
    }
    bool ok = false;
    const double value = t.toDouble(&ok);
    if (!ok || value < 0 || value * static_cast<double>(unit) > 1e15)
        return -1;
    return static_cast<qint64>(value * static_cast<double>(unit));
}

} // namespace rankscope::testgen
