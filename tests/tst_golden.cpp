// SPDX-License-Identifier: MIT
// Golden outputs: for every input in tests/data (and the demo), the JSON and the text report the CLI
// prints are checked in under tests/golden/. Any difference fails with a diff, so that a change of
// behaviour is a reviewed change of these files. Regenerate them on purpose with
//   RANKSCOPE_UPDATE_GOLDEN=1 ctest --preset release -R tst_golden
// and review `git diff tests/golden`.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {

const QString kSource = QStringLiteral(RANKSCOPE_SOURCE_DIR);
const QString kData = QStringLiteral(RANKSCOPE_TEST_DATA);

struct GoldenCase
{
    QString name; // file stem under tests/golden
    QStringList args; // the CLI arguments
};

QStringList entries(const QString& folder, QDir::Filters filters)
{
    QStringList out;
    const QDir dir(folder);
    for (const QString& e : dir.entryList(filters | QDir::NoDotAndDotDot, QDir::Name))
        out << dir.filePath(e);
    return out;
}

QString stem(const QString& path)
{
    QString rel = QDir(kSource).relativeFilePath(path);
    rel.replace(QLatin1Char('/'), QLatin1String("__"));
    return rel;
}

// Every input a user could hand the CLI: each layout and diagnosis fixture, the sample job, each real
// case, the demo, and each topology capture on its own.
std::vector<GoldenCase> goldenCases()
{
    std::vector<GoldenCase> cases;
    QStringList logs = entries(kData + QStringLiteral("/layouts"), QDir::Dirs);
    logs << entries(kData + QStringLiteral("/diagnosis"), QDir::Dirs | QDir::Files);
    logs << kData + QStringLiteral("/sample-job") << kSource + QStringLiteral("/resources/demo");
    std::vector<QStringList> inputs;
    for (const QString& p : logs)
        inputs.push_back({ p });
    // A real case is its files but expected.json, as score-real-cases hands them over.
    const QStringList realCases = entries(kData + QStringLiteral("/real"), QDir::Dirs)
        + entries(kData + QStringLiteral("/real-found"), QDir::Dirs);
    for (const QString& c : realCases) {
        QStringList files = entries(c, QDir::Files);
        files.removeIf([](const QString& f) { return f.endsWith(QLatin1String("/expected.json")); });
        inputs.push_back(files);
    }
    for (const QStringList& in : inputs) {
        const QString name = stem(in.size() == 1 ? in.front() : QFileInfo(in.front()).path());
        for (const char* format : { "json", "text" })
            cases.push_back({ name + QLatin1Char('.') + QLatin1String(format),
                QStringList { QStringLiteral("diagnose") } + in
                    + QStringList { QStringLiteral("--format"), QLatin1String(format) } });
    }
    for (const QString& p : entries(kData + QStringLiteral("/topology"), QDir::Files)) {
        if (p.endsWith(QLatin1String(".md")))
            continue;
        cases.push_back({ stem(p) + QStringLiteral(".topology.txt"), { QStringLiteral("topology"), p } });
    }
    return cases;
}

// Machine-independent output: the checkout's path becomes $SRC.
QByteArray normalised(QByteArray out)
{
    out.replace(kSource.toUtf8(), "$SRC");
    return out;
}

QString firstDifference(const QByteArray& want, const QByteArray& got)
{
    const QList<QByteArray> a = want.split('\n'), b = got.split('\n');
    const qsizetype n = std::max(a.size(), b.size());
    for (qsizetype i = 0; i < n; ++i) {
        const QByteArray x = i < a.size() ? a[i] : QByteArray("<end of file>");
        const QByteArray y = i < b.size() ? b[i] : QByteArray("<end of file>");
        if (x != y)
            return QStringLiteral("line %1\n  golden: %2\n  now:    %3")
                .arg(i + 1)
                .arg(QString::fromUtf8(x), QString::fromUtf8(y));
    }
    return {};
}

} // namespace

class TestGolden : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void outputs_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QStringList>("args");
        for (const GoldenCase& c : goldenCases())
            QTest::newRow(qPrintable(c.name)) << c.name << c.args;
        QVERIFY2(goldenCases().size() > 40, "the golden inputs were not found");
    }

    void outputs()
    {
        QFETCH(QString, name);
        QFETCH(QStringList, args);
        QProcess p;
        p.setProcessChannelMode(QProcess::SeparateChannels);
        p.start(QStringLiteral(RANKSCOPE_BINARY), args);
        QVERIFY(p.waitForFinished(120000));
        // stdout is the golden file; what went to stderr and the exit code, when there is either, go
        // to NAME.stderr (a refused capture prints only there).
        const QByteArray out = normalised(p.readAllStandardOutput());
        const QByteArray err = normalised(p.readAllStandardError());
        QByteArray status;
        if (!err.isEmpty() || p.exitCode() != 0)
            status = "exit " + QByteArray::number(p.exitCode()) + "\n" + err;
        compare(name, out);
        compare(name + QStringLiteral(".stderr"), status);
    }

private:
    static void compare(const QString& name, const QByteArray& got)
    {
        const QString path = kSource + QStringLiteral("/tests/golden/") + name;
        QFile f(path);
        if (qEnvironmentVariableIsSet("RANKSCOPE_UPDATE_GOLDEN")) {
            if (got.isEmpty()) {
                QFile::remove(path);
                return;
            }
            QDir().mkpath(QFileInfo(path).path());
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(got);
            return;
        }
        const QByteArray want = f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
        if (want != got) {
            QProcess diff;
            diff.start(QStringLiteral("diff"), { QStringLiteral("-u"), path, QStringLiteral("-") });
            diff.waitForStarted();
            diff.write(got);
            diff.closeWriteChannel();
            diff.waitForFinished();
            qWarning().noquote() << diff.readAllStandardOutput().left(6000);
        }
        QVERIFY2(want == got,
            qPrintable(QStringLiteral("%1 differs from its golden file at %2 (RANKSCOPE_UPDATE_GOLDEN=1 "
                                      "regenerates it)")
                           .arg(name, firstDifference(want, got))));
    }
};

QTEST_GUILESS_MAIN(TestGolden)
#include "tst_golden.moc"
