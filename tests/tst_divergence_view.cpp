// SPDX-License-Identifier: MIT
// The side-by-side diff and the verify-result widget on generated runs: the highlighted rows are the first
// difference and the failing-only lines, the verdict banner and the outcomes table show the result.
#include "analysis.h"
#include "control_compare.h"
#include "divergence_view.h"
#include "incident_generator.h"
#include "severity_palette.h"
#include "verify_fix.h"
#include "verify_view.h"

#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>

using namespace rankscope;
using namespace rankscope::testgen;

namespace {

Analysis generateAndLoad(
    const QTemporaryDir& tmp, const QString& name, Fault fault, int faultRank, quint32 seed)
{
    GenOptions o;
    o.ranks = 8;
    o.gpusPerNode = 4;
    o.fault = fault;
    o.faultRank = faultRank;
    o.layout = Layout::PerRankFiles;
    o.seed = seed;
    generateIncident(o, tmp.filePath(name));
    AnalysisRequest r;
    r.logPaths << tmp.filePath(name);
    return analyze(r);
}

QString blockText(const QPlainTextEdit* e, int row)
{
    return e->document()->findBlockByNumber(row).text();
}

bool hasSelectionAt(const QPlainTextEdit* e, int row)
{
    const auto sels = e->extraSelections();
    return std::any_of(sels.begin(), sels.end(),
        [row](const QTextEdit::ExtraSelection& s) { return s.cursor.blockNumber() == row; });
}

} // namespace

class TestDivergenceView : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void highlightsFirstDifference();
    void noCounterpartShowsNote();
    void verifyBanner();

private:
    QTemporaryDir m_tmp;
    Analysis m_failing, m_healthy, m_moved;
};

void TestDivergenceView::initTestCase()
{
    m_failing = generateAndLoad(m_tmp, QStringLiteral("bad"), Fault::IbRetryExceeded, 7, 1);
    m_healthy = generateAndLoad(m_tmp, QStringLiteral("ok"), Fault::None, 7, 2);
    m_moved = generateAndLoad(m_tmp, QStringLiteral("moved"), Fault::IbRetryExceeded, 2, 3);
    QVERIFY(m_failing.currentAttempt() && m_healthy.currentAttempt() && m_moved.currentAttempt());
}

void TestDivergenceView::highlightsFirstDifference()
{
    const auto& f = *m_failing.currentAttempt();
    const Divergence d = compareWithControl(f.incident, f.diagnosis, m_healthy.currentAttempt()->incident);
    QVERIFY(d.found);
    DivergenceView view;
    view.resize(1000, 500);
    view.show();
    view.setDivergence(d);
    QCOMPARE(view.highlightedRow(), d.firstRow);
    const int row = view.highlightedRow();
    QVERIFY(row >= 0);
    QCOMPARE(view.failingEdit()->blockCount(), static_cast<int>(d.rows.size()));
    QCOMPARE(view.controlEdit()->blockCount(), static_cast<int>(d.rows.size()));
    QVERIFY(blockText(view.failingEdit(), row).endsWith(d.failingText));
    QVERIFY(blockText(view.failingEdit(), row).trimmed().startsWith(QString::number(d.failingLine)));
    QVERIFY(blockText(view.controlEdit(), row).endsWith(d.controlText));
    QVERIFY(d.controlText.endsWith(QLatin1String("/GDRDMA")));
    QVERIFY(hasSelectionAt(view.failingEdit(), row));
    QVERIFY(hasSelectionAt(view.controlEdit(), row));
    // Rows above the first difference are equal: unmarked.
    for (int r = 0; r < row; ++r)
        QVERIFY(!hasSelectionAt(view.failingEdit(), r));
    // The failing-only rows are the lines compareWithControl listed, and they are marked on the left.
    std::vector<qint64> marked;
    for (int r : view.onlyFailingRows()) {
        QVERIFY(hasSelectionAt(view.failingEdit(), r));
        marked.push_back(d.rows[static_cast<size_t>(r)].failingLine);
    }
    std::vector<qint64> listed;
    for (const DiffLine& l : d.onlyInFailing)
        listed.push_back(l.line);
    QCOMPARE(marked, listed);
    QVERIFY(view.headerText().contains(QLatin1String("aligned by rank")));
}

void TestDivergenceView::noCounterpartShowsNote()
{
    Divergence d;
    d.note = QStringLiteral("the control run has no rank 7");
    DivergenceView view;
    view.setDivergence(d);
    QCOMPARE(view.highlightedRow(), -1);
    QCOMPARE(view.headerText(), d.note);
    QVERIFY(view.failingEdit()->toPlainText().isEmpty());
}

void TestDivergenceView::verifyBanner()
{
    VerifyView view;
    const VerifyResult pass = verifyFix(m_failing, m_healthy);
    QVERIFY(pass.pass);
    view.setResult(pass);
    QVERIFY(view.banner()->text().startsWith(QLatin1String("PASS")));
    // The verdict's colours come from the one tone table, in the view's theme.
    QVERIFY(
        view.banner()->styleSheet().contains(toneColors(Tone::Healthy, view.palette()).background.name()));
    QCOMPARE(view.outcomesTable()->rowCount(), static_cast<int>(pass.outcomes.size()));
    QCOMPARE(view.outcomesTable()->item(0, 1)->text(), QStringLiteral("disappeared"));
    QCOMPARE(view.evidenceList()->count(), pass.evidence.size() + 2);

    const VerifyResult fail = verifyFix(m_failing, m_moved);
    QVERIFY(!fail.pass);
    view.setResult(fail);
    QVERIFY(view.banner()->text().startsWith(QLatin1String("FAIL")));
    QVERIFY(
        view.banner()->styleSheet().contains(toneColors(Tone::Failure, view.palette()).background.name()));
    QCOMPARE(view.outcomesTable()->item(0, 1)->text(), QStringLiteral("moved"));
    QCOMPARE(view.outcomesTable()->item(0, 2)->text(), QStringLiteral("7"));
    QCOMPARE(view.outcomesTable()->item(0, 3)->text(), QStringLiteral("2"));
}

QTEST_MAIN(TestDivergenceView)
#include "tst_divergence_view.moc"
