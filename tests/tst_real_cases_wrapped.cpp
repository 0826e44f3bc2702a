// SPDX-License-Identifier: MIT
// The real cases (tests/data/real) as they arrive through other tools: every line behind a Kubernetes or
// CI runner clock, srun's "3: ", OpenMPI's "[1,3]<stderr>:", a pdsh host, a Ray worker's prefix, docker
// compose's "service-1  | ", kubectl's --prefix, torchrun's "[default3]:", journald's "host prog[pid]: ",
// colour codes around each line (as ESC, as rsyslog's "#033", or with the ESC lost in a copy), indented
// as a Markdown list item, quoted with "> ", with CRLF line ends, in the container runtime's log format
// ("<clock> stderr F "), or behind moreutils' ts clock. The
// prefix peeling must give the same answer as the bare log: the same initiating line (its message) and the
// same signature, or the same hang.
#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <functional>

namespace {

const QString kReal = QStringLiteral(RANKSCOPE_TEST_DATA "/real");

struct Answer
{
    QString text;
    QString signature;
};

Answer diagnose(const QString& path)
{
    QProcess p;
    p.start(QStringLiteral(RANKSCOPE_BINARY),
        { QStringLiteral("diagnose"), path, QStringLiteral("--format"), QStringLiteral("json") });
    if (!p.waitForFinished(60000))
        return {};
    const QJsonObject d = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
    return { d.value(QStringLiteral("initiating")).toObject().value(QStringLiteral("text")).toString(),
        d.value(QStringLiteral("signature")).toObject().value(QStringLiteral("id")).toString() };
}

using Wrap = std::function<QByteArray(int, const QByteArray&)>;

} // namespace

class RealCasesWrappedTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void wrapped_data();
    void wrapped();
};

void RealCasesWrappedTest::wrapped_data()
{
    QTest::addColumn<QString>("log");
    QTest::addColumn<QString>("wrapper");
    const QStringList wrappers { QStringLiteral("k8s"), QStringLiteral("ci"), QStringLiteral("srun"),
        QStringLiteral("mpi"), QStringLiteral("pdsh"), QStringLiteral("ray"), QStringLiteral("crlf"),
        QStringLiteral("ansi"), QStringLiteral("compose"), QStringLiteral("kubectl"),
        QStringLiteral("default"), QStringLiteral("syslog"), QStringLiteral("rsyslog-colour"),
        QStringLiteral("lost-esc"), QStringLiteral("indent"), QStringLiteral("quote"), QStringLiteral("cri"),
        QStringLiteral("ts") };
    for (const QString& c : QDir(kReal).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
        QStringList logs = QDir(kReal + QLatin1Char('/') + c).entryList(QDir::Files, QDir::Name);
        logs.removeAll(QStringLiteral("expected.json"));
        if (logs.size() != 1)
            continue; // the wrapper is one tool's; a multi-file case is several tools' already
        for (const QString& w : wrappers)
            QTest::newRow(qPrintable(c.left(3) + QLatin1Char('-') + w))
                << kReal + QLatin1Char('/') + c + QLatin1Char('/') + logs.front() << w;
    }
}

