// SPDX-License-Identifier: MIT
// The diagnosis pane shows the signature's typed fix actions after the fix prose, in the idiom it was given,
// and names collateral without a rank by its writer.
#include "analysis.h"
#include "diagnosis_pane.h"
#include "text_block.h"

#include <QApplication>
#include <QToolButton>
#include <QtTest>

using namespace rankscope;

namespace {

// A real case's folder under tests/data/real-found, analysed as the window would.
Analysis analyzeRealCase(const char* folder)
{
    AnalysisRequest request;
    request.logPaths = { QStringLiteral(RANKSCOPE_TEST_DATA "/real-found/") + QLatin1String(folder) };
    return analyze(request);
}

} // namespace

class TestDiagnosisPane : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void showsActionsInTheGivenIdiom()
    {
        AnalysisRequest request;
        request.logPaths = { QStringLiteral(RANKSCOPE_TEST_DATA "/sample-job") };
        const Analysis a = analyze(request);
        QVERIFY2(a.error.isEmpty(), qPrintable(a.error));
        const AttemptAnalysis* at = a.currentAttempt();
        QVERIFY(at && at->diagnosis.signature >= 0);
        const Signature& sig =
            a.catalog.catalog.signatures[static_cast<std::size_t>(at->diagnosis.signature)];
        QVERIFY(!sig.actions.empty());

        DiagnosisPane pane;
        pane.setDiagnosis(&at->incident, &at->diagnosis, &a.catalog.catalog);
        const QStringList byDefault = pane.actionTexts();
        QCOMPARE(byDefault.size(), static_cast<qsizetype>(sig.actions.size()));
        const bool hasEnv = std::any_of(sig.actions.begin(), sig.actions.end(),
            [](const FixAction& x) { return x.kind == FixActionKind::Env; });
        QVERIFY(hasEnv);
        // No launcher given: the shell's export, not a guessed launcher.
        QVERIFY(byDefault.join(QLatin1Char('\n')).contains(QLatin1String("env (shell): ")));
        QVERIFY(byDefault.join(QLatin1Char('\n')).contains(QLatin1String("export ")));

        // One line for the caller: the detected launcher and framework.
        pane.setFixIdiom(FixIdiom { QStringLiteral("slurm"), QStringLiteral("hf-trainer") });
        pane.setDiagnosis(&at->incident, &at->diagnosis, &a.catalog.catalog);
        const QString slurm = pane.actionTexts().join(QLatin1Char('\n'));
        QVERIFY2(slurm.contains(QLatin1String("env (srun): ")), qPrintable(slurm));
        QVERIFY2(slurm.contains(QLatin1String("srun --export=ALL,")), qPrintable(slurm));
        QVERIFY(!slurm.contains(QLatin1Char('<')));

        pane.clear();
        QVERIFY(pane.actionTexts().isEmpty());
    }

    // Real case 3303: the command line already set NCCL_P2P_DISABLE=1 and the run still hung. The pane
    // lists that action last, with the line that set it, as the CLI and the JSON report do.
    void listsWhatTheRunAlreadyTriedLast()
    {
        const Analysis a = analyzeRealCase("3303-h800-all-reduce-perf-g4-hang-nvls-disable");
        const AttemptAnalysis* at = a.currentAttempt();
        QVERIFY(at && at->diagnosis.signature >= 0);
        DiagnosisPane pane;
        pane.setDiagnosis(&at->incident, &at->diagnosis, &a.catalog.catalog);
        const QStringList actions = pane.actionTexts();
        QVERIFY2(actions.size() >= 2, qPrintable(actions.join(QLatin1Char('\n'))));
        const auto tried = [](const QString& text) {
            return text.contains(QLatin1String("Already set in this run"));
        };
        QVERIFY2(tried(actions.last()), qPrintable(actions.join(QLatin1Char('\n'))));
        QVERIFY(actions.last().contains(QLatin1String("NCCL_P2P_DISABLE")));
        QVERIFY(!tried(actions.first()));
    }

    // A long fix shows its first sentences and a button for the rest, so the actions stay in view; the
    // button shows the whole text.
    void longFixIsFoldedToItsLead()
    {
        const Analysis a = analyzeRealCase("3303-h800-all-reduce-perf-g4-hang-nvls-disable");
        const AttemptAnalysis* at = a.currentAttempt();
        QVERIFY(at && at->diagnosis.fix.size() > 600);
        DiagnosisPane pane;
        pane.setDiagnosis(&at->incident, &at->diagnosis, &a.catalog.catalog);
        pane.show();
        QTRY_VERIFY(pane.findChild<TextBlock*>(QStringLiteral("fixText")));
        auto* fix = pane.findChild<TextBlock*>(QStringLiteral("fixText"));
        auto* more = pane.findChild<QToolButton*>(QStringLiteral("wholeFix"));
        QVERIFY(more);
        QVERIFY(fix->text().size() < at->diagnosis.fix.size());
        QVERIFY(at->diagnosis.fix.startsWith(fix->text().chopped(2)));
        QCOMPARE(pane.fixText(), at->diagnosis.fix);
        more->click();
        QCOMPARE(fix->text(), at->diagnosis.fix);
    }

    // Real case 404: the collateral without a rank was two NCCL processes, not a launcher; the pane
    // names them by pid and host, as the reports do.
    void namesRanklessCollateralByItsWriter()
    {
        const Analysis a = analyzeRealCase("404-mpirun-five-h100-ib-error-4-vendor-81-ipv6-gid-acs");
        const AttemptAnalysis* at = a.currentAttempt();
        QVERIFY(at);
        DiagnosisPane pane;
        pane.setDiagnosis(&at->incident, &at->diagnosis, &a.catalog.catalog);
        pane.show();
        const auto shownText = [&pane] {
            QString text;
            for (const TextBlock* block : pane.findChildren<TextBlock*>())
                text += block->toPlainText(); // as shown, not the HTML given
            return text;
        };
        // The pane puts its new content in place a frame or two later.
        QTRY_VERIFY(shownText().contains(QLatin1String("Collateral")));
        const QString shown = shownText();
        QVERIFY2(shown.contains(QLatin1String("pid 9821 on H100-1, pid 68738 on H100-5 (no rank): IB local")),
            qPrintable(shown));
        QVERIFY(!shown.contains(QLatin1String("launcher (no rank)")));
    }
};

QTEST_MAIN(TestDiagnosisPane)
#include "tst_diagnosis_pane.moc"
