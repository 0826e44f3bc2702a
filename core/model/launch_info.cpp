// SPDX-License-Identifier: MIT
#include "launch_info.h"

#include <algorithm>

namespace rankscope {

namespace {

struct KindRow
{
    std::string_view id;
    const char* name;
    int order; // launchers: innermost first; frameworks: most specific first
};

// Indexed by LaunchKind. Slurm and Kubernetes schedule what the others start: they come last and read
// "under". A framework built on another names the job better (HF Trainer over DeepSpeed, Megatron over
// plain torch.distributed).
constexpr KindRow kRows[kLaunchKindCount] = {
    { kLauncherIds[0], "torchrun", 2 },
    { kLauncherIds[1], "Slurm", 5 },
    { kLauncherIds[2], "mpirun", 4 },
    { kLauncherIds[3], "the DeepSpeed launcher", 1 },
    { kLauncherIds[4], "Accelerate", 0 },
    { kLauncherIds[5], "Ray", 3 },
    { kLauncherIds[6], "Kubernetes", 6 },
    { kFrameworkIds[0], "PyTorch Lightning", 0 },
    { kFrameworkIds[1], "HF Trainer", 1 },
    { kFrameworkIds[2], "DeepSpeed", 4 },
    { kFrameworkIds[3], "Megatron-LM / NeMo", 2 },
    { kFrameworkIds[4], "vLLM", 3 },
    { kFrameworkIds[5], "plain torch.distributed", 5 },
};

const KindRow* rowOf(const QString& id, bool framework)
{
    const int from = framework ? kFirstFrameworkKind : 0;
    const int to = framework ? kLaunchKindCount : kFirstFrameworkKind;
    for (int k = from; k < to; ++k) {
        if (id == QLatin1String(kRows[k].id.data(), static_cast<qsizetype>(kRows[k].id.size())))
            return &kRows[k];
    }
    return nullptr;
}

int orderOf(const QString& id, bool framework)
{
    const KindRow* row = rowOf(id, framework);
    return row ? row->order : kLaunchKindCount;
}

bool isScheduler(const QString& id)
{
    return id == QLatin1String("slurm") || id == QLatin1String("kubernetes");
}

QString evidenceNote(const LaunchItem& item, const QStringList& fileNames, QLatin1String flag)
{
    if (item.given)
        return QStringLiteral(" (given with --%1)").arg(flag);
    if (item.evidence.empty())
        return {};
    const LaunchEvidence& e = item.evidence.front();
    QString where = QStringLiteral("line %1").arg(e.line);
    if (fileNames.size() > 1 && e.file >= 0 && e.file < fileNames.size())
        where = QStringLiteral("%1 line %2").arg(fileNames[e.file]).arg(e.line);
    QString text = e.text.trimmed();
    if (text.size() > 100)
        text = text.left(99) + QChar(u'…');
    text.replace(QChar(u'`'), QChar(u'\''));
    return QStringLiteral(" (%1: `%2`)").arg(where, text);
}

LaunchItem itemOf(LaunchKind kind)
{
    LaunchItem item;
    item.id = launchKindId(kind);
    item.name = launchKindName(kind);
    return item;
}

} // namespace

QString launchKindId(LaunchKind kind)
{
    const std::string_view id = kRows[static_cast<int>(kind)].id;
    return QString::fromLatin1(id.data(), static_cast<qsizetype>(id.size()));
}

QString launchKindName(LaunchKind kind)
{
    return QString::fromUtf8(kRows[static_cast<int>(kind)].name);
}

bool isLauncherId(const QString& id)
{
    return rowOf(id, false) != nullptr;
}

bool isFrameworkId(const QString& id)
{
    return rowOf(id, true) != nullptr;
}

QString launcherName(const QString& id)
{
    const KindRow* row = rowOf(id, false);
    return row ? QString::fromUtf8(row->name) : QString();
}

QString frameworkName(const QString& id)
{
    const KindRow* row = rowOf(id, true);
    return row ? QString::fromUtf8(row->name) : QString();
}

void mergeLaunch(LaunchInfo& info, int file, const std::vector<LaunchHit>& hits)
{
    for (const LaunchHit& hit : hits) {
        const LaunchEvidence evidence { file, hit.line, hit.text };
        const QString id = launchKindId(hit.kind);
        if (static_cast<int>(hit.kind) >= kFirstFrameworkKind) {
            if (info.framework.id == id) {
                info.framework.evidence.push_back(evidence);
            } else if (info.framework.id.isEmpty() || orderOf(id, true) < orderOf(info.framework.id, true)) {
                info.framework = itemOf(hit.kind);
                info.framework.evidence.push_back(evidence);
            }
            continue;
        }
        auto known = std::find_if(info.launchers.begin(), info.launchers.end(),
            [&id](const LaunchItem& item) { return item.id == id; });
        if (known == info.launchers.end()) {
            info.launchers.push_back(itemOf(hit.kind));
            known = info.launchers.end() - 1;
        }
        known->evidence.push_back(evidence);
    }
    std::stable_sort(info.launchers.begin(), info.launchers.end(),
        [](const LaunchItem& a, const LaunchItem& b) { return orderOf(a.id, false) < orderOf(b.id, false); });
}

void overrideLaunch(LaunchInfo& info, const QString& launcher, const QString& framework)
{
    if (!launcher.isEmpty()) {
        LaunchItem item;
        item.id = launcher;
        item.name = launcherName(launcher);
        item.given = true;
        info.launchers = { item };
    }
    if (!framework.isEmpty()) {
        LaunchItem item;
        item.id = framework;
        item.name = frameworkName(framework);
        item.given = true;
        info.framework = item;
    }
}

QString describeLaunch(const LaunchInfo& info, const QStringList& fileNames)
{
    if (info.empty())
        return {};
    QStringList starters;
    QStringList schedulers;
    for (const LaunchItem& item : info.launchers)
        (isScheduler(item.id) ? schedulers : starters)
            .push_back(item.name + evidenceNote(item, fileNames, QLatin1String("launcher")));
    QString out;
    if (starters.isEmpty() && schedulers.isEmpty())
        out = QStringLiteral("launcher: not seen in the logs");
    else if (starters.isEmpty())
        out = QStringLiteral("launched by ") + schedulers.join(QStringLiteral(" and "));
    else if (schedulers.isEmpty())
        out = QStringLiteral("launched by ") + starters.join(QStringLiteral(" and "));
    else
        out = QStringLiteral("launched by %1 under %2")
                  .arg(starters.join(QStringLiteral(" and ")), schedulers.join(QStringLiteral(" and ")));
    if (!info.framework.id.isEmpty())
        out += QStringLiteral("; framework: ") + info.framework.name
            + evidenceNote(info.framework, fileNames, QLatin1String("framework"));
    return out;
}

} // namespace rankscope
