// SPDX-License-Identifier: MIT
// `rankscope topology FILE...` and `rankscope capture-topology`: headless topology commands.
#pragma once

#include <QStringList>

namespace rankscope {

// rankscope topology FILE... [--host NAME] [--logs PATH] [--format text|json]
int runTopologyCommand(const QStringList& args);
// rankscope capture-topology [-o FILE]: this machine's topology as hwloc XML, I/O devices included.
int runCaptureTopologyCommand(const QStringList& args);

} // namespace rankscope
