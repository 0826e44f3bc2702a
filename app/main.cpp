// One binary: the GUI when given nothing or files, the CLI when given a subcommand.
#include "allocator_tuning.h"
#include "cli.h"
#include "gui_main.h"

#include <QCoreApplication>

int main(int argc, char** argv)
{
    rankscope::tuneAllocator();
    QStringList args;
    for (int i = 1; i < argc; ++i)
        args.push_back(QString::fromLocal8Bit(argv[i]));
    if (rankscope::isCliInvocation(args)) {
        QCoreApplication app(argc, argv);
        QCoreApplication::setApplicationName(QStringLiteral("rankscope"));
        return rankscope::runCli(args);
    }
    return rankscope::runGui(argc, argv, args);
}
