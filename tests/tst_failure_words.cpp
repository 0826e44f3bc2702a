// SPDX-License-Identifier: MIT
// The failure vocabulary on real lines: each line that carries a failure word is one, the benign ones
// are not, and every word found holds one of the prefilter's kFailurePhrases (else a scanner shortcut
// could skip the line without reading it).
#include "failure_words.h"
#include "signature_matcher.h"

#include <QtTest>

using namespace rankscope;

class TestFailureWords : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void words_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<bool>("failure");
        // From the real cases (tests/data/real*, shared/real-cases) and their threads.
        QTest::newRow("watchdog, hard-wrapped before 'ran for'")
            << "(ActorModelRayActor pid=207260, ip=10.0.1.75) [E ProcessGroupNCCL.cpp:475] [Rank 3] Watchdog "
               "caught collective operation timeout: WorkNCCL(SeqNum=385"
            << true;
        QTest::newRow("watchdog's own words") << "WorkNCCL(SeqNum=1, OpType=BROADCAST) ran for 1800087 "
                                                 "milliseconds before timing out."
                                              << true;
        QTest::newRow("c10d store")
            << "[7] is setting up NCCL communicator and retrieving ncclUniqueId from [0] "
               "via c10d key-value store by key '0', but store->get('0') got error: "
               "Socket Timeout"
            << true;
        QTest::newRow("UCX banner")
            << "[qgpuvb813-cvision:1    :0:381] Caught signal 7 (Bus error: nonexistent "
               "physical address)"
            << true;
        QTest::newRow("nccl-tests") << "test: Test CUDA failure common.cu:941 'system not yet initialized'"
                                    << true;
        QTest::newRow("exception") << "RuntimeError: CUDA error: invalid device ordinal" << true;
        QTest::newRow("NCCL WARN without a prefix")
            << "transport/nvls.cc:165 NCCL WARN Cuda failure 'invalid argument'" << true;
        QTest::newRow("timed out") << "[E socket.cpp:922] [c10d] The client socket has timed out after 1800s "
                                      "while trying to connect to (172.17.0.2"
                                   << true;
        QTest::newRow("killed") << "Killed" << true;
        QTest::newRow("MPICH abort") << "Abort(1094799) on node 0 (rank 0 in comm 0): Fatal error in "
                                        "PMPI_Init_thread: Other MPI error, error stack:"
                                     << true;
        QTest::newRow("glibc heap abort") << "free(): corrupted unsorted chunks" << true;
        QTest::newRow("OpenMPI signal banner")
            << "[rack1-93-slot7:186363] *** Process received signal ***" << true;
        QTest::newRow("double free") << "double free or corruption (!prev)" << true;
        QTest::newRow("Abseil's signal banner (vllm-project/vllm#789)")
            << "(RayWorker pid=4711) *** SIGBUS received at time=1692322557 on cpu 5 ***" << true;
        QTest::newRow("unhandled exception (rwth-i6/returnn#1621)")
            << "Unhandled exception <class 'RuntimeError'> in thread <_MainThread(MainThread, started "
               "129187316453376)>, proc 25928."
            << true;
        // NCCL's and CUDA's error words behind a user's own handler, with no level and no exception name
        // (pytorch/pytorch#23363).
        QTest::newRow("NCCL error behind a handler")
            << "fail to new train...e= NCCL error in: /pytorch/torch/lib/c10d/ProcessGroupNCCL.cpp:272, "
               "unhanled "
               "system error"
            << true;
        QTest::newRow("CUDA error behind a handler")
            << "step 12 skipped: CUDA error: an illegal memory access" << true;
        QTest::newRow("CUDA errors counted") << "checked 8 GPUs, no CUDA errors found" << false;
        // Benign: configuration and progress.
        QTest::newRow("timeout setting") << "NCCL INFO NCCL_IB_TIMEOUT set by environment to 22" << false;
        QTest::newRow("timeout argument") << "init_process_group(backend='nccl', timeout=1800)" << false;
        QTest::newRow("no error") << "step 100: loss 2.31, no error so far, error_count=0" << false;
        QTest::newRow("progress") << "Running tokenizer on dataset:   9%|███▊  | 3000/33000" << false;
        // A reporter's lead-in (NVIDIA/caffe#492): the error is the next line, not this one.
        QTest::newRow("lead-in to a paste") << "I get the following error:" << false;
        QTest::newRow("lead-in with trailing blanks") << "got this error:  \t" << false;
        QTest::newRow("error: with its text") << "clang: error: linker command failed" << true;
        // A heading over a paste leads into it (1802's "**Error info:**", 1809's bare "Error:").
        QTest::newRow("heading: Error:") << "Error:" << false;
        QTest::newRow("heading in bold") << "**Error info:**" << false;
        QTest::newRow("heading in Markdown") << "## Error log:" << false;
        QTest::newRow("heading of three words") << "Full error output: " << false;
        QTest::newRow("bare exception name") << "RuntimeError:" << true;
        QTest::newRow("bare level") << "ERROR:" << true;
        QTest::newRow("Error: with its text") << "Error: CUDA out of memory" << true;
        QTest::newRow("dotted exception name")
            << "torch.distributed.elastic.multiprocessing.errors.ChildFailedError:" << true;
        QTest::newRow("five words are a sentence") << "the job failed with this error:" << true;
        QTest::newRow("bold line of prose")
            << "**Unexpected failure of multi-card (4) model training (user: wangcui)**" << false;
        QTest::newRow("Markdown heading") << "### Training failed on node 3" << false;
        QTest::newRow("bold word inside a line") << "RuntimeError: **failed** to connect" << true;
        QTest::newRow("log line in bold") << "[rank0]: **RuntimeError: [enforce fail at "
                                             "../third_party/gloo/gloo/transport/tcp/device.cc:276] "
                                             "ss1.ss_family == ss2.ss_family. 2 vs 10**"
                                          << true;
        QTest::newRow("notebook traceback banner")
            << "ImportError                               Traceback (most recent call last)" << false;
    }

    void words()
    {
        QFETCH(QString, line);
        QFETCH(bool, failure);
        const std::string bytes = line.toStdString();
        QCOMPARE(hasFailureWord(bytes), failure);
        if (!failure)
            return;
        const QString lower = line.toLower();
        bool phrase = false;
        for (const std::string_view p : kFailurePhrases)
            phrase =
                phrase || lower.contains(QString::fromLatin1(p.data(), static_cast<qsizetype>(p.size())));
        QVERIFY2(phrase, "a failure word the prefilter would not pass");
    }

    // A reporter's sentence in the first person is prose; a program's message is not.
    void reporterProse_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<bool>("prose");
        QTest::newRow("first person")
            << QByteArray("On a 4 GPU server with CUDA 11.8 I still get the NCCL errors:") << true;
        QTest::newRow("we") << QByteArray(
            "We tried NCCL_P2P_DISABLE=1 and the job still failed after an hour.")
                            << true;
        QTest::newRow("short") << QByteArray("I failed") << false;
        QTest::newRow("program message")
            << QByteArray("Failed to find reverse path from remNode 0/5f000 nlinks 4 to node 0/cb000")
            << false;
        QTest::newRow("I inside a word")
            << QByteArray("RuntimeError: Internal check failed, see Info for the details now") << false;
    }

    void reporterProse()
    {
        QFETCH(QByteArray, line);
        QFETCH(bool, prose);
        QCOMPARE(
            isReporterProse(std::string_view(line.constData(), static_cast<size_t>(line.size()))), prose);
    }
};

QTEST_APPLESS_MAIN(TestFailureWords)
#include "tst_failure_words.moc"
