// SPDX-License-Identifier: MIT
// The scanner's shortcut for lines that repeat a remembered NCCL INFO prefix: it must agree with the full
// parse on every line it accepts (the message, and every field that decides the line's stream), and
// refuse every line whose prefix differs.
#include "line_prefix.h"
#include "repeated_nccl_prefix.h"

#include <QTest>

using namespace rankscope;

class TestRepeatedNcclPrefix : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void agreesWithTheFullParse_data()
    {
        QTest::addColumn<QString>("learned");
        QTest::addColumn<QString>("next");
        QTest::addColumn<bool>("accepted");
        const QString info = QStringLiteral("gpu-a01:1007035:1007035 [2] NCCL INFO Bootstrap : Using ens1f0");
        QTest::newRow("same thread") << info
                                     << QStringLiteral(
                                            "gpu-a01:1007035:1007035 [2] NCCL INFO AllReduce: opCount 1a")
                                     << true;
        QTest::newRow("another thread")
            << info << QStringLiteral("gpu-a01:1007035:1007099 [2] NCCL INFO Channel 00/0 : 0") << true;
        QTest::newRow("empty message")
            << info << QStringLiteral("gpu-a01:1007035:1007035 [2] NCCL INFO ") << true;
        QTest::newRow("another pid") << info << QStringLiteral("gpu-a01:1007036:1007035 [2] NCCL INFO x")
                                     << false;
        QTest::newRow("pid prefix of the learned one")
            << info << QStringLiteral("gpu-a01:10070351:1007035 [2] NCCL INFO x") << false;
        QTest::newRow("another device")
            << info << QStringLiteral("gpu-a01:1007035:1007035 [3] NCCL INFO x") << false;
        QTest::newRow("another host")
            << info << QStringLiteral("gpu-a02:1007035:1007035 [2] NCCL INFO x") << false;
        QTest::newRow("a WARN") << info
                                << QStringLiteral(
                                       "gpu-a01:1007035:1007035 [2] NCCL WARN NET/IB : Got completion")
                                << false;
        QTest::newRow("a 2.26 WARN with file and line")
            << info
            << QStringLiteral("gpu-a01:1007035:1007035 [2] transport/net_ib.cc:1696 NCCL WARN NET/IB : x")
            << false;
        QTest::newRow("no tid digits") << info << QStringLiteral("gpu-a01:1007035: [2] NCCL INFO x") << false;
        QTest::newRow("behind a tee prefix")
            << QStringLiteral("[default2]:gpu-a01:1007035:1007035 [2] NCCL INFO x")
            << QStringLiteral("[default2]:gpu-a01:1007035:1007099 [2] NCCL INFO y") << true;
        QTest::newRow("behind tee and rank prefixes")
            << QStringLiteral("[default2]:[rank10]:gpu-a01:1007035:1007035 [2] NCCL INFO x")
            << QStringLiteral("[default2]:[rank10]:gpu-a01:1007035:1007035 [2] NCCL INFO y") << true;
        QTest::newRow("behind an srun label")
            << QStringLiteral("12: gpu-a01:1007035:1007035 [2] NCCL INFO x")
            << QStringLiteral("12: gpu-a01:1007035:1007035 [2] NCCL INFO y") << true;
        QTest::newRow("another tee prefix")
            << QStringLiteral("[default2]:gpu-a01:1007035:1007035 [2] NCCL INFO x")
            << QStringLiteral("[default3]:gpu-a01:1007035:1007035 [2] NCCL INFO y") << false;
        QTest::newRow("the tee prefix gone")
            << QStringLiteral("[default2]:gpu-a01:1007035:1007035 [2] NCCL INFO x")
            << QStringLiteral("gpu-a01:1007035:1007035 [2] NCCL INFO y") << false;
        QTest::newRow("learned behind a pdsh host")
            << QStringLiteral("node7: gpu-a01:1007035:1007035 [2] NCCL INFO x")
            << QStringLiteral("node7: gpu-a01:1007035:1007035 [2] NCCL INFO y") << false;
        QTest::newRow("learned behind a stamp")
            << QStringLiteral("[2026-03-14 02:17:44] gpu-a01:1007035:1007035 [2] NCCL INFO x")
            << QStringLiteral("[2026-03-14 02:17:44] gpu-a01:1007035:1007035 [2] NCCL INFO y") << false;
        QTest::newRow("learned from a WARN")
            << QStringLiteral("gpu-a01:1007035:1007035 [2] NCCL WARN x")
            << QStringLiteral("gpu-a01:1007035:1007035 [2] NCCL INFO y") << false;
        QTest::newRow("learned from a CALL line without a device")
            << QStringLiteral("gpu-a01:1007035:1007035 NCCL CALL ncclCommInitRank")
            << QStringLiteral("gpu-a01:1007035:1007035 NCCL CALL ncclAllReduce") << false;
    }
    void agreesWithTheFullParse()
    {
        QFETCH(QString, learned);
        QFETCH(QString, next);
        QFETCH(bool, accepted);
        const std::string first = learned.toStdString();
        const std::string second = next.toStdString();
        RepeatedNcclPrefix repeat;
        const LinePrefix learnt = parseLinePrefix(first);
        repeat.learn(first, learnt, 42);
        std::string_view message;
        int stream = -1;
        QCOMPARE(repeat.match(second, message, stream), accepted);
        if (!accepted)
            return;
        QCOMPARE(stream, 42);
        const LinePrefix full = parseLinePrefix(second);
        QCOMPARE(full.nccl, NcclLevel::Info);
        QCOMPARE(QByteArray(message.data(), static_cast<qsizetype>(message.size())),
            QByteArray(full.message.data(), static_cast<qsizetype>(full.message.size())));
        // What decides the line's stream is the same as for the line it was learned from.
        QCOMPARE(full.launcherRank, learnt.launcherRank);
        QCOMPARE(full.teeLocalRank, learnt.teeLocalRank);
        QCOMPARE(full.globalRank, learnt.globalRank);
        QCOMPARE(full.pid, learnt.pid);
        QCOMPARE(full.ncclDev, learnt.ncclDev);
        QCOMPARE(full.ncclHost, learnt.ncclHost);
        QVERIFY(full.pdshHost.empty() && full.rayIp.empty() && !full.stamp.found());
    }

    // A combined console of a 300-rank job interleaves ranks: each keeps its own prefix and stream until
    // forget().
    void remembersInterleavedPrefixes()
    {
        RepeatedNcclPrefix repeat;
        constexpr int kRanks = 300;
        for (int r = 0; r < kRanks; ++r) {
            const std::string line = "[default" + std::to_string(r) + "]:gpu-a01:" + std::to_string(100 + r)
                + ":7 [0] NCCL INFO a";
            repeat.learn(line, parseLinePrefix(line), 10 + r);
        }
        std::string_view message;
        for (int round = 0; round < 2; ++round) {
            for (int r = kRanks - 1; r >= 0; --r) {
                const std::string line = "[default" + std::to_string(r)
                    + "]:gpu-a01:" + std::to_string(100 + r) + ":9 [0] NCCL INFO AllReduce";
                int stream = -1;
                QVERIFY(repeat.match(line, message, stream));
                QCOMPARE(stream, 10 + r);
                QCOMPARE(QByteArray(message.data(), static_cast<qsizetype>(message.size())),
                    QByteArray("AllReduce"));
            }
        }
        repeat.forget();
        int stream = -1;
        QVERIFY(!repeat.match("[default0]:gpu-a01:100:7 [0] NCCL INFO a", message, stream));
    }

    void relearningMovesThePrefixToTheNewStream()
    {
        const std::string info = "gpu-a01:7:7 [0] NCCL INFO a";
        RepeatedNcclPrefix repeat;
        repeat.learn(info, parseLinePrefix(info), 1);
        repeat.learn(info, parseLinePrefix(info), 2);
        std::string_view message;
        int stream = -1;
        QVERIFY(repeat.match(info, message, stream));
        QCOMPARE(stream, 2);
    }
};

QTEST_GUILESS_MAIN(TestRepeatedNcclPrefix)
#include "tst_repeated_nccl_prefix.moc"
