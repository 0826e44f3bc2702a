// SPDX-License-Identifier: MIT
// Pasted text is kept as a file of its own before it is read (core/input/pasted_copy): one folder per paste,
// so the diagnosis' rg commands name that folder and find this paste only; a folder that cannot be written
// gives an error naming it.
#include "analysis.h"
#include "pasted_copy.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace rankscope;

class PastedCopyTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void savedPasteIsWhatTheCommandsSearch();
    void twoPastesInOneSecondGetTwoFolders();
    void unwritableFolderIsNamed();
};

void PastedCopyTest::savedPasteIsWhatTheCommandsSearch()
{
    QFile real(
        QStringLiteral(RANKSCOPE_TEST_DATA "/real/105-ring-not-loop-back-uninitialized-link-speed/log.txt"));
    QVERIFY(real.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(real.readAll());
    QTemporaryDir root;
    const SavedPaste saved = savePastedText(text, root.path(), QDateTime::currentDateTimeUtc());
    QVERIFY2(saved.error.isEmpty(), qPrintable(saved.error));
    QFile copy(saved.path);
    QVERIFY(copy.open(QIODevice::ReadOnly));
    QCOMPARE(QString::fromUtf8(copy.readAll()), text);

    AnalysisRequest request;
    request.logPaths << saved.path;
    const Analysis analysis = analyze(request);
    const AttemptAnalysis* a = analysis.currentAttempt();
    QVERIFY(a && a->diagnosis.failureFound);
    const QString folder = QFileInfo(saved.path).absolutePath();
    QVERIFY(!a->diagnosis.verify.isEmpty());
    bool named = false;
    for (const QString& command : a->diagnosis.verify + a->diagnosis.evidenceCommands) {
        if (!command.startsWith(QLatin1String("rg ")))
            continue;
        QVERIFY2(!command.endsWith(QLatin1String(" .")), qPrintable(command));
        named = named || command.contains(folder);
    }
    QVERIFY(named);
}

void PastedCopyTest::twoPastesInOneSecondGetTwoFolders()
{
    QTemporaryDir root;
    const QDateTime when = QDateTime::currentDateTimeUtc();
    const SavedPaste a = savePastedText(QStringLiteral("first\n"), root.path(), when);
    const SavedPaste b = savePastedText(QStringLiteral("second\n"), root.path(), when);
    QVERIFY(a.error.isEmpty() && b.error.isEmpty());
    QVERIFY(QFileInfo(a.path).absolutePath() != QFileInfo(b.path).absolutePath());
}

void PastedCopyTest::unwritableFolderIsNamed()
{
    QTemporaryDir root;
    const QString blocker = root.filePath(QStringLiteral("file-not-folder"));
    QFile f(blocker);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.close();
    const SavedPaste saved = savePastedText(QStringLiteral("x\n"), blocker, QDateTime::currentDateTimeUtc());
    QVERIFY(saved.path.isEmpty());
    QVERIFY2(saved.error.contains(blocker), qPrintable(saved.error));
}

QTEST_GUILESS_MAIN(PastedCopyTest)
#include "tst_pasted_copy.moc"
