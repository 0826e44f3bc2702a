// SPDX-License-Identifier: MIT
// rankscope-gui: the window, on the inputs given. `rankscope` without a subcommand starts it (gui_launch.h).
#include "allocator_tuning.h"
#include "main_window.h"

#include <QApplication>
#include <QDockWidget>
#include <QEventLoop>
#include <QImage>
#include <QTimer>
#include <cstdio>

namespace rankscope {

namespace {

// Starts the window on the given inputs; with --screenshot FILE it renders once to a PNG and exits
// (--panel TITLE brings that tabbed panel to the front first: Topology, Divergence, Verify Fix).
int runGui(int& argc, char** argv, const QStringList& args)
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Rankscope"));
    QApplication::setApplicationName(QStringLiteral("rankscope"));
    QApplication::setApplicationVersion(QStringLiteral(RANKSCOPE_VERSION));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/rankscope.svg")));

    QString screenshot, panel;
    QStringList paths, topology;
    for (int i = 0; i < args.size(); ++i) {
        if (args[i] == QLatin1String("--screenshot") && i + 1 < args.size())
            screenshot = args[++i];
        else if (args[i] == QLatin1String("--panel") && i + 1 < args.size())
            panel = args[++i];
        else if ((args[i] == QLatin1String("--topology") || args[i] == QLatin1String("-t"))
            && i + 1 < args.size())
            topology << args[++i];
        else
            paths << args[i];
    }

    MainWindow window;
    if (!screenshot.isEmpty())
        window.resize(1680, 1050);
    window.show();
    if (!paths.isEmpty() || !topology.isEmpty()) {
        window.openPaths(paths, topology);
    }
    if (screenshot.isEmpty())
        return app.exec();

    // Headless use: wait for the analysis, let the layout settle, render once, exit.
    if (window.isLoading()) {
        QEventLoop loop;
        QObject::connect(&window, &MainWindow::analysisFinished, &loop, &QEventLoop::quit);
        QTimer::singleShot(300000, &loop, &QEventLoop::quit);
        loop.exec();
    }
    if (!panel.isEmpty()) {
        bool found = false;
        for (QDockWidget* dock : window.findChildren<QDockWidget*>()) {
            if (dock->windowTitle().compare(panel, Qt::CaseInsensitive) == 0) {
                dock->raise();
                found = true;
            }
        }
        if (!found)
            std::fprintf(stderr, "rankscope: no panel named %s\n", panel.toLocal8Bit().constData());
    }
    for (int i = 0; i < 5; ++i) {
        QApplication::processEvents();
        QEventLoop settle;
        QTimer::singleShot(40, &settle, &QEventLoop::quit);
        settle.exec();
    }
    const QImage image = window.grab().toImage();
    if (!image.save(screenshot, "PNG")) {
        std::fprintf(stderr, "rankscope: cannot write screenshot %s\n", screenshot.toLocal8Bit().constData());
        return 1;
    }
    return 0;
}

} // namespace

} // namespace rankscope

int main(int argc, char** argv)
{
    rankscope::tuneAllocator();
    QStringList args;
    for (int i = 1; i < argc; ++i)
        args.push_back(QString::fromLocal8Bit(argv[i]));
    return rankscope::runGui(argc, argv, args);
}
