// SPDX-License-Identifier: MIT
// `rankscope` without a subcommand opens the window, which is a program of its own: rankscope-gui, beside
// this executable. The CLI then starts without Qt Gui, Widgets and Svg and the libraries they pull in
// (13 ms of every `rankscope diagnose`, measured), and the window starts as before.
#pragma once

namespace rankscope {

// Replaces this process with rankscope-gui, given the same arguments. Returns only on failure, after
// saying on stderr which file could not be started and why; the return value is then the exit status.
int execGui(char** argv);

} // namespace rankscope
