// SPDX-License-Identifier: MIT
// Timestamp recognition on the real line templates of NCCL, c10, torch, Python logging, glog, syslog and
// dmesg.
#include "timestamp.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QTest>
#include <string_view>
#include <vector>

using namespace rankscope;

Q_DECLARE_METATYPE(rankscope::StampKind)

namespace {

std::string_view view(const QByteArray& b)
{
    return { b.constData(), static_cast<std::size_t>(b.size()) };
}

// The oracle for expected instants is QDateTime, independent of the code under test.
qint64 utcMs(const QString& iso)
{
    QDateTime t = QDateTime::fromString(iso, Qt::ISODateWithMs);
    t.setTimeSpec(Qt::UTC);
    return t.toMSecsSinceEpoch();
}

} // namespace

class TestTimestamp : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void recognises_data();
    void recognises();
    void rejects_data();
    void rejects();
    void invalidFields_data();
    void invalidFields();
    void dmesgUptime();
    void throughput();
};

void TestTimestamp::recognises_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<StampKind>("kind");
    QTest::addColumn<int>("offset");
    QTest::addColumn<int>("length");
    QTest::addColumn<QList<int>>("ymdhms");
    QTest::addColumn<int>("nanos");
    QTest::addColumn<bool>("ordered");
    QTest::addColumn<QString>("severity");
    QTest::addColumn<int>("zone");
    QTest::addColumn<QString>("utc"); // expected stampToMs with defaultYear 2026; empty: nullopt

    QTest::newRow("iso-T") << QByteArray("2026-03-14T02:17:44 job started") << StampKind::Iso8601 << 0 << 19
                           << QList<int> { 2026, 3, 14, 2, 17, 44 } << 0 << true << QString() << 0
                           << QStringLiteral("2026-03-14T02:17:44.000");
    QTest::newRow("iso-Z-micros") << QByteArray("2026-03-14T02:17:44.123456Z rank 3 ready")
                                  << StampKind::Iso8601 << 0 << 27 << QList<int> { 2026, 3, 14, 2, 17, 44 }
                                  << 123456000 << true << QString() << 0
                                  << QStringLiteral("2026-03-14T02:17:44.123");
    QTest::newRow("iso-offset") << QByteArray("2026-03-14T02:17:44+02:00 node up") << StampKind::Iso8601 << 0
                                << 25 << QList<int> { 2026, 3, 14, 2, 17, 44 } << 0 << true << QString()
                                << 7200 << QStringLiteral("2026-03-14T00:17:44.000");
    QTest::newRow("iso-negative-offset")
        << QByteArray("2026-03-14T22:17:44.5-0500 x") << StampKind::Iso8601 << 0 << 26
        << QList<int> { 2026, 3, 14, 22, 17, 44 } << 500000000 << true << QString() << -18000
        << QStringLiteral("2026-03-15T03:17:44.500");
    QTest::newRow("iso-space-ms") << QByteArray("2026-03-14 02:17:44.123 checkpoint saved")
                                  << StampKind::Iso8601 << 0 << 23 << QList<int> { 2026, 3, 14, 2, 17, 44 }
                                  << 123000000 << true << QString() << 0
                                  << QStringLiteral("2026-03-14T02:17:44.123");
    QTest::newRow("deepspeed") << QByteArray(
        "[2025-12-18 20:27:22,783] [INFO] [launch.py:319:sigkill_handler] Killing subprocess 3490362")
                               << StampKind::Iso8601 << 0 << 25 << QList<int> { 2025, 12, 18, 20, 27, 22 }
                               << 783000000 << true << QString() << 0
                               << QStringLiteral("2025-12-18T20:27:22.783");
    QTest::newRow("python-logging") << QByteArray("2026-03-14 02:17:44,123 - train - ERROR - loss is nan")
                                    << StampKind::PythonLogging << 0 << 23
                                    << QList<int> { 2026, 3, 14, 2, 17, 44 } << 123000000 << true << QString()
                                    << 0 << QStringLiteral("2026-03-14T02:17:44.123");
    QTest::newRow("nccl-warn") << QByteArray(
        "[2026-03-14 02:17:44] gpu-a02:52117:52203 [3] transport/net_ib.cc:2458 "
        "NCCL WARN NET/IB: Got completion from peer 10.10.0.11<45819>")
                               << StampKind::NcclBracket << 0 << 21 << QList<int> { 2026, 3, 14, 2, 17, 44 }
                               << 0 << true << QString() << 0 << QStringLiteral("2026-03-14T02:17:44.000");
    QTest::newRow("nccl-6f") << QByteArray(
        "[2026-03-14 02:17:44.123456] gpu-a02:52117:52203 [3] proxy.cc:934 "
        "NCCL WARN x") << StampKind::NcclBracket
                             << 0 << 28 << QList<int> { 2026, 3, 14, 2, 17, 44 } << 123456000 << true
                             << QString() << 0 << QStringLiteral("2026-03-14T02:17:44.123");
    QTest::newRow("glog") << QByteArray("E0314 02:17:44.123456 12345 file.cc:12] msg") << StampKind::Glog << 0
                          << 21 << QList<int> { 0, 3, 14, 2, 17, 44 } << 123456000 << true
                          << QStringLiteral("E") << 0 << QStringLiteral("2026-03-14T02:17:44.123");
    QTest::newRow("c10-march") << QByteArray(
        "[E314 02:17:44.791203518 ProcessGroupNCCL.cpp:593] [Rank 7] Collective "
        "WorkNCCL(SeqNum=4812, OpType=ALLREDUCE)")
                               << StampKind::Glog << 0 << 24 << QList<int> { 0, 3, 14, 2, 17, 44 }
                               << 791203518 << false << QStringLiteral("E") << 0
                               << QStringLiteral("2026-03-14T02:17:44.000");
    QTest::newRow("c10-december") << QByteArray(
        "[E1218 20:27:21.426415540 ProcessGroupNCCL.cpp:629] [Rank 1] "
        "Watchdog caught collective operation timeout")
                                  << StampKind::Glog << 0 << 25 << QList<int> { 0, 12, 18, 20, 27, 21 }
                                  << 426415540 << false << QStringLiteral("E") << 0
                                  << QStringLiteral("2026-12-18T20:27:21.000");
    QTest::newRow("c10-july-warning")
        << QByteArray("[W709 08:01:02.000000001 ProcessGroupNCCL.cpp:1234] warn") << StampKind::Glog << 0
        << 24 << QList<int> { 0, 7, 9, 8, 1, 2 } << 1 << false << QStringLiteral("W") << 0
        << QStringLiteral("2026-07-09T08:01:02.000");
    QTest::newRow("torch-run") << QByteArray("W0314 02:05:11.207000 52090 torch/distributed/run.py:766] ")
                               << StampKind::TorchLogs << 0 << 21 << QList<int> { 0, 3, 14, 2, 5, 11 }
                               << 207000000 << true << QStringLiteral("W") << 0
                               << QStringLiteral("2026-03-14T02:05:11.207");
    QTest::newRow("torch-agent-failed")
        << QByteArray(
               "E0813 08:21:22.980000 1245483 torch/distributed/elastic/multiprocessing/api.py:984] failed "
               "(exitcode: -6) local_rank: 6 (pid: 1246013) of binary: /path/python3")
        << StampKind::TorchLogs << 0 << 21 << QList<int> { 0, 8, 13, 8, 21, 22 } << 980000000 << true
        << QStringLiteral("E") << 0 << QStringLiteral("2026-08-13T08:21:22.980");
    QTest::newRow("syslog") << QByteArray("Mar 14 02:17:44 gpu-a02 kernel: NVRM: Xid (PCI:0000:99:00): 79")
                            << StampKind::Syslog << 0 << 15 << QList<int> { 0, 3, 14, 2, 17, 44 } << 0 << true
                            << QString() << 0 << QStringLiteral("2026-03-14T02:17:44.000");
    QTest::newRow("syslog-padded-day")
        << QByteArray("Mar  4 02:17:44 gpu-a02 kernel: mlx5_core port down") << StampKind::Syslog << 0 << 15
        << QList<int> { 0, 3, 4, 2, 17, 44 } << 0 << true << QString() << 0
        << QStringLiteral("2026-03-04T02:17:44.000");
    QTest::newRow("dmesg") << QByteArray("[12345.678901] NVRM: Xid (PCI:0000:99:00): 79, pid=52117")
                           << StampKind::Dmesg << 0 << 14 << QList<int> { 0, 0, 0, 0, 0, 0 } << 678901000
                           << true << QString() << 0 << QString();
    QTest::newRow("dmesg-spaces") << QByteArray("[  123.456] mlx5_core 0000:1a:00.0: Port module event")
                                  << StampKind::Dmesg << 0 << 11 << QList<int> { 0, 0, 0, 0, 0, 0 }
                                  << 456000000 << true << QString() << 0 << QString();
    QTest::newRow("epoch-fraction") << QByteArray("1773454664.123 rank 3 heartbeat") << StampKind::Epoch << 0
                                    << 14 << QList<int> { 0, 0, 0, 0, 0, 0 } << 123000000 << true << QString()
                                    << 0 << QStringLiteral("2026-03-14T02:17:44.123");
    QTest::newRow("epoch-seconds") << QByteArray("1773454664 rank 3 heartbeat") << StampKind::Epoch << 0 << 10
                                   << QList<int> { 0, 0, 0, 0, 0, 0 } << 0 << true << QString() << 0
                                   << QStringLiteral("2026-03-14T02:17:44.000");
    QTest::newRow("old-torch") << QByteArray(
        "[2024-01-25 04:10:31,303] torch.distributed.elastic.multiprocessing.api: "
        "[ERROR] failed (exitcode: 1) local_rank: 0 (pid: 1234)")
                               << StampKind::Iso8601 << 0 << 25 << QList<int> { 2024, 1, 25, 4, 10, 31 }
                               << 303000000 << true << QString() << 0
                               << QStringLiteral("2024-01-25T04:10:31.303");
    QTest::newRow("nemo") << QByteArray(
        "[NeMo I 2024-07-31 19:59:50 utils:47] Rank 0 has data parallel rank 0")
                          << StampKind::Iso8601 << 8 << 19 << QList<int> { 2024, 7, 31, 19, 59, 50 } << 0
                          << true << QStringLiteral("I") << 0 << QStringLiteral("2024-07-31T19:59:50.000");
    // Ray's C++ header carries the level letter, the pid and the thread id inside the brackets.
    QTest::newRow("ray") << QByteArray(
        "[2024-06-10 12:00:00,123 E 135782 135782] (raylet) node_manager.cc:3069: x")
                         << StampKind::Iso8601 << 0 << 41 << QList<int> { 2024, 6, 10, 12, 0, 0 } << 123000000
                         << true << QStringLiteral("E") << 0 << QStringLiteral("2024-06-10T12:00:00.123");
    // SGLang: the writer's parallel ranks inside the brackets.
    QTest::newRow("sglang") << QByteArray("[2025-01-12 10:11:12 DP1 TP3] Scheduler hit an exception:")
                            << StampKind::NcclBracket << 0 << 29 << QList<int> { 2025, 1, 12, 10, 11, 12 }
                            << 0 << true << QString() << 0 << QStringLiteral("2025-01-12T10:11:12.000");
    // Hugging Face's example scripts: month first, slashes.
    QTest::newRow("hf-us-date") << QByteArray("01/12/2024 10:11:12 - ERROR - __main__ - failed")
                                << StampKind::Iso8601 << 0 << 19 << QList<int> { 2024, 1, 12, 10, 11, 12 }
                                << 0 << true << QString() << 0 << QStringLiteral("2024-01-12T10:11:12.000");
    // oneCCL's logger: colons in the date, a dash before the clock, the thread after it.
    QTest::newRow("oneccl") << QByteArray("2024:08:21-10:24:26:( 4456) |CCL_ERROR| atl_ofi.cpp:243 init: x")
                            << StampKind::Iso8601 << 0 << 19 << QList<int> { 2024, 8, 21, 10, 24, 26 } << 0
                            << true << QString() << 0 << QStringLiteral("2024-08-21T10:24:26.000");
    // vLLM's formatter: the level word, a date without a year, the clock, then the source (two forms).
    QTest::newRow("vllm") << QByteArray("ERROR 02-12 02:14:01 worker_base.py:574]     backend_class = x(")
                          << StampKind::LevelWordHeader << 0 << 20 << QList<int> { 0, 2, 12, 2, 14, 1 } << 0
                          << true << QStringLiteral("E") << 0 << QStringLiteral("2026-02-12T02:14:01.000");
    QTest::newRow("vllm-0.8") << QByteArray("WARNING 04-06 20:46:48 [multiproc_worker_utils.py:238] Reducing")
                              << StampKind::LevelWordHeader << 0 << 22 << QList<int> { 0, 4, 6, 20, 46, 48 }
                              << 0 << true << QStringLiteral("W") << 0
                              << QStringLiteral("2026-04-06T20:46:48.000");
    // Huawei CANN's plog header (HCCL, the runtime) and torch_npu's: a level word, the writer, a clock
    // with a dash between date and time and the fraction as milliseconds.microseconds.
    QTest::newRow("cann-plog") << QByteArray(
        "[ERROR] HCCL(23457,all_reduce_test):2023-10-16-08:41:56.291.748 "
        "[comm_base.cc:967][23468]   |  comm error, device[0] num[1]")
                               << StampKind::Cann << 0 << 63 << QList<int> { 2023, 10, 16, 8, 41, 56 }
                               << 291748000 << true << QStringLiteral("E") << 0
                               << QStringLiteral("2023-10-16T08:41:56.291");
    QTest::newRow("torch-npu") << QByteArray("[ERROR] 2024-05-21-11:57:54 (PID:927000, Device:3, RankID:3) "
                                             "ERR02200 DIST call hccl api failed.")
                               << StampKind::Cann << 0 << 27 << QList<int> { 2024, 5, 21, 11, 57, 54 } << 0
                               << true << QStringLiteral("E") << 0
                               << QStringLiteral("2024-05-21T11:57:54.000");
    // torchelastic's old format: a bracketed level word, then Python logging's clock.
    QTest::newRow("level-then-clock")
        << QByteArray("[ERROR] 2021-09-14 14:02:56,862 local_elastic_agent: [default] "
                      "Worker group failed")
        << StampKind::Iso8601 << 0 << 31 << QList<int> { 2021, 9, 14, 14, 2, 56 } << 862000000 << true
        << QStringLiteral("E") << 0 << QStringLiteral("2021-09-14T14:02:56.862");
    // TensorFlow's and XLA's (TSL's) header: the clock, then the glog letter and source.
    QTest::newRow("tsl") << QByteArray(
        "2019-07-07 06:48:49.161736: E tensorflow/core/common_runtime/ring_alg.cc:279] "
        "Aborting RingReduce with Out of range: [_Derived_]End of sequence")
                         << StampKind::Glog << 0 << 29 << QList<int> { 2019, 7, 7, 6, 48, 49 } << 161736000
                         << true << QStringLiteral("E") << 0 << QStringLiteral("2019-07-07T06:48:49.161");
    // Abseil's logger before InitGoogle(): no broken-down time, the epoch seconds in its place (libtpu).
    QTest::newRow("absl-epoch") << QByteArray("E0000 00:00:1725383433.302361    2870 common_lib.cc:818] "
                                              "Could not set metric server port: INVALID_ARGUMENT")
                                << StampKind::Glog << 0 << 29 << QList<int> { 2024, 9, 3, 17, 10, 33 }
                                << 302361000 << true << QStringLiteral("E") << 0
                                << QStringLiteral("2024-09-03T17:10:33.302");
    QTest::newRow("cann-event") << QByteArray(
        "[EVENT] HCCP(23457,all_reduce_test):2023-10-16-08:39:56.291.195 "
        "[ra_host.c:1672]tid:23468,ra_socket_white_list_add(1672) : x")
                                << StampKind::Cann << 0 << 63 << QList<int> { 2023, 10, 16, 8, 39, 56 }
                                << 291195000 << true << QStringLiteral("I") << 0
                                << QStringLiteral("2023-10-16T08:39:56.291");
}

