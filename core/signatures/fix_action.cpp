// SPDX-License-Identifier: MIT
#include "fix_action.h"

namespace rankscope {

QString fixActionKindName(FixActionKind kind)
{
    switch (kind) {
    case FixActionKind::Env:
        return QStringLiteral("env");
    case FixActionKind::Timeout:
        return QStringLiteral("timeout");
    case FixActionKind::Container:
        return QStringLiteral("container");
    case FixActionKind::Kernel:
        return QStringLiteral("kernel");
    case FixActionKind::Node:
        return QStringLiteral("node");
    case FixActionKind::Code:
        return QStringLiteral("code");
    case FixActionKind::Upgrade:
        return QStringLiteral("upgrade");
    }
    return QStringLiteral("code");
}

const std::vector<FixActionKind>& allFixActionKinds()
{
    static const std::vector<FixActionKind> kinds = { FixActionKind::Env, FixActionKind::Timeout,
        FixActionKind::Container, FixActionKind::Kernel, FixActionKind::Node, FixActionKind::Code,
        FixActionKind::Upgrade };
    return kinds;
}

std::optional<FixActionKind> parseFixActionKind(const QString& name)
{
    for (FixActionKind kind : allFixActionKinds()) {
        if (fixActionKindName(kind) == name)
            return kind;
    }
    return std::nullopt;
}

const QStringList& containerSettingNames()
{
    static const QStringList names = { QStringLiteral("shm-size"), QStringLiteral("ipc-host"),
        QStringLiteral("host-network"), QStringLiteral("device-mount"), QStringLiteral("cap-add"),
        QStringLiteral("ulimit-memlock") };
    return names;
}

bool containerSettingNeedsValue(const QString& name)
{
    return name == QLatin1String("shm-size") || name == QLatin1String("device-mount")
        || name == QLatin1String("cap-add");
}

} // namespace rankscope
