// SPDX-License-Identifier: MIT
#include "log_panel.h"
#include "log_view.h"

#include <QApplication>
#include <QClipboard>
#include <QFile>
#include <QLabel>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace rankscope;

namespace {

const QString kConsole = QStringLiteral(RANKSCOPE_TEST_DATA "/sample-job/torchrun.gpu-a02.console.log");

// The file's lines read independently of FileLines.
QStringList readLines(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QStringList lines = QString::fromUtf8(f.readAll()).split(u'\n');
    if (!lines.isEmpty() && lines.last().isEmpty())
        lines.removeLast();
    for (QString& l : lines) {
        if (l.endsWith(u'\r'))
            l.chop(1);
    }
    return lines;
}

Incident consoleIncident()
{
    Incident inc;
    FileInfo file;
    file.path = kConsole;
    file.displayPath = QStringLiteral("torchrun.gpu-a02.console.log");
    inc.files.push_back(file);
    LogEvent traceback; // a multi-line record starting on an INFO-looking line
    traceback.file = 0;
    traceback.line = 6;
    traceback.lineCount = 3;
    traceback.severity = Severity::Error;
    traceback.signature = 0;
    inc.events.push_back(traceback);
    return inc;
}

} // namespace

class LogViewTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void jumpToLine_data();
    void jumpToLine();
    void searchNextPrevious();
    void invalidRegexIsReported();
    void severityFilterHidesInfo();
    void copiesSelectedLines();
    void missingFileShowsError();
    void horizontalBarKeptAcrossFiles();
    void headerKeepsLineAndRank();

private:
    std::unique_ptr<LogView> m_view;
    Incident m_incident;
    QStringList m_lines;
};

void LogViewTest::init()
{
    m_lines = readLines(kConsole);
    QVERIFY(m_lines.size() > 50);
    m_incident = consoleIncident();
    m_view = std::make_unique<LogView>();
    m_view->resize(900, 300);
    m_view->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_view.get()));
    QVERIFY(m_view->showFile(m_incident, 0, 0, { QStringLiteral("NCCL remote error") }));
    QCOMPARE(m_view->lineCount(), qint64(m_lines.size()));
}

void LogViewTest::jumpToLine_data()
{
    QTest::addColumn<qint64>("target");
    QTest::addColumn<qint64>("expected");
    QTest::newRow("first") << qint64(1) << qint64(1);
    QTest::newRow("middle") << qint64(41) << qint64(41);
    QTest::newRow("last") << qint64(82) << qint64(82);
    QTest::newRow("past the end clamps") << qint64(500) << qint64(82);
}

void LogViewTest::jumpToLine()
{
    QFETCH(qint64, target);
    QFETCH(qint64, expected);
    QSignalSpy spy(m_view.get(), &LogView::currentLineChanged);
    m_view->goToLine(target);
    QCOMPARE(m_view->currentLine(), expected);
    QCOMPARE(spy.size(), 1);
    QVERIFY(m_view->firstVisibleLine() <= expected && expected <= m_view->lastVisibleLine());
    QCOMPARE(m_view->lineText(expected), m_lines.at(static_cast<int>(expected - 1)));
    // showFile with a line does the same in one step.
    LogView other;
    other.resize(900, 300);
    other.show();
    QVERIFY(other.showFile(m_incident, 0, target));
    QCOMPARE(other.currentLine(), expected);
    QVERIFY(other.firstVisibleLine() <= expected && expected <= other.lastVisibleLine());
}