void TestTimestamp::recognises()
{
    QFETCH(QByteArray, line);
    QFETCH(StampKind, kind);
    QFETCH(int, offset);
    QFETCH(int, length);
    QFETCH(QList<int>, ymdhms);
    QFETCH(int, nanos);
    QFETCH(bool, ordered);
    QFETCH(QString, severity);
    QFETCH(int, zone);
    QFETCH(QString, utc);

    const ParsedStamp s = findTimestamp(view(line));
    QVERIFY(s.found());
    QCOMPARE(s.kind, kind);
    QCOMPARE(s.offset, offset);
    QCOMPARE(s.length, length);
    QCOMPARE(QList<int>({ s.year, s.month, s.day, s.hour, s.minute, s.second }), ymdhms);
    QCOMPARE(s.nanos, nanos);
    QCOMPARE(s.subsecondOrdered, ordered);
    QCOMPARE(s.severity, severity.isEmpty() ? '\0' : severity.at(0).toLatin1());
    QCOMPARE(s.zoneOffsetSeconds, zone);
    QCOMPARE(s.hasZone, zone != 0 || line.contains("Z "));

    const std::optional<qint64> ms = stampToMs(s, 2026);
    if (utc.isEmpty()) {
        QVERIFY(!ms.has_value());
    } else {
        QVERIFY(ms.has_value());
        QCOMPARE(*ms, utcMs(utc));
    }
}

