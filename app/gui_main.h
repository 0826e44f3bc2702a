#pragma once

#include <QStringList>

namespace rankscope {

// Starts the window on the given inputs; with --screenshot FILE it renders once to a PNG and exits.
int runGui(int& argc, char** argv, const QStringList& args);

} // namespace rankscope
