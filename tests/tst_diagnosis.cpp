// SPDX-License-Identifier: MIT
// Golden diagnoses: the shared sample job and fixtures written from real message templates, with the
// traps that make "read the last error" wrong.
#include "analysis.h"
#include "diagnosis_parts.h"
#include "report.h"
#include "report_input.h"

#include <QtTest>

using namespace rankscope;

namespace {

Analysis run(const QStringList& paths, const QString& pasted = {})
{
    AnalysisRequest r;
    for (const QString& p : paths)
        r.logPaths << QStringLiteral(RANKSCOPE_TEST_DATA "/") + p;
    r.pastedText = pasted;
    return analyze(r);
}

const LogEvent& initiating(const AttemptAnalysis& a)
{
    return a.incident.events[static_cast<size_t>(a.diagnosis.initiatingEvent)];
}

QString sigId(const Analysis& an, int sig)
{
    return sig >= 0 ? an.catalog.catalog.signatures[static_cast<size_t>(sig)].id : QString();
}

// The argument of "rg -n -F -- ARG FOLDER" as the shell would pass it (renderCommand quotes with '...').
QString grepArgument(const QString& command)
{
    const QString lead = QStringLiteral("rg -n -F -- ");
    if (!command.startsWith(lead))
        return {};
    QString out;
    bool quoted = false;
    for (qsizetype i = lead.size(); i < command.size(); ++i) {
        const QChar c = command[i];
        if (c == u'\'')
            quoted = !quoted;
        else if (c == u'\\' && !quoted && i + 1 < command.size())
            out += command[++i];
        else if (c == u' ' && !quoted)
            break;
        else
            out += c;
    }
    return out;
}

} // namespace

