// SPDX-License-Identifier: MIT
// What launched the job and which framework ran it, as the logs show it: the ids (other code keys on
// them: fix adapters, the --launcher and --framework flags), their display names, the evidence lines,
// and the one sentence every report prints.
#pragma once

#include <QString>
#include <QStringList>
#include <QtGlobal>
#include <array>
#include <string_view>
#include <vector>

namespace rankscope {

// Launchers first, then frameworks; the order is the table order of kLaunchIds.
enum class LaunchKind : quint8
{
    Torchrun,
    Slurm,
    Mpirun,
    DeepspeedLauncher,
    Accelerate,
    Ray,
    Kubernetes,
    Lightning,
    HfTrainer,
    DeepspeedFramework,
    Megatron,
    Vllm,
    Torch,
};
inline constexpr int kLaunchKindCount = 13;
inline constexpr int kFirstFrameworkKind = static_cast<int>(LaunchKind::Lightning);

inline constexpr std::array<std::string_view, 7> kLauncherIds = { "torchrun", "slurm", "mpirun", "deepspeed",
    "accelerate", "ray", "kubernetes" };
inline constexpr std::array<std::string_view, 6> kFrameworkIds = { "lightning", "hf-trainer", "deepspeed",
    "megatron", "vllm", "torch" };

// The literals behind every cue the scanner reads from a line's text (launch_detect.cpp), lower case.
// The literal prefilter passes every line that holds one, case-insensitively, so no scanner shortcut
// skips such a line and the detector needs no search of its own on the lines the prefilter rejects.
inline constexpr std::string_view kLaunchPhrases[] = { "torch.distributed", "torch/distributed",
    "bin/torchrun", "local_elastic_agent", "slurmstepd", "srun: ", "slurm_", "mpirun ", "prterun ", "mpiexec",
    "pmix error", "bad termination of one of your application", "primary job  terminated normally",
    "deepspeed.launcher", "world info dict", "[runner.py:", "] [launch.py:", "accelerate launch",
    "accelerate/commands", "accelerate.commands", "bin/accelerate", "ray.train", "ray/train/", "(raylet)",
    "pytorchjob", "kubectl ", "kubeflow", "gpu available: ", "initializing distributed: global_rank",
    "- cuda_visible_devices", "pytorch_lightning", "lightning/pytorch", "lightning.pytorch",
    "lightning_fabric", "lightning/fabric", "running training", "transformers/trainer",
    "transformers.trainer", "sfttrainer", "trl/trainer", "deepspeedengine", "deepspeed/runtime",
    "deepspeed.runtime", "] [config.py:", "log_dist]", "init_distributed]", "initializing torch distributed",
    "megatron/", "initialized tensor model parallel", "[nemo i", "[nemo w", "nemo_logging", "/vllm/",
    "vllm.engine", "vllm.worker", "vllm.distributed", "vllm.executor", "llm engine" };

struct LaunchEvidence
{
    int file = -1; // index into Incident::files
    qint64 line = 0; // 1-based
    QString text; // the line, cut at 240 characters
};

struct LaunchItem
{
    QString id; // one of kLauncherIds or kFrameworkIds
    QString name; // "torchrun", "HF Trainer", ...
    bool given = false; // from --launcher / --framework, not from the logs
    std::vector<LaunchEvidence> evidence; // the first line of each file that shows it
};

struct LaunchInfo
{
    std::vector<LaunchItem> launchers; // innermost first: "torchrun" before "Slurm"
    LaunchItem framework; // id empty when none was seen
    bool empty() const { return launchers.empty() && framework.id.isEmpty(); }
};

// A line of one file that shows a kind (the scanner's output, merged per incident by mergeLaunch()).
struct LaunchHit
{
    LaunchKind kind = LaunchKind::Torch;
    qint64 line = 0;
    QString text;
};

QString launchKindId(LaunchKind kind);
QString launchKindName(LaunchKind kind);
bool isLauncherId(const QString& id);
bool isFrameworkId(const QString& id);
QString launcherName(const QString& id); // empty for an unknown id
QString frameworkName(const QString& id);

// Adds one file's hits: each kind keeps the first line of each file. The framework is the most specific
// one seen (plain torch only when nothing else is); the launchers are ordered innermost first.
void mergeLaunch(LaunchInfo& info, int file, const std::vector<LaunchHit>& hits);

// Replaces what the logs show with what the user gave ("" keeps the detected one). Ids are checked by
// the caller (isLauncherId / isFrameworkId).
void overrideLaunch(LaunchInfo& info, const QString& launcher, const QString& framework);

// "launched by torchrun under Slurm (line 3: `srun: error: ...`); framework: HF Trainer (line 12:
// `***** Running training *****`)", with the file name when the incident has several files; empty when
// nothing was seen.
QString describeLaunch(const LaunchInfo& info, const QStringList& fileNames);

} // namespace rankscope