void LogViewTest::searchNextPrevious()
{
    const QString pattern = QStringLiteral("Rank 7\\].*(taking|Some NCCL)");
    QList<qint64> expected;
    const QRegularExpression re(pattern);
    for (int i = 0; i < m_lines.size(); ++i) {
        if (re.match(m_lines.at(i)).hasMatch())
            expected.push_back(i + 1);
    }
    QVERIFY(expected.size() >= 2);
    QVERIFY(m_view->setSearchPattern(pattern));
    QList<qint64> found;
    for (int k = 0; k < expected.size(); ++k)
        found.push_back(m_view->findNext());
    QCOMPARE(found, expected);
    QCOMPARE(m_view->findNext(), expected.first()); // wraps
    QCOMPARE(m_view->findPrevious(), expected.last()); // wraps back
    QCOMPARE(m_view->findPrevious(), expected.at(expected.size() - 2));
    QCOMPARE(m_view->currentLine(), expected.at(expected.size() - 2));
    QImage image(m_view->size(), QImage::Format_ARGB32_Premultiplied);
    m_view->render(&image); // paints hits, marks and the current line
    if (qEnvironmentVariableIsSet("RANKSCOPE_LOGVIEW_SNAPSHOT")) // for looking at it by eye
        image.save(qEnvironmentVariable("RANKSCOPE_LOGVIEW_SNAPSHOT"));
    QVERIFY(m_view->setSearchPattern(QStringLiteral("no such text anywhere")));
    QCOMPARE(m_view->findNext(), qint64(-1));
}

void LogViewTest::invalidRegexIsReported()
{
    QVERIFY(m_view->setSearchPattern(QStringLiteral("frame #\\d")));
    QString error;
    QVERIFY(!m_view->setSearchPattern(QStringLiteral("(unclosed[ group"), &error));
    QVERIFY(error.contains(QLatin1String("Invalid regular expression")));
    QCOMPARE(m_view->searchPattern(), QStringLiteral("frame #\\d")); // the previous search stays
    QVERIFY(m_view->findNext() > 0);
}

void LogViewTest::severityFilterHidesInfo()
{
    m_view->goToLine(17);
    m_view->setWarnOnly(true);
    QVERIFY(m_view->shownLineCount() < m_view->lineCount());
    int errorLines = 0;
    for (int i = 0; i < m_lines.size(); ++i) {
        const qint64 line = i + 1;
        const QString& text = m_lines.at(i);
        if (text.contains(QLatin1String("]:[E314"))) {
            QVERIFY2(m_view->isLineShown(line), qPrintable(text));
            ++errorLines;
        }
        if (text.contains(QLatin1String("frame #")) || text.endsWith(QLatin1String("Last error:"))) {
            // INFO continuation lines are hidden, unless the incident marks them (lines 6..8).
            QCOMPARE(m_view->isLineShown(line), line >= 6 && line <= 8);
        }
    }
    QVERIFY(errorLines >= 5);
    QVERIFY(m_view->isLineShown(17));
    QCOMPARE(m_view->currentLine(), qint64(17));
    // Search under the filter only visits shown lines.
    QVERIFY(m_view->setSearchPattern(QStringLiteral("frame #[1-5]")));
    QCOMPARE(m_view->findNext(), qint64(-1));
    m_view->setWarnOnly(false);
    QCOMPARE(m_view->shownLineCount(), m_view->lineCount());
    QVERIFY(m_view->findNext() > 0);
}

void LogViewTest::copiesSelectedLines()
{
    m_view->goToLine(5);
    QTest::keyClick(m_view.get(), Qt::Key_Down, Qt::ShiftModifier);
    QTest::keyClick(m_view.get(), Qt::Key_Down, Qt::ShiftModifier);
    QCOMPARE(m_view->currentLine(), qint64(7));
    QTest::keyClick(m_view.get(), Qt::Key_C, Qt::ControlModifier);
    const QString expected = m_lines.mid(4, 3).join(u'\n');
    QCOMPARE(m_view->selectedText(), expected);
    QCOMPARE(QApplication::clipboard()->text(), expected);
    // A click selects one line.
    const int h = m_view->fontMetrics().height() + 2;
    const qint64 top = m_view->firstVisibleLine();
    QTest::mouseClick(m_view->viewport(), Qt::LeftButton, {}, QPoint(200, h * 2 + h / 2));
    QCOMPARE(m_view->currentLine(), top + 2);
    QCOMPARE(m_view->selectedText(), m_lines.at(static_cast<int>(top + 1)));
}

