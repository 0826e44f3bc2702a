// SPDX-License-Identifier: MIT
// Real failure logs from public threads (tests/data/real, copied from ../shared/real-cases), one row per
// case: `rankscope diagnose --format json` must blame the line the thread established, name a signature,
// and show a fix that names the thread's remedy (expected.json's fix_regex). For a hang without an error
// line, the benign distractor must not be blamed. ../shared/tools/score-real-cases gives the same figures.
#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QtTest>

namespace {

const QString kReal = QStringLiteral(RANKSCOPE_TEST_DATA "/real");

QJsonObject readJson(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

} // namespace

class TestRealCases : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void realCase_data()
    {
        QTest::addColumn<QString>("folder");
        const QStringList cases = QDir(kReal).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
        QVERIFY2(cases.size() >= 20, "tests/data/real holds the real cases");
        for (const QString& c : cases)
            QTest::newRow(qPrintable(c)) << kReal + QLatin1Char('/') + c;
    }

    void realCase()
    {
        QFETCH(QString, folder);
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

        const QString blamed = got.value(QStringLiteral("initiating"))
                                   .toObject()
                                   .value(QStringLiteral("text"))
                                   .toString()
                                   .trimmed();
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
            qPrintable(
                QStringLiteral("%1: the fix does not name the remedy /%2/: %3")
                    .arg(sig.value(QStringLiteral("id")).toString(), remedy.pattern(), shown.left(400))));
    }
};

QTEST_GUILESS_MAIN(TestRealCases)
#include "tst_real_cases.moc"
