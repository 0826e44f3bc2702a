// SPDX-License-Identifier: MIT
// NCCL's setup as each host reports it (SetupFact): read from the INFO lines that name the NCCL build, the
// network plugin and the network, so the diagnosis can see hosts of one job that were set up differently.
#pragma once

#include "log_model.h"

#include <string_view>

namespace rankscope {

// The first letters of the NCCL INFO messages readSetupFact() reads ("NCCL version", "NET/Plugin",
// "Plugin Path", "Using network"): a scanner shortcut may skip any other INFO line.
constexpr bool mayStartSetupLine(char first)
{
    return first == 'N' || first == 'P' || first == 'U' || first == 'I';
}

// Reads a setup fact from an NCCL INFO message (the text after "NCCL INFO "): fills key, value and group;
// false when the message states none.
bool readSetupFact(std::string_view message, SetupFact& fact);

} // namespace rankscope
