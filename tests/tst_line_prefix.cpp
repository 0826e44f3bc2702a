// SPDX-License-Identifier: MIT
// parseLinePrefix() on lines whose prefixes were cut or look like another tool's: which number is a rank,
// which a device.
#include "line_prefix.h"
#include "severity_rules.h"

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
    // NCCL's "host:pid:tid [dev]" as reporters paste it: a field masked, the host cut at the start. The
    // pid, thread and device that are there are read; a masked or cut host names no machine.
    void maskedNcclPrefix_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QString>("host");
        QTest::addColumn<int>("pid");
        QTest::addColumn<int>("device");
        QTest::addColumn<bool>("warn");
        QTest::newRow("pid:tid masked at once")
            << "host-01.example.com:XXXXXX [5] ibvwrap.c:262 NCCL WARN Call to "
               "ibv_modify_qp failed with 110"
            << "host-01.example.com" << -1 << 5 << true;
        QTest::newRow("pid masked") << "node7:xxxx:3170 [2] misc/socket.cc:50 NCCL WARN socket closed"
                                    << "node7" << -1 << 2 << true;
        QTest::newRow("host cut by the paste")
            << "-worker-1:946:988 [0] transport/net_ib.cc:839 NCCL WARN NET/IB : Got "
               "completion with error 12"
            << "" << 946 << 0 << true;
        QTest::newRow("host masked with stars")
            << "***:1307367:1307586 [3] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P"
            << "" << 1307367 << 3 << false;
        QTest::newRow("host as a placeholder") << "<host>:12:13 [1] NCCL INFO Init COMPLETE"
                                               << "" << 12 << 1 << false;
        QTest::newRow("host redacted in brackets") << "[REDACTED]:412:498 [2] NCCL INFO Init COMPLETE"
                                                   << "" << 412 << 2 << false;
        QTest::newRow("host as a template field") << "{hostname}:12:13 [1] misc/socket.cc:50 NCCL WARN x"
                                                  << "" << 12 << 1 << true;
        QTest::newRow("a space left before the colon")
            << "NAME :69438:69438 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.2<0>"
            << "NAME" << 69438 << 0 << false;
        QTest::newRow("two X are no mask") << "node7:XX [2] NCCL WARN x"
                                           << "" << -1 << -1 << true;
    }
    void maskedNcclPrefix()
    {
        QFETCH(QString, line);
        QFETCH(QString, host);
        QFETCH(int, pid);
        QFETCH(int, device);
        QFETCH(bool, warn);
        const std::string bytes = line.toStdString();
        const LinePrefix p = parseLinePrefix(bytes);
        QCOMPARE(QString::fromUtf8(p.ncclHost.data(), static_cast<qsizetype>(p.ncclHost.size())), host);
        QCOMPARE(p.pid, qint64(pid));
        QCOMPARE(p.ncclDev, device);
        QCOMPARE(p.nccl, warn ? NcclLevel::Warn : NcclLevel::Info);
    }

    // A whole NCCL prefix behind a wrapper the parser was never taught (TorchX's "trainer/0 [1]:", a job
    // tag, a pipe): the writer is still read from it, and the message starts after the level.
    void ncclPrefixBehindAnUnknownWrapper_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QString>("host");
        QTest::addColumn<int>("pid");
        QTest::addColumn<int>("device");
        QTest::addColumn<int>("level");
        QTest::addColumn<QString>("message");
        QTest::newRow("role/replica [local]:")
            << "trainer/0 [1]:gpu-a01:101:201 [1] misc/socket.cc:484 NCCL WARN socketProgressOpt: Call to "
               "recv "
               "failed"
            << "gpu-a01" << 101 << 1 << int(NcclLevel::Warn) << "socketProgressOpt: Call to recv failed";
        QTest::newRow("a pipe") << "job-7f3a | worker-3:4410:4490 [2] NCCL INFO Bootstrap : Using eth0"
                                << "worker-3" << 4410 << 2 << int(NcclLevel::Info)
                                << "Bootstrap : Using eth0";
        QTest::newRow("file:line (function)")
            << "task-3 >>> node12:77:78 [0] transport/net_ib/p2p.cc:688 (ncclIbLogCompletionWithError) NCCL "
               "WARN NET/IB: Got completion"
            << "node12" << 77 << 0 << int(NcclLevel::Warn) << "NET/IB: Got completion";
        QTest::newRow("prose and a Markdown backtick before it (nccl#928)")
            << "error log `H100-2:19989:20082 [1] transport/net_ib.cc:1295 NCCL WARN NET/IB : Got completion"
            << "H100-2" << 19989 << 1 << int(NcclLevel::Warn) << "NET/IB : Got completion";
        // NCCL 2.3 and older print the level without "NCCL" (horovod#666).
        QTest::newRow("NCCL 2.3 WARN")
            << "seyun:17283:17549 [3] include/socket.h:371 WARN Connection closed by remote peer"
            << "seyun" << 17283 << 3 << int(NcclLevel::Warn) << "Connection closed by remote peer";
        QTest::newRow("NCCL 2.3 INFO trail")
            << "seyun:17281:17552 [1] INFO bootstrap.cu:45 -> 2 [Net]"
            << "seyun" << 17281 << 1 << int(NcclLevel::Info) << "bootstrap.cu:45 -> 2 [Net]";
        QTest::newRow("no level after it: not NCCL's")
            << "checkpoint saved to a:1:2 [0] then NCCL stopped"
            << "" << -1 << -1 << int(NcclLevel::None) << "checkpoint saved to a:1:2 [0] then NCCL stopped";
    }
    void ncclPrefixBehindAnUnknownWrapper()
    {
        QFETCH(QString, line);
        QFETCH(QString, host);
        QFETCH(int, pid);
        QFETCH(int, device);
        QFETCH(int, level);
        QFETCH(QString, message);
        const std::string bytes = line.toStdString();
        const LinePrefix p = parseLinePrefix(bytes);
        QCOMPARE(QString::fromUtf8(p.ncclHost.data(), static_cast<qsizetype>(p.ncclHost.size())), host);
        QCOMPARE(p.pid, qint64(pid));
        QCOMPARE(p.ncclDev, device);
        QCOMPARE(int(p.nccl), level);
        QCOMPARE(QString::fromUtf8(p.message.data(), static_cast<qsizetype>(p.message.size())), message);
    }

    // Writers the log names without an NCCL prefix: a TorchX replica and its local rank, UCX's crash
    // banner (host and pid, the pid padded to five columns). A bracket that only looks like one stays.
    void namedWriters_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QString>("tag");
        QTest::addColumn<int>("localRank");
        QTest::addColumn<QString>("host");
        QTest::addColumn<int>("pid");
        QTest::addColumn<QString>("message");
        QTest::newRow("TorchX replica|local rank")
            << "[trainer0|0]:ncclInternalError: Internal check failed."
            << "trainer0" << 0 << "" << -1 << "ncclInternalError: Internal check failed.";
        QTest::newRow("TorchX replica before an NCCL prefix")
            << "[trainer3]:twshared1016:1958:1958 [3] NCCL INFO NCCL_SOCKET_IFNAME set to eth2"
            << "trainer3" << 3 << "" << 1958 << "NCCL_SOCKET_IFNAME set to eth2";
        QTest::newRow("torchrun's tee names no writer")
            << "[default3]:Traceback (most recent call last):"
            << "" << 3 << "" << -1 << "Traceback (most recent call last):";
        QTest::newRow("UCX banner, padded pid")
            << "[qgpuvb813-cvision:1    :0:381] Caught signal 7 (Bus error: nonexistent physical address)"
            << "" << -1 << "qgpuvb813-cvision" << 1
            << "Caught signal 7 (Bus error: nonexistent physical address)";
        QTest::newRow("UCX banner, thread name")
            << "[node3:40211:async:40299] Caught signal 11 (Segmentation fault: address not mapped)"
            << "" << -1 << "node3" << 40211 << "Caught signal 11 (Segmentation fault: address not mapped)";
        QTest::newRow("SGLang's parallel ranks in its clock")
            << "[2025-01-12 10:11:12 DP1 TP3] Scheduler hit an exception: Traceback (most recent call last):"
            << "DP1 TP3" << -1 << "" << -1
            << "Scheduler hit an exception: Traceback (most recent call last):";
        QTest::newRow("Slurm's step daemon names its node")
            << "slurmstepd-gpu20-15: error: *** STEP 9411285.0 ON gpu20-15 CANCELLED AT 2022-05-17T17:58:10 "
               "***"
            << "slurmstepd" << -1 << "gpu20-15" << -1
            << "error: *** STEP 9411285.0 ON gpu20-15 CANCELLED AT 2022-05-17T17:58:10 ***";
        QTest::newRow("CANN's error code is no host") << "EE9999: Inner Error!"
                                                      << "" << -1 << "" << -1 << "EE9999: Inner Error!";
        QTest::newRow("a bracket that is no banner")
            << "[note:see below] Caught signal 7"
            << "" << -1 << "" << -1 << "[note:see below] Caught signal 7";
    }
    void namedWriters()
    {
        QFETCH(QString, line);
        QFETCH(QString, tag);
        QFETCH(int, localRank);
        QFETCH(QString, host);
        QFETCH(int, pid);
        QFETCH(QString, message);
        const std::string bytes = line.toStdString();
        const LinePrefix p = parseLinePrefix(bytes);
        const auto str = [](std::string_view v) {
            return QString::fromUtf8(v.data(), static_cast<qsizetype>(v.size()));
        };
        QCOMPARE(str(p.sourceTag), tag);
        QCOMPARE(p.teeLocalRank, localRank);
        QCOMPARE(str(p.pdshHost), host);
        QCOMPARE(p.pid, qint64(pid));
        QCOMPARE(str(p.message), message);
    }

    // Metaflow's task tag after its clock names the task and its pid, and its UUID tag goes too; the clock
    // before a wrapper is the wrapper's, so a traceback it passes on stays one record. A bracket with a
    // pid but no run/step/task path is no such tag.
    void metaflowTaskTag()
    {
        const std::string line =
            "2023-04-29 06:01:12.977 [177/train/578 (pid 28936)] "
            "[09c561ee-a44c-4795-967c-7183a83b3160]   File \"/x/serialization.py\", line 3, in f";
        const LinePrefix p = parseLinePrefix(line);
        QCOMPARE(QString::fromUtf8(p.sourceTag.data(), qsizetype(p.sourceTag.size())),
            QStringLiteral("177/train/578"));
        QCOMPARE(p.rayPid, qint64(28936));
        QVERIFY(p.collectorClock);
        QCOMPARE(QString::fromUtf8(p.message.data(), qsizetype(p.message.size())),
            QStringLiteral("  File \"/x/serialization.py\", line 3, in f"));
        const LinePrefix other = parseLinePrefix(std::string_view("[worker (pid 5)] x"));
        QCOMPARE(other.rayPid, qint64(-1));
        QVERIFY(!parseLinePrefix(std::string_view("2024-05-01 10:00:00,123 ERROR x")).collectorClock);
    }

    // A wrapper's clock ("[ts] host ||", Determined's) dates a line that has none: the stamp is borrowed and
    // has no span in afterLauncher, so nothing reads bytes out of the wrong string (the fuzzer's find).
    void wrapperClockIsBorrowedWithoutASpan()
    {
        const std::string line = "[2026-05-02 10:05:00] gpu-bNumel8 ||8 -0c 2";
        const LinePrefix p = parseLinePrefix(line);
        QVERIFY(p.wrapperStamp.found());
        QVERIFY(p.stamp.found());
        QVERIFY(p.stampBorrowed);
        QCOMPARE(p.stamp.hour, 10);
        QCOMPARE(p.stamp.minute, 5);
        QCOMPARE(p.stamp.offset, 0);
        QCOMPARE(p.stamp.length, 0);
        const LinePrefix own =
            parseLinePrefix("[2026-05-02 10:05:00] gpu-b01 || [2026-05-02 10:05:01] INFO ok");
        QVERIFY(!own.stampBorrowed);
        QCOMPARE(own.stamp.second, 1);
        QVERIFY(own.stamp.length > 0);
        QVERIFY(size_t(own.stamp.offset + own.stamp.length) <= own.afterLauncher.size());
    }

    // c10's "[rankN]:" where a wrapper layer ends: after a pdsh host, a log collector's clock or an
    // OpenMPI tag. A collector's RFC 3339 clock is the wrapper's (borrowed, no span), and the traceback's
    // own indentation after its one space stays in the message.
    void rankTagAfterAWrapper_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<int>("rank");
        QTest::addColumn<QString>("message");
        QTest::addColumn<bool>("clockBorrowed");
        QTest::newRow("pdsh host") << "gpu-node12: [rank0]:     raise RuntimeError(x)" << 0
                                   << "    raise RuntimeError(x)" << false;
        QTest::newRow("file name as host")
            << "job-1234.out: [rank3]: RuntimeError: boom" << 3 << "RuntimeError: boom" << false;
        QTest::newRow("kubectl --timestamps")
            << "2024-05-01T10:00:00.123456789Z [rank2]:   File \"a.py\", line 3" << 2
            << "  File \"a.py\", line 3" << true;
        QTest::newRow("CI runner clock, no rank")
            << "2024-05-01T10:00:00.1234567Z     self.barrier()" << -1 << "    self.barrier()" << true;
        QTest::newRow("OpenMPI tag then c10 rank")
            << "[1,3]<stderr>:[rank0]: RuntimeError: boom" << 0 << "RuntimeError: boom" << false;
        QTest::newRow("Python logger's [rankN] without a colon")
            << "[rank8] Warning: Unable to resolve hostname to a (local) address. Using the loopback address "
               "as fallback."
            << 8
            << "Warning: Unable to resolve hostname to a (local) address. Using the loopback address as "
               "fallback."
            << false;
        QTest::newRow("syslog host prog[pid]")
            << "Dec  6 12:00:00 node1 python[123]: [rank2]: RuntimeError: boom" << 2 << "RuntimeError: boom"
            << false;
        QTest::newRow("[stepN] is no writer") << "[step3] loss 2.1" << -1 << "[step3] loss 2.1" << false;
        // A console's clock to the minute (a logger prints seconds): peeled, and the c10 header after it is
        // the line's own clock.
        QTest::newRow("clock to the minute") << "2025-02-18 12:54 [rank13]:[E218 04:54:22.864467604 "
                                                "ProcessGroupNCCL.cpp:616] [Rank 1] Watchdog"
                                             << 13 << "[Rank 1] Watchdog" << false;
    }
    void rankTagAfterAWrapper()
    {
        QFETCH(QString, line);
        QFETCH(int, rank);
        QFETCH(QString, message);
        QFETCH(bool, clockBorrowed);
        const std::string bytes = line.toStdString();
        const LinePrefix p = parseLinePrefix(bytes);
        QCOMPARE(p.globalRank, rank);
        QCOMPARE(QString::fromUtf8(p.message.data(), qsizetype(p.message.size())), message);
        QCOMPARE(p.stampBorrowed, clockBorrowed);
        if (clockBorrowed) {
            QCOMPARE(p.stamp.year, 2024);
            QCOMPARE(p.stamp.length, 0);
        }
    }

    // Determined's agent with the trial's state, then horovodrun's ctime clock glued to its rank tag
    // (horovod/horovod#2015): both wrappers are peeled, and the tag names the rank.
    void determinedStateThenHorovodTag()
    {
        const std::string line =
            "[2020-06-09T20:10:40Z] cf108822 [RUNNING] ||  Tue Jun  9 20:10:40 2020[1]<stderr>:"
            "terminate called after throwing an instance of 'gloo::IoException'";
        const LinePrefix p = parseLinePrefix(line);
        QCOMPARE(p.globalRank, 1);
        QVERIFY(p.stamp.found());
        QCOMPARE(p.stamp.year, 2020);
        QCOMPARE(QString::fromUtf8(p.message.data(), qsizetype(p.message.size())),
            QStringLiteral("terminate called after throwing an instance of 'gloo::IoException'"));
    }

    // journald / rsyslog: "host prog[pid]: " after the clock names the writer; a message's "Some text: "
    // is not taken for one (the program must carry a pid or be the kernel).
    void syslogSourceNamesTheWriter()
    {
        const LinePrefix p = parseLinePrefix("Dec  6 12:00:00 node1 python[123]: RuntimeError: boom");
        QCOMPARE(QByteArray(p.pdshHost.data(), qsizetype(p.pdshHost.size())), QByteArray("node1"));
        QCOMPARE(p.pid, 123);
        QCOMPARE(QByteArray(p.message.data(), qsizetype(p.message.size())), QByteArray("RuntimeError: boom"));
        const LinePrefix k =
            parseLinePrefix("Dec  6 12:00:00 gpu-n07 kernel: NVRM: Xid (PCI:0000:18:00): 79");
        QCOMPARE(QByteArray(k.pdshHost.data(), qsizetype(k.pdshHost.size())), QByteArray("gpu-n07"));
        // Ray's own processes name themselves without a pid: "(raylet) " is a wrapper, its header's level
        // read.
        const LinePrefix r = parseLinePrefix(
            "(raylet) [2024-06-10 12:00:00,123 E 135782 135782] (raylet) node_manager.cc:3069: 1 Workers");
        QCOMPARE(r.stamp.year, 2024);
        QCOMPARE(r.stamp.severity, 'E');
        const LinePrefix m = parseLinePrefix("Dec  6 12:00:00 Some text: more words");
        QVERIFY(m.pdshHost.empty());
        QCOMPARE(m.pid, -1);
    }

    // SageMaker's mpirun tag names the rank and the host; a log console's table copied as text (CloudWatch)
    // has the collector's clock in a column, in UTC or with an offset.
    void sageMakerTagAndClockColumn()
    {
        const auto str = [](std::string_view v) { return QByteArray(v.data(), qsizetype(v.size())); };
        const LinePrefix m = parseLinePrefix("[1,mpirank:3,algo-2]<stderr>:RuntimeError: boom");
        QCOMPARE(m.globalRank, 3);
        QCOMPARE(str(m.pdshHost), QByteArray("algo-2"));
        QCOMPARE(str(m.message), QByteArray("RuntimeError: boom"));
        const LinePrefix c =
            parseLinePrefix("  | 2024-11-28T07:42:11.526Z | algo-1:17775:17847 [2] NCCL INFO NET/OFI x");
        QCOMPARE(str(c.ncclHost), QByteArray("algo-1"));
        QCOMPARE(c.pid, 17775);
        QCOMPARE(c.stamp.hour, 7);
        QVERIFY(c.stampBorrowed); // the collector's clock, not a message of its own
        const LinePrefix z = parseLinePrefix(
            "2025-05-22T14:26:33.403-07:00 | ip-10-36-22-140:79:2499 [0] NCCL INFO NET/OFI Initializing");
        QCOMPARE(str(z.ncclHost), QByteArray("ip-10-36-22-140"));
        QCOMPARE(z.stamp.zoneOffsetSeconds, -7 * 3600);
        QCOMPARE(str(z.message), QByteArray("NET/OFI Initializing"));
    }

    // The container runtime's log file (CRI, kubelet's /var/log/pods): clock, stream, and F or P before the
    // line, in UTC or with an offset; the line's own indentation stays.
    void containerRuntimeLogLine()
    {
        const auto str = [](std::string_view v) { return QByteArray(v.data(), qsizetype(v.size())); };
        const LinePrefix f = parseLinePrefix(
            "2024-05-01T10:00:00.123456789Z stderr F worker-0:12:40 [3] NCCL WARN Net : Connection closed");
        QCOMPARE(str(f.ncclHost), QByteArray("worker-0"));
        QCOMPARE(f.ncclDev, 3);
        QVERIFY(f.stampBorrowed);
        const LinePrefix t = parseLinePrefix(
            "2016-10-06T00:17:09.669794203+08:00 stdout P   File \"/x/train.py\", line 9, in f");
        QCOMPARE(t.stamp.zoneOffsetSeconds, 8 * 3600);
        QCOMPARE(str(t.message), QByteArray("  File \"/x/train.py\", line 9, in f"));
    }

    // A Ray actor named with its rank (NeMo RL's workers) gives the line that rank.
    void rayActorWithItsRank()
    {
        const LinePrefix p = parseLinePrefix(
            "(MegatronPolicyWorker[rank=8] pid=3294808, ip=10.109.19.209) Fatal Python error: Aborted");
        QCOMPARE(p.globalRank, 8);
        QCOMPARE(p.rayPid, 3294808);
        QCOMPARE(QByteArray(p.message.data(), qsizetype(p.message.size())),
            QByteArray("Fatal Python error: Aborted"));
        QCOMPARE(parseLinePrefix("(RayWorkerWrapper pid=11305) x").globalRank, -1);
    }

    // oneCCL's header names the writing thread; its message starts at the level.
    void oneCclThreadIsRead()
    {
        const LinePrefix p = parseLinePrefix(
            "(RayWorkerVllm pid=7746) 2024:08:21-10:24:26:( 7746) |CCL_WARN| fallback to 'sockets' mode");
        QCOMPARE(p.tid, 7746);
        QCOMPARE(p.stamp.day, 21);
        QCOMPARE(QByteArray(p.message.data(), qsizetype(p.message.size())),
            QByteArray("|CCL_WARN| fallback to 'sockets' mode"));
        QCOMPARE(classifyLine(p, true).severity, Severity::Warn);
    }

    // Huawei CANN's headers name the writer: the plog's "MODULE(pid,name)" and "[tid]", torch_npu's
    // "(PID:..., Device:..., RankID:...)"; the message starts after them. An error-code line keeps its code
    // in the message and gets the clock and pid printed after it; its letter is its level.
    void cannHeadersNameTheWriter()
    {
        const auto str = [](std::string_view v) { return QByteArray(v.data(), qsizetype(v.size())); };
        const LinePrefix plog = parseLinePrefix("    [ERROR] HCCL(10261,python):2025-09-11-01:20:11.205.229 "
                                                "[topoinfo_exchange_server.cc:113] [57044][Get][Connection]"
                                                "topo exchange server get socket timeout! timeout[720 s]");
        QCOMPARE(plog.stamp.kind, StampKind::Cann);
        QCOMPARE(plog.pid, 10261);
        QCOMPARE(plog.tid, 57044);
        QCOMPARE(str(plog.message),
            QByteArray("[Get][Connection]topo exchange server get socket timeout! timeout[720 s]"));
        QCOMPARE(classifyLine(plog, true).severity, Severity::Error);
        const LinePrefix glued = parseLinePrefix(
            "[ERROR] HCCL(23457,all_reduce_test):2023-10-16-08:41:56.291.809 [comm_base.cc:984][23468]the "
            "connection failure between this device and target device");
        QCOMPARE(glued.tid, 23468);
        QVERIFY(str(glued.message).startsWith("the connection failure"));
        const LinePrefix npu = parseLinePrefix("[rank0]: [ERROR] 2025-04-27-03:11:08 (PID:540988, Device:0, "
                                               "RankID:0) ERR02200 DIST call hccl api failed.");
        QCOMPARE(npu.pid, 540988);
        QCOMPARE(npu.ncclDev, 0);
        QCOMPARE(npu.globalRank, 0);
        QCOMPARE(str(npu.message), QByteArray("ERR02200 DIST call hccl api failed."));
        const LinePrefix untagged = parseLinePrefix("[ERROR] 2024-05-21-11:57:54 (PID:927000, Device:3, "
                                                    "RankID:3) ERR02200 DIST call hccl api failed.");
        QCOMPARE(untagged.globalRank, 3);
        const LinePrefix code = parseLinePrefix(
            "[rank0]: EE9999: [PID: 540988] 2025-04-27-03:11:08.089.335 get error: phyid:1 realDeviceId:1");
        QCOMPARE(code.pid, 540988);
        QCOMPARE(code.stamp.second, 8);
        QCOMPARE(code.stamp.nanos, 89335000);
        QVERIFY(str(code.message).startsWith("EE9999: [PID: 540988]"));
        QVERIFY(code.pdshHost.empty());
        QCOMPARE(classifyLine(code, true).severity, Severity::Error);
        const LinePrefix ej =
            parseLinePrefix("EJ0001: 2024-05-21-11:57:54.167.645 Failed to initialize the "
                            "HCCP process. Reason: Maybe the last training process is running.");
        QCOMPARE(ej.stamp.offset, 8);
        QCOMPARE(classifyLine(ej, true).severity, Severity::Error);
        const LinePrefix warning =
            parseLinePrefix("W11001: Op [x] does not hit the high-priority operator list");
        QVERIFY(warning.pdshHost.empty());
        QCOMPARE(classifyLine(warning, true).severity, Severity::Warn);
        // A host name that looks like a code but is not one stays a host.
        QCOMPARE(str(parseLinePrefix("EX12345: step 1").pdshHost), QByteArray("EX12345"));
    }

    // OpenMPI's --timestamp-output glues ctime's clock to the --tag-output tag: the clock is the wrapper's,
    // the tag names the rank (NVIDIA/nccl#957, horovodrun in horovod#2493).
    void mpiTimestampBeforeTheTag()
    {
        const LinePrefix p =
            parseLinePrefix("Fri Aug 11 12:31:45 2023[1,0]<stdout>:tomte401:1850301:1881341 [0] "
                            "transport.cc:154 NCCL WARN Cuda failure 'invalid argument'");
        QCOMPARE(p.globalRank, 0);
        QCOMPARE(QByteArray(p.ncclHost.data(), qsizetype(p.ncclHost.size())), QByteArray("tomte401"));
        QVERIFY(p.stampBorrowed);
        QCOMPARE(p.stamp.year, 2023);
        QCOMPARE(p.stamp.month, 8);
        QCOMPARE(p.stamp.day, 11);
        QCOMPARE(p.stamp.hour, 12);
        const LinePrefix h =
            parseLinePrefix("Tue Nov 10 10:05:04 2020[13]<stderr>:Fatal Python error: Aborted");
        QCOMPARE(h.globalRank, 13);
        QCOMPARE(h.stamp.day, 10);
        // ctime's form alone, with no tag after it, is a message.
        QVERIFY(!parseLinePrefix("Fri Aug 11 12:31:45 2023 the job started").stamp.found());
    }

    // A log aggregator's "[7 similar log lines] " (Monarch) folds repeats: the c10 line after it keeps its
    // clock and level.
    void similarLinesCountIsAWrapper()
    {
        const LinePrefix p =
            parseLinePrefix("> [7 similar log lines] [W1008 23:40:22.836678340 socket.cpp:767] [c10d] "
                            "The client socket has failed to connect to [h.internal]:50745");
        QCOMPARE(p.stamp.kind, StampKind::Glog);
        QCOMPARE(p.stamp.severity, 'W');
        QVERIFY(
            QByteArray(p.message.data(), qsizetype(p.message.size())).startsWith("[c10d] The client socket"));
    }

    // libsharp's header names the host and pid and carries the clock; its level word starts the message
    // (before, "[node:0:174" was read as an NCCL prefix of host "[node").
    void sharpHeaderIsAWrapper()
    {
        const LinePrefix p = parseLinePrefix("[node:0:174 - tree_ops.c:314][2024-05-30 12:26:47] ERROR "
                                             "Failed to lock SAT tree(ID:0x208. ret:0x4)");
        QCOMPARE(QByteArray(p.pdshHost.data(), qsizetype(p.pdshHost.size())), QByteArray("node"));
        QCOMPARE(p.pid, 174);
        QVERIFY(p.ncclHost.empty());
        QCOMPARE(p.stamp.day, 30);
        QVERIFY(QByteArray(p.message.data(), qsizetype(p.message.size())).startsWith("ERROR Failed to lock"));
        QCOMPARE(classifyLine(p, true).severity, Severity::Error);
    }

    // MPICH's "[7] " tag starts a line: behind indentation it is an item of a report (PyTorch's desync
    // report lists "[7] finished collective #182, ...") and names no writer.
    void indentedBracketNumberIsNoLauncherRank()
    {
        const LinePrefix item =
            parseLinePrefix("             [7] finished collective #182, but didn't join collective #183");
        QCOMPARE(item.launcherRank, -1);
        QCOMPARE(parseLinePrefix("[7] finished collective #182").launcherRank, 7);
        // An NCCL line cut to its device keeps its device behind indentation.
        QCOMPARE(
            parseLinePrefix("   [3] graph/rings.cc:38 NCCL WARN Error : ring 0 does not loop back").ncclDev,
            3);
    }

    // A tqdm bar written without a newline and another rank's line glued to its end: the tag after the bar's
    // closing ']' starts the line (torchrun's "[defaultN]:" and c10's "[rankN]:"); without a bar, a "]["
    // inside a message is no tag.
    void tagGluedAfterProgressBar()
    {
        const LinePrefix tee = parseLinePrefix(
            "[default0]:Grouping texts:   8%|#         | 726000/9672101 [02:32<30:38, 4866.01 examples/s]"
            "[default2]:[E ProcessGroupNCCL.cpp:475] [Rank 2] Watchdog caught ");
        QCOMPARE(tee.teeLocalRank, 2);
        QVERIFY(
            QByteArray(tee.message.data(), qsizetype(tee.message.size())).startsWith("[E ProcessGroupNCCL"));
        const LinePrefix c10 =
            parseLinePrefix("Train:  20%|#9        | 375/1881 [3:40:16<14:52:25, 35.55s/it]"
                            "[rank3]:[E918 19:29:24.436950 ProcessGroupNCCL.cpp:689] x");
        QCOMPARE(c10.globalRank, 3);
        QCOMPARE(c10.stamp.kind, StampKind::Glog);
        const LinePrefix plain = parseLinePrefix("[default1]:loss [0.5][rank3]: not a tag here");
        QCOMPARE(plain.teeLocalRank, 1);
        QCOMPARE(plain.globalRank, -1);
    }

    // An empty quoted line is a bare ">" (or "> "): nothing is left of it.
    void emptyQuoteLineIsEmpty()
    {
        for (const char* line : { ">", "> ", "| " })
            QVERIFY2(parseLinePrefix(line).message.empty(), line);
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
