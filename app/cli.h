// SPDX-License-Identifier: MIT
// Headless subcommands. Each returns the process exit status.
#pragma once

#include <QStringList>

namespace rankscope {

// True when argv names a subcommand (or --version/--help) rather than files for the GUI.
bool isCliInvocation(const QStringList& args);
int runCli(const QStringList& args);

int runDiagnoseCommand(const QStringList& args);

} // namespace rankscope
