// SPDX-License-Identifier: MIT
// A fix as data: a few typed actions, each with a short reason, and the experiments that tell an entry
// apart from its siblings. The prose `fix` of an entry stays as the explanation; these are what a user
// does, rendered for the launcher and framework that ran the job (see fix_render.h).
#pragma once

#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

namespace rankscope {

enum class FixActionKind : quint8
{
    Env, // set an environment variable: `name`=`value`
    Timeout, // raise the process-group timeout to `value` seconds
    Container, // a container or pod setting: `name` is the setting (shm-size, ipc-host, ...), `value` its
               // value
    Kernel, // a kernel or driver action (iommu=pt, GPU reset with Fabric Manager, modprobe): `text`
    Node, // a hardware or node action (drain, reseat, replace): `text`
    Code, // a change to the training code: `text`
    Upgrade // a version upgrade: `name` is the component, `value` the version that fixes it
};
QString fixActionKindName(FixActionKind kind); // "env", "timeout", "container", ...
std::optional<FixActionKind> parseFixActionKind(const QString& name);
// Every kind, in declaration order (for messages and the schema).
const std::vector<FixActionKind>& allFixActionKinds();

// The container settings a `container` action may name, and whether each needs a `value`:
// shm-size (8g), ipc-host, host-network, device-mount (/dev/infiniband), cap-add (IPC_LOCK),
// ulimit-memlock (unlimited locked memory, for RDMA registration).
const QStringList& containerSettingNames();
bool containerSettingNeedsValue(const QString& name);

struct FixAction
{
    FixActionKind kind = FixActionKind::Code;
    QString name; // template
    QString value; // template
    QString text; // template: the action itself, for the kinds that are a sentence or a command
    QString reason; // template: why this action, one short sentence
};

// What separates an entry from one sibling: an experiment (often one environment variable) and the outcome
// that decides between them.
struct Discriminator
{
    QString sibling; // id of the sibling
    QString experiment; // "rerun with NCCL_SHM_DISABLE=1", "ls -l /dev/shm"
    QString outcome; // "passes: it was this entry; still fails the same way: the sibling"
};

} // namespace rankscope