void TestTimestamp::rejects_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::newRow("srun-label") << QByteArray("12: some srun label");
    // Abseil's zero date needs the epoch's ten digits and a fraction.
    QTest::newRow("absl-epoch-short") << QByteArray("E0000 00:00:17253834.302361 1 f.cc:1] x");
    QTest::newRow("absl-epoch-no-fraction") << QByteArray("E0000 00:00:1725383433 1 f.cc:1] x");
    QTest::newRow("mpi-prefix") << QByteArray("[0] mpi prefix");
    QTest::newRow("rank-prefix") << QByteArray(
        "[rank7]:[E314 02:17:44.791203518 ProcessGroupNCCL.cpp:593] x");
    QTest::newRow("torchrun-tee-prefix")
        << QByteArray("[default3]:[rank7]:[E314 02:17:44.791203518 x.cpp:1] x");
    QTest::newRow("nccl-info") << QByteArray("gpu-a02:52117:52117 [3] NCCL INFO Using network IB");
    QTest::newRow("E314-word") << QByteArray("E314 is not a stamp");
    QTest::newRow("E0314-no-time") << QByteArray("E0314 is not a stamp either");
    QTest::newRow("bare-number") << QByteArray("1234 apples");
    QTest::newRow("bracketed-int") << QByteArray("[12345] no dot");
    QTest::newRow("epoch-too-late") << QByteArray("9999999999 far future");
    QTest::newRow("epoch-too-early") << QByteArray("0978307199 before 2001");
    QTest::newRow("epoch-glued") << QByteArray("1773454664abc");
    QTest::newRow("level-then-words") << QByteArray("[INFO] 2021 was a good year, 14:02:56");
    QTest::newRow("level-word-prose") << QByteArray("[ERROR] HCCL(23457,x) said something at 2023-10-16");
    QTest::newRow("cann-clock-glued") << QByteArray("[ERROR] 2024-05-21-11:57:549 (PID:1) x");
    QTest::newRow("unknown-level") << QByteArray(
        "[OOPS] HCCL(1,x):2023-10-16-08:41:56.291.748 [a.cc:1][2] x");
    QTest::newRow("eleven-digits") << QByteArray("17734546641 x");
    QTest::newRow("date-only") << QByteArray("2026-03-14 nothing else");
    QTest::newRow("iso-glued") << QByteArray("2026-03-14T02:17:44x1");
    QTest::newRow("bracket-word") << QByteArray("[INFO] starting");
    QTest::newRow("month-word") << QByteArray("March 14 was a Saturday");
    QTest::newRow("traceback") << QByteArray("Traceback (most recent call last):");
    QTest::newRow("empty") << QByteArray();
    QTest::newRow("bracket-not-a-tag") << QByteArray("[2025-01-12 10:11:12 TPX] x");
    QTest::newRow("colon-date-no-thread") << QByteArray("2024:08:21-10:24:26 no thread after it");
    QTest::newRow("slash-date-no-time") << QByteArray("01/12/2024 was a Friday");
    QTest::newRow("level-word-no-source") << QByteArray("ERROR 02-12 02:14:01 the source is missing");
    QTest::newRow("level-word-colon") << QByteArray("ERROR: 02-12 02:14:01 worker.py:5] x");
    QTest::newRow("unclosed-nccl") << QByteArray("[2026-03-14 02:17:44 gpu-a02:1:1 [0] NCCL WARN x");
}