void LogViewTest::missingFileShowsError()
{
    Incident inc;
    FileInfo f;
    f.path = QStringLiteral(RANKSCOPE_TEST_DATA "/does-not-exist.log");
    inc.files.push_back(f);
    QVERIFY(!m_view->showFile(inc, 0, 3));
    QVERIFY(m_view->errorString().contains(f.path));
    QCOMPARE(m_view->lineCount(), qint64(0));
    QVERIFY(!m_view->showFile(inc, 4, 1));
    QImage image(m_view->size(), QImage::Format_ARGB32_Premultiplied);
    m_view->render(&image); // paints the message instead of lines
    QCOMPARE(m_view->findNext(), qint64(-1));
}

// Switching between files of long lines leaves the horizontal scroll bar where it is: hiding it until the
// new file's first paint measured its lines would resize the viewport (and lay the window out) twice per
// switch. A file whose lines all fit gets no bar once painted.
void LogViewTest::horizontalBarKeptAcrossFiles()
{
    QScrollBar* bar = m_view->horizontalScrollBar();
    auto settle = [&] {
        m_view->viewport()->repaint();
        QCoreApplication::processEvents(); // the scroll bar is shown or hidden by a queued call
    };
    settle();
    QVERIFY(bar->maximum() > 0);
    QVERIFY(bar->isVisible());

    Incident other;
    FileInfo nccl;
    nccl.path = QStringLiteral(RANKSCOPE_TEST_DATA "/sample-job/nccl.gpu-a01.41872.log");
    other.files.push_back(nccl);
    const QSize viewport = m_view->viewport()->size();
    QVERIFY(m_view->showFile(other, 0, 0));
    QVERIFY(bar->maximum() > 0); // still the old file's range until the new one is painted
    settle();
    QVERIFY(bar->maximum() > 0);
    QVERIFY(bar->isVisible());
    QCOMPARE(m_view->viewport()->size(), viewport);

    QTemporaryDir dir;
    QFile shortLines(dir.filePath(QStringLiteral("short.log")));
    QVERIFY(shortLines.open(QIODevice::WriteOnly));
    for (int i = 1; i <= 40; ++i)
        shortLines.write(QByteArray("line ") + QByteArray::number(i) + "\n");
    shortLines.close();
    Incident small;
    FileInfo f;
    f.path = shortLines.fileName();
    small.files.push_back(f);
    QVERIFY(m_view->showFile(small, 0, 0));
    settle();
    QCOMPARE(bar->maximum(), 0);
    QVERIFY(!bar->isVisible());
}

// The header as shown (elided), panel narrower and narrower: the path gives way first, so "line 32 ·
// rank 7" stays whole as long as it fits beside a few characters of the file name; the whole label was
// elided in the middle before ("nccl.gpu-a02.52117.log · li…ank 7").
void LogViewTest::headerKeepsLineAndRank()
{
    LogPanel panel;
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    const QString path = QStringLiteral("runs/job-41/attempt_1/nccl.gpu-a02.52117.log");
    const QString where = QStringLiteral("line 32 · rank 7 · gpu-a02 · pid 52117");
    panel.setFileLabel(path, where);
    QCOMPARE(panel.fileLabel(), path + QStringLiteral(" · ") + where);
    auto* header = panel.findChild<QLabel*>(QStringLiteral("logHeader"));
    QVERIFY(header);
    const QFontMetrics fm = header->fontMetrics();
    const int needed =
        fm.averageCharWidth() * 8 + fm.horizontalAdvance(QStringLiteral(" · line 32 · rank 7…"));
    int pathElided = 0, checked = 0;
    for (int width = 1200; width >= 200; width -= 20) {
        panel.resize(width, 300);
        QCoreApplication::processEvents();
        const QString shown = panel.shownFileLabel();
        QCOMPARE(shown, header->text());
        QVERIFY2(fm.horizontalAdvance(shown) <= header->width(), qPrintable(shown));
        if (header->width() < needed)
            continue;
        ++checked;
        QVERIFY2(shown.contains(QStringLiteral(" · line 32 · rank 7")),
            qPrintable(QStringLiteral("%1 px: %2").arg(header->width()).arg(shown)));
        if (!shown.startsWith(path))
            ++pathElided;
    }
    QVERIFY(checked > 0 && pathElided > 0); // some widths had to elide the path
}

QTEST_MAIN(LogViewTest)
#include "tst_log_view.moc"
