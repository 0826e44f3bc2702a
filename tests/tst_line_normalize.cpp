// SPDX-License-Identifier: MIT
// normalizeVolatile: what changes between two runs of the same job is masked; what tells them apart is kept.
#include "line_normalize.h"

#include <QTest>

using namespace rankscope;

class TestLineNormalize : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void masks_data();
    void masks();
    void pairs_data();
    void pairs();
};

void TestLineNormalize::masks_data()
{
    QTest::addColumn<QString>("line");
    QTest::addColumn<QString>("expected");
    QTest::newRow("nccl prefix pid tid")
        << QStringLiteral("gpu-a02:1402363:1402453 [3] NCCL INFO Connected all trees")
        << QStringLiteral("gpu-a02:<PID>:<TID> [3] NCCL INFO Connected all trees");
    QTest::newRow("nccl bracket stamp")
        << QStringLiteral("[2026-03-14 02:17:44] gpu-a02:1:2 [3] transport/net_ib.cc:2458 NCCL WARN x")
        << QStringLiteral("[<TS>] gpu-a02:<PID>:<TID> [3] transport/net_ib.cc:2458 NCCL WARN x");
    QTest::newRow("iso with zone") << QStringLiteral("2026-03-14T02:17:44.123+01:00 start")
                                   << QStringLiteral("<TS> start");
    QTest::newRow("python logging") << QStringLiteral("2026-03-14 02:17:44,123 - root - INFO - hi")
                                    << QStringLiteral("<TS> - root - INFO - hi");
    QTest::newRow("glog with pid") << QStringLiteral(
        "[rank7]:I0314 02:17:03.431000 251778 train.py:212] step 1")
                                   << QStringLiteral("[rank7]:I<TS> train.py:212] step 1");
    QTest::newRow("c10") << QStringLiteral(
        "[rank7]:[E314 02:17:44.638819599 ProcessGroupNCCL.cpp:593] [Rank 7] x")
                         << QStringLiteral("[rank7]:[E<TS> ProcessGroupNCCL.cpp:593] [Rank 7] x");
    QTest::newRow("torchrun time") << QStringLiteral("  time      : 2026-03-14_02:27:45")
                                   << QStringLiteral("  time      : <TS>");
    QTest::newRow("syslog") << QStringLiteral("Mar 14 02:17:44 gpu-a01 kernel: mlx5_core: link down")
                            << QStringLiteral("<TS> gpu-a01 kernel: mlx5_core: link down");
    QTest::newRow("dmesg") << QStringLiteral("[ 1234.567890] NVRM: Xid 79")
                           << QStringLiteral("[<TS>] NVRM: Xid 79");
    QTest::newRow("ipv4 and port") << QStringLiteral(
        "NET/IB: Got completion from peer 10.10.0.11<53090> with status=12")
                                   << QStringLiteral(
                                          "NET/IB: Got completion from peer <IP><PORT> with status=12");
    QTest::newRow("ipv4 colon port") << QStringLiteral("connect to 192.168.1.7:29500 failed")
                                     << QStringLiteral("connect to <IP>:<PORT> failed");
    QTest::newRow("ipv6") << QStringLiteral("Bootstrap: Using ib0:fe80::1e34:da03:4b:1c2f%ib0<0>")
                          << QStringLiteral("Bootstrap: Using ib0:<IP><PORT>");
    QTest::newRow("pointers and commId")
        << QStringLiteral(
               "comm 0x550625c72230 rank 7 nranks 8 busId 5d000 commId 0xf5287593e1373824 - Init START")
        << QStringLiteral("comm 0x<HEX> rank 7 nranks 8 busId 5d000 commId 0x<HEX> - Init START");
    QTest::newRow("ran for") << QStringLiteral(
        "Timeout(ms)=600000) ran for 600071 milliseconds before timing out.")
                             << QStringLiteral(
                                    "Timeout(ms)=600000) ran for <N> milliseconds before timing out.");
    QTest::newRow("timings") << QStringLiteral(
        "Init timings - rank 7 nranks 8 total 1.65 (kernels 0.21, alloc 0.03)")
                             << QStringLiteral(
                                    "Init timings - rank 7 nranks 8 total <F> (kernels <F>, alloc <F>)");
    QTest::newRow("equals in timing line")
        << QStringLiteral("timing: wait=12 send=3") << QStringLiteral("timing: wait=<N> send=<N>");
    QTest::newRow("c++ scope kept") << QStringLiteral(
        "frame #3: c10d::ProcessGroupNCCL::watchdogHandler() + 0x6a4")
                                    << QStringLiteral(
                                           "frame #3: c10d::ProcessGroupNCCL::watchdogHandler() + 0x<HEX>");
    QTest::newRow("pid word") << QStringLiteral("Root Cause: pid: 1402363 exitcode: -6")
                              << QStringLiteral("Root Cause: pid: <PID> exitcode: -6");
    QTest::newRow("versions kept") << QStringLiteral("NCCL version 2.27.7+cuda12.9")
                                   << QStringLiteral("NCCL version 2.27.7+cuda12.9");
    QTest::newRow("hcas kept") << QStringLiteral("NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [RO]")
                               << QStringLiteral("NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [RO]");
}

