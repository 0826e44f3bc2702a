// SPDX-License-Identifier: MIT
// Clocks that a tool, not the job, put in front of a line: a pod's own ("ts pod >> "), a log collector's RFC
// 3339 clock (kubectl --timestamps, a CI runner, CloudWatch's table, the CRI log), a console's clock to the
// minute, and OpenMPI's --timestamp-output ctime glued to its tag. Each reads at the start of `s` and sets
// `length` to what it covers; peelWrappers() (line_wrappers.h) tries them on a line that starts with a digit
// or a capital letter.
#pragma once

#include "line_wrappers.h"

#include <string_view>

namespace rankscope {

bool readPodClock(std::string_view s, LineWrappers& w, std::size_t& length);
bool readCollectorClock(std::string_view s, LineWrappers& w, std::size_t& length);
bool readMinuteClock(std::string_view s, std::size_t& length);
bool readMpiTimestamp(std::string_view s, LineWrappers& w, std::size_t& length);

} // namespace rankscope