void RealCasesWrappedTest::wrapped()
{
    QFETCH(QString, log);
    QFETCH(QString, wrapper);
    static const QHash<QString, Wrap> wraps {
        { QStringLiteral("k8s"),
            [](int i, const QByteArray& l) -> QByteArray {
                return QByteArray("2024-05-01T10:00:") + QByteArray::number(10 + i % 50) + ".123456789Z " + l;
            } },
        { QStringLiteral("ci"),
            [](int i, const QByteArray& l) -> QByteArray {
                return QByteArray("2024-05-01T10:00:") + QByteArray::number(10 + i % 50) + ".1234567Z " + l;
            } },
        { QStringLiteral("srun"),
            [](int, const QByteArray& l) -> QByteArray { return QByteArray("3: ") + l; } },
        { QStringLiteral("mpi"),
            [](int, const QByteArray& l) -> QByteArray { return QByteArray("[1,3]<stderr>:") + l; } },
        { QStringLiteral("pdsh"),
            [](int, const QByteArray& l) -> QByteArray { return QByteArray("gpu-node12: ") + l; } },
        { QStringLiteral("ray"),
            [](int, const QByteArray& l) -> QByteArray {
                return QByteArray("(RayTrainWorker pid=4321, ip=10.0.0.5) ") + l;
            } },
        { QStringLiteral("crlf"), [](int, const QByteArray& l) -> QByteArray { return l + '\r'; } },
        // A coloured console: the codes around every line, so inside the prefixes and at the end.
        { QStringLiteral("ansi"),
            [](int, const QByteArray& l) -> QByteArray { return QByteArray("\x1b[31m") + l + "\x1b[0m"; } },
        { QStringLiteral("compose"),
            [](int, const QByteArray& l) -> QByteArray { return QByteArray("trainer-1  | ") + l; } },
        { QStringLiteral("kubectl"),
            [](int, const QByteArray& l) -> QByteArray {
                return QByteArray("[pod/trainer-worker-0/pytorch] ") + l;
            } },
        { QStringLiteral("default"),
            [](int, const QByteArray& l) -> QByteArray { return QByteArray("[default3]:") + l; } },
        { QStringLiteral("syslog"),
            [](int i, const QByteArray& l) -> QByteArray {
                return QByteArray("Dec  6 12:00:") + QByteArray::number(10 + i % 50)
                    + " node1 python[123]: " + l;
            } },
        { QStringLiteral("rsyslog-colour"),
            [](int, const QByteArray& l) -> QByteArray { return QByteArray("#033[31m") + l + "#033[0m"; } },
        { QStringLiteral("lost-esc"),
            [](int, const QByteArray& l) -> QByteArray { return QByteArray("[31m") + l + "[0m"; } },
        { QStringLiteral("indent"),
            [](int, const QByteArray& l) -> QByteArray { return l.trimmed().isEmpty() ? l : "    " + l; } },
        { QStringLiteral("quote"), [](int, const QByteArray& l) -> QByteArray { return "> " + l; } },
        // The container runtime's own log file (kubelet's /var/log/pods): clock, stream, F for a whole line.
        { QStringLiteral("cri"),
            [](int i, const QByteArray& l) -> QByteArray {
                return QByteArray("2024-05-01T10:00:") + QByteArray::number(10 + i % 50)
                    + ".123456789Z stderr F " + l;
            } },
        // moreutils' ts: a clock without a year or host before every line.
        { QStringLiteral("ts"),
            [](int i, const QByteArray& l) -> QByteArray {
                return QByteArray("May 01 10:00:") + QByteArray::number(10 + i % 50) + ' ' + l;
            } },
    };
    QFile in(log);
    QVERIFY(in.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = in.readAll().split('\n');
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("wrapped.log"));
    QFile f(out);
    QVERIFY(f.open(QIODevice::WriteOnly));
    for (int i = 0; i < lines.size(); ++i)
        f.write(wraps.value(wrapper)(i, lines[i]) + '\n');
    f.close();
    // The bare log, copied under the same neutral name: a case folder's name must not help either run.
    // Each case's bare answer is computed once, not once per wrapper.
    static QHash<QString, Answer> bareAnswers;
    if (!bareAnswers.contains(log)) {
        const QString bare = dir.filePath(QStringLiteral("bare.log"));
        QVERIFY(QFile::copy(log, bare));
        bareAnswers.insert(log, diagnose(bare));
    }
    const Answer want = bareAnswers.value(log);
    const Answer got = diagnose(out);
    QCOMPARE(got.signature, want.signature);
    // The initiating message survives the wrapper (its end: the wrapper is at the start).
    const QString tail = want.text.trimmed().right(40);
    QVERIFY2(got.text.contains(tail), qPrintable(QStringLiteral("want …%1, got %2").arg(tail, got.text)));
}

QTEST_GUILESS_MAIN(RealCasesWrappedTest)
#include "tst_real_cases_wrapped.moc"
