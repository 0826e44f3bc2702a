// SPDX-License-Identifier: MIT
// The launcher, container and framework adapters (signatures/adapters/*.json): how each one sets an
// environment variable, writes a container setting or raises the process-group timeout. Data, not code
// paths, so a new launcher is a JSON entry; loaded like the catalog (installed folder, source tree, else
// the copy compiled into the binary).
#pragma once

#include <QHash>
#include <QString>
#include <QStringList>
#include <vector>

namespace rankscope {

struct LauncherAdapter
{
    QString id; // "slurm"
    QString label; // "srun"
    QStringList env; // lines with @NAME@, @NAME_Q@, @VALUE@, @LINE@
    QString quote; // how @VALUE@ is quoted: shell | python | yaml
    QString container; // id of the container adapter its jobs use (docker | kubernetes)
    QStringList flags; // every command-line flag its renderings may contain
    QString source; // where the syntax is defined
    QString note;
};

struct ContainerAdapter
{
    QString id;
    QString label;
    QString quote; // how @VALUE@ is quoted: shell | yaml
    QHash<QString, QStringList> settings; // container setting name (fix_action.h) -> lines with @VALUE@
    QStringList flags;
    QString source;
};

struct FrameworkAdapter
{
    QString id; // "hf-trainer"
    QString label; // "HF Trainer / TRL"
    QStringList timeout; // lines with @SECONDS@ / @MINUTES@; empty when `fallback` says whose to use
    QString unit; // seconds | minutes: what the framework's own setting counts
    QString fallback; // id of the framework whose snippet applies (vLLM has no timeout setting)
    QStringList flags;
    QString source;
    QString note;
};

struct FixAdapters
{
    std::vector<LauncherAdapter> launchers;
    std::vector<ContainerAdapter> containers;
    std::vector<FrameworkAdapter> frameworks;
    QStringList errors; // "launchers.json: launcher 2 (mpirun): field 'env': missing"

    const LauncherAdapter* launcher(const QString& id) const; // nullptr when unknown
    const ContainerAdapter* container(const QString& id) const;
    const FrameworkAdapter* framework(const QString& id) const;
};

// Loads launchers.json and frameworks.json of `dir`.
FixAdapters loadFixAdapters(const QString& dir);
// The built-in adapters, loaded once (installed folder, else source tree, else compiled-in copy).
const FixAdapters& defaultFixAdapters();
QString defaultAdaptersDir();

} // namespace rankscope
