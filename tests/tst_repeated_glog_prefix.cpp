// SPDX-License-Identifier: MIT
// The scanner's shortcut for console lines that repeat a remembered "[defaultN]:[rankM]:" + glog header
// shape: every line it accepts must get exactly the LinePrefix the full parse gives, and it must refuse
// every line whose prefix or header shape differs.
#include "incident_generator.h"
#include "line_prefix.h"
#include "repeated_glog_prefix.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace rankscope;

namespace {

// Where a view sits in its line (-1 when empty), so two parses of the same line can be compared.
qsizetype offsetIn(std::string_view view, std::string_view line)
{
    return view.empty() ? -1 : static_cast<qsizetype>(view.data() - line.data());
}

// Every field of two parses of `line`, as text: a difference shows which field it is.
QString describe(const LinePrefix& p, std::string_view line)
{
    const ParsedStamp& s = p.stamp;
    return QStringLiteral("launcher %1 tee %2 rank %3 pdsh %4 ray %5/%6 nccl %7:%8:%9 dev %10 level %11 "
                          "after %12 message %13+%14 stamp kind %15 at %16+%17 %18-%19-%20 %21:%22:%23.%24 "
                          "ordered %25 zone %26/%27 severity %28")
        .arg(p.launcherRank)
        .arg(p.teeLocalRank)
        .arg(p.globalRank)
        .arg(offsetIn(p.pdshHost, line))
        .arg(offsetIn(p.rayIp, line))
        .arg(p.rayPid)
        .arg(offsetIn(p.ncclHost, line))
        .arg(p.pid)
        .arg(p.tid)
        .arg(p.ncclDev)
        .arg(static_cast<int>(p.nccl))
        .arg(offsetIn(p.afterLauncher, line))
        .arg(offsetIn(p.message, line))
        .arg(p.message.size())
        .arg(static_cast<int>(s.kind))
        .arg(s.offset)
        .arg(s.length)
        .arg(s.year)
        .arg(s.month)
        .arg(s.day)
        .arg(s.hour)
        .arg(s.minute)
        .arg(s.second)
        .arg(s.nanos)
        .arg(s.subsecondOrdered)
        .arg(s.hasZone)
        .arg(s.zoneOffsetSeconds)
        .arg(QLatin1Char(s.severity ? s.severity : '-'));
}

} // namespace

