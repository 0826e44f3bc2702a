// The scanner's shortcut for lines that repeat the NCCL INFO prefix of the line before: it must agree
// with the full parse on every line it accepts, and refuse every line whose prefix differs.
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
        QTest::newRow("learned from a tee-prefixed line")
            << QStringLiteral("[default2]:gpu-a01:1007035:1007035 [2] NCCL INFO x")
            << QStringLiteral("[default2]:gpu-a01:1007035:1007035 [2] NCCL INFO y") << false;
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
        repeat.learn(first, parseLinePrefix(first));
        std::string_view message;
        QCOMPARE(repeat.match(second, message), accepted);
        if (!accepted)
            return;
        const LinePrefix full = parseLinePrefix(second);
        QCOMPARE(full.nccl, NcclLevel::Info);
        QCOMPARE(QByteArray(message.data(), static_cast<qsizetype>(message.size())),
            QByteArray(full.message.data(), static_cast<qsizetype>(full.message.size())));
    }

    void forgetsOnAnotherShape()
    {
        const std::string info = "gpu-a01:7:7 [0] NCCL INFO a";
        const std::string tee = "[default0]:gpu-a01:7:7 [0] NCCL INFO b";
        RepeatedNcclPrefix repeat;
        repeat.learn(info, parseLinePrefix(info));
        std::string_view message;
        QVERIFY(repeat.match(info, message));
        repeat.learn(tee, parseLinePrefix(tee));
        QVERIFY(!repeat.match(info, message));
    }
};

QTEST_GUILESS_MAIN(TestRepeatedNcclPrefix)
#include "tst_repeated_nccl_prefix.moc"