void TestTimestamp::rejects()
{
    QFETCH(QByteArray, line);
    const ParsedStamp s = findTimestamp(view(line));
    QVERIFY2(!s.found(), line.constData());
    QVERIFY(!stampToMs(s, 2026).has_value());
}

void TestTimestamp::invalidFields_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<int>("defaultYear");
    QTest::addColumn<QString>("utc"); // empty: invalid fields, nullopt
    QTest::newRow("month-13") << QByteArray("2026-13-14T02:17:44 x") << 2026 << QString();
    QTest::newRow("feb-30") << QByteArray("2026-02-30 10:00:00,000 - x - INFO - y") << 2026 << QString();
    QTest::newRow("feb-29-leap") << QByteArray("2024-02-29T23:59:59Z x") << 2026
                                 << QStringLiteral("2024-02-29T23:59:59.000");
    QTest::newRow("feb-29-no-leap") << QByteArray("2025-02-29T00:00:00 x") << 2026 << QString();
    QTest::newRow("hour-24") << QByteArray("2026-03-14T24:00:00 x") << 2026 << QString();
    QTest::newRow("minute-60") << QByteArray("[2026-03-14 02:60:00] x") << 2026 << QString();
    QTest::newRow("glog-month-0") << QByteArray("E0014 02:17:44.123456 1 a.cc:1] x") << 2026 << QString();
    QTest::newRow("syslog-feb-29-default-leap")
        << QByteArray("Feb 29 01:02:03 h k: x") << 2024 << QStringLiteral("2024-02-29T01:02:03.000");
    QTest::newRow("syslog-feb-29-default-plain") << QByteArray("Feb 29 01:02:03 h k: x") << 2026 << QString();
    QTest::newRow("c10-day-0") << QByteArray("[E300 02:17:44.791203518 a.cpp:1] x") << 2026 << QString();
    QTest::newRow("zone-crosses-year")
        << QByteArray("2027-01-01T00:30:00+01:00 x") << 2026 << QStringLiteral("2026-12-31T23:30:00.000");
}

