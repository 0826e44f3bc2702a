// SPDX-License-Identifier: MIT
// rankscope-gui: the window, on the inputs given. `rankscope` without a subcommand starts it (gui_launch.h).
#include "allocator_tuning.h"
#include "cli_parser.h"
#include "launch_info.h"
#include "main_window.h"

#include <QApplication>
#include <QDockWidget>
#include <QEventLoop>
#include <QImage>
#include <QTimer>

namespace rankscope {

namespace {

// A screenshot is taken at this size, whatever the screen: the same picture on every machine.
constexpr QSize kScreenshotSize(1680, 1050);
// How long a screenshot waits for the analysis at most.
constexpr int kScreenshotAnalysisTimeoutMs = 300000;
// Before grabbing, the layout settles over a few short rounds of events.
constexpr int kSettleRounds = 5;
constexpr int kSettleRoundMs = 40;

// Raises the dock titled `panel`; false when there is none.
bool raisePanel(MainWindow& window, const QString& panel)
{
    bool found = false;
    for (QDockWidget* dock : window.findChildren<QDockWidget*>()) {
        if (dock->windowTitle().compare(panel, Qt::CaseInsensitive) == 0) {
            dock->raise();
            found = true;
        }
    }
    return found;
}

// Starts the window on the given inputs; with --screenshot FILE it renders once to a PNG and exits
// (--panel TITLE brings that tabbed panel to the front first: Topology, Divergence, Verify Fix).
int runGui(int& argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Rankscope"));
    QApplication::setApplicationName(QStringLiteral("rankscope"));
    QApplication::setApplicationVersion(QStringLiteral(RANKSCOPE_VERSION));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/rankscope.svg")));

    // QApplication took its own options (-platform, -style, ...) out of the arguments already.
    CommandParser cli(QString(),
        QStringLiteral(
            "[--topology FILE]... [--signatures DIR]... [--theme system|light|dark] [--launcher ID]\n"
            "                      [--framework ID]\n"
            "                      [--screenshot FILE [--panel TITLE]] [PATH...]"),
        QStringLiteral("The window: the timeline, the diagnosis, the logs and the topology of an incident."));
    QCommandLineParser& p = cli.parser();
    const QCommandLineOption topologyOption({ QStringLiteral("t"), QStringLiteral("topology") },
        QStringLiteral("A topology capture to add; repeatable."), QStringLiteral("FILE"));
    const QCommandLineOption screenshotOption(QStringLiteral("screenshot"),
        QStringLiteral("Render the window to a PNG once the analysis is done, and exit."),
        QStringLiteral("FILE"));
    const QCommandLineOption panelOption(QStringLiteral("panel"),
        QStringLiteral("With --screenshot: bring the panel with this title to the front first."),
        QStringLiteral("TITLE"));
    const QCommandLineOption themeOption(QStringLiteral("theme"),
        QStringLiteral(
            "system, light or dark (default: the one chosen in View > Theme); --screenshot honours it."),
        QStringLiteral("THEME"));
    const QCommandLineOption launcherOption(QStringLiteral("launcher"),
        QStringLiteral("What launched the job, when the logs do not show it (as rankscope diagnose)."),
        QStringLiteral("ID"));
    const QCommandLineOption frameworkOption(QStringLiteral("framework"),
        QStringLiteral("The framework that ran the job, when the logs do not show it."),
        QStringLiteral("ID"));
    const QCommandLineOption signaturesOption(QStringLiteral("signatures"),
        QStringLiteral("A folder of catalog entries over the built-in catalog, as rankscope diagnose; "
                       "repeatable. The Hub shows the catalog in use."),
        QStringLiteral("DIR"));
    p.addOptions({ topologyOption, screenshotOption, panelOption, themeOption, launcherOption,
        frameworkOption, signaturesOption });
    p.addPositionalArgument(QStringLiteral("PATH"),
        QStringLiteral("Log folders, log files or topology captures."), QStringLiteral("[PATH...]"));
    if (const std::optional<int> done = cli.parse(QApplication::arguments().mid(1)))
        return *done;
    const QString screenshot = p.value(screenshotOption);
    const QString panel = p.value(panelOption);
    if (!panel.isEmpty() && screenshot.isEmpty())
        return cli.usageError(QStringLiteral("--panel needs --screenshot"));
    const QStringList paths = p.positionalArguments();
    const QStringList topology = p.values(topologyOption);
    const std::optional<Theme> theme =
        p.isSet(themeOption) ? themeFromName(p.value(themeOption)) : std::nullopt;
    if (p.isSet(themeOption) && !theme)
        return cli.usageError(
            QStringLiteral("--theme must be system, light or dark, not %1").arg(p.value(themeOption)));

    const QString launcher = p.value(launcherOption);
    const QString framework = p.value(frameworkOption);
    if (!launcher.isEmpty() && !isLauncherId(launcher))
        return cli.usageError(
            QStringLiteral("unknown --launcher %1 (see rankscope diagnose --help)").arg(launcher));
    if (!framework.isEmpty() && !isFrameworkId(framework))
        return cli.usageError(
            QStringLiteral("unknown --framework %1 (see rankscope diagnose --help)").arg(framework));

    MainWindow window;
    window.setLaunchOverride(launcher, framework);
    if (p.isSet(signaturesOption))
        window.setSignatureDirs(p.values(signaturesOption));
    if (theme)
        window.setTheme(*theme, false); // for this run only: View > Theme keeps the saved choice
    // The same picture on every machine, unless a real screen is smaller: then what a user would see
    // there (the offscreen platform's 800x600 "screen" is no screen).
    if (!screenshot.isEmpty() && QGuiApplication::platformName() == QLatin1String("offscreen"))
        window.resize(kScreenshotSize);
    else if (!screenshot.isEmpty())
        window.fitToScreen(kScreenshotSize);
    window.show();
    if (!paths.isEmpty() || !topology.isEmpty())
        window.openPaths(paths, topology);
    if (screenshot.isEmpty())
        return QApplication::exec();

    // Headless use: wait for the analysis, let the layout settle, render once, exit.
    if (window.isLoading()) {
        QEventLoop loop;
        QObject::connect(&window, &MainWindow::analysisFinished, &loop, &QEventLoop::quit);
        QTimer::singleShot(kScreenshotAnalysisTimeoutMs, &loop, &QEventLoop::quit);
        loop.exec();
    }
    if (!panel.isEmpty() && !raisePanel(window, panel))
        return cli.usageError(QStringLiteral("no panel named %1").arg(panel));
    for (int i = 0; i < kSettleRounds; ++i) {
        QApplication::processEvents();
        QEventLoop settle;
        QTimer::singleShot(kSettleRoundMs, &settle, &QEventLoop::quit);
        settle.exec();
    }
    const QImage image = window.grab().toImage();
    if (!image.save(screenshot, "PNG")) {
        cli.printError(QStringLiteral("cannot write screenshot %1").arg(screenshot));
        return exitStatus(ExitCode::NothingReadable);
    }
    return exitStatus(ExitCode::Analysed);
}

} // namespace

} // namespace rankscope

int main(int argc, char** argv)
{
    rankscope::tuneAllocator();
    return rankscope::runGui(argc, argv);
}
