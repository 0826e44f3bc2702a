// SPDX-License-Identifier: MIT
// `rankscope signatures <check|list> ...`
#pragma once

#include <QStringList>

namespace rankscope {

// args are the words after "rankscope signatures". Returns the process exit code.
int runSignaturesCommand(const QStringList& args);

} // namespace rankscope
