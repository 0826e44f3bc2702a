// SPDX-License-Identifier: MIT
// `rankscope verify --before PATH --after PATH`: did the targeted change make the signature disappear?
#pragma once

#include <QStringList>

namespace rankscope {

// Exit status: 0 PASS, 1 FAIL, 2 an input could not be read, 64 usage error.
int runVerifyCommand(const QStringList& args);

} // namespace rankscope
