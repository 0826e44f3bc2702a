// SPDX-License-Identifier: MIT
// MainWindow: View ▸ Theme, and the Help menu (keys, the demo incident, how to read a diagnosis).
#include "main_window.h"
#include "theme.h"

#include <QActionGroup>
#include <QApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace rankscope {

void MainWindow::buildThemeMenu(QMenu* view)
{
    QMenu* theme = view->addMenu(tr("&Theme"));
    auto* group = new QActionGroup(theme);
    for (Theme t : { Theme::System, Theme::Light, Theme::Dark }) {
        const QString label = t == Theme::System ? tr("&System")
            : t == Theme::Light                  ? tr("&Light")
                                                 : tr("&Dark");
        QAction* a = theme->addAction(label, this, [this, t] { setTheme(t, true); });
        a->setObjectName(QStringLiteral("theme-") + themeName(t));
        a->setCheckable(true);
        group->addAction(a);
    }
    m_themeGroup = group;
}

void MainWindow::setTheme(Theme theme, bool persist)
{
    m_theme = theme;
    applyTheme(theme);
    if (persist)
        saveTheme(theme);
    if (m_themeGroup)
        for (QAction* a : m_themeGroup->actions())
            a->setChecked(a->objectName() == QStringLiteral("theme-") + themeName(theme));
}

void MainWindow::buildHelpMenu()
{
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* howTo = help->addAction(tr("How to &Read a Diagnosis"), this, &MainWindow::showHowToRead);
    howTo->setObjectName(QStringLiteral("howToRead"));
    howTo->setShortcut(QKeySequence::HelpContents);
    QAction* demo = help->addAction(tr("Open &Demo Incident"), this, &MainWindow::openDemo);
    demo->setObjectName(QStringLiteral("openDemo"));
    help->addAction(
        tr("&Keyboard"), this, [this] { QMessageBox::information(this, tr("Keyboard"), keyboardHelp()); });
}

QString MainWindow::keyboardHelp() const
{
    return tr("Timeline: W/S zoom, A/D pan, F fit, Home initiating event, N/P next/previous WARN or worse, "
              "drag to zoom into a range.\nLog: F3/Shift+F3 next/previous match, Ctrl+C copy the selected "
              "lines.\nCtrl+Shift+F search every file, Ctrl+O open folder, Ctrl+T open topology, Ctrl+V "
              "paste a traceback, Ctrl+E export report, F1 how to read a diagnosis.");
}

// The bundled demo (resources/demo, compiled into the window) is copied out once per window: the
// analysis reads files, and the Log view pages through them.
QString MainWindow::demoFolder()
{
    if (!m_demoDir) {
        auto dir = std::make_unique<QTemporaryDir>();
        if (!dir->isValid())
            return {};
        const QDir source(QStringLiteral(":/demo"));
        for (const QString& name : source.entryList(QDir::Files)) {
            const QString target = dir->filePath(name);
            if (!QFile::copy(source.filePath(name), target))
                return {};
            QFile::setPermissions(target, QFile::ReadOwner | QFile::WriteOwner);
        }
        m_demoDir = std::move(dir);
    }
    return m_demoDir->path();
}

void MainWindow::openDemo()
{
    const QString dir = demoFolder();
    if (dir.isEmpty()) {
        QMessageBox::warning(this, tr("Open Demo Incident"),
            tr("The demo incident could not be written to a temporary folder."));
        return;
    }
    AnalysisRequest r;
    r.logPaths = { dir };
    start(r); // not a recent folder: it is gone when the window closes
}

QString MainWindow::howToReadHtml() const
{
    return tr(
        "<h2>How to read a diagnosis</h2>"
        "<h3>The banner</h3>"
        "<p>The coloured line at the top is the answer in one sentence: which rank failed first, on which "
        "host and GPU, and why. Red means a failure was found; green means none was. When many ranks "
        "die, only one of them started it: the banner names that one, the <b>initiating</b> rank. When the "
        "logs hold only symptoms (a watchdog timeout, a wrapper's error), the banner says which rank "
        "<i>reported the failure first</i>: every rank may have waited in the same collective.</p>"
        "<h3>Confidence</h3>"
        "<p>How sure Rankscope is: <b>high</b> when a known signature matched on the first rank to fail and "
        "the order of events is clear; <b>medium</b> or <b>low</b> when the clocks disagree, the "
        "signature is generic, or another explanation fits almost as well. Low confidence means: check "
        "the hypotheses below before acting.</p>"
        "<h3>Collateral</h3>"
        "<p>Failures that came <i>after</i> the initiating one, on other ranks, because of it: watchdog "
        "timeouts, broken pipes, \"remote process exited\". They are real errors, but fixing them fixes "
        "nothing. The timeline draws them grey.</p>"
        "<h3>Suspects and hypotheses</h3>"
        "<p><b>Suspects</b> are ranks, hosts or devices that look wrong without being proven the cause "
        "(a rank that went quiet early, a NIC named in a warning). <b>Competing hypotheses</b> are the "
        "other explanations that were weighed, with the reason each lost. If the fix does not work, "
        "they are the next things to try.</p>"
        "<h3>Fix, verify and the controls</h3>"
        "<p>The fix is filled in for this incident (the rank, the host, the NIC). The verify commands "
        "check it before you rerun the job. Verify Fix compares this run with a run after the fix "
        "(PASS, FAIL or INCONCLUSIVE, with the reason); Divergence compares it with a healthy run and "
        "shows the first line where they part.</p>"
        "<h3>Keys</h3><p>%1</p>")
        .arg(keyboardHelp().toHtmlEscaped().replace(QLatin1String("\n"), QLatin1String("<br>")));
}

void MainWindow::showHowToRead()
{
    auto* dialog = new QDialog(this);
    dialog->setObjectName(QStringLiteral("howToReadDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("How to Read a Diagnosis"));
    auto* v = new QVBoxLayout(dialog);
    auto* text = new QTextBrowser;
    text->setHtml(howToReadHtml());
    v->addWidget(text);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
    v->addWidget(buttons);
    dialog->resize(fitSize(QSize(640, 620)));
    dialog->show();
}

} // namespace rankscope
