// SPDX-License-Identifier: MIT
// Attribution edge cases: every source of "who wrote this line" alone and in disagreement. Each row writes a
// few small files (from the real templates) and checks one rank and the incident's warnings.
#include "identity_facts.h"
#include "ingest.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace rankscope;

using Files = QMap<QString, QString>; // relative path -> content
Q_DECLARE_METATYPE(Files)

namespace {

QString init(
    const QString& prefix, int rank, int nranks, int dev, const QString& tail = QStringLiteral("Init START"))
{
    return QStringLiteral(
        "%1 NCCL INFO ncclCommInitRankConfig comm 0x5a%2 rank %2 nranks %3 cudaDev %4 nvmlDev %4 "
        "busId %5 commId 0x77aa - %6\n")
        .arg(prefix)
        .arg(rank)
        .arg(nranks)
        .arg(dev)
        .arg(0x18000 + dev * 0x10000, 0, 16)
        .arg(tail);
}

} // namespace

class TestIngestAttribution : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // nccl-tests' device table in its three generations: with "Group" and a bus number, without "Group"
    // (nccl-tests#41), with the device's PCI address (nccl#1706).
    void ncclTestsRankLines_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<int>("rank");
        QTest::addColumn<QString>("host");
        QTest::addColumn<int>("device");
        QTest::newRow("group, bus number")
            << QByteArray("#  Rank  2 Group  0 Pid 3164639 on fengyun device  0 [0x01] NVIDIA H100") << 2
            << QStringLiteral("fengyun") << 0;
        QTest::newRow("no group") << QByteArray(
            "#   Rank  3 Pid 108039 on ip-0AB85F07 device  3 [0x00] Tesla V100-PCIE-16GB")
                                  << 3 << QStringLiteral("ip-0AB85F07") << 3;
        QTest::newRow("pci address") << QByteArray(
            "#  Rank  1 Group  0 Pid 2081556 on   deepseek device  1 [0000:34:00] NVIDIA H800")
                                     << 1 << QStringLiteral("deepseek") << 1;
        QTest::newRow("no device field")
            << QByteArray("#  Rank  1 Pid 2081556 on deepseek") << -1 << QString() << -1;
    }
    void ncclTestsRankLines()
    {
        QFETCH(QByteArray, line);
        QFETCH(int, rank);
        QFETCH(QString, host);
        QFETCH(int, device);
        IdentityFact f;
        const bool found =
            parseNcclTestsRank(std::string_view(line.constData(), static_cast<size_t>(line.size())), f);
        QCOMPARE(found, rank >= 0);
        if (!found)
            return;
        QCOMPARE(f.rank, rank);
        QCOMPARE(f.host, host);
        QCOMPARE(f.cudaDev, device);
    }

    // Numbers too large for an int in identity lines: no fact, or the field unknown, never an exception
    // (std::stoi threw on "Setting affinity for GPU 99999999999", found by fuzz_line_prefix in CI).
    void identityNumbersTooLarge()
    {
        IdentityFact f;
        QVERIFY(!parseNcclIdentity("Setting affinity for GPU 99999999999 to 0-31", f));
        IdentityFact ok;
        QVERIFY(parseNcclIdentity("Setting affinity for GPU 3 to 32-63,96-127", ok));
        QCOMPARE(ok.nvmlDev, 3);
        QCOMPARE(ok.text, QStringLiteral("32-63,96-127"));
        IdentityFact net;
        QVERIFY(parseNcclIdentity("NET/IB : Using [0]mlx5_0:99999999999/IB [1]mlx5_1:1/IB", net));
        QCOMPARE(net.nics.size(), size_t(2));
        QCOMPARE(net.nics[0].port, -1);
        QCOMPARE(net.nics[1].port, 1);
        IdentityFact init;
        QVERIFY(parseNcclIdentity("ncclCommInitRankConfig comm 0x55d0 rank 0 nranks 8 cudaDev 0 nvmlDev "
                                  "99999999999 busId 18000 commId 0x6b1f - Init START",
            init));
        QCOMPARE(init.rank, 0);
        QCOMPARE(init.nvmlDev, -1);
    }

    void attribution_data()
    {
        QTest::addColumn<Files>("files");
        QTest::addColumn<int>("rank");
        QTest::addColumn<QString>("host");
        QTest::addColumn<qint64>("pid");
        QTest::addColumn<int>("warnRank"); // rank of the first WARN (-2: do not check)
        QTest::addColumn<QString>(
            "warning"); // a text the incident's warnings must contain ("" = none at all)

        const QString p = QStringLiteral("node7:3100:3100 [2]");
        QTest::newRow("2.26 timestamped WARN") << Files { { QStringLiteral("a.log"),
            init(p, 2, 4, 2)
                + QStringLiteral("[2026-03-14 02:17:44] node7:3100:3170 [2] misc/socket.cc:50 NCCL WARN "
                                 "socket closed\n") } }
                                               << 2 << "node7" << qint64(3100) << 2 << "";
        // NCCL before 2.7 (horovod#893): "Ring" for "Channel", SHM "via direct shared memory", NET lines
        // without the devices; no init line names the rank.
        QTest::newRow("2.4 ring over shared memory") << Files { { QStringLiteral("a.log"),
            QStringLiteral(
                "heinzel135:151780:151928 [2] NCCL INFO Ring 00 : 2[2] -> 3[3] via direct shared memory\n"
                "heinzel135:151780:151928 [2] include/shm.h:42 NCCL WARN Cuda failure 'invalid "
                "argument'\n") } } << 2 << "heinzel135"
                                                     << qint64(151780) << 2 << "";
        QTest::newRow("2.4 ring over the network") << Files { { QStringLiteral("a.log"),
            QStringLiteral("node2:4100:4170 [3] NCCL INFO Ring 00 : 3 -> 4 [send] via NET/IB/0\n"
                           "node2:4100:4170 [3] NCCL INFO Ring 00 : 7 -> 3 [receive] via NET/IB/0\n"
                           "node2:4100:4170 [3] misc/socket.cc:50 NCCL WARN socket closed\n") } }
                                                   << 3 << "node2" << qint64(4100) << 3 << "";
        QTest::newRow("2.30 WARN with (func)") << Files { { QStringLiteral("a.log"),
            init(p, 2, 4, 2)
                + QStringLiteral("[2026-03-14 02:17:44] node7:3100:3170 [2] transport/net_ib/p2p.cc:688 "
                                 "(ncclIbLogCompletionWithError) NCCL WARN NET/IB: status=12\n") } }
                                               << 2 << "node7" << qint64(3100) << 2 << "";
        QTest::newRow("2.29 [Rank N] START prefix") << Files { { QStringLiteral("a.log"),
            QStringLiteral("node7:3100:3100 [2] NCCL INFO [Rank 6] ncclCommInitRankConfig comm 0x5a rank 6 "
                           "nranks 8 cudaDev 2 nvmlDev 2 busId 38000 commId 0x77aa - Init START\n"
                           "node7:3100:3170 [2] misc/socket.cc:50 NCCL WARN socket closed\n") } }
                                                    << 6 << "node7" << qint64(3100) << 6 << "";
        QTest::newRow("split communicator keeps the world rank") << Files { { QStringLiteral("a.log"),
            init(p, 5, 8, 2)
                + QStringLiteral("node7:3100:3100 [2] NCCL INFO ncclCommSplit comm 0x5b rank 1 nranks 2 "
                                 "cudaDev 2 nvmlDev 2 busId 38000 parent 0x5a splitCount 1 color 1 key 5 "
                                 "commId 0x88bb - Init START\n"
                                 "node7:3100:3170 [2] misc/socket.cc:50 NCCL WARN socket closed\n") } }
                                                                 << 5 << "node7" << qint64(3100) << 5 << "";
        QTest::newRow("FQDN and short host are one host")
            << Files { { QStringLiteral("nccl.log"),
                           init(QStringLiteral("node7.cluster.example.com:3100:3100 [2]"), 3, 4, 2) },
                   { QStringLiteral("other.log"),
                       QStringLiteral("node7:3100:3170 [2] misc/socket.cc:50 NCCL WARN socket closed\n") } }
            << 3 << "node7" << qint64(3100) << 3 << "";
        QTest::newRow("file name and lines disagree") << Files { { QStringLiteral("rank3.log"),
            init(p, 5, 8, 2) + QStringLiteral("node7:3100:3170 [2] misc/socket.cc:50 NCCL WARN x\n") } }
                                                      << 5 << "node7" << qint64(3100) << 5
                                                      << "the file name says rank 3, its lines say rank 5";
        QTest::newRow("folder host and lines disagree") << Files { { QStringLiteral("gpu-b09/rank5.log"),
            init(p, 5, 8, 2) + QStringLiteral("node7:3100:3170 [2] misc/socket.cc:50 NCCL WARN x\n") } }
                                                        << 5 << "node7" << qint64(3100) << 5
                                                        << "the folder says host gpu-b09";
        QTest::newRow("one process, two ranks on one device")
            << Files { { QStringLiteral("a.log"), init(p, 1, 8, 2) + init(p, 4, 8, 2) } } << 1 << "node7"
            << qint64(3100) << -2 << "is both rank 1 and rank 4";
        QTest::newRow("nccl-tests: one pid, devices are ranks") << Files { { QStringLiteral("perf.log"),
            QStringLiteral("#  Rank  0 Group  0 Pid  900 on   box1 device  0 [0x01] NVIDIA H100\n"
                           "#  Rank  1 Group  0 Pid  900 on   box1 device  1 [0x02] NVIDIA H100\n"
                           "#  Rank  2 Group  0 Pid  900 on   box1 device  2 [0x03] NVIDIA H100\n"
                           "box1:900:950 [2] misc/socket.cc:50 NCCL WARN socket closed\n") } }
                                                                << 2 << "box1" << qint64(900) << 2 << "";
        QTest::newRow("torchrun summary gives another pid")
            << Files { { QStringLiteral("nccl.log"), init(p, 2, 4, 2) },
                   { QStringLiteral("console.log"),
                       QStringLiteral("torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n"
                                      "============================================================\n"
                                      "train.py FAILED\n"
                                      "------------------------------------------------------------\n"
                                      "Failures:\n  <NO_OTHER_FAILURES>\n"
                                      "------------------------------------------------------------\n"
                                      "Root Cause (first observed failure):\n[0]:\n"
                                      "  time      : 2026-03-14_02:17:46\n"
                                      "  host      : node7.cluster.example.com\n"
                                      "  rank      : 2 (local_rank: 2)\n"
                                      "  exitcode  : -6 (pid: 4444)\n"
                                      "  error_file: <N/A>\n"
                                      "  traceback : Signal 6 (SIGABRT) received by PID 4444\n"
                                      "============================================================\n") } }
            << 2 << "node7" << qint64(3100) << -2 << "gives pid 4444, NCCL gives pid 3100";
        // A Ray worker states its rank once ("[rank=N]", "[rankN]:"); its NCCL lines, under the same pid,
        // are that rank's (real case 115 had an empty rank table without this), and the pid is the rank's.
        QTest::newRow("Ray: a [rank=N] line names the pid's rank") << Files { { QStringLiteral("ray.log"),
            QStringLiteral(
                "(pid=767) 2021-04-26 20:54:39,279\tINFO distributed_torch_runner.py:58 -- Setting up "
                "process group for: tcp://10.0.61.204:51091 [rank=0]\n"
                "(pid=764) 2021-04-26 20:54:39,279\tINFO distributed_torch_runner.py:58 -- Setting up "
                "process group for: tcp://10.0.61.204:51091 [rank=1]\n"
                "(pid=767) ray-worker-0:767:767 [0] NCCL INFO Bootstrap : Using [0]eth0:10.0.61.204<0>\n"
                "(pid=764) ray-worker-0:764:764 [1] misc/socket.cc:50 NCCL WARN socket closed\n") } }
                                                                   << 1 << "ray-worker-0" << qint64(764) << 1
                                                                   << "";
        QTest::newRow("Ray: a [rankN]: line names the pid's rank") << Files { { QStringLiteral("ray.log"),
            QStringLiteral(
                "(RayWorkerWrapper pid=2376) [rank1]:[E ProcessGroupNCCL.cpp:577] [Rank 1] Some NCCL "
                "operations have failed or timed out.\n"
                "(RayWorkerWrapper pid=2376) gpu3:2376:2376 [1] misc/socket.cc:50 NCCL WARN socket "
                "closed\n") } } << 1 << "gpu3" << qint64(2376) << 1 << "";
        // Inside a node a connection is printed once, by its sender: a process whose Init line was cut
        // from the paste is still known by "Channel 00 : 1[1] -> 0[0] via SHM/..." (vllm#9920's shape).
        QTest::newRow("intra-node Channel lines name a process without its Init line")
            << Files { { QStringLiteral("paste.log"),
                   QStringLiteral(
                       "ws1:23458:23665 [0] NCCL INFO comm 0x23 rank 0 nranks 2 cudaDev 0 nvmlDev 0 "
                       "busId 47000 commId 0x47 - Init COMPLETE\n"
                       "ws1:23541:23673 [1] NCCL INFO Channel 00 : 1[1] -> 0[0] via SHM/direct/direct\n"
                       "ws1:23541:23673 [1] NCCL INFO Channel 01/0 : 1[1] -> 0[0] via P2P/CUMEM/read\n"
                       "ws1:23541:23673 [1] misc/socket.cc:50 NCCL WARN socket closed\n") } }
            << 1 << "ws1" << qint64(23541) << 1 << "";
        // Across nodes the line says which side printed it: "[send]" the first rank, "[receive]" the second
        // (wenet#1891's shape, NCCL 2.7's bus ids in the brackets).
        QTest::newRow("network Channel lines name the writer by their direction")
            << Files { { QStringLiteral("paste.log"),
                   QStringLiteral(
                       "voicec105:90735:91654 [0] NCCL INFO Channel 00 : 3[b2000] -> 0[88000] [receive] via "
                       "NET/Socket/0\n"
                       "voicec105:90736:91655 [0] NCCL INFO Channel 00 : 1[89000] -> 2[b1000] [send] via "
                       "NET/Socket/0\n"
                       "voicec105:90736:91655 [0] include/socket.h:403 NCCL WARN Connect to 10.0.0.3<57335> "
                       "failed : Network is unreachable\n") } }
            << 1 << "voicec105" << qint64(90736) << 1 << "";
        // A process in two communicators numbers itself twice: its Channel lines then name no rank.
        QTest::newRow("Channel lines that disagree name no rank") << Files { { QStringLiteral("paste.log"),
            QStringLiteral("ws1:23458:23665 [0] NCCL INFO comm 0x23 rank 0 nranks 2 cudaDev 0 nvmlDev 0 "
                           "busId 47000 commId 0x47 - Init COMPLETE\n"
                           "ws1:23541:23673 [1] NCCL INFO Channel 00 : 1[1] -> 0[0] via SHM/direct/direct\n"
                           "ws1:23541:23690 [1] NCCL INFO Channel 00 : 3[1] -> 2[0] via SHM/direct/direct\n"
                           "ws1:23541:23673 [1] misc/socket.cc:50 NCCL WARN socket closed\n") } }
                                                                  << 0 << "ws1" << qint64(23458) << -1 << "";
    }

    void attribution()
    {
        QFETCH(Files, files);
        QFETCH(int, rank);
        QFETCH(QString, host);
        QFETCH(qint64, pid);
        QFETCH(int, warnRank);
        QFETCH(QString, warning);
        QTemporaryDir dir;
        for (auto it = files.cbegin(); it != files.cend(); ++it) {
            const QString path = dir.filePath(it.key());
            QDir().mkpath(QFileInfo(path).absolutePath());
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(it.value().toUtf8());
        }
        LoadOptions o;
        o.paths = { dir.path() };
        const LoadResult r = loadIncidents(o);
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        const Incident& inc = r.incidents.back();
        const RankInfo* info = inc.rankInfo(rank);
        QVERIFY(info);
        QCOMPARE(info->host, host);
        QCOMPARE(info->pid, pid);
        if (warnRank != -2) {
            QVERIFY(inc.firstWarn >= 0);
            QCOMPARE(inc.events[static_cast<size_t>(inc.firstWarn)].rank, warnRank);
        }
        const QString all = inc.warnings.join(QLatin1Char('\n'));
        if (warning.isEmpty())
            QVERIFY2(!all.contains(QStringLiteral("disagree")) && !all.contains(QStringLiteral("says")),
                qPrintable(all));
        else
            QVERIFY2(all.contains(warning), qPrintable(all));
    }

    // MPICH and Intel MPI name the world rank in their abort line (fds#7868): "(rank 3 in comm 0)". A rank in
    // another communicator (comm 1) is not the world rank. Open MPI names a process [[family,job],rank]
    // (horovod#310); job 0 is its daemons.
    void mpichAbortNamesTheWorldRank()
    {
        QTemporaryDir dir;
        QFile f(dir.filePath(QStringLiteral("mpi.log")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(
            "Abort(1094799) on node 0 (rank 3 in comm 0): Fatal error in PMPI_Init_thread: Other MPI error\n"
            "Abort(1) on node 1 (rank 5 in comm 1): Fatal error in PMPI_Bcast: Other MPI error\n"
            "[u10-154-66-206][[38971,1],2][btl_tcp_endpoint.c:796:mca_btl_tcp_endpoint_complete_connect] "
            "connect() "
            "to 172.17.0.1 failed: Connection refused (111)\n"
            "[node3][[38971,0],1][oob_tcp_connection.c:120] daemon connect() failed: Connection refused "
            "(111)\n");
        f.close();
        LoadOptions o;
        o.paths = { f.fileName() };
        const LoadResult r = loadIncidents(o);
        QVERIFY(!r.incidents.empty());
        const Incident& inc = r.incidents.back();
        QCOMPARE(inc.events.size(), std::size_t(4));
        QCOMPARE(inc.events[0].rank, 3);
        QCOMPARE(inc.events[1].rank, -1);
        QCOMPARE(inc.events[2].rank, 2); // Open MPI's name of rank 2 of application job 1
        QCOMPARE(inc.events[3].rank, -1); // job 0 is the daemons': 1 is a node
    }

    // One pid that wrappers on two hosts state as two ranks: the pid names neither, so a line of that pid
    // under a third spelling of the host stays unattributed rather than guessed.
    void wrapperRankAmbiguousPid()
    {
        QTemporaryDir dir;
        QFile f(dir.filePath(QStringLiteral("ray.log")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("(pid=767, ip=10.0.0.1) Setting up process group for: tcp://10.0.0.1:1 [rank=0]\n"
                "(pid=767, ip=10.0.0.2) Setting up process group for: tcp://10.0.0.1:1 [rank=3]\n"
                "(pid=767, ip=10.0.0.2) gpu-b:767:767 [0] misc/socket.cc:50 NCCL WARN socket closed\n");
        f.close();
        LoadOptions o;
        o.paths = { dir.path() };
        const LoadResult r = loadIncidents(o);
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        const Incident& inc = r.incidents.back();
        QVERIFY(inc.firstWarn >= 0);
        QCOMPARE(inc.events[static_cast<size_t>(inc.firstWarn)].rank, -1);
        QCOMPARE(rankTagIn("process group for: tcp://x:1 [rank=12]"), 12);
        QCOMPARE(rankTagIn("[rank=1] and [rank=2]"), -1);
        QCOMPARE(rankTagIn("[rank=] [rank=x]"), -1);
    }

    // A file given alone is named by its own name and its folder: the folders above it are the user's
    // ("/tmp/ci2/..." made every real case's golden say host ci2), a folder right above it may be a host's.
    void fileGivenAloneTakesNoHostFromFoldersAbove()
    {
        QTemporaryDir dir;
        const QString line = QStringLiteral("[rank0]: RuntimeError: NCCL error: unhandled system error\n");
        for (const QString& folder :
            { QStringLiteral("ci2/checkout/case-a"), QStringLiteral("ci2/node03") }) {
            QVERIFY(QDir(dir.path()).mkpath(folder));
            QFile f(dir.filePath(folder + QStringLiteral("/log.txt")));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(line.toUtf8());
            f.close();
            LoadOptions o;
            o.paths = { f.fileName() };
            const LoadResult r = loadIncidents(o);
            QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
            const Incident& inc = r.incidents.back();
            QVERIFY(inc.firstWarn >= 0);
            const QString host = inc.events[static_cast<size_t>(inc.firstWarn)].host;
            QCOMPARE(host, folder.endsWith(QLatin1String("node03")) ? QStringLiteral("node03") : QString());
        }
    }

    // FQDN spellings are kept as aliases of the short name.
    void hostAliases()
    {
        QTemporaryDir dir;
        QFile f(dir.filePath(QStringLiteral("a.log")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(init(QStringLiteral("node7.cluster.example.com:3100:3100 [2]"), 3, 4, 2).toUtf8());
        f.close();
        LoadOptions o;
        o.paths = { dir.path() };
        const Incident inc = loadIncidents(o).incidents.front();
        QCOMPARE(inc.rankInfo(3)->host, QStringLiteral("node7"));
        QCOMPARE(inc.hosts(), QStringList { QStringLiteral("node7") });
    }

    // Lines nobody can be tied to stay visible, counted per file.
    void unattributedLinesAreCounted()
    {
        QTemporaryDir dir;
        QFile f(dir.filePath(QStringLiteral("console.log")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("[default0]:[rank0]:hello\n"
                "launcher says hi\n"
                "[default1]:no global rank known for this local rank\n"
                "another launcher line\n");
        f.close();
        LoadOptions o;
        o.paths = { dir.path() };
        const Incident inc = loadIncidents(o).incidents.front();
        QCOMPARE(inc.files.front().lines, qint64(4));
        QCOMPARE(inc.files.front().unattributedLines, qint64(3));
        QCOMPARE(inc.rankInfo(0)->severityCounts[0], qint64(1));
    }

    // Per-rank summary: first and last stamped line and counts by severity.
    void perRankSummary()
    {
        QTemporaryDir dir;
        QFile f(dir.filePath(QStringLiteral("rank4.log")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("2026-03-14 02:10:00,000 - train - INFO - step 1\n"
                "unstamped line\n"
                "2026-03-14 02:11:00,000 - train - WARNING - slow\n"
                "2026-03-14 02:12:00,000 - train - ERROR - failed\n");
        f.close();
        LoadOptions o;
        o.paths = { dir.path() };
        const Incident inc = loadIncidents(o).incidents.front();
        const RankInfo* r = inc.rankInfo(4);
        QVERIFY(r && r->timesKnown);
        QCOMPARE(formatTime(r->firstTime), QStringLiteral("2026-03-14T02:10:00"));
        QCOMPARE(formatTime(r->lastTime), QStringLiteral("2026-03-14T02:12:00"));
        QCOMPARE(r->severityCounts[static_cast<size_t>(Severity::Info)], qint64(2));
        QCOMPARE(r->severityCounts[static_cast<size_t>(Severity::Warn)], qint64(1));
        QCOMPARE(r->severityCounts[static_cast<size_t>(Severity::Error)], qint64(1));
        QVERIFY(r->firstWarn >= 0);
        QCOMPARE(inc.events[static_cast<size_t>(r->firstWarn)].severity, Severity::Warn);
    }
};

QTEST_GUILESS_MAIN(TestIngestAttribution)
#include "tst_ingest_attribution.moc"