void TestLineNormalize::masks()
{
    QFETCH(QString, line);
    QFETCH(QString, expected);
    QCOMPARE(normalizeVolatile(line), expected);
}

void TestLineNormalize::pairs_data()
{
    QTest::addColumn<QString>("a");
    QTest::addColumn<QString>("b");
    QTest::addColumn<bool>("equal");
    QTest::newRow("two runs, same init line")
        << QStringLiteral(
               "gpu-a02:1402363:1402363 [3] NCCL INFO comm 0x550625c72230 rank 7 nRanks 8 nNodes 2")
        << QStringLiteral("gpu-a02:251778:251778 [3] NCCL INFO comm 0x55e8d7e22730 rank 7 nRanks 8 nNodes 2")
        << true;
    QTest::newRow("two runs, step line")
        << QStringLiteral(
               "[rank7]:I0314 02:17:03.426000 1402363 train.py:212] step 1 | loss 10.3363 | 1.93 s/it")
        << QStringLiteral(
               "[rank7]:I0314 02:17:03.431000 251778 train.py:212] step 1 | loss 10.3375 | 1.92 s/it")
        << true;
    QTest::newRow("other host") << QStringLiteral("gpu-a02:1:1 [3] NCCL INFO Connected all trees")
                                << QStringLiteral("gpu-a03:1:1 [3] NCCL INFO Connected all trees") << false;
    QTest::newRow("other rank") << QStringLiteral("[rank7]:I0314 02:17:03.426000 1 train.py:212] step 1")
                                << QStringLiteral("[rank6]:I0314 02:17:03.426000 1 train.py:212] step 1")
                                << false;
    QTest::newRow("other step") << QStringLiteral("[rank7]:I0314 02:17:03.426000 1 train.py:212] step 1")
                                << QStringLiteral("[rank7]:I0314 02:17:03.426000 1 train.py:212] step 2")
                                << false;
    QTest::newRow("fewer hcas") << QStringLiteral("NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [RO]")
                                << QStringLiteral("NET/IB : Using [0]mlx5_0:1/IB [RO]") << false;
    QTest::newRow("gdr lost") << QStringLiteral("Channel 00/0 : 7[3] -> 0[0] [send] via NET/IB/3/GDRDMA")
                              << QStringLiteral("Channel 00/0 : 7[3] -> 0[0] [send] via NET/IB/3") << false;
}

void TestLineNormalize::pairs()
{
    QFETCH(QString, a);
    QFETCH(QString, b);
    QFETCH(bool, equal);
    QCOMPARE(normalizeVolatile(a) == normalizeVolatile(b), equal);
}

QTEST_GUILESS_MAIN(TestLineNormalize)
#include "tst_line_normalize.moc"