void TestTimestamp::invalidFields()
{
    QFETCH(QByteArray, line);
    QFETCH(int, defaultYear);
    QFETCH(QString, utc);
    const ParsedStamp s = findTimestamp(view(line));
    QVERIFY(s.found());
    const std::optional<qint64> ms = rankscope::stampToMs(s, defaultYear);
    if (utc.isEmpty()) {
        QVERIFY(!ms.has_value());
    } else {
        QVERIFY(ms.has_value());
        QCOMPARE(*ms, utcMs(utc));
    }
}

void TestTimestamp::dmesgUptime()
{
    const ParsedStamp s = findTimestamp("[12345.678901] NVRM: Xid (PCI:0000:99:00): 79");
    QCOMPARE(s.kind, StampKind::Dmesg);
    QCOMPARE(s.uptimeSeconds, 12345.678901);
    const ParsedStamp small = findTimestamp("[    0.000000] Linux version 6.1.0");
    QCOMPARE(small.kind, StampKind::Dmesg);
    QCOMPARE(small.uptimeSeconds, 0.0);
}

// 1M lines in the mix of a real incident folder: mostly unstamped NCCL INFO, some c10, torch and WARN lines.
void TestTimestamp::throughput()
{
    const std::vector<QByteArray> templates = {
        "gpu-a02:52117:52117 [3] NCCL INFO Channel 00/0 : 7[3] -> 6[2] via P2P/CUMEM",
        "gpu-a02:52117:52117 [3] NCCL INFO AllReduce: opCount 12a4 sendbuff 0x7f3a40000000 recvbuff "
        "0x7f3a40000000 count 26214400 datatype 7 op 0 root 0 comm 0x5612a4c3f9e0 [nranks=8] stream "
        "0x5612a5d0e4a0",
        "[rank3]:I0314 02:05:13.143000 52117 train.py:212] step 1234 | loss 2.3188 | 1.93 s/it",
        "[E314 02:17:44.791203518 ProcessGroupNCCL.cpp:593] [Rank 7] Collective WorkNCCL(SeqNum=4812)",
        "W0314 02:05:11.207000 52090 torch/distributed/run.py:766] *****************************************",
        "[2026-03-14 02:17:44] gpu-a02:52117:52203 [3] transport/net_ib.cc:2458 NCCL WARN NET/IB: Got "
        "completion",
        "2026-03-14 02:17:44,123 - train - INFO - epoch 3 done",
        "frame #1: c10d::ProcessGroupNCCL::checkForNCCLErrorsInternal + 0x2a1 (0x7f3a0c2e41d1 in "
        "libtorch_cuda.so)",
    };
    const int stampedPerCycle = 5; // templates 2..6 carry a stamp (template 2 only after its [rank3]: prefix)
    constexpr int kLines = 1000000;
    QByteArray buffer;
    std::vector<std::pair<int, int>> lines;
    lines.reserve(kLines);
    for (int i = 0; i < kLines; ++i) {
        const QByteArray& t = templates[static_cast<std::size_t>(i) % templates.size()];
        lines.emplace_back(static_cast<int>(buffer.size()), static_cast<int>(t.size()));
        buffer += t;
    }
    const std::string_view all = view(buffer);

    int found = 0;
    QElapsedTimer timer;
    timer.start();
    for (const auto& [off, len] : lines)
        found +=
            findTimestamp(all.substr(static_cast<std::size_t>(off), static_cast<std::size_t>(len))).found();
    const qint64 ns = timer.nsecsElapsed();
    // Template 2 starts with "[rank3]:", which is not a stamp by itself: the engine strips it first.
    const int cycles = kLines / static_cast<int>(templates.size());
    QCOMPARE(found, cycles * (stampedPerCycle - 1));
    qInfo("findTimestamp: %d lines, %.1f MB in %.1f ms = %.0f MB/s", kLines,
        static_cast<double>(buffer.size()) / 1e6, static_cast<double>(ns) / 1e6,
        static_cast<double>(buffer.size()) * 1e3 / static_cast<double>(ns));

    QBENCHMARK
    {
        int n = 0;
        for (const auto& [off, len] : lines)
            n += findTimestamp(all.substr(static_cast<std::size_t>(off), static_cast<std::size_t>(len)))
                     .found();
        QCOMPARE(n, found);
    }
}

QTEST_GUILESS_MAIN(TestTimestamp)
#include "tst_timestamp.moc"
