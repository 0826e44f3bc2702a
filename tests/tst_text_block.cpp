// SPDX-License-Identifier: MIT
// TextBlock: the Diagnosis pane's text, which must reflow below its longest word, keep every line of it
// visible at the height it asks for, copy exactly what it shows, and pass links and the wheel on.
#include "text_block.h"

#include <QApplication>
#include <QClipboard>
#include <QFontDatabase>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTextDocument>
#include <QVBoxLayout>
#include <QtTest>

using namespace rankscope;

namespace {
// A real verify command of the catalog's (nccl-ib-timeout under Slurm): its export word is one
// unbreakable run for QLabel.
const QString kCommand = QStringLiteral(
    "srun --export=ALL,NCCL_NET_GDR_LEVEL=PXB,NCCL_IB_HCA=mlx5_1 -N 2 all_reduce_perf -b 8 -e 1G -f 2");
const QString kWord = QStringLiteral("--export=ALL,NCCL_NET_GDR_LEVEL=PXB,NCCL_IB_HCA=mlx5_1");

// The shown document at the block's current size: its text fits the viewport's height.
bool textFits(TextBlock& block)
{
    const double needed = block.document()->size().height();
    return needed <= block.viewport()->height() + 0.5;
}
} // namespace

class TestTextBlock : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void reflowsBelowItsLongestWord()
    {
        TextBlock block(kCommand, Qt::PlainText);
        block.setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
        block.setFrameShape(QFrame::StyledPanel);
        block.setPadding(4);
        const int word = QFontMetrics(block.font()).horizontalAdvance(kWord);
        QVERIFY2(block.minimumSizeHint().width() < word / 3,
            qPrintable(QStringLiteral("minimum %1, word %2").arg(block.minimumSizeHint().width()).arg(word)));
        const int oneLine = block.heightForWidth(4000);
        const int narrow = word / 2;
        // At half the word's width the command takes at least three lines: the word itself is broken.
        QVERIFY(block.heightForWidth(narrow) >= oneLine + 2 * QFontMetrics(block.font()).lineSpacing());
        block.resize(narrow, block.heightForWidth(narrow));
        block.show();
        QVERIFY(QTest::qWaitForWindowExposed(&block));
        QVERIFY(textFits(block));
        QCOMPARE(block.verticalScrollBar()->maximum(), 0);
    }

    void heightForWidthIsTheShownHeight()
    {
        TextBlock block(QStringLiteral("<b>Fix</b>: raise <code>NCCL_IB_TIMEOUT</code> to 22 on "
                                       "/data/runs/job-41/logs/node3/rank-24.log and rerun the job."),
            Qt::RichText);
        block.show();
        QVERIFY(QTest::qWaitForWindowExposed(&block));
        for (const int width : { 60, 130, 260, 520, 1100 }) {
            const int h = block.heightForWidth(width);
            block.resize(width, h);
            QCoreApplication::processEvents();
            QVERIFY2(textFits(block), qPrintable(QStringLiteral("width %1").arg(width)));
            // No room wasted either: a line less would cut the text.
            QVERIFY2(block.document()->size().height() > h - block.fontMetrics().lineSpacing(),
                qPrintable(QStringLiteral("width %1: %2 for %3")
                               .arg(width)
                               .arg(h)
                               .arg(block.document()->size().height())));
        }
        QVERIFY(block.heightForWidth(60) > block.heightForWidth(1100));
        // New text is measured anew.
        const int before = block.heightForWidth(130);
        block.setText(block.text() + QStringLiteral(" And again, and again, and again, and again."));
        QVERIFY(block.heightForWidth(130) > before);
    }

    void copiesExactlyWhatItShows()
    {
        TextBlock block(kCommand, Qt::PlainText);
        block.resize(120, block.heightForWidth(120)); // wrapped over several lines
        block.show();
        QVERIFY(QTest::qWaitForWindowExposed(&block));
        block.selectAll();
        block.copy();
        QCOMPARE(QApplication::clipboard()->text(), kCommand);
        QCOMPARE(block.toPlainText(), kCommand);
        QCOMPARE(block.text(), kCommand);
    }

    void linksAreSignalledNotOpened()
    {
        TextBlock block(QStringLiteral("see <a href='event:42'>node3/rank-24.log:1038</a>"), Qt::RichText);
        block.resize(400, block.heightForWidth(400));
        block.show();
        QVERIFY(QTest::qWaitForWindowExposed(&block));
        QSignalSpy spy(&block, &TextBlock::linkActivated);
        QTextCursor c(block.document());
        c.setPosition(8); // inside the anchor text
        const QPoint at = block.cursorRect(c).center();
        QTest::mouseClick(block.viewport(), Qt::LeftButton, {}, at);
        QTRY_COMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).toString(), QStringLiteral("event:42"));
        QVERIFY(block.source().isEmpty()); // never navigated
        QVERIFY(block.toPlainText().startsWith(QLatin1String("see ")));
    }

    void theWheelScrollsThePaneAroundIt()
    {
        QScrollArea pane;
        auto* content = new QWidget;
        auto* v = new QVBoxLayout(content);
        auto* block = new TextBlock(kCommand, Qt::PlainText);
        v->addWidget(block);
        v->addSpacing(3000);
        pane.setWidget(content);
        pane.setWidgetResizable(true);
        pane.resize(300, 200);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        QVERIFY(pane.verticalScrollBar()->maximum() > 0);
        const QPoint at = block->viewport()->rect().center();
        QWheelEvent wheel(at, block->viewport()->mapToGlobal(at), QPoint(), QPoint(0, -120), Qt::NoButton,
            Qt::NoModifier, Qt::NoScrollPhase, false);
        wheel.setAccepted(true);
        QApplication::sendEvent(block->viewport(), &wheel);
        // Left unaccepted, so Qt hands the user's wheel on to the pane (a spontaneous wheel event goes
        // up the parents until one accepts it); the block itself has not moved.
        QVERIFY(!wheel.isAccepted());
        QCOMPARE(block->verticalScrollBar()->value(), 0);
        // The pane, given the same wheel, scrolls.
        QWheelEvent again(QPoint(5, 5), pane.viewport()->mapToGlobal(QPoint(5, 5)), QPoint(), QPoint(0, -120),
            Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(pane.viewport(), &again);
        QTRY_VERIFY(pane.verticalScrollBar()->value() > 0);
    }

    void accentLeavesRoomForItsBar()
    {
        TextBlock plain(kCommand, Qt::PlainText);
        TextBlock marked(kCommand, Qt::PlainText);
        marked.setAccent(Qt::red);
        QVERIFY(marked.minimumSizeHint().width() > plain.minimumSizeHint().width());
        marked.resize(300, marked.heightForWidth(300));
        marked.show();
        QVERIFY(QTest::qWaitForWindowExposed(&marked));
        QVERIFY(textFits(marked));
        const QImage shot = marked.grab().toImage();
        QCOMPARE(QColor(shot.pixel(1, marked.height() / 2)), QColor(Qt::red));
        QVERIFY(QColor(shot.pixel(marked.width() - 2, 1)) != QColor(Qt::red));
    }
};

QTEST_MAIN(TestTextBlock)
#include "tst_text_block.moc"
