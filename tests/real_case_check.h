// SPDX-License-Identifier: MIT
// The checks of one real case folder (log files + expected.json, format in tests/data/real/README.md),
// shared by tst_real_cases (tests/data/real) and tst_real_cases_found (tests/data/real-found): `rankscope
// diagnose --format json` must blame the line the thread established, name a signature, and show a fix that
// names the thread's remedy (fix_regex). For a hang without an error line, the benign distractor must not be
// blamed. ../shared/tools/score-real-cases gives the same figures.
#pragma once

#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QtTest>

namespace realcase {

inline QJsonObject readJson(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

// One data row per case folder of root; at least minimum of them.
inline void addCaseRows(const QString& root, qsizetype minimum)
{
    QTest::addColumn<QString>("folder");
    const QStringList cases = QDir(root).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
    QVERIFY2(cases.size() >= minimum, qPrintable(root + QStringLiteral(" holds the real cases")));
    for (const QString& c : cases)
        QTest::newRow(qPrintable(c)) << root + QLatin1Char('/') + c;
}

// Runs the CLI on every file of folder but expected.json and checks its answer; QVERIFY/QCOMPARE fail the
// calling test function.
inline void checkCase(const QString& folder)
{
    const QJsonObject want = readJson(folder + QStringLiteral("/expected.json"));
    QVERIFY(!want.isEmpty());
    QStringList args { QStringLiteral("diagnose") };
    for (const QString& f : QDir(folder).entryList(QDir::Files, QDir::Name)) {
        if (f != QLatin1String("expected.json"))
            args << folder + QLatin1Char('/') + f;
    }
    args << QStringLiteral("--format") << QStringLiteral("json");
    QProcess p;
    p.start(QStringLiteral(RANKSCOPE_BINARY), args);
    QVERIFY(p.waitForFinished(60000));
    const QJsonObject got = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
    QVERIFY2(!got.isEmpty(), qPrintable(QString::fromUtf8(p.readAllStandardError())));

    const QString blamed =
        got.value(QStringLiteral("initiating")).toObject().value(QStringLiteral("text")).toString().trimmed();
    const QJsonObject sig = got.value(QStringLiteral("signature")).toObject();
    const QString shown = QStringList { sig.value(QStringLiteral("title")).toString(),
        sig.value(QStringLiteral("summary")).toString(), sig.value(QStringLiteral("fix")).toString() }
                              .join(QLatin1Char(' '));
    const QRegularExpression remedy(
        want.value(QStringLiteral("fix_regex")).toString(), QRegularExpression::CaseInsensitiveOption);
    QVERIFY(remedy.isValid());

    if (want.value(QStringLiteral("first_error_line")).isNull()) {
        const QString distractor = want.value(QStringLiteral("distractor_line")).toString().trimmed();
        QVERIFY(!distractor.isEmpty());
        QVERIFY2(blamed != distractor, qPrintable(QStringLiteral("blamed the benign line: ") + blamed));
        return;
    }
    QCOMPARE(blamed, want.value(QStringLiteral("first_error_line")).toString().trimmed());
    QVERIFY2(!sig.value(QStringLiteral("id")).toString().isEmpty(), "no signature named");
    QVERIFY2(remedy.match(shown).hasMatch(),
        qPrintable(QStringLiteral("%1: the fix does not name the remedy /%2/: %3")
                       .arg(sig.value(QStringLiteral("id")).toString(), remedy.pattern(), shown.left(400))));
}

} // namespace realcase
