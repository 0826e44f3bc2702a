// SPDX-License-Identifier: MIT
// The CLI, and the door to the window: given nothing or files, `rankscope` becomes rankscope-gui.
#include "allocator_tuning.h"
#include "cli.h"
#include "gui_launch.h"

#include <QCoreApplication>

int main(int argc, char** argv)
{
    QStringList args;
    for (int i = 1; i < argc; ++i)
        args.push_back(QString::fromLocal8Bit(argv[i]));
    if (!rankscope::isCliInvocation(args))
        return rankscope::execGui(argv);
    rankscope::tuneAllocator();
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("rankscope"));
    return rankscope::runCli(args);
}
