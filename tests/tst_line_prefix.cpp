// SPDX-License-Identifier: MIT
// parseLinePrefix() on lines whose prefixes were cut or look like another tool's: which number is a rank,
// which a device.
#include "line_prefix.h"

#include <QtTest>

using namespace rankscope;

class TestLinePrefix : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void bracketNumber_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<int>("launcherRank");
        QTest::addColumn<int>("device");
        QTest::addColumn<QString>("message");
        // NCCL lines pasted without "host:pid:tid": the [n] left is NCCL's device field.
        QTest::newRow("cut to device, .cc source")
            << "[7] graph/rings.cc:38 NCCL WARN Error : ring 0 does not loop "
               "back to start (13 != 15)."
            << -1 << 7 << "Error : ring 0 does not loop back to start (13 != 15).";
        QTest::newRow("cut to device, pre-2.9 header source")
            << "[3] include/shm.h:28 NCCL WARN Call to posix_fallocate failed : No space left on device" << -1
            << 3 << "Call to posix_fallocate failed : No space left on device";
        QTest::newRow("cut to device, INFO trail")
            << "[3] NCCL INFO include/shm.h:41 -> 2" << -1 << 3 << "include/shm.h:41 -> 2";
        // MPICH -prepend-rank before a whole NCCL prefix: the [n] is the rank.
        QTest::newRow("MPICH rank") << "[12] node7:3100:3170 [2] misc/socket.cc:50 NCCL WARN socket closed"
                                    << 12 << 2 << "socket closed";
    }
    void bracketNumber()
    {
        QFETCH(QString, line);
        QFETCH(int, launcherRank);
        QFETCH(int, device);
        QFETCH(QString, message);
        const std::string bytes = line.toStdString();
        const LinePrefix p = parseLinePrefix(bytes);
        QCOMPARE(p.launcherRank, launcherRank);
        QCOMPARE(p.ncclDev, device);
        QCOMPARE(QString::fromStdString(std::string(p.message)), message);
    }
};

QTEST_GUILESS_MAIN(TestLinePrefix)
#include "tst_line_prefix.moc"
