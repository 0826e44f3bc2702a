// SPDX-License-Identifier: MIT
// The cue table of the launch detector. Each literal below was taken from real log lines of public
// threads (tests/data/launch/README.md names them) and holds, case-insensitively, one of kLaunchPhrases
// (tst_launch_detect checks that): the scanner asks only lines the prefilter passed.
#include "launch_detect.h"

#include "text_util.h"

#include <QString>
#include <array>
#include <cstring>

namespace rankscope {

namespace {

enum class Where : quint8
{
    Anywhere,
    LineStart, // at the start of the line or of its message ("srun: error: ...")
    Word, // not inside a longer name ("megatron/" but not "mymegatron/")
    EnvName, // SLURM_ followed by an upper-case letter, not in a path ("/slurm_logs/" is no Slurm)
    GpuAvailable, // Lightning's "GPU available: True (cuda), used: True"
    LocalRankDevices, // Lightning's "LOCAL_RANK: 0 - CUDA_VISIBLE_DEVICES: [0,1]"
    EngineInit, // vLLM's "Initializing an LLM engine (v0.6.4) with config: ..."
};

struct Cue
{
    LaunchKind kind;
    std::string_view literal;
    Where where = Where::Anywhere;
    // Looked for on WARN-or-worse lines, which the scanner reads whatever the prefilter says: c10d's
    // "ProcessGroupNCCL" is in every PyTorch warning, and as a prefilter atom it would pass them all.
    bool warnLines = false;
};

constexpr Cue kCues[] = {
    { LaunchKind::Torchrun, "torch.distributed.run" },
    { LaunchKind::Torchrun, "torch/distributed/run.py" },
    { LaunchKind::Torchrun, "torch.distributed.elastic" },
    { LaunchKind::Torchrun, "torch/distributed/elastic" },
    { LaunchKind::Torchrun, "bin/torchrun" },
    // torchelastic's agent, logging under its module name ("[ERROR] <clock> local_elastic_agent: ...").
    { LaunchKind::Torchrun, "local_elastic_agent" },
    { LaunchKind::Slurm, "slurmstepd", Where::Word },
    { LaunchKind::Slurm, "srun: ", Where::LineStart },
    { LaunchKind::Slurm, "SLURM_", Where::EnvName },
    { LaunchKind::Mpirun, "mpirun noticed" },
    { LaunchKind::Mpirun, "mpirun detected" },
    { LaunchKind::Mpirun, "prterun noticed" },
    { LaunchKind::Mpirun, "prterun detected" },
    { LaunchKind::Mpirun, "Primary job  terminated normally" },
    { LaunchKind::Mpirun, "BAD TERMINATION OF ONE OF YOUR APPLICATION" },
    { LaunchKind::Mpirun, "PMIX ERROR" },
    { LaunchKind::Mpirun, "[mpiexec@" },
    { LaunchKind::DeepspeedLauncher, "deepspeed.launcher" },
    { LaunchKind::DeepspeedLauncher, "WORLD INFO DICT" },
    { LaunchKind::DeepspeedLauncher, "] [runner.py:" },
    { LaunchKind::DeepspeedLauncher, "] [launch.py:" },
    { LaunchKind::Accelerate, "accelerate launch" },
    { LaunchKind::Accelerate, "accelerate/commands/" },
    { LaunchKind::Accelerate, "accelerate.commands" },
    { LaunchKind::Accelerate, "bin/accelerate\"" },
    { LaunchKind::Ray, "ray.train", Where::Word },
    { LaunchKind::Ray, "ray/train/", Where::Word },
    { LaunchKind::Ray, "(raylet)" },
    { LaunchKind::Kubernetes, "PyTorchJob" },
    { LaunchKind::Kubernetes, "pytorchjob" },
    { LaunchKind::Kubernetes, "kubectl ", Where::Word },
    { LaunchKind::Kubernetes, "kubeflow", Where::Word },
    { LaunchKind::Lightning, "GPU available: ", Where::GpuAvailable },
    { LaunchKind::Lightning, "Initializing distributed: GLOBAL_RANK" },
    { LaunchKind::Lightning, "- CUDA_VISIBLE_DEVICES", Where::LocalRankDevices },
    { LaunchKind::Lightning, "pytorch_lightning", Where::Word },
    { LaunchKind::Lightning, "lightning/pytorch/" },
    { LaunchKind::Lightning, "lightning.pytorch" },
    { LaunchKind::Lightning, "lightning_fabric" },
    { LaunchKind::Lightning, "lightning/fabric/" },
    { LaunchKind::HfTrainer, "***** Running training *****" },
    { LaunchKind::HfTrainer, "transformers/trainer" },
    { LaunchKind::HfTrainer, "transformers.trainer" },
    { LaunchKind::HfTrainer, "SFTTrainer" },
    { LaunchKind::HfTrainer, "trl/trainer/" },
    { LaunchKind::DeepspeedFramework, "DeepSpeedEngine" },
    { LaunchKind::DeepspeedFramework, "deepspeed/runtime/" },
    { LaunchKind::DeepspeedFramework, "deepspeed.runtime" },
    { LaunchKind::DeepspeedFramework, "] [config.py:" },
    { LaunchKind::DeepspeedFramework, ":log_dist]" },
    { LaunchKind::DeepspeedFramework, ":init_distributed]" },
    { LaunchKind::Megatron, "> initializing torch distributed" },
    { LaunchKind::Megatron, "megatron/", Where::Word },
    { LaunchKind::Megatron, "> initialized tensor model parallel" },
    { LaunchKind::Megatron, "[NeMo I" },
    { LaunchKind::Megatron, "[NeMo W" },
    { LaunchKind::Megatron, "nemo_logging" },
    { LaunchKind::Vllm, "/vllm/" },
    { LaunchKind::Vllm, "vllm.engine", Where::Word },
    { LaunchKind::Vllm, "vllm.worker", Where::Word },
    { LaunchKind::Vllm, "vllm.distributed", Where::Word },
    { LaunchKind::Vllm, "vllm.executor", Where::Word },
    { LaunchKind::Vllm, "LLM engine", Where::EngineInit },
    { LaunchKind::Torch, "torch.distributed" },
    { LaunchKind::Torch, "torch/distributed" },
    { LaunchKind::Torch, "ProcessGroupNCCL", Where::Anywhere, true },
};

// Every cue is at least kMinCue bytes, so any occurrence holds a whole 4-byte gram that starts at a multiple
// of kStride (kStride = kMinCue - 4 + 1): the line is sampled at every third byte, one hashed lookup each,
// and only the cues entered under that gram (at most 3 entries per cue) are compared.
constexpr std::size_t kMinCue = 6;
constexpr std::size_t kStride = kMinCue - 4 + 1;
constexpr unsigned kHashBits = 14;

unsigned gramHash(const char* at)
{
    quint32 w = 0;
    std::memcpy(&w, at, 4);
    return (w * 0x9E3779B1u) >> (32 - kHashBits);
}

struct CueIndex
{
    struct Entry
    {
        quint8 cue; // index into kCues
        quint8 offset; // where the gram starts in the cue's literal
    };
    std::vector<quint16> start; // CSR over the hash: entries of h are [start[h], start[h + 1])
    std::vector<Entry> entries;
};

const CueIndex& cueIndex()
{
    static const CueIndex index = [] {
        static_assert(std::size(kCues) < 256);
        CueIndex x;
        std::vector<std::vector<CueIndex::Entry>> buckets(std::size_t { 1 } << kHashBits);
        for (std::size_t c = 0; c < std::size(kCues); ++c) {
            for (std::size_t k = 0; k < kStride && k + 4 <= kCues[c].literal.size(); ++k)
                buckets[gramHash(kCues[c].literal.data() + k)].push_back(
                    { static_cast<quint8>(c), static_cast<quint8>(k) });
        }
        x.start.reserve(buckets.size() + 1);
        for (const std::vector<CueIndex::Entry>& b : buckets) {
            x.start.push_back(static_cast<quint16>(x.entries.size()));
            x.entries.insert(x.entries.end(), b.begin(), b.end());
        }
        x.start.push_back(static_cast<quint16>(x.entries.size()));
        return x;
    }();
    return index;
}

bool isNameByte(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

bool placed(const Cue& cue, std::string_view text, std::size_t at, const LinePrefix& p)
{
    const std::size_t end = at + cue.literal.size();
    switch (cue.where) {
    case Where::Anywhere:
        return true;
    case Where::LineStart: {
        std::size_t s = 0;
        while (s < at && (text[s] == ' ' || text[s] == '\t'))
            ++s;
        return s == at || (!p.message.empty() && p.message.data() == text.data() + at);
    }
    case Where::Word:
        return at == 0 || (!isNameByte(text[at - 1]) && text[at - 1] != '.' && text[at - 1] != '-');
    case Where::EnvName:
        return (at == 0 || (!isNameByte(text[at - 1]) && text[at - 1] != '/' && text[at - 1] != '.'))
            && end < text.size() && text[end] >= 'A' && text[end] <= 'Z';
    case Where::GpuAvailable:
        return text.substr(end, 4) == "True" || text.substr(end, 5) == "False";
    case Where::LocalRankDevices:
        return text.substr(0, at).find("LOCAL_RANK: ") != std::string_view::npos;
    case Where::EngineInit:
        return text.substr(0, at).find("Initializing") != std::string_view::npos;
    }
    return false;
}

constexpr unsigned kindBit(LaunchKind k)
{
    return 1u << static_cast<unsigned>(k);
}

unsigned textKinds(std::string_view text, const LinePrefix& p, unsigned skip)
{
    const CueIndex& index = cueIndex();
    unsigned found = 0;
    for (std::size_t i = 0; i + 4 <= text.size(); i += kStride) {
        const unsigned h = gramHash(text.data() + i);
        for (quint16 e = index.start[h]; e < index.start[h + 1]; ++e) {
            const CueIndex::Entry entry = index.entries[e];
            const Cue& cue = kCues[entry.cue];
            if (i < entry.offset || ((skip | found) & kindBit(cue.kind)) != 0)
                continue;
            const std::size_t at = i - entry.offset;
            if (at + cue.literal.size() <= text.size()
                && std::memcmp(text.data() + at, cue.literal.data(), cue.literal.size()) == 0
                && placed(cue, text, at, p))
                found |= kindBit(cue.kind);
        }
    }
    return found;
}

// "pt-gbcg65vy-worker-0", "worker-9", "job-master-0": the pod names of a PyTorchJob or an MPIJob.
bool isPodName(std::string_view host)
{
    std::size_t end = host.size();
    std::size_t digits = 0;
    while (end > 0 && host[end - 1] >= '0' && host[end - 1] <= '9' && digits < 6) {
        --end;
        ++digits;
    }
    if (digits == 0 || end == 0 || host[end - 1] != '-')
        return false;
    const std::string_view role = host.substr(0, end - 1);
    for (const std::string_view name : { std::string_view("worker"), std::string_view("master") }) {
        if (role.size() >= name.size() && role.substr(role.size() - name.size()) == name
            && (role.size() == name.size() || role[role.size() - name.size() - 1] == '-'))
            return true;
    }
    return false;
}

unsigned prefixKinds(const LinePrefix& p, std::string_view text, unsigned skip)
{
    unsigned found = 0;
    if ((skip & kindBit(LaunchKind::Torchrun)) == 0 && p.teeLocalRank >= 0)
        found |= kindBit(LaunchKind::Torchrun); // torchrun --tee "[default3]:"
    if (p.wrapped) {
        // A Ray worker says its ip ("(RayTrainWorker pid=3738, ip=172.17.130.64)"), its name says Ray, or
        // it is Ray 1.x's bare "(pid=767)" (a worker on the driver's node); vLLM's own "(VllmWorker TP0
        // pid=..)" and "(Worker pid=..)" are named and say no ip.
        if ((skip & kindBit(LaunchKind::Ray)) == 0
            && (!p.rayIp.empty() || p.sourceTag.find("Ray") != std::string_view::npos
                || (p.rayPid >= 0 && p.sourceTag.empty())))
            found |= kindBit(LaunchKind::Ray);
        // OpenMPI --tag-output "[1,3]<stderr>:", also behind --timestamp-output's clock (horovodrun's Gloo
        // launcher writes "[3]<stderr>:", without the job number).
        if ((skip & kindBit(LaunchKind::Mpirun)) == 0) {
            const std::string_view head = text.substr(0, 56);
            const std::size_t tag = head.find("]<std");
            const std::size_t open = tag == std::string_view::npos ? tag : head.rfind('[', tag);
            if (open != std::string_view::npos
                && head.substr(open, tag - open).find(',') != std::string_view::npos)
                found |= kindBit(LaunchKind::Mpirun);
        }
    }
    if ((skip & kindBit(LaunchKind::Kubernetes)) == 0
        && ((!p.pdshHost.empty() && isPodName(p.pdshHost)) || (!p.ncclHost.empty() && isPodName(p.ncclHost))))
        found |= kindBit(LaunchKind::Kubernetes);
    // vLLM's logger header, "ERROR 12-08 20:46:56 [multiproc_executor.py:597] ", is vLLM's own.
    if ((skip & kindBit(LaunchKind::Vllm)) == 0 && p.stamp.kind == StampKind::LevelWordHeader)
        found |= kindBit(LaunchKind::Vllm);
    return found;
}

} // namespace

void LaunchDetector::lookText(std::string_view text, const LinePrefix& p, qint64 line)
{
    if (done() || text.size() < 2)
        return;
    const unsigned kinds = textKinds(text, p, m_found);
    if (kinds != 0)
        record(kinds, text, line);
}

void LaunchDetector::lookPrefixSlow(const LinePrefix& p, std::string_view text, qint64 line)
{
    const unsigned kinds = prefixKinds(p, text, m_found);
    if (kinds != 0)
        record(kinds, text, line);
}

void LaunchDetector::record(unsigned kinds, std::string_view text, qint64 line)
{
    QString shown =
        QString::fromUtf8(text.data(), static_cast<qsizetype>(std::min<std::size_t>(text.size(), 960)));
    if (shown.size() > 240)
        shown = shown.left(240);
    for (int k = 0; k < kLaunchKindCount; ++k) {
        if ((kinds & (1u << static_cast<unsigned>(k))) == 0)
            continue;
        m_out.push_back({ static_cast<LaunchKind>(k), line, shown });
    }
    m_found |= kinds;
}

unsigned LaunchDetector::kindsInText(std::string_view text, const LinePrefix& p)
{
    return textKinds(text, p, 0);
}

unsigned LaunchDetector::kindsInPrefix(const LinePrefix& p, std::string_view text)
{
    return prefixKinds(p, text, 0);
}

std::vector<std::string_view> launchCueLiterals()
{
    std::vector<std::string_view> out;
    for (const Cue& c : kCues) {
        if (!c.warnLines)
            out.push_back(c.literal);
    }
    return out;
}

} // namespace rankscope