class TestRepeatedGlogPrefix : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void agreesWithTheFullParse_data()
    {
        QTest::addColumn<QString>("learned");
        QTest::addColumn<QString>("next");
        QTest::addColumn<bool>("accepted");
        const QString step = QStringLiteral(
            "[default4]:[rank36]:I0314 02:10:43.212000 53386 train.py:212] step 2790 | loss 2.3674");
        QTest::newRow("same prefix, next second")
            << step
            << QStringLiteral("[default4]:[rank36]:I0314 02:10:44.905000 53386 train.py:212] step 2791")
            << true;
        QTest::newRow("another severity letter")
            << step << QStringLiteral("[default4]:[rank36]:W0314 23:59:59.000001 53386 train.py:212] slow")
            << true;
        QTest::newRow("empty message")
            << step << QStringLiteral("[default4]:[rank36]:I0314 02:10:44.905000 53386 train.py:212] ")
            << true;
        QTest::newRow("extra spaces before the message")
            << step << QStringLiteral("[default4]:[rank36]:I0314 02:10:44.905000 53386 train.py:212]    x")
            << true;
        QTest::newRow("glog from C++, not torch")
            << QStringLiteral("[default1]:I0314 02:10:43.212000 53386 ProcessGroupNCCL.cpp:920] a")
            << QStringLiteral("[default1]:E0314 02:10:49.000007 53386 ProcessGroupNCCL.cpp:920] b") << true;
        QTest::newRow("no launcher prefix")
            << QStringLiteral("W0314 02:05:11.207000 52090 torch/distributed/run.py:766] a")
            << QStringLiteral("W0314 02:05:12.000000 52090 torch/distributed/run.py:766] b") << true;
        QTest::newRow("srun label") << QStringLiteral("12: I0314 02:10:43.212000 53386 train.py:212] a")
                                    << QStringLiteral("12: I0314 02:10:43.999999 53386 train.py:212] b")
                                    << true;
        QTest::newRow("another rank")
            << step << QStringLiteral("[default4]:[rank37]:I0314 02:10:44.905000 53386 train.py:212] step 1")
            << false;
        QTest::newRow("another call site")
            << step << QStringLiteral("[default4]:[rank36]:I0314 02:10:44.905000 53386 train.py:213] step 1")
            << false;
        QTest::newRow("another thread")
            << step << QStringLiteral("[default4]:[rank36]:I0314 02:10:44.905000 53387 train.py:212] step 1")
            << false;
        QTest::newRow("more fraction digits")
            << step
            << QStringLiteral("[default4]:[rank36]:I0314 02:10:44.905000123 53386 train.py:212] step 1")
            << false;
        QTest::newRow("fewer fraction digits")
            << step << QStringLiteral("[default4]:[rank36]:I0314 02:10:44.905 53386 train.py:212] step 1")
            << false;
        QTest::newRow("not a severity letter")
            << step << QStringLiteral("[default4]:[rank36]:X0314 02:10:44.905000 53386 train.py:212] step 1")
            << false;
        QTest::newRow("a letter where a digit goes")
            << step << QStringLiteral("[default4]:[rank36]:I03a4 02:10:44.905000 53386 train.py:212] step 1")
            << false;
        QTest::newRow("an NCCL prefix after the header")
            << step
            << QStringLiteral(
                   "[default4]:[rank36]:I0314 02:10:44.905000 53386 train.py:212] gpu-a05:53386:53390 [4] "
                   "NCCL INFO x")
            << false;
        QTest::newRow("cut inside the header")
            << step << QStringLiteral("[default4]:[rank36]:I0314 02:10:44.905000 53386 train.py") << false;
        QTest::newRow("learned from the bracketed c10 form")
            << QStringLiteral("[default3]:[rank7]:[E314 02:17:44.791203518 ProcessGroupNCCL.cpp:593] a")
            << QStringLiteral("[default3]:[rank7]:[E314 02:17:44.791203519 ProcessGroupNCCL.cpp:593] b")
            << false;
        QTest::newRow("learned from an NCCL line")
            << QStringLiteral("gpu-a01:1007035:1007035 [2] NCCL INFO x")
            << QStringLiteral("gpu-a01:1007035:1007035 [2] NCCL INFO y") << false;
    }
    void agreesWithTheFullParse()
    {
        QFETCH(QString, learned);
        QFETCH(QString, next);
        QFETCH(bool, accepted);
        const std::string first = learned.toStdString();
        const std::string second = next.toStdString();
        RepeatedGlogPrefix memo;
        memo.learn(first, parseLinePrefix(first));
        LinePrefix fast;
        QCOMPARE(memo.match(second, fast), accepted);
        if (accepted)
            QCOMPARE(describe(fast, second), describe(parseLinePrefix(second), second));
    }

    // Every line of real-shaped consoles, in order, as the scanner sees them: what the memo accepts must
    // equal the full parse, and it accepts nearly every padded glog line (the first of each shape is not).
    void agreesOnWholeConsoles()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        testgen::GenOptions o;
        o.ranks = 64; // 64 launcher prefixes and 8 agents' plain ones in one console
        o.layout = testgen::Layout::Combined;
        o.targetBytes = 2 << 20;
        const testgen::GenResult gen = testgen::generateIncident(o, dir.path());
        QVERIFY2(gen.error.isEmpty(), qPrintable(gen.error));
        QStringList files { QStringLiteral(RANKSCOPE_TEST_DATA "/sample-job/torchrun.gpu-a01.console.log"),
            QStringLiteral(RANKSCOPE_TEST_DATA "/sample-job/torchrun.gpu-a02.console.log") };
        QDirIterator it(dir.path(), QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext())
            files << it.next();
        qint64 lines = 0, glogLines = 0, accepted = 0;
        for (const QString& path : files) {
            QFile f(path);
            QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(path));
            RepeatedGlogPrefix memo;
            while (!f.atEnd()) {
                const std::string line = f.readLine().trimmed().toStdString();
                ++lines;
                const LinePrefix full = parseLinePrefix(line);
                const bool padded =
                    (full.stamp.kind == StampKind::Glog || full.stamp.kind == StampKind::TorchLogs)
                    && !full.afterLauncher.empty() && full.afterLauncher[0] != '[';
                glogLines += padded ? 1 : 0;
                LinePrefix fast;
                if (memo.match(line, fast)) {
                    ++accepted;
                    QCOMPARE(describe(fast, line), describe(full, line));
                } else {
                    memo.learn(line, full);
                }
            }
        }
        qInfo("%lld of %lld lines took the shortcut; %lld have a padded glog header", accepted, lines,
            glogLines);
        QVERIFY(glogLines > 1000);
        QVERIFY(accepted > glogLines * 9 / 10);
    }
};

QTEST_GUILESS_MAIN(TestRepeatedGlogPrefix)
#include "tst_repeated_glog_prefix.moc"