class TestDiagnosis : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void sampleJob()
    {
        const Analysis an = run({ QStringLiteral("sample-job") });
        const AttemptAnalysis* a = an.currentAttempt();
        QVERIFY(a);
        const Diagnosis& d = a->diagnosis;
        QVERIFY(d.failureFound);
        QCOMPARE(initiating(*a).rank, 7);
        QCOMPARE(initiating(*a).line, qint64(32));
        QCOMPARE(sigId(an, d.signature), QStringLiteral("nccl-ib-completion-retry-exceeded"));
        QCOMPARE(d.confidence, QStringLiteral("high"));
        QVERIFY2(
            d.headline.contains(QLatin1String("Rank 7")) && d.headline.contains(QLatin1String("gpu-a02")),
            qPrintable(d.headline));

        // The four node-0 ranks timed out ten minutes later: collateral, grouped, with the SeqNum.
        bool watchdog = false;
        for (const CollateralGroup& g : d.collateral) {
            if (sigId(an, g.signature) == QLatin1String("pytorch-watchdog-timeout")) {
                watchdog = true;
                QCOMPARE(g.ranks, QStringLiteral("0-3"));
                QCOMPARE(g.rankCount, 4);
                QVERIFY(g.label.contains(QLatin1String("SeqNum 4812")));
            }
        }
        QVERIFY(watchdog);

        // torchrun on node 0 names rank 0: the disagreement is shown with the reason.
        bool disagreement = false;
        for (const TorchrunNote& n : d.torchrun)
            disagreement = disagreement || (n.rank == 0 && n.text.contains(QLatin1String("whole seconds")));
        QVERIFY(disagreement);

        // Fix and verification are filled with the incident's own values; nothing is left unfilled.
        QVERIFY(!d.verify.isEmpty());
        const QString all =
            d.fix + d.verify.join(QLatin1Char('\n')) + d.evidenceCommands.join(QLatin1Char('\n'));
        QVERIFY2(
            all.contains(QLatin1String("gpu-a02")) || all.contains(QLatin1String("mlx5_0")), qPrintable(all));
        QVERIFY2(!all.contains(QLatin1String("<log_folder>")) && !all.contains(QLatin1String("{")),
            qPrintable(all));
        QVERIFY(d.verify.join(QLatin1Char('\n')).contains(QLatin1String(RANKSCOPE_TEST_DATA "/sample-job")));

        // Evidence: the lines before the first occurrence, ending with it.
        QCOMPARE(d.evidence.toLine, qint64(32));
        QCOMPARE(d.evidence.fromLine, qint64(1));
        QCOMPARE(d.evidence.lines.size(), 32);
        QCOMPARE(d.evidence.lines.last(), initiating(*a).text);
        // The peer named by the WARN is node 0.
        QVERIFY(detail::peerDescription(a->incident, QStringLiteral("10.10.0.11"))
                    .contains(QLatin1String("gpu-a01")));
    }

    void benignWarnBeforeTheRealOne()
    {
        const Analysis an = run({ QStringLiteral("diagnosis/benign-warn-first") });
        const AttemptAnalysis* a = an.currentAttempt();
        QVERIFY(a);
        QCOMPARE(a->incident.events[static_cast<size_t>(a->incident.firstWarn)].rank,
            0); // the loud advisory is first
        QCOMPARE(initiating(*a).rank, 2); // but the cause is rank 2's
        QCOMPARE(sigId(an, a->diagnosis.signature), QStringLiteral("nccl-shm-too-small"));
        QVERIFY(a->diagnosis.fix.contains(QLatin1String("/dev/shm"))
            || a->diagnosis.verify.join(QLatin1Char(' ')).contains(QLatin1String("/dev/shm")));
        bool victims = false;
        for (const CollateralGroup& g : a->diagnosis.collateral)
            victims = victims
                || (sigId(an, g.signature) == QLatin1String("pytorch-watchdog-timeout")
                    && g.ranks == QLatin1String("0-1,3"));
        QVERIFY(victims);
    }

    // NCCL's bare "internal error" after libibverbs found a device without its provider library
    // (nccl-tests#41): the refinement names the missing library; without the warning, the general entry.
    void internalErrorAfterAMissingIbProvider()
    {
        const QString failure =
            QStringLiteral("ip-0AB85F07: Test NCCL failure common.cu:775 'internal error'\n");
        const Analysis with = run({},
            QStringLiteral("libibverbs: Warning: no userspace device-specific driver found for "
                           "/sys/class/infiniband_verbs/uverbs0\n")
                + failure);
        QVERIFY(with.currentAttempt());
        QCOMPARE(sigId(with, with.currentAttempt()->diagnosis.signature),
            QStringLiteral("nccl-tests-internal-error-no-ibverbs-provider"));
        QVERIFY(with.currentAttempt()->diagnosis.fix.contains(QLatin1String("libmlx5")));
        const Analysis without = run({}, failure);
        QVERIFY(without.currentAttempt());
        QCOMPARE(sigId(without, without.currentAttempt()->diagnosis.signature),
            QStringLiteral("nccl-tests-internal-error"));
    }

    // A refinement keyed on a variable the run had: the ring error under NCCL_HOSTID (nccl#879) is the host
    // ids colliding; without the variable, the general entry.
    void refinementByTheRunsEnvironment()
    {
        const QString ring = QStringLiteral(
            "pod-0:22789:28201 [0] graph/rings.cc:38 NCCL WARN Error : ring 0 does not loop back to start "
            "(0 != 1)\n");
        const Analysis with = run({},
            QStringLiteral("pod-0:22789:22789 [0] NCCL INFO NCCL_HOSTID set by environment to shared-id\n")
                + ring);
        QVERIFY(with.currentAttempt());
        QCOMPARE(sigId(with, with.currentAttempt()->diagnosis.signature),
            QStringLiteral("nccl-ring-not-loop-back-hostid"));
        const Analysis without = run({}, ring);
        QVERIFY(without.currentAttempt());
        QCOMPARE(sigId(without, without.currentAttempt()->diagnosis.signature),
            QStringLiteral("nccl-ring-not-loop-back"));
    }

    void hangWithNoErrorLine()
    {
        const Analysis an = run({ QStringLiteral("diagnosis/hang-silent-rank") });
        const AttemptAnalysis* a = an.currentAttempt();
        QVERIFY(a);
        const Diagnosis& d = a->diagnosis;
        QVERIFY(d.failureFound);
        QCOMPARE(d.confidence, QStringLiteral("low")); // only symptoms reached the logs
        bool rank2 = false;
        for (const Suspect& s : d.suspects) {
            QVERIFY2(s.rank == 2, qPrintable(s.reason));
            rank2 = rank2 || s.reason.contains(QLatin1String("SeqNum 500"));
        }
        QVERIFY(rank2);
    }

    // Two ranks time out at the same SeqNum in different collectives (nccl#1409: an RNG-state BROADCAST on
    // rank 7, an ALLREDUCE on rank 3): the ranks desynchronised, which the variant says. The same collective
    // on both is the plain timeout.
    void watchdogAtOneSeqNumInTwoCollectives()
    {
        const auto line = [](int rank, const char* op, int numel) {
            return QStringLiteral(
                "[rank%1]:[E816 01:45:40.183009389 ProcessGroupNCCL.cpp:607] [Rank %1] Watchdog "
                "caught collective operation timeout: WorkNCCL(SeqNum=80078, OpType=%2, "
                "NumelIn=%3, NumelOut=%3, Timeout(ms)=600000) ran for 600026 milliseconds "
                "before timing out.\n")
                .arg(rank)
                .arg(QLatin1String(op))
                .arg(numel);
        };
        const Analysis desync = run({}, line(7, "BROADCAST", 5056) + line(3, "ALLREDUCE", 2106881));
        QVERIFY(desync.currentAttempt());
        QCOMPARE(sigId(desync, desync.currentAttempt()->diagnosis.signature),
            QStringLiteral("pytorch-watchdog-collective-mismatch"));
        // A pipeline's send and its receive share a SeqNum: no mismatch.
        const Analysis pipeline = run({}, line(7, "SEND", 4096) + line(3, "RECV", 4096));
        QVERIFY(pipeline.currentAttempt());
        QCOMPARE(sigId(pipeline, pipeline.currentAttempt()->diagnosis.signature),
            QStringLiteral("pytorch-watchdog-timeout"));
        const Analysis same = run({}, line(7, "ALLREDUCE", 2106881) + line(3, "ALLREDUCE", 2106881));
        QVERIFY(same.currentAttempt());
        QCOMPARE(sigId(same, same.currentAttempt()->diagnosis.signature),
            QStringLiteral("pytorch-watchdog-timeout"));
    }

    // An NCCL WARN in a wording no entry knows gets the advice for the part of NCCL that printed it (the
    // file in the line), said so; a line an entry knows keeps that entry.
    void unknownNcclWarnGetsItsSubsystemsAdvice()
    {
        const Analysis unknown = run({},
            QStringLiteral(
                "node1:12:40 [0] transport/net_ib.cc:1077 NCCL WARN NET/IB : qp 3 got an unexpected "
                "state transition\n"));
        const AttemptAnalysis* a = unknown.currentAttempt();
        QVERIFY(a && a->diagnosis.failureFound);
        QCOMPARE(sigId(unknown, a->diagnosis.signature), QStringLiteral("nccl-hint-net-ib"));
        QVERIFY(a->diagnosis.confidenceReasons.join(QLatin1Char(' '))
                    .contains(QLatin1String("no entry knows this wording")));
        QVERIFY(a->diagnosis.fix.contains(QLatin1String("NCCL_IB_DISABLE=1")));
        const Analysis known = run({},
            QStringLiteral(
                "node1:12:40 [0] transport/net_ib.cc:1077 NCCL WARN NET/IB : Got completion from peer "
                "10.0.0.2<4000> with error 12, opcode 0, len 0, vendor err 129\n"));
        QVERIFY(known.currentAttempt());
        QCOMPARE(sigId(known, known.currentAttempt()->diagnosis.signature),
            QStringLiteral("nccl-ib-completion-retry-exceeded"));
    }

    // torchrun's start-up notice and nothing after it (Qwen-VL#204: two nodes that never met): a hang before
    // NCCL's setup, at the rendezvous. Its "WARNING:torch.distributed.run:" header blames nothing. The same
    // head followed by a long run of output is a job that went on.
    void hangAtTheLaunch()
    {
        const QString banner = QStringLiteral(
            "WARNING:torch.distributed.run:\n*****************************************\n"
            "Setting OMP_NUM_THREADS environment variable for each process to be 1 in default, to avoid your "
            "system being overloaded, please further tune the variable for optimal performance in your "
            "application as needed. \n*****************************************\n");
        const Analysis hung = run({}, banner);
        const AttemptAnalysis* a = hung.currentAttempt();
        QVERIFY(a);
        QVERIFY2(a->diagnosis.failureFound, qPrintable(a->diagnosis.headline));
        QCOMPARE(a->diagnosis.initiatingEvent, -1);
        QCOMPARE(sigId(hung, a->diagnosis.signature), QStringLiteral("launch-rendezvous-hang"));
        QString progress;
        for (int i = 0; i < 80; ++i)
            progress += QStringLiteral("loading shard %1 of 80\n").arg(i);
        const Analysis went = run({}, banner + progress);
        QVERIFY(went.currentAttempt());
        QVERIFY(!went.currentAttempt()->diagnosis.failureFound);
    }

    // Every communicator completed init and the log stops a few lines later with no error and no step: the
    // first collective hung (vllm#9920's shape: SHM channels, a progress bar at 0). The same head followed
    // by a long run of output is a job that went on, not a hang.
    void hangAfterInitComplete()
    {
        const QString head = QStringLiteral(
            "ws1:23458:23665 [0] NCCL INFO comm 0x23 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 47000 commId "
            "0x47 - Init COMPLETE\n"
            "ws1:23541:23673 [1] NCCL INFO Channel 00 : 1[1] -> 0[0] via SHM/direct/direct\n"
            "ws1:23541:23690 [1] NCCL INFO comm 0x24 rank 1 nranks 2 cudaDev 1 nvmlDev 1 busId 48000 commId "
            "0x47 - Init COMPLETE\n"
            "Processed prompts:   0%|          | 0/16 [00:00<?, ?it/s]\n");
        const Analysis hung = run({}, head);
        const AttemptAnalysis* a = hung.currentAttempt();
        QVERIFY(a);
        QCOMPARE(a->diagnosis.initiatingEvent, -1);
        QVERIFY(a->diagnosis.failureFound);
        QCOMPARE(sigId(hung, a->diagnosis.signature), QStringLiteral("nccl-first-collective-hang"));
        QVERIFY2(a->diagnosis.headline.contains(QLatin1String("after NCCL initialisation")),
            qPrintable(a->diagnosis.headline));
        QVERIFY(a->diagnosis.fix.contains(QLatin1String("NCCL_P2P_DISABLE=1")));
        QCOMPARE(a->diagnosis.evidence.fromLine, qint64(3)); // the last Init COMPLETE
        QString more;
        for (int i = 0; i < 60; ++i)
            more += QStringLiteral("eval batch %1 done\n").arg(i);
        const Analysis went = run({}, head + more);
        QVERIFY(went.currentAttempt());
        QVERIFY2(!went.currentAttempt()->diagnosis.failureFound,
            qPrintable(went.currentAttempt()->diagnosis.headline));
    }

    // What a paste cut at the top leaves: the first line that shows the failure heads it. Shapes from
    // NVIDIA/nccl#1538 (trails whose WARN is above the cut), vllm#7201 (a traceback without its
    // "Traceback" line, a frame's source quoting "NCCL error: {error_str}"), aws-ofi-nccl#663 (PyTorch 2.2+
    // tags every line of the exception with "[rank1]:", NCCL's words after "Last error:").
    void cutPasteHeadsAtItsFirstFailure_data()
    {
        QTest::addColumn<QString>("log");
        QTest::addColumn<QString>("line");
        QTest::newRow("orphan return trail before another thread's WARN")
            << QStringLiteral("w-0:5665:5811 [2] NCCL INFO transport.cc:166 -> 2\n"
                              "w-0:5665:5811 [2] NCCL INFO group.cc:70 -> 2 [Async thread]\n"
                              "\n"
                              "w-0:5665:5801 [2] proxy.cc:1487 NCCL WARN [Service thread] Error encountered "
                              "progressing operation=Connect, res=3, closing connection\n")
            << QStringLiteral("w-0:5665:5811 [2] NCCL INFO transport.cc:166 -> 2");
        // SGLang logs the traceback after its message on one line: the record starts there, and its
        // exception heads it.
        QTest::newRow("a traceback header at a line's end")
            << QStringLiteral(
                   "[2025-01-12 10:11:12 TP0] Load weight begin.\n"
                   "[2025-01-12 10:11:15 TP3] Scheduler hit an exception: Traceback (most recent call "
                   "last):\n"
                   "  File \"/sgl/scheduler.py\", line 12, in run\n"
                   "    self.x()\n"
                   "RuntimeError: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for "
                   "details), NCCL version 2.21.5\n")
            << QStringLiteral(
                   "RuntimeError: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for "
                   "details), NCCL version 2.21.5");
        // A text table's header names its columns ("# failures", "error file"): no failure (ray#30333).
        QTest::newRow("a table's header is no failure")
            << QStringLiteral("| Trial name               |   # failures | error file               |\n"
                              "|--------------------------+--------------+--------------------------|\n"
                              "| TorchTrainer_96bfe_00000 |            1 | /home/ray/r/error.txt    |\n"
                              "2022-11-15 19:26:36,618\tERROR tune.py:773 -- Trials did not complete: "
                              "[TorchTrainer_96bfe_00000]\n")
            << QStringLiteral("2022-11-15 19:26:36,618\tERROR tune.py:773 -- Trials did not complete: "
                              "[TorchTrainer_96bfe_00000]");
        // vLLM's workers log every line of a traceback behind their header, at ERROR: a paste that began
        // below the frame keeps a source line with a level, which is no event either (vllm#13121).
        QTest::newRow("a logged source line is no event")
            << QStringLiteral(
                   "(RayWorkerWrapper pid=1061) ERROR 02-12 02:14:01 worker_base.py:574]     backend_class = "
                   "ProcessGroupGloo(\n"
                   "(RayWorkerWrapper pid=1061) ERROR 02-12 02:14:01 worker_base.py:574] RuntimeError: Gloo "
                   "connectFullMesh failed with [../third_party/gloo/gloo/transport/tcp/pair.cc:144] no "
                   "error\n")
            << QStringLiteral(
                   "(RayWorkerWrapper pid=1061) ERROR 02-12 02:14:01 worker_base.py:574] RuntimeError: Gloo "
                   "connectFullMesh failed with [../third_party/gloo/gloo/transport/tcp/pair.cc:144] no "
                   "error");
        // Behind a header of its own, an indented line is source code only when it reads as code: journald
        // keeps a message's indentation, and "Watchdog caught ..." is two plain words, no statement.
        QTest::newRow("an indented message behind syslog's header is an event")
            << QStringLiteral("Dec  6 12:00:00 node1 python[123]: Loading checkpoint shards\n"
                              "Dec  6 12:00:09 node1 python[123]:     Watchdog caught collective operation "
                              "timeout\n")
            << QStringLiteral("Dec  6 12:00:09 node1 python[123]:     Watchdog caught collective operation "
                              "timeout");
        // A clock on every line ("ts", a CI runner): it stamps the traceback's frames and std::terminate's
        // what() too, so the records read as in the bare log (the exception, the what() line, heads them).
        QTest::newRow("a clock on every line keeps the traceback")
            << QStringLiteral(
                   "Dec 06 12:00:00 Traceback (most recent call last):\n"
                   "Dec 06 12:00:00   File \"main.py\", line 392, in <module>\n"
                   "Dec 06 12:00:00     dist.all_reduce(coalesced)\n"
                   "Dec 06 12:00:01 RuntimeError: [/x/gloo/transport/tcp/buffer.cc:76] Read timeout "
                   "[127.0.0.1]:32444\n")
            << QStringLiteral(
                   "Dec 06 12:00:01 RuntimeError: [/x/gloo/transport/tcp/buffer.cc:76] Read timeout "
                   "[127.0.0.1]:32444");
        QTest::newRow("a clock on every line keeps what()")
            << QStringLiteral("[2024-05-01T10:00:00Z] terminate called after throwing an instance of "
                              "'gloo::IoException'\n"
                              "[2024-05-01T10:00:00Z]   what():  [/x/gloo/transport/tcp/pair.cc:799] connect "
                              "[127.0.1.1]:3210: Connection refused\n")
            << QStringLiteral("[2024-05-01T10:00:00Z]   what():  [/x/gloo/transport/tcp/pair.cc:799] connect "
                              "[127.0.1.1]:3210: Connection refused");
        QTest::newRow("a frame's source line is no event")
            << QStringLiteral(
                   "[rank0]:   File \"/x/pynccl_wrapper.py\", line 223, in NCCL_CHECK\n"
                   "[rank0]:     raise RuntimeError(f\"NCCL error: {error_str}\")\n"
                   "[rank0]: RuntimeError: NCCL error: invalid usage (run with NCCL_DEBUG=WARN for "
                   "details)\n")
            << QStringLiteral(
                   "[rank0]: RuntimeError: NCCL error: invalid usage (run with NCCL_DEBUG=WARN for "
                   "details)");
        QTest::newRow("[rankN]: tagged exception quotes NCCL after Last error:")
            << QStringLiteral(
                   "[rank1]: torch.distributed.DistBackendError: NCCL error in: "
                   "ProcessGroupNCCL.cpp:1970, internal error - please report this issue to the NCCL "
                   "developers, NCCL version 2.20.5\n"
                   "[rank1]: ncclInternalError: Internal check failed.\n"
                   "[rank1]: Last error:\n"
                   "[rank1]: Some words no catalog entry knows, RC: 7\n")
            << QStringLiteral("[rank1]: Some words no catalog entry knows, RC: 7");
        // The paste's backtick took the "[rank0]: " of the exception's first line (vllm#6689): the tagged
        // lines under it still continue it, and NCCL's words after "Last error:" head it.
        QTest::newRow("a tag lost on the exception's first line")
            << QStringLiteral(
                   "`torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970, "
                   "unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version "
                   "2.20.5\n"
                   "[rank0]: ncclSystemError: System call (e.g. socket, malloc) or external library "
                   "call failed or device error.\n"
                   "[rank0]: Last error:\n"
                   "[rank0]: Error while creating shared memory segment /dev/shm/nccl-eQz2sT (size "
                   "5767520)\n")
            << QStringLiteral(
                   "[rank0]: Error while creating shared memory segment /dev/shm/nccl-eQz2sT (size "
                   "5767520)");
        QTest::newRow("NCCL WARN of an argument check beats the later abort")
            << QStringLiteral("h:2396:2428 [0] misc/argcheck.cc:40 NCCL WARN Reduce : invalid op 9\n"
                              "h:2396:2428 [0] NCCL INFO enqueue.cc:447 -> 4\n"
                              "terminate called after throwing an instance of 'std::runtime_error'\n"
                              "  what():  NCCL Error 4: invalid argument\n")
            << QStringLiteral("h:2396:2428 [0] misc/argcheck.cc:40 NCCL WARN Reduce : invalid op 9");
        QTest::newRow("logger.exception: the message, then the traceback it logged")
            << QStringLiteral(
                   "2024-05-01 10:00:01,123 - ERROR - train.py:88 - Training failed\n"
                   "Traceback (most recent call last):\n"
                   "  File \"/app/train.py\", line 85, in main\n"
                   "    trainer.train()\n"
                   "torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1275, unhandled "
                   "system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.18.1\n"
                   "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or "
                   "device error.\n"
                   "Last error:\n"
                   "socketStartConnect: Connect to 10.0.0.2<43211> failed : Software caused connection "
                   "abort\n")
            << QStringLiteral("socketStartConnect: Connect to 10.0.0.2<43211> failed : Software caused "
                              "connection abort");
        QTest::newRow("a lead-in to the paste is no event")
            << QStringLiteral("I get the following error:\n"
                              "Check failed: result == ncclSuccess (2 vs. 0)  unhandled system error\n")
            << QStringLiteral("Check failed: result == ncclSuccess (2 vs. 0)  unhandled system error");
    }

    void cutPasteHeadsAtItsFirstFailure()
    {
        QFETCH(QString, log);
        QFETCH(QString, line);
        const Analysis an = run({}, log);
        const AttemptAnalysis* a = an.currentAttempt();
        QVERIFY(a);
        QVERIFY2(a->diagnosis.initiatingEvent >= 0, qPrintable(a->diagnosis.headline));
        QCOMPARE(initiating(*a).text, line);
    }

    // nccl-tests and rccl-tests print their results header before the first collective: a header with no
    // row under it is a hang there, even without NCCL_DEBUG (ROCm/rccl#1129's shape); one row means it ran.
    void benchmarkHeaderWithoutRowsIsAHang()
    {
        const QString head = QStringLiteral(
            "# nThread 1 nGpus 2 minBytes 8 maxBytes 134217728 step: 2(factor) warmup iters: 5 iters: 20\n"
            "#   Rank  0 Pid  21284 on box3 device  0 [0000:2f:00.0] AMD Instinct MI100\n"
            "#   Rank  1 Pid  21284 on box3 device  1 [0000:03:00.0] AMD Instinct MI100\n"
            "#       size         count      type   redop    root     time   algbw   busbw #wrong\n");
        const Analysis hung = run({}, head);
        QVERIFY(hung.currentAttempt());
        const Diagnosis& d = hung.currentAttempt()->diagnosis;
        QVERIFY2(d.failureFound, qPrintable(d.headline));
        QCOMPARE(sigId(hung, d.signature), QStringLiteral("nccl-first-collective-hang"));
        QCOMPARE(d.evidence.fromLine, qint64(4));
        const Analysis ran = run({},
            head
                + QStringLiteral("           8             2     float     sum      -1    "
                                 "31.75    0.00    0.00      0\n"));
        QVERIFY(ran.currentAttempt());
        QVERIFY2(!ran.currentAttempt()->diagnosis.failureFound,
            qPrintable(ran.currentAttempt()->diagnosis.headline));
        // nccl-tests before 2018 ("bytes N type op"), quoted in an issue, the '#' lost to Markdown
        // (NVIDIA/nccl#104's shape).
        const Analysis old = run({},
            QStringLiteral(
                "> Using devices\n"
                "   Rank  0 uses device  0 [0x05] Tesla M40 24GB\n"
                ">\n"
                ">      bytes             N    type      op     time  algbw  busbw      res     time  "
                "algbw  busbw      res\n"));
        QVERIFY(old.currentAttempt());
        QCOMPARE(sigId(old, old.currentAttempt()->diagnosis.signature),
            QStringLiteral("nccl-first-collective-hang"));
        // A table of the same words without the bandwidth columns is no benchmark header.
        const Analysis prose = run({}, QStringLiteral("     bytes     N    type\n"));
        QVERIFY(prose.currentAttempt());
        QVERIFY(!prose.currentAttempt()->diagnosis.failureFound);
    }

    // An unknown WARN during NCCL's setup is set aside for the stall only when nothing says it failed: with
    // NCCL's "-> 2" trail after it, the setup failed at that line. The prefix and trail are those of
    // horovod/horovod#3871 (a WSL2 container); its WARN ("Could not find real path of
    // /sys/class/pci_bus/...") is now a catalog entry, so the WARN here is reworded to one no entry knows.
    void unknownWarnPassedUpIsNoHang()
    {
        const QString head = QStringLiteral(
            "ce1a35ee222c:687:748 [0] NCCL INFO comm 0x5a0 rank 0 nranks 2 cudaDev 0 busId "
            "3000 - Init START\n"
            "ce1a35ee222c:687:748 [0] graph/xml.cc:332 NCCL WARN Could not resolve the path of "
            "/sys/class/pci_bus/0000:03/../../0000:03:00.0\n");
        const QString trail = QStringLiteral("ce1a35ee222c:687:748 [0] NCCL INFO graph/xml.cc:469 -> 2\n"
                                             "ce1a35ee222c:687:748 [0] NCCL INFO graph/topo.cc:601 -> 2\n");
        const Analysis failed = run({}, head + trail);
        const AttemptAnalysis* a = failed.currentAttempt();
        QVERIFY(a);
        QVERIFY2(a->diagnosis.initiatingEvent >= 0, qPrintable(a->diagnosis.headline));
        QVERIFY(initiating(*a).text.contains(QLatin1String("Could not resolve the path")));
        const Analysis hung = run({}, head);
        QVERIFY(hung.currentAttempt());
        QCOMPARE(hung.currentAttempt()->diagnosis.initiatingEvent, -1);
    }

    // An unknown NCCL WARN whose words refuse or fail something ("Invalid ...", "... failed") is where the
    // setup stopped, even with no return trail after it; one that only notes something is not.
    void unknownWarnThatSaysItFailedIsNoHang()
    {
        const QString init = QStringLiteral(
            "worker-1:25:25 [0] NCCL INFO comm 0x5a0 rank 0 nranks 2 cudaDev 0 busId 3000 - Init START\n");
        const Analysis failed = run({},
            init
                + QStringLiteral(
                    "worker-1:25:25 [0] init.cc:990 NCCL WARN Invalid layout requested : 3/2\n"));
        const AttemptAnalysis* a = failed.currentAttempt();
        QVERIFY(a);
        QVERIFY2(a->diagnosis.initiatingEvent >= 0, qPrintable(a->diagnosis.headline));
        QVERIFY(initiating(*a).text.contains(QLatin1String("Invalid layout requested")));
        const Analysis noted = run({},
            init
                + QStringLiteral(
                    "worker-1:25:25 [0] init.cc:990 NCCL WARN Setting affinity to a subset of cores\n"));
        QVERIFY(noted.currentAttempt());
        QCOMPARE(noted.currentAttempt()->diagnosis.initiatingEvent, -1);
    }

    // The fix and the checks name the NIC the failing line names ("(Send) hca mlx5_1"), not the one the
    // rank's channels went through: that is only where its traffic usually went.
    void fixNamesTheNicOfTheFailingLine()
    {
        const QString log = QStringLiteral(
            "gpu-a03:1934008:1934008 [1] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [RO]; OOB "
            "ens1f0:10.10.0.13<0>\n"
            "gpu-a03:1934008:1934008 [1] NCCL INFO comm 0x55 rank 17 nranks 64 cudaDev 1 busId 19000 - Init "
            "START\n"
            "gpu-a03:1934008:1934008 [1] NCCL INFO Channel 00/0 : 17[1] -> 25[1] [send] via NET/IB/0\n"
            "[2026-03-14 02:17:44] gpu-a03:1934008:1934102 [1] transport/net_ib.cc:2458 NCCL WARN NET/IB: "
            "Got "
            "completion from peer 10.10.0.14<34141> with status=12 opcode=0 len=0 vendor err 129 (Send) hca "
            "mlx5_1\n");
        const Analysis an = run({}, log);
        const AttemptAnalysis* a = an.currentAttempt();
        QVERIFY(a);
        QCOMPARE(sigId(an, a->diagnosis.signature), QStringLiteral("nccl-ib-completion-retry-exceeded"));
        QVERIFY2(
            a->diagnosis.fix.contains(QLatin1String("failing link on mlx5_1")), qPrintable(a->diagnosis.fix));
        QVERIFY(a->diagnosis.verify.contains(QStringLiteral("ibstat mlx5_1")));
        QVERIFY(!a->diagnosis.fix.contains(QLatin1String("mlx5_0")));
    }

    void stragglerByLastCompletedWork()
    {
        // Every rank times out at SeqNum 100, but rank 2 completed only 97 collectives: it is the straggler.
        const Analysis an = run({ QStringLiteral("diagnosis/straggler") });
        const AttemptAnalysis* a = an.currentAttempt();
        QVERIFY(a);
        QCOMPARE(a->diagnosis.suspects.size(), size_t(1));
        QCOMPARE(a->diagnosis.suspects.front().rank, 2);
        QVERIFY(a->diagnosis.suspects.front().reason.contains(QLatin1String("97")));
    }

    void sameWrapperTwoCauses_data()
    {
        QTest::addColumn<QString>("folder");
        QTest::addColumn<QString>("cause");
        QTest::newRow("shm") << QStringLiteral("diagnosis/wrapper-shm")
                             << QStringLiteral("nccl-shm-too-small");
        QTest::newRow("socket") << QStringLiteral("diagnosis/wrapper-socket")
                                << QStringLiteral("nccl-bootstrap-connect-failed");
    }

    void sameWrapperTwoCauses()
    {
        QFETCH(QString, folder);
        QFETCH(QString, cause);
        const Analysis an = run({ folder });
        const AttemptAnalysis* a = an.currentAttempt();
        QVERIFY(a);
        QCOMPARE(sigId(an, a->diagnosis.signature), cause);
        QCOMPARE(initiating(*a).rank, 0);
        // The wrapper on rank 1 is collateral, not a competing cause.
        bool wrapper = false;
        for (const CollateralGroup& g : a->diagnosis.collateral)
            wrapper = wrapper || sigId(an, g.signature) == QLatin1String("pytorch-nccl-system-error");
        QVERIFY(wrapper);
    }

    void pastedTracebackAlone()
    {
        QFile f(QStringLiteral(RANKSCOPE_TEST_DATA "/diagnosis/pasted-oom-traceback.txt"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const Analysis an = run({}, QString::fromUtf8(f.readAll()));
        const AttemptAnalysis* a = an.currentAttempt();
        QVERIFY(a);
        QVERIFY(a->diagnosis.failureFound);
        QCOMPARE(initiating(*a).rank, -1);
        QCOMPARE(sigId(an, a->diagnosis.signature), QStringLiteral("pytorch-cuda-out-of-memory"));
        QVERIFY(a->diagnosis.confidence != QLatin1String("high"));
        QVERIFY(initiating(*a).lineCount >= 6); // the traceback is one event
    }

    // A traceback reads the same behind a log collector's clock on every line (kubectl --timestamps,
    // a CI runner) and indented as a whole (a paste inside a Markdown list): one record, same signature.
    void wrappedTracebackIsOneRecord_data()
    {
        QTest::addColumn<QString>("wrapper");
        QTest::newRow("collector clock") << QStringLiteral("2026-03-01T10:00:07.123456789Z ");
        QTest::newRow("CI runner clock") << QStringLiteral("2026-03-01T10:00:07.1234567Z ");
        QTest::newRow("list indentation") << QStringLiteral("    ");
        // vLLM's logger prints every line of a logged traceback behind its ERROR header, and Ray its
        // worker's tag before that: the exception line still heads the record.
        QTest::newRow("vLLM logger header") << QStringLiteral("ERROR 08-27 05:12:18 worker_base.py:382] ");
        QTest::newRow("Ray worker and vLLM header")
            << QStringLiteral("(RayWorkerWrapper pid=11305) ERROR 08-27 05:12:18 worker_base.py:382] ");
    }

    // A logger's ERROR header whose message goes on below it (torchelastic's coordinator): the header line
    // says nothing but its level, so the line under it, which names the cause, is the failure. A first line
    // with a failure word of its own keeps its place (NCCL's "Call to ... failed", then its consequence).
    void headerOnlyLineGivesWayToTheCauseBelow()
    {
        const Analysis an = run({},
            QStringLiteral("[ERROR] 2020-01-17 00:55:01,724 coordinator_p2p: Rank: -1\n"
                           "Error: Rank -1 received an Exception. Detailed message: host not found: Name or "
                           "service not known\n"));
        const AttemptAnalysis* a = an.currentAttempt();
        QVERIFY(a && a->diagnosis.failureFound);
        QCOMPARE(initiating(*a).line, qint64(2));
        QCOMPARE(sigId(an, a->diagnosis.signature), QStringLiteral("c10d-host-not-found-dns"));

        const Analysis kept = run({},
            QStringLiteral("[ERROR] 2020-01-17 00:55:01,724 coordinator_p2p: store setup failed\n"
                           "Error: Rank -1 received an Exception. Detailed message: host not found: Name or "
                           "service not known\n"));
        const AttemptAnalysis* k = kept.currentAttempt();
        QVERIFY(k && k->diagnosis.failureFound);
        QCOMPARE(initiating(*k).line, qint64(1));
    }

    // Huawei CANN's error report under torch_npu's error line: the lines that lead with an error code are the
    // runtime's own account, as "Last error:" quotes NCCL. "EE9999: Inner Error!" is only the title of the
    // lines under it; the first code line that says more heads the failure (vllm-ascend#672).
    void cannRuntimeReportHeadsTheChain()
    {
        const Analysis an = run({},
            QStringLiteral("[rank0]: [ERROR] 2025-04-27-03:11:08 (PID:540988, Device:0, RankID:0) ERR02200 "
                           "DIST call hccl "
                           "api failed.\n"
                           "[rank0]: EE9999: Inner Error!\n"
                           "[rank0]: EE9999: [PID: 540988] 2025-04-27-03:11:08.089.335 get error: phyid:1 "
                           "realDeviceId:1 is "
                           "err:0x7010003[FUNC:GetDeviceIndexByPhyId][FILE:api_error.cc][LINE:1918]\n"));
        const AttemptAnalysis* a = an.currentAttempt();
        QVERIFY(a && a->diagnosis.failureFound);
        QCOMPARE(initiating(*a).line, qint64(3));
        QCOMPARE(initiating(*a).pid, qint64(540988));
        QCOMPARE(sigId(an, a->diagnosis.signature), QStringLiteral("cann-device-index-by-phyid-failed"));
        // Without the code lines, torch_npu's own line is the failure.
        const Analysis alone = run({},
            QStringLiteral(
                "[rank0]: [ERROR] 2025-04-27-03:11:08 (PID:540988, Device:0, RankID:0) ERR02200 DIST "
                "call hccl api failed.\n"
                "[rank0]: EE9999: Inner Error!\n"));
        const AttemptAnalysis* b = alone.currentAttempt();
        QVERIFY(b && b->diagnosis.failureFound);
        QCOMPARE(initiating(*b).line, qint64(1));
    }

    // journald stamps every line, so CANN's report stays in torch_npu's exception record: the report's line
    // still heads it, as a "Last error:" quote does.
    void cannReportInsideARecordIsItsLine()
    {
        const QString head = QStringLiteral("May 01 10:00:0%1 node17 python3[4242]: [rank0]: ");
        const Analysis an = run({},
            head.arg(0) + QStringLiteral("    self.moe_all_to_all_group_name = backend.get_hccl_comm_name(\n")
                + head.arg(1)
                + QStringLiteral(
                    "RuntimeError: create_config:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:102 "
                    "HCCL function error: hcclCommInitRootInfoConfig(numRanks, &rootInfo, rank, config, "
                    "&(comm->hcclComm_))\n")
                + head.arg(2)
                + QStringLiteral(
                    "[ERROR] 2025-04-27-03:11:08 (PID:540988, Device:0, RankID:0) ERR02200 DIST call "
                    "hccl api failed.\n")
                + head.arg(3) + QStringLiteral("EE9999: Inner Error!\n") + head.arg(4)
                + QStringLiteral(
                    "EE9999: [PID: 540988] 2025-04-27-03:11:08.089.335 get error: phyid:1 "
                    "realDeviceId:1 is err:0x7010003[FUNC:GetDeviceIndexByPhyId][FILE:api_error.cc]"
                    "[LINE:1918]\n"));
        const AttemptAnalysis* a = an.currentAttempt();
        QVERIFY(a && a->diagnosis.failureFound);
        QCOMPARE(initiating(*a).line, qint64(5));
        QCOMPARE(sigId(an, a->diagnosis.signature), QStringLiteral("cann-device-index-by-phyid-failed"));
    }

    // NCCL 2.29 quotes its WARN right under the error's description, without "Last error:" (nccl#2077): the
    // quoted line is the record's line.
    void ncclDescriptionQuotesTheWarn()
    {
        const Analysis an =
            run({ QStringLiteral("real-found/8004-nvls-multicast-slot-exhaustion-oom-bind/log.txt") });
        const AttemptAnalysis* a = an.currentAttempt();
        QVERIFY(a && a->diagnosis.failureFound);
        QVERIFY2(initiating(*a).text.contains(
                     QLatin1String("Failed to bind NVLink SHARP (NVLS) Multicast memory")),
            qPrintable(initiating(*a).text));
        QCOMPARE(sigId(an, a->diagnosis.signature), QStringLiteral("nvls-multicast-bind-failed"));
    }

    // A title that names no failure (HCCL's "____LINK_ERROR_INFO____" above its table) gives way to the cause
    // further down its unbroken run of lines, not only on the very next line.
    void titleGivesWayToTheCauseInItsRun()
    {
        const QString head = QStringLiteral("[ERROR] HCCL(23457,all_reduce_test):2023-10-16-08:41:56.291.");
        const Analysis an = run({},
            head + QStringLiteral("748 [comm_base.cc:967][23468]   ______LINK_ERROR_INFO______\n") + head
                + QStringLiteral("771 [comm_base.cc:968][23468]   |  comm error, device[0] num[1]\n") + head
                + QStringLiteral(
                    "777 [comm_base.cc:969][23468]   |  dest_ip(rank_id)  |  src_ip(rank_id)   |   "
                    "Role   |   Status   |\n")
                + head
                + QStringLiteral("797 [comm_base.cc:1018][23468]   |  192.168.100.100(1)   |   "
                                 "192.168.100.101(0)   |  server  | no connect |\n"));
        const AttemptAnalysis* a = an.currentAttempt();
        QVERIFY(a && a->diagnosis.failureFound);
        QCOMPARE(initiating(*a).line, qint64(4));
        QCOMPARE(sigId(an, a->diagnosis.signature), QStringLiteral("hccl-link-no-connect"));
    }

    // PyTorch's desync report (TORCH_NCCL_DESYNC_DEBUG) names the rank the others waited for: it is a
    // suspect, not a rank that failed (pytorch#152623).
    void desyncReportNamesTheLaggingRank()
    {
        const Analysis an = run({},
            QStringLiteral(
                "[rank0]:[E515 18:36:47.341808597 ProcessGroupNCCL.cpp:632] [Rank 0] Watchdog caught "
                "collective "
                "operation timeout: WorkNCCL(SeqNum=241, OpType=ALLREDUCE, NumelIn=6, NumelOut=6, "
                "Timeout(ms)=600000) ran for 600086 milliseconds before timing out.\n"
                "[rank0]:[E515 18:36:47.343377708 ProcessGroupNCCL.cpp:1937] Rank 0\n"
                "         - [0] Timeout at collective: ALLREDUCE, #315\n"
                "         - To our best knowledge, the lagging/dead/mismatched ranks that caused the desync "
                "are:\n"
                "             [7] finished collective #182, but didn't join collective #183 (count from 1)\n"
                "         - Snapshot of ranks' latest states:\n"
                "           #315 started ranks:\n"
                "             [0, 1, 2] started ALLREDUCE\n"));
        const AttemptAnalysis* a = an.currentAttempt();
        QVERIFY(a && a->diagnosis.failureFound);
        QCOMPARE(initiating(*a).line, qint64(1));
        const auto& suspects = a->diagnosis.suspects;
        const auto seven =
            std::find_if(suspects.begin(), suspects.end(), [](const Suspect& s) { return s.rank == 7; });
        QVERIFY(seven != suspects.end());
        QVERIFY2(seven->reason.contains(QLatin1String("#183")), qPrintable(seven->reason));
        // Only symptoms in the log: the headline says who reported first, then whom the others waited for.
        QVERIFY2(a->diagnosis.headline.contains(QLatin1String("reported the failure first"))
                && a->diagnosis.headline.endsWith(
                    QLatin1String("the others waited for rank 7 (PyTorch's desync report)")),
            qPrintable(a->diagnosis.headline));
        // Rank 7 wrote none of these lines: no failure is put on it.
        for (const CollateralGroup& g : a->diagnosis.collateral)
            QVERIFY2(!g.ranks.contains(u'7'), qPrintable(g.ranks));
    }

    // A one-line head that names nothing, with the traceback right under it: a hint reads that record's
    // frames (vllm#19703: Ray's compiled-graph read path, the exception line cut from the paste).
    void hintReadsTheRecordUnderAOneLineHead()
    {
        const QString head =
            QStringLiteral("ERROR 06-12 10:46:34 [core.py:517] EngineCore encountered a fatal error.\n");
        const QString frames = QStringLiteral(
            "ERROR 06-12 10:46:34 [core.py:517] Traceback (most recent call last):\n"
            "ERROR 06-12 10:46:34 [core.py:517]   File \"/usr/lib/python3/ray/dag/compiled_dag_node.py\", "
            "line 2515, "
            "in _execute_until\n"
            "ERROR 06-12 10:46:34 [core.py:517]     result = self._dag_output_fetcher.read(timeout)\n");
        const Analysis an = run({}, head + frames);
        const AttemptAnalysis* a = an.currentAttempt();
        QVERIFY(a && a->diagnosis.failureFound);
        QCOMPARE(initiating(*a).line, qint64(1));
        QCOMPARE(sigId(an, a->diagnosis.signature), QStringLiteral("ray-hint-compiled-graph-read"));
        // Further down, the frames belong to another failure: no hint from them.
        const Analysis apart = run({},
            head + QStringLiteral("INFO 06-12 10:46:35 [core.py:1] a\nINFO 06-12 10:46:35 [core.py:1] b\n")
                + frames);
        QVERIFY(sigId(apart, apart.currentAttempt()->diagnosis.signature)
            != QStringLiteral("ray-hint-compiled-graph-read"));
    }

    // A network plugin that failed to initialise is no cause when NCCL went on with its sockets: the first
    // cause after it in the file says why the sockets failed (aws-do-eks#54: EKS Pod Identity's link-local
    // interface). Without the line that says NCCL went on, the plugin's failure heads.
    void networkPluginFallbackGivesWayToTheSocketFailure()
    {
        const QString head =
            QStringLiteral("node1:21:21 [0] NCCL INFO NET/OFI Using transport protocol RDMA (platform set)\n"
                           "node1:21:21 [0] NCCL INFO NET/OFI aws-ofi-nccl initialization failed\n"
                           "node1:21:21 [0] NCCL INFO NET/IB : No device found.\n");
        const QString went = QStringLiteral("node1:21:21 [0] NCCL INFO Initialized NET plugin Socket\n"
                                            "node1:21:21 [0] NCCL INFO Using network Socket\n");
        const QString fail = QStringLiteral("node1:21:40 [0] misc/socket.cc:484 NCCL WARN "
                                            "socketStartConnect: Connect to 169.254.170.23<40000> "
                                            "failed : Connection refused\n");
        const Analysis on = run({}, head + went + fail);
        const AttemptAnalysis* a = on.currentAttempt();
        QVERIFY(a && a->diagnosis.failureFound);
        QCOMPARE(initiating(*a).line, qint64(6));
        QCOMPARE(sigId(on, a->diagnosis.signature), QStringLiteral("nccl-bootstrap-connect-link-local"));
        QVERIFY2(a->diagnosis.confidenceReasons.join(u'\n').contains(QLatin1String("went on without")),
            qPrintable(a->diagnosis.confidenceReasons.join(u'\n')));
        const Analysis stopped = run({}, head + fail);
        QCOMPARE(sigId(stopped, stopped.currentAttempt()->diagnosis.signature),
            QStringLiteral("aws-ofi-nccl-init-failed"));
    }

    // mp.spawn's report in the parent is a symptom; the child's traceback under "-- Process 0 terminated with
    // the following error:" is what it quotes, though its exception line is many lines below: a record
    // follows from the line that opened it, not from its headline. Behind a Ray wrapper too (one pid).
    void spawnReportQuotesTheChildTraceback()
    {
        const QString body =
            QStringLiteral("torch.multiprocessing.spawn.ProcessRaisedException:\n"
                           "\n"
                           "-- Process 0 terminated with the following error:\n"
                           "Traceback (most recent call last):\n"
                           "  File \"spawn.py\", line 74, in _wrap\n"
                           "    fn(i, *args)\n"
                           "  File \"train.py\", line 62, in run\n"
                           "    dist.init_process_group(backend='nccl')\n"
                           "  File \"distributed_c10d.py\", line 1148, in init_process_group\n"
                           "    default_pg, _ = _new_process_group_helper(\n"
                           "  File \"distributed_c10d.py\", line 1268, in _new_process_group_helper\n"
                           "    raise RuntimeError(\"Distributed package doesn't have NCCL built in\")\n"
                           "RuntimeError: Distributed package doesn't have NCCL built in\n");
        for (const QString& prefix :
            { QString(), QStringLiteral("(RayWorkerWrapper pid=23041, ip=10.0.1.7) ") }) {
            QString text;
            for (const QString& line : body.split(u'\n', Qt::SkipEmptyParts))
                text += prefix + line + u'\n';
            const Analysis an = run({}, text);
            const AttemptAnalysis* a = an.currentAttempt();
            QVERIFY(a && a->diagnosis.failureFound);
            QCOMPARE(sigId(an, a->diagnosis.signature), QStringLiteral("pytorch-nccl-not-built-in"));
            QVERIFY2(
                initiating(*a).text.endsWith(QLatin1String("RuntimeError: Distributed package doesn't have "
                                                           "NCCL built in")),
                qPrintable(initiating(*a).text));
        }
    }

    // Every rank timed out at one SeqNum, but not in the same call: the rank in the call the fewest wait in
    // took another code path (a rank-0-only reduce while the others saved, pytorch#77030). One against one
    // says nothing about which is odd.
    void oddCollectiveIsTheInitiatingLine()
    {
        const auto line = [](int rank, const char* op) {
            return QStringLiteral(
                "[E ProcessGroupNCCL.cpp:737] [Rank %1] Watchdog caught collective operation "
                "timeout: WorkNCCL(SeqNum=3742816, OpType=%2, Timeout(ms)=1800000) ran for "
                "1801750 milliseconds before timing out.\n")
                .arg(rank)
                .arg(QLatin1String(op));
        };
        const Analysis three =
            run({}, line(1, "_ALLGATHER_BASE") + line(0, "REDUCE") + line(5, "_ALLGATHER_BASE"));
        const AttemptAnalysis* a = three.currentAttempt();
        QVERIFY(a && a->diagnosis.failureFound);
        QCOMPARE(initiating(*a).line, qint64(2));
        QCOMPARE(
            sigId(three, a->diagnosis.signature), QStringLiteral("pytorch-watchdog-collective-mismatch"));
        QVERIFY2(a->diagnosis.confidenceReasons.join(u'\n').contains(
                     QLatin1String("rank 0 waits in REDUCE while 2 rank(s) in _ALLGATHER_BASE")),
            qPrintable(a->diagnosis.confidenceReasons.join(u'\n')));
        const Analysis two = run({}, line(1, "_ALLGATHER_BASE") + line(0, "REDUCE"));
        QCOMPARE(initiating(*two.currentAttempt()).line, qint64(1));
    }

    // Ranks count from 0: rank 0 exists when ranks 1-3 time out, even with no line of its own; the others
    // waited for it, and the fix says to read its output (torchtune#1165). One timeout alone names no gap.
    void missingLowRankIsTheSilentRank()
    {
        const auto line = [](int rank) {
            return QStringLiteral(
                "[rank%1]:[E ProcessGroupNCCL.cpp:563] [Rank %1] Watchdog caught collective "
                "operation timeout: WorkNCCL(SeqNum=15037, OpType=_ALLGATHER_BASE, "
                "NumelIn=131072512, NumelOut=524290048, Timeout(ms)=600000) ran for 600055 "
                "milliseconds before timing out.\n")
                .arg(rank);
        };
        const Analysis an = run({}, line(3) + line(1) + line(2));
        const AttemptAnalysis* a = an.currentAttempt();
        QVERIFY(a && a->diagnosis.failureFound);
        const auto& suspects = a->diagnosis.suspects;
        QCOMPARE(suspects.size(), size_t(1));
        QCOMPARE(suspects.front().rank, 0);
        QVERIFY2(suspects.front().reason.contains(QLatin1String("no line at all")),
            qPrintable(suspects.front().reason));
        QCOMPARE(sigId(an, a->diagnosis.signature), QStringLiteral("pytorch-watchdog-silent-rank"));
        const Analysis alone = run({}, line(3));
        QVERIFY(alone.currentAttempt()->diagnosis.suspects.empty());
        QCOMPARE(sigId(alone, alone.currentAttempt()->diagnosis.signature),
            QStringLiteral("pytorch-watchdog-timeout"));
    }

    // A tqdm bar written without a newline with another rank's line glued after it, hard-wrapped in the
    // middle of a sentence whose rest matches on its own: the glued line is the rank's, and it is joined.
    void gluedWrappedWatchdogLineKeepsItsRank()
    {
        const Analysis an = run({},
            QStringLiteral(
                "[default0]:Grouping texts in chunks of 2049:   8%|#         | 726000/9672101 "
                "[02:32<30:38, 4866.01 examples/s][default2]:[E ProcessGroupNCCL.cpp:475] [Rank 2] "
                "Watchdog caught \n"
                "collective operation timeout: WorkNCCL(SeqNum=3, OpType=ALLREDUCE, NumelIn=1, "
                "NumelOut=1, Timeout(ms)=600000) ran for 600888 milliseconds before timing out.\n"));
        const AttemptAnalysis* a = an.currentAttempt();
        QVERIFY(a && a->diagnosis.failureFound);
        QCOMPARE(initiating(*a).line, qint64(1));
        QCOMPARE(initiating(*a).rank, 2);
        QCOMPARE(initiating(*a).localRank, 2);
    }

    // c10's clock says only the second (its fraction is a monotonic counter): a finer clock within that
    // second is neither before nor after it, so the reason decides: an error beats a watchdog symptom.
    void wholeSecondClockTiesWithinItsSecond()
    {
        const Analysis an = run({},
            QStringLiteral(
                "[rank0]:[E1205 04:35:53.584483882 ProcessGroupNCCL.cpp:607] [Rank 0] Watchdog caught "
                "collective "
                "operation timeout: WorkNCCL(SeqNum=3348, OpType=BROADCAST, NumelIn=54607872, "
                "NumelOut=54607872, Timeout(ms)=1800000) ran for 1800098 milliseconds before timing out.\n"
                "[rank1]:2026-12-05 04:35:53,900 - ERROR - train.py:88 - shard /data/shard-0042.bin "
                "unreadable, "
                "stopping\n"));
        const AttemptAnalysis* a = an.currentAttempt();
        QVERIFY(a && a->diagnosis.failureFound);
        QCOMPARE(initiating(*a).line, qint64(2));
        QVERIFY(!initiating(*a).time.wholeSecond);
    }

    // A message that ends in ':' goes on on the next line: the watchdog's line, shortened by its reporter,
    // with its WorkNCCL below it (a Korean blog's paste), is one record, and the SeqNum below it counts.
    void colonLineTakesTheNextLine()
    {
        const Analysis an = run({},
            QStringLiteral("Watchdog caught collective operation timeout:\n"
                           "WorkNCCL(SeqNum=1, OpType=ALLREDUCE)\n"
                           "\n"
                           "c10::DistBackendError: watchdog thread terminated with exception\n"
                           "process 1 terminated with signal SIGABRT\n"));
        const AttemptAnalysis* a = an.currentAttempt();
        QVERIFY(a && a->diagnosis.failureFound);
        QCOMPARE(initiating(*a).line, qint64(1));
        QCOMPARE(initiating(*a).lineCount, 2);
        QCOMPARE(sigId(an, a->diagnosis.signature), QStringLiteral("pytorch-watchdog-first-collective"));
    }

    // XLA's "Failed to create NCCL communicator: ... failed:" announces NCCL's own words on the next line
    // (marin#7018, a file): the line that names the cause is the headline, not a hard wrap of the first.
    void colonLineGivesWayToTheCauseBelow()
    {
        const Analysis an = run(
            { QStringLiteral("real-found/6804-jax-xla-nccl-bootstrap-no-socket-interface-ifname/log.txt") });
        const AttemptAnalysis* a = an.currentAttempt();
        QVERIFY(a && a->diagnosis.failureFound);
        QCOMPARE(initiating(*a).line, qint64(3));
        QVERIFY(initiating(*a).text.startsWith(QLatin1String("invalid usage")));
        QCOMPARE(sigId(an, a->diagnosis.signature), QStringLiteral("nccl-socket-no-interface"));
        for (const QString& note : a->incident.warnings)
            QVERIFY2(!note.contains(QLatin1String("hard-wrapped")), qPrintable(note));
    }

    // torchelastic restarted the workers after the failure: the last attempt holds only its restart lines.
    // The attempt that failed is the one shown, and it says so (pytorch#64990).
    void attemptWithTheErrorIsShown()
    {
        const Analysis an = run({ QStringLiteral(
            "real-found/7002-torchelastic-c10d-aws-fqdn-master-addr-name-resolution-restart/log.txt") });
        QCOMPARE(an.attempts.size(), size_t(2));
        QCOMPARE(an.current, 0);
        const AttemptAnalysis* a = an.currentAttempt();
        QVERIFY(a && a->diagnosis.failureFound && a->diagnosis.initiatingEvent >= 0);
        QCOMPARE(sigId(an, a->diagnosis.signature), QStringLiteral("c10d-host-not-found-dns"));
        QVERIFY(std::any_of(a->diagnosis.notes.begin(), a->diagnosis.notes.end(), [](const QString& n) {
            return n.contains(QLatin1String("the latest attempt with an error line"));
        }));
        QVERIFY(!an.attempts[1].diagnosis.notes.isEmpty());
    }

    // A oneCCL error line hard-wrapped by its reporter: the indented lines under it go on with its message,
    // so the line keeps its place although the cause's code is named two lines further down.
    void indentedCauseContinuesTheHead()
    {
        const Analysis an =
            run({ QStringLiteral("real-found/7102-xpu-vmware-passthrough-p2p-ze-unknown/log.txt") });
        const AttemptAnalysis* a = an.currentAttempt();
        QVERIFY(a && a->diagnosis.failureFound);
        QVERIFY2(initiating(*a).text.contains(QLatin1String("|CCL_ERROR|")), qPrintable(initiating(*a).text));
        QCOMPARE(sigId(an, a->diagnosis.signature), QStringLiteral("oneccl-ze-call-failed"));
    }

    // An unstamped exception line above the stamped warning it caused, in one paste: the warning's clock is
    // the only time either has, and the order of writing decides, not the milder level.
    void inferredTimeKeepsTheFileOrder()
    {
        const Analysis an = run({},
            QStringLiteral(
                "torch.distributed.DistNetworkError: The server socket has failed to listen on any "
                "local network address. port: 33649, useIpv6: false, code: -98, name: EADDRINUSE, "
                "message: address already in use\n"
                "[W820 18:57:52.292435752 socket.cpp:764] [c10d] The client socket has failed to "
                "connect to [localhost]:33649 (errno: 99 - Cannot assign requested address).\n"));
        const AttemptAnalysis* a = an.currentAttempt();
        QVERIFY(a && a->diagnosis.failureFound);
        QCOMPARE(initiating(*a).line, qint64(1));
        QVERIFY(initiating(*a).time.inferred);
    }

    // "ts" stamps every line; an interleaved paste puts a source line under "Traceback" before any frame
    // shows that the clocks are a collector's. The indentation after the clock keeps the record going.
    void clockedSourceLineBeforeTheFirstFrame()
    {
        const Analysis an = run({},
            QStringLiteral(
                "May 01 10:00:00 Traceback (most recent call last):\n"
                "May 01 10:00:01     assert not total_norm.isnan(), (\n"
                "May 01 10:00:02   File \"/x/pretrain.py\", line 101, in <module>\n"
                "May 01 10:00:03 AssertionError: Rank 3: found NaN in local grad norm in backwards "
                "pass. Device: 3, node: n1\n"));
        const AttemptAnalysis* a = an.currentAttempt();
        QVERIFY(a && a->diagnosis.failureFound);
        QVERIFY2(
            initiating(*a).text.contains(QLatin1String("AssertionError")), qPrintable(initiating(*a).text));
        QCOMPARE(initiating(*a).lineCount, 4);
    }

    // The exception under a traceback's frames heads its record whatever its class is called: Python prints
    // the class's dotted name, and only some end in Error or Exception. Prose under the frames does not.
    void tracebackExceptionOfAnyClassName_data()
    {
        QTest::addColumn<QString>("source");
        QTest::addColumn<QString>("last");
        QTest::addColumn<bool>("heads");
        // The longest source line makes the paste's width: the exception line is no wrapped piece of it.
        const QString wide =
            QStringLiteral("    train_exe = fluid.ParallelExecutor(use_cuda=True, loss_name=x)");
        const QString narrow = QStringLiteral("    main()");
        QTest::newRow("paddle")
            << wide << "paddle.fluid.core.EnforceNotMet: unhandled cuda error at [nccl_helper.h:93]" << true;
        QTest::newRow("python2 socket") << wide << "socket.timeout: timed out" << true;
        QTest::newRow("bare class") << narrow << "SystemExit" << true;
        QTest::newRow("prose") << narrow << "Then the job hung." << false;
        QTest::newRow("bare lower-case word") << narrow << "done" << false;
    }
    void tracebackExceptionOfAnyClassName()
    {
        QFETCH(QString, source);
        QFETCH(QString, last);
        QFETCH(bool, heads);
        const QString paste = QStringLiteral("Traceback (most recent call last):\n"
                                             "  File \"train.py\", line 312, in <module>\n")
            + source + QLatin1Char('\n') + last + QLatin1Char('\n');
        const Analysis an = run({}, paste);
        const AttemptAnalysis* a = an.currentAttempt();
        QVERIFY(a && a->diagnosis.failureFound);
        QVERIFY2((initiating(*a).text == last) == heads, qPrintable(initiating(*a).text));
        QCOMPARE(initiating(*a).lineCount, heads ? 4 : 3);
    }

    // A paste that lost its indentation (RVC-Project/...#724): 'File "x.py", line N, in f' is a frame at
    // column 0 too, and the line under it is its source; the exception under them heads the record.
    void tracebackThatLostItsIndentation()
    {
        const QString paste = QStringLiteral(
            "Traceback (most recent call last):\n"
            "File \"multiprocessing\\process.py\", line 315, in _bootstrap\n"
            "File \"C:\\rvc\\train.py\", line 100, in run\n"
            "dist.init_process_group(\n"
            "File \"C:\\rvc\\torch\\distributed\\distributed_c10d.py\", line 994, in "
            "_new_process_group_helper\n"
            "backend_class = ProcessGroupGloo(backend_prefix_store, group_rank, group_size, "
            "timeout=timeout)\n"
            "RuntimeError: GlooDeviceFactory::makeUVDevice(): interface or hostname can't be empty\n");
        const Analysis an = run({}, paste);
        const AttemptAnalysis* a = an.currentAttempt();
        QVERIFY(a && a->diagnosis.failureFound);
        QVERIFY2(initiating(*a).text.startsWith(QLatin1String("RuntimeError: GlooDeviceFactory")),
            qPrintable(initiating(*a).text));
        QCOMPARE(initiating(*a).lineCount, 7);
    }

    // Ray's RayTaskError header under the driver's frames starts the remote traceback: it goes on with the
    // record, whose exception is the remote one (OpenRLHF/OpenRLHF#536), not the driver's bare header.
    void rayRemoteTracebackGoesOnWithTheRecord()
    {
        const QString paste = QStringLiteral(
            "Traceback (most recent call last):\n"
            "  File \"train_ppo_ray.py\", line 146, in train\n"
            "    ray.get(refs)\n"
            "  File \"venv/lib/python3.11/site-packages/ray/_private/worker.py\", line 904, in get_objects\n"
            "    raise value.as_instanceof_cause()\n"
            "ray.exceptions.RayTaskError(DeferredCudaCallError): ray::Actor.init() (pid=1, ip=10.0.0.1)\n"
            "  File \"venv/lib/python3.11/site-packages/torch/cuda/random.py\", line 126, in cb\n"
            "    default_generator = torch.cuda.default_generators[i]\n"
            "IndexError: tuple index out of range\n");
        const Analysis an = run({}, paste);
        const AttemptAnalysis* a = an.currentAttempt();
        QVERIFY(a && a->diagnosis.failureFound);
        QCOMPARE(initiating(*a).text, QStringLiteral("IndexError: tuple index out of range"));
        QCOMPARE(initiating(*a).firstLine(), qint64(1));
    }

    // A library's hint with innermost_frame speaks only when the exception was raised in that library's code:
    // a traceback that passes through deepspeed/ on its way to the user's model is the model's.
    void hintOnTheInnermostFrameOnly_data()
    {
        QTest::addColumn<QString>("lastFrame");
        QTest::addColumn<QString>("signature");
        QTest::newRow("raised in DeepSpeed")
            << "  File \"/usr/lib/python3/site-packages/deepspeed/runtime/zero/stage3.py\", line 1200, in "
               "step"
            << "hint-deepspeed-internal-exception";
        QTest::newRow("raised in the model") << "  File \"/work/model.py\", line 42, in forward"
                                             << "";
    }
    void hintOnTheInnermostFrameOnly()
    {
        QFETCH(QString, lastFrame);
        QFETCH(QString, signature);
        const QString paste =
            QStringLiteral("Traceback (most recent call last):\n"
                           "  File \"/work/train.py\", line 10, in <module>\n"
                           "    engine.step()\n"
                           "  File \"/usr/lib/python3/site-packages/deepspeed/runtime/engine.py\", "
                           "line 2100, in step\n"
                           "    self._take_model_step(lr_kwargs)\n")
            + lastFrame
            + QStringLiteral("\n    x = torch.cat(parts)\nValueError: a message no entry knows\n");
        const Analysis an = run({}, paste);
        const AttemptAnalysis* a = an.currentAttempt();
        QVERIFY(a && a->diagnosis.failureFound);
        QCOMPARE(initiating(*a).text, QStringLiteral("ValueError: a message no entry knows"));
        QCOMPARE(sigId(an, a->diagnosis.signature), signature);
    }

    // A time inferred from the stamped lines above says only "after them": a teardown's NCCL trail of another
    // process, written under the watchdog's timeouts in one console, does not head because its reason sorts
    // before a symptom's.
    void inferredTimeFollowsTheFileOrder()
    {
        const QString paste = QStringLiteral(
            "[rank13]:[E218 04:54:22.864467604 ProcessGroupNCCL.cpp:616] [Rank 1] Watchdog caught collective "
            "operation timeout: WorkNCCL(SeqNum=216, OpType=ALLTOALL_BASE, NumelIn=1379328, "
            "NumelOut=1379328, "
            "Timeout(ms)=600000) ran for 600012 milliseconds before timing out.\n"
            "[rank15]:[E218 04:54:22.883327702 ProcessGroupNCCL.cpp:616] [Rank 1] Watchdog caught collective "
            "operation timeout: WorkNCCL(SeqNum=57, OpType=ALLREDUCE, NumelIn=32, NumelOut=32, "
            "Timeout(ms)=600000) ran for 600021 milliseconds before timing out.\n"
            "node0:180:915 [7] NCCL INFO misc/socket.cc:47 -> 3\n"
            "node0:180:915 [7] NCCL INFO misc/socket.cc:550 -> 3\n");
        const Analysis an = run({}, paste);
        const AttemptAnalysis* a = an.currentAttempt();
        QVERIFY(a && a->diagnosis.failureFound);
        QVERIFY2(initiating(*a).text.startsWith(QLatin1String("[rank13]:")), qPrintable(initiating(*a).text));
        QCOMPARE(initiating(*a).rank, 13);
    }

    // NCCL before 2.5 (and NCCL_DEBUG=VERSION) prints its banner bare: setup began, and a hang after it is a
    // hang in init. With aws-ofi-nccl's EFA provider chosen, the EFA variant of the init hang is shown.
    void bareVersionBannerStartsNcclSetup_data()
    {
        QTest::addColumn<QString>("provider");
        QTest::addColumn<QString>("signature");
        QTest::newRow("sockets") << "NET/Socket : Using [0]eth0:192.168.16.255<0>"
                                 << "nccl-init-hang";
        QTest::newRow("efa") << "NET/OFI Selected Provider is efa;ofi_rxr"
                             << "nccl-init-hang-efa-security-group";
    }
    void bareVersionBannerStartsNcclSetup()
    {
        QFETCH(QString, provider);
        QFETCH(QString, signature);
        const QString paste = QStringLiteral("ip-192-168-16-255:25655:25655 [0] NCCL INFO ") + provider
            + QStringLiteral("\nNCCL version 2.4.6+cuda10.0\n");
        const Analysis an = run({}, paste);
        const AttemptAnalysis* a = an.currentAttempt();
        QVERIFY(a && a->diagnosis.failureFound);
        QCOMPARE(a->diagnosis.initiatingEvent, -1);
        QCOMPARE(sigId(an, a->diagnosis.signature), signature);
    }

    // A paste cut above "Traceback (most recent call last):" under a logger's ERROR header: the first frame
    // opens the record, and the exception line heads it, not the frame.
    void tracebackCutAboveItsFirstLine()
    {
        const QString header =
            QStringLiteral("(RayWorkerWrapper pid=11305) ERROR 08-27 05:12:18 worker_base.py:382] ");
        QFile f(QStringLiteral(RANKSCOPE_TEST_DATA "/diagnosis/pasted-oom-traceback.txt"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QStringList lines = QString::fromUtf8(f.readAll()).split(u'\n');
        QVERIFY(lines.first().startsWith(QLatin1String("Traceback")));
        lines.removeFirst();
        for (QString& line : lines)
            if (!line.isEmpty())
                line.prepend(header);
        const Analysis an = run({}, lines.join(u'\n'));
        const AttemptAnalysis* a = an.currentAttempt();
        QVERIFY(a && a->diagnosis.failureFound);
        QVERIFY2(initiating(*a).text.contains(QLatin1String("torch.OutOfMemoryError: CUDA out of memory")),
            qPrintable(initiating(*a).text));
        QCOMPARE(sigId(an, a->diagnosis.signature), QStringLiteral("pytorch-cuda-out-of-memory"));
    }

    void wrappedTracebackIsOneRecord()
    {
        QFETCH(QString, wrapper);
        QFile f(QStringLiteral(RANKSCOPE_TEST_DATA "/diagnosis/pasted-oom-traceback.txt"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString bare = QString::fromUtf8(f.readAll());
        QStringList lines = bare.split(u'\n');
        for (QString& line : lines)
            if (!line.isEmpty())
                line.prepend(wrapper);
        const QString wrapped = lines.join(u'\n');
        const Analysis plain = run({}, bare);
        const Analysis an = run({}, wrapped);
        const AttemptAnalysis* p = plain.currentAttempt();
        const AttemptAnalysis* a = an.currentAttempt();
        QVERIFY(p && a);
        QVERIFY(a->diagnosis.failureFound);
        QCOMPARE(sigId(an, a->diagnosis.signature), sigId(plain, p->diagnosis.signature));
        QCOMPARE(initiating(*a).lineCount, initiating(*p).lineCount);
        QVERIFY(initiating(*a).text.endsWith(initiating(*p).text.trimmed()));
    }

    // The verification greps for text the initiating line carries, filled with this incident's values:
    // the catalog's literal when the line spells it, else the line's own message. Before, the IB entry's
    // literal held one example's peer and port.
    void verifyGrepFindsTheInitiatingLine_data()
    {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("expected");
        QTest::newRow("sample-job") << "sample-job"
                                    << "Got completion from peer 10.10.0.11<";
        QTest::newRow("demo") << RANKSCOPE_SOURCE_DIR "/resources/demo"
                              << "Got completion from peer 10.10.0.11<";
        QTest::newRow("benign-warn-first")
            << "diagnosis/benign-warn-first"
            << "Error while creating shared memory segment /dev/shm/nccl-3fQz1a (size 9637888), error: No "
               "space left on device (28)";
        QTest::newRow("hang") << "diagnosis/hang-silent-rank"
                              << "Watchdog caught collective operation timeout: WorkNCCL";
        QTest::newRow("pasted-traceback") << "diagnosis/pasted-oom-traceback.txt"
                                          << "CUDA out of memory. Tried to allocate";
        QTest::newRow("socket") << "diagnosis/wrapper-socket"
                                << "Connect to 10.0.0.2<";
    }
    void verifyGrepFindsTheInitiatingLine()
    {
        QFETCH(QString, input);
        QFETCH(QString, expected);
        AnalysisRequest r;
        r.logPaths << (QFileInfo(input).isAbsolute() ? input
                                                     : QStringLiteral(RANKSCOPE_TEST_DATA "/") + input);
        const Analysis an = analyze(r);
        const AttemptAnalysis* a = an.currentAttempt();
        QVERIFY(a && a->diagnosis.failureFound);
        const LogEvent& e = initiating(*a);
        QString grep;
        for (const QString& v : a->diagnosis.verify) {
            if (v.startsWith(QLatin1String("rg -n -F -- ")))
                grep = grepArgument(v);
        }
        QCOMPARE(grep, expected);
        bool found = e.text.contains(grep);
        for (const QString& line : e.continuation)
            found = found || line.contains(grep);
        QVERIFY2(found, qPrintable(grep));
    }

    // The verification search reads what was given: one log file given alone is searched itself (its
    // folder may be ~/Downloads), a folder is searched whole, and a gzipped file keeps its folder (rg
    // without -z reads no .gz). The search's target ends every rg command.
    void verifySearchesWhatWasGiven()
    {
        const QString file = QStringLiteral(RANKSCOPE_TEST_DATA "/diagnosis/pasted-oom-traceback.txt");
        const QString folder = QStringLiteral(RANKSCOPE_TEST_DATA "/diagnosis/benign-warn-first");
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString gz = tmp.filePath(QStringLiteral("rank5.log.gz"));
        QVERIFY(QFile::copy(QStringLiteral(RANKSCOPE_TEST_DATA "/layouts/gzip-multi/rank5.log.gz"), gz));
        const struct
        {
            QString input;
            QString target;
        } rows[] = {
            { file, QDir::cleanPath(file) },
            { folder, QDir::cleanPath(folder) },
            { gz, QDir::cleanPath(tmp.path()) },
        };
        for (const auto& row : rows) {
            AnalysisRequest r;
            r.logPaths << row.input;
            const Analysis an = analyze(r);
            const AttemptAnalysis* a = an.currentAttempt();
            QVERIFY(a && a->diagnosis.failureFound);
            QCOMPARE(a->diagnosis.logs, row.target);
            bool anyGrep = false;
            for (const QString& v : a->diagnosis.verify) {
                if (!v.startsWith(QLatin1String("rg ")))
                    continue;
                anyGrep = true;
                QVERIFY2(v.endsWith(row.target), qPrintable(v));
            }
            QVERIFY(anyGrep);
        }
    }

    // Collateral without a rank is "launcher" only when a launcher wrote it. Real case 404: two NCCL
    // processes (no rank in the log) hit the same IB error after the initiating one; they are named by
    // pid and host, in the text and the HTML report. torchrun's summary stays a launcher's.
    void ranklessCollateralIsNamedByItsWriter()
    {
        const Analysis an =
            run({ QStringLiteral("real-found/404-mpirun-five-h100-ib-error-4-vendor-81-ipv6-gid-acs") });
        const AttemptAnalysis* a = an.currentAttempt();
        QVERIFY(a);
        QCOMPARE(a->diagnosis.collateral.size(), size_t(1));
        const CollateralGroup& g = a->diagnosis.collateral.front();
        QCOMPARE(g.rankCount, 0);
        QCOMPARE(g.writer, QStringLiteral("pid 9821 on H100-1, pid 68738 on H100-5"));
        const ReportInput in = buildReportInput(an, *a);
        const QString expected = QStringLiteral("pid 9821 on H100-1, pid 68738 on H100-5 (no rank): IB local "
                                                "protection error (completion status 4)");
        for (const QString& report : { reportText(in), reportHtml(in, {}, {}) }) {
            QVERIFY2(report.contains(expected), qPrintable(report));
            QVERIFY(!report.contains(QLatin1String("launcher (no rank)")));
        }

        const Analysis sample = run({ QStringLiteral("sample-job") });
        QVERIFY(sample.currentAttempt());
        const auto& groups = sample.currentAttempt()->diagnosis.collateral;
        QVERIFY(std::any_of(groups.begin(), groups.end(), [](const CollateralGroup& c) {
            return c.writer == QLatin1String("launcher") && c.label.startsWith(QLatin1String("torchrun:"));
        }));
    }

    // Without a rank, the initiating process's own later WARNs are its follow-up, not another rank's
    // failure: the list says so, in its heading and its entries, and the confidence does not count them.
    void initiatingProcessFollowUpIsNamedSo()
    {
        const Analysis an = run({ QStringLiteral(
            "real-found/2101-mtu-mismatch-two-servers-local-access-violation-inline-backtick") });
        const AttemptAnalysis* a = an.currentAttempt();
        QVERIFY(a);
        QVERIFY(!a->diagnosis.collateral.empty());
        for (const CollateralGroup& g : a->diagnosis.collateral) {
            QVERIFY(g.sameProcess);
            QCOMPARE(collateralWho(g),
                QStringLiteral("the initiating process itself (pid 94639 on ubuntu20-server-2)"));
        }
        QVERIFY(!a->diagnosis.confidenceReasons.join(u' ').contains(QLatin1String("on other ranks")));
        const QString text = reportText(buildReportInput(an, *a));
        QVERIFY(text.contains(QLatin1String(
            "COLLATERAL (LATER FAILURES: OTHER RANKS, AND THE INITIATING PROCESS'S FOLLOW-UP)")));
        QVERIFY(!text.contains(QLatin1String("(no rank)")));
        // Another process's rankless failure is still collateral on its own (404).
        const Analysis other =
            run({ QStringLiteral("real-found/404-mpirun-five-h100-ib-error-4-vendor-81-ipv6-gid-acs") });
        QVERIFY(other.currentAttempt());
        QVERIFY(!other.currentAttempt()->diagnosis.collateral.front().sameProcess);
    }

    // A launcher line has no rank, host or pid: the report names its place alone, not "first:  — file".
    void textReportPlacesLauncherLines()
    {
        const Analysis an = run({ QStringLiteral("sample-job") });
        const AttemptAnalysis* a = an.currentAttempt();
        QVERIFY(a);
        const ReportInput in = buildReportInput(an, *a);
        for (const QString& report : { reportText(in), reportMarkdown(in) }) {
            QVERIFY2(report.contains(QLatin1String("launcher (no rank): torchrun: ChildFailedError summary "
                                                   "(first: torchrun.gpu-a02.console.log:50)")),
                qPrintable(report));
            QVERIFY(!report.contains(QStringLiteral("first:  —")));
            QVERIFY(report.contains(QStringLiteral(
                "rank 7, gpu-a02, local rank 3, pid 52117, GPU3 — nccl.gpu-a02.52117.log:32")));
        }
    }

    // Siblings did not happen here: one whose summary needs a value this incident lacks is named by its
    // title, not "The HCA gave up sending to <peer>". Commands take the line's captured values.
    void hypothesesAndCommandsHaveNoBlanks()
    {
        // The hang has no completion line, so the IB sibling has no peer to name.
        const Analysis hang = run({ QStringLiteral("diagnosis/hang-silent-rank") });
        const AttemptAnalysis* a = hang.currentAttempt();
        QVERIFY(a);
        static const QRegularExpression blank(QStringLiteral("<[a-z_]+>"));
        bool titled = false;
        for (const Hypothesis& h : a->diagnosis.hypotheses) {
            QVERIFY2(!blank.match(h.reason).hasMatch(), qPrintable(h.reason));
            titled = titled
                || h.reason
                    == QLatin1String("adjacent failure to rule out: IB transport retry counter exceeded "
                                     "(completion status 12)");
        }
        QVERIFY(titled);

        const Analysis socket = run({ QStringLiteral("diagnosis/wrapper-socket") });
        QVERIFY(socket.currentAttempt());
        const QStringList& evidence = socket.currentAttempt()->diagnosis.evidenceCommands;
        QVERIFY2(
            evidence.contains(QStringLiteral("nc -vz 10.0.0.2 35187")), qPrintable(evidence.join(u'\n')));
        QVERIFY(evidence.contains(QStringLiteral("ip route get 10.0.0.2")));
    }

    // Per node in the JSON; for people, the nodes that name another rank at the same time and exit code
    // share a line (a 128-node job printed 127 near-identical ones).
    void torchrunNodesShareALine()
    {
        Incident inc;
        LogEvent init;
        init.rank = 7;
        init.time.ms = 1000;
        inc.events.push_back(init);
        const auto failure = [](const char* host, int rank, int exitCode) {
            TorchrunFailure f;
            f.host = QString::fromLatin1(host);
            f.rank = rank;
            f.exitCode = exitCode;
            f.time = QStringLiteral("2026-03-14_02:27:45");
            f.rootCause = true;
            return f;
        };
        inc.torchrunFailures = { failure("n09", 72, -6), failure("n01", 7, -6), failure("n02", 8, -6),
            failure("n03", 16, -6), failure("n04", 24, -6), failure("n05", 32, -6), failure("n06", 40, -6),
            failure("n07", 48, -6), failure("n08", 56, -9) };
        Diagnosis d;
        d.initiatingEvent = 0;
        detail::fillTorchrunNotes(inc, d);
        QCOMPARE(d.torchrun.size(), size_t(9));
        QCOMPARE(d.torchrunSummary.size(), 3);
        QCOMPARE(d.torchrunSummary[0], QStringLiteral("torchrun on n01 agrees: its Root Cause is rank 7"));
        QVERIFY2(
            d.torchrunSummary[1].startsWith(QStringLiteral(
                "torchrun on 7 nodes (n02, n03, n04, … n09) names a rank of its own node (8, 16, 24, … 72) "
                "as \"Root Cause\" (time 2026-03-14_02:27:45, exitcode -6), but rank 7 failed first")),
            qPrintable(d.torchrunSummary[1]));
        QVERIFY(d.torchrunSummary[2].startsWith(QStringLiteral(
            "torchrun on n08 names rank 56 as \"Root Cause\" (time 2026-03-14_02:27:45, exitcode -9)")));
    }

    // Ranks with the same reason share a line, in the order the reasons first appear.
    void suspectsShareALine()
    {
        const Analysis an = run({ QStringLiteral("sample-job") });
        QVERIFY(an.currentAttempt());
        QCOMPARE(suspectLines(an.currentAttempt()->diagnosis.suspects),
            QStringList { QStringLiteral("ranks 4-6: no log line although nranks is 8") });
        const std::vector<Suspect> mixed = { { 3, QStringLiteral("a"), QStringLiteral("silent"), QString() },
            { 9, QStringLiteral("b"), QStringLiteral("late"), QString() },
            { 1, QStringLiteral("a"), QStringLiteral("silent"), QString() },
            { 2, QStringLiteral("a"), QStringLiteral("silent"), QString() } };
        QCOMPARE(suspectLines(mixed),
            (QStringList { QStringLiteral("ranks 1-3 (a): silent"), QStringLiteral("rank 9 (b): late") }));
    }

    void noFailure()
    {
        QTemporaryDir dir;
        QFile f(dir.filePath(QStringLiteral("rank-0000.log")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("gpu-c01:1:1 [0] NCCL INFO NCCL version 2.27.7+cuda12.9\nstep 1 loss 3.0\n");
        f.close();
        AnalysisRequest r;
        r.logPaths << dir.path();
        const Analysis an = analyze(r);
        QVERIFY(an.currentAttempt());
        QVERIFY(!an.currentAttempt()->diagnosis.failureFound);
        QVERIFY(an.currentAttempt()->diagnosis.headline.startsWith(QLatin1String("No failure found")));
    }
};

QTEST_GUILESS_MAIN(TestDiagnosis)
#include "tst_diagnosis.moc"
