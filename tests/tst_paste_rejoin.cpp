// SPDX-License-Identifier: MIT
// Pasted logs that an issue, a mail or a terminal hard-wrapped: the pieces of a log line are joined back,
// and lines that start records of their own (frames, tracebacks, c10 trailers, quotes) stay apart.
#include "analysis.h"
#include "analyze_bytes.h"
#include "file_scanner.h"
#include "paste_rejoin.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace rankscope;

namespace {

// Wraps every line longer than width at the last space before it (what a mail client does).
QByteArray wordWrap(const QByteArray& text, int width)
{
    QByteArray out;
    for (QByteArray line : text.split('\n')) {
        while (line.size() > width) {
            qsizetype cut = line.lastIndexOf(' ', width);
            if (cut <= 0)
                cut = width;
            out += line.left(cut) + '\n';
            line = line.mid(cut + (line.at(cut) == ' ' ? 1 : 0));
        }
        out += line + '\n';
    }
    out.chop(1);
    return out;
}

// Cuts every line at exactly width bytes, inside words too (what a narrow terminal copy does).
QByteArray hardCut(const QByteArray& text, int width)
{
    QByteArray out;
    for (QByteArray line : text.split('\n')) {
        while (line.size() > width) {
            out += line.left(width) + '\n';
            line = line.mid(width);
        }
        out += line + '\n';
    }
    out.chop(1);
    return out;
}

const QByteArray kIbWarn =
    "gpu-a01:1007035:1007040 [7] NCCL WARN NET/IB : Got completion from peer 10.10.0.12<45819> "
    "with status=12 opcode=0 len=0 vendor err 129 (Recv) localGid ::ffff:10.10.0.11 "
    "remoteGids::ffff:10.10.0.12 hca mlx5_0";
const QByteArray kInfo =
    "gpu-a01:1007035:1007035 [7] NCCL INFO Channel 00/0 : 7[7] -> 8[0] [send] via NET/IB/0";
const QByteArray kC10 =
    "[rank7]:[E314 02:17:44.123456 1007040 ProcessGroupNCCL.cpp:1895] [PG ID 0 PG GUID 0(default_pg) Rank 7] "
    "Process group watchdog thread terminated with exception: NCCL error: remote process exited or there "
    "was a network error, NCCL version 2.27.7\n"
    "Exception raised from checkForNCCLErrorsInternal at ../torch/csrc/distributed/c10d/NCCLUtils.cpp:275 "
    "(most recent call first):\n"
    "frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x98 (0x7f in libc10.so)";

QByteArray readCase(const QString& dir)
{
    QFile in(QStringLiteral(RANKSCOPE_TEST_DATA "/") + dir + QStringLiteral("/log.txt"));
    return in.open(QIODevice::ReadOnly) ? in.readAll() : QByteArray();
}

const LogEvent& initiating(const AttemptAnalysis& a)
{
    return a.incident.events[static_cast<size_t>(a.diagnosis.initiatingEvent)];
}

// The bare file and its wrapped copy diagnosed as files: the same signature on the same line (the wrapped
// copy's event keeps its first physical line, a prefix of the bare one). The wrapped file's notes, or
// empty when a check failed.
QString checkSameFailure(const QByteArray& bare, const QByteArray& wrapped)
{
    QTemporaryDir tmp;
    const Analysis want = test::analyzeBytes(tmp, QStringLiteral("bare.log"), bare);
    const Analysis got = test::analyzeBytes(tmp, QStringLiteral("wrapped.log"), wrapped);
    if (!want.currentAttempt() || !got.currentAttempt())
        return {};
    const AttemptAnalysis& w = *want.currentAttempt();
    const AttemptAnalysis& g = *got.currentAttempt();
    if (w.diagnosis.signature < 0 || g.diagnosis.signature < 0
        || got.catalog.catalog.signatures[size_t(g.diagnosis.signature)].id
            != want.catalog.catalog.signatures[size_t(w.diagnosis.signature)].id
        || !initiating(w).text.startsWith(initiating(g).text))
        return {};
    // The event sits on its first physical line of the wrapped file.
    const QList<QByteArray> lines = wrapped.split('\n');
    const qint64 line = initiating(g).line;
    if (line < 1 || line > lines.size() || QString::fromUtf8(lines[int(line - 1)]) != initiating(g).text)
        return {};
    return g.incident.files.front().notes.join(u' ');
}

} // namespace

class TestPasteRejoin : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void rejoins_data()
    {
        QTest::addColumn<QByteArray>("original");
        QTest::addColumn<QByteArray>("pasted");
        QTest::addColumn<bool>("restored"); // the rejoined text is the original
        const QByteArray two = kInfo + '\n' + kIbWarn;
        QTest::newRow("word-wrapped at 72") << two << wordWrap(two, 72) << true;
        QTest::newRow("word-wrapped at 100") << two << wordWrap(two, 100) << true;
        QTest::newRow("cut at 80 inside words") << two << hardCut(two, 80) << true;
        QTest::newRow("quoted in markdown")
            << QByteArray("> " + kIbWarn) << QByteArray("> " + wordWrap(kIbWarn, 90).replace("\n", "\n> "))
            << false; // the quote markers go; the words are checked below
        QTest::newRow("not wrapped: lines of every length stay") << two << two << true;
        QTest::newRow("c10 trailer and frames stay apart") << kC10 << kC10 << true;
    }
    void rejoins()
    {
        QFETCH(QByteArray, original);
        QFETCH(QByteArray, pasted);
        QFETCH(bool, restored);
        const RejoinResult r = rejoinWrappedLines(pasted);
        if (restored) {
            QCOMPARE(r.text, original);
            QCOMPARE(r.joined, static_cast<int>(pasted.count('\n') - original.count('\n')));
        } else {
            QCOMPARE(r.text.count('\n'), original.count('\n'));
            QVERIFY(r.text.contains("status=12 opcode=0"));
        }
    }

    void framesAfterAWrappedLineStayApart()
    {
        // The long c10 line is wrapped; the trailer and the frame that follow it are records of their own.
        const QByteArray pasted = wordWrap(kC10, 100);
        const RejoinResult r = rejoinWrappedLines(pasted);
        const QList<QByteArray> lines = r.text.split('\n');
        QCOMPARE(lines.size(), 3);
        QVERIFY(lines[0].endsWith("NCCL version 2.27.7"));
        QVERIFY(lines[1].startsWith("Exception raised from"));
        QVERIFY(lines[2].startsWith("frame #0"));
    }

    // A progress bar redraws its own line (ultralytics/yolov5#4400: a watchdog message glued to the bar of
    // the rank that was still busy): it is never the tail of the line before it.
    void progressBarStartsItsOwnRecord()
    {
        QVERIFY(
            startsOwnRecord("train: Scanning '../coco/labels/train' images and labels...43731 found:  97%|"
                            "\xe2\x96\x88\xe2\x96\x89| 43843/45049 [01:07<00:16, 74.98it/s][E "
                            "ProcessGroupNCCL.cpp:327] Some NCCL operations have failed or timed out."));
        QVERIFY(startsOwnRecord("Preparing test set...:  39%|###9      | 26/67 [24:51<30:30, 44.65s/it]"));
        QVERIFY(!startsOwnRecord("milliseconds before timing out."));
        QVERIFY(!startsOwnRecord(", 44737)."));
    }

    void wrappedWarnIsMatchedWithItsCaptures()
    {
        AnalysisRequest request;
        request.pastedText = QString::fromUtf8(wordWrap(kInfo + '\n' + kIbWarn, 72));
        const Analysis an = analyze(request);
        const AttemptAnalysis* a = an.currentAttempt();
        QVERIFY(a);
        QVERIFY(a->diagnosis.initiatingEvent >= 0);
        const LogEvent& e = a->incident.events[static_cast<size_t>(a->diagnosis.initiatingEvent)];
        QCOMPARE(e.device, 7);
        QCOMPARE(an.catalog.catalog.signatures[static_cast<size_t>(e.signature)].id,
            QStringLiteral("nccl-ib-completion-retry-exceeded"));
        QVERIFY(e.text.contains(QLatin1String("hca mlx5_0")));
        const FileInfo& f = a->incident.files[static_cast<size_t>(e.file)];
        QVERIFY(f.notes.join(QLatin1Char(' ')).contains(QLatin1String("hard-wrapped")));
    }

    // A file wrapped at spaces by an editor or a mail client (not a paste): the wrap is seen in the first
    // read, and each wrapped line is read whole, with the space the wrap took. The diagnosis is the bare
    // file's, on the same physical line. The bare file is not taken for a wrapped one.
    void wordWrappedFileReadsWhole_data()
    {
        QTest::addColumn<QString>("dir");
        QTest::addColumn<int>("width");
        QTest::newRow("108 at 100") << QStringLiteral("real/108-vgpu-uvm-disabled-cudamempool-not-supported")
                                    << 100;
        QTest::newRow("117 at 80") << QStringLiteral(
            "real/117-determined-gpu-pair-p2p-broken-seqnum1-allgather")
                                   << 80;
        QTest::newRow("117 at 100") << QStringLiteral(
            "real/117-determined-gpu-pair-p2p-broken-seqnum1-allgather")
                                    << 100;
        QTest::newRow("209 at 100") << QStringLiteral("real-found/209-ci-runner-pod-dev-shm-extend-no-space")
                                    << 100;
        // A path moved whole to the next line after a short exception line; a frame cut before its line
        // number, and an exception line before a path as long as the width.
        QTest::newRow("1101 at 100") << QStringLiteral(
            "real-found/1101-xtuner-hf-cache-not-shared-second-node-filenotfound")
                                     << 100;
        QTest::newRow("1303 at 100") << QStringLiteral(
            "real-found/1303-gloo-read-timeout-uneven-last-batch-allreduce")
                                     << 100;
    }

    void wordWrappedFileReadsWhole()
    {
        QFETCH(QString, dir);
        QFETCH(int, width);
        const QByteArray bare = readCase(dir);
        QVERIFY(!bare.isEmpty());
        const QByteArray wrapped = wordWrap(bare, width);
        const auto view = [](const QByteArray& b) {
            return std::string_view(b.constData(), size_t(b.size()));
        };
        QCOMPARE(detectWrap(view(bare)).width, 0);
        const WrapShape shape = detectWrap(view(wrapped));
        QVERIFY(shape.atSpaces);
        QVERIFY2(shape.width <= width && shape.width > width - 10, qPrintable(QString::number(shape.width)));

        const QString notes = checkSameFailure(bare, wrapped);
        QVERIFY2(notes.contains(QLatin1String("wrapped at spaces")), qPrintable(notes));
    }

    // One failure line wrapped into three or four pieces, in a file whose other lines are short (no wrap
    // is seen in the first read): the pieces are matched together, and the longer text's match wins
    // (204: "Call to ibv_modify_qp failed" first, the GID index in the last piece).
    void failureLineInPiecesMatchesWhole_data()
    {
        QTest::addColumn<QString>("dir");
        QTest::addColumn<int>("width");
        QTest::newRow("112 at 80") << QStringLiteral("real/112-watchdog-gather-timeout-vllm-custom-allreduce")
                                   << 80;
        QTest::newRow("112 at 100") << QStringLiteral(
            "real/112-watchdog-gather-timeout-vllm-custom-allreduce")
                                    << 100;
        QTest::newRow("204 at 80") << QStringLiteral(
            "real-found/204-ibv-modify-qp-110-rail-only-fabric-cross-nic")
                                   << 80;
        // A line that matched a symptom on its own: the whole line names the cause.
        QTest::newRow("1908 at 100") << QStringLiteral(
            "real-found/1908-gha-rocm-runner-exposes-8-gpus-64mb-dev-shm-rccl-segment")
                                     << 100;
        // A traceback whose frame a wrap cut before its function name, and whose exception line it cut too.
        QTest::newRow("2402 at 100") << QStringLiteral(
            "real-found/2402-arcface-docker-bridge-network-multinode-unhandled-system-error-network-host")
                                     << 100;
    }

    void failureLineInPiecesMatchesWhole()
    {
        QFETCH(QString, dir);
        QFETCH(int, width);
        const QByteArray bare = readCase(dir);
        QVERIFY(!bare.isEmpty());
        const QString notes = checkSameFailure(bare, wordWrap(bare, width));
        QVERIFY2(notes.contains(QLatin1String("only with line"))
                || notes.contains(QLatin1String("wrapped at spaces")),
            qPrintable(notes));
    }

    // A text table's rows are all one width and the next row has no prefix: neither a terminal's cut nor
    // a wrap at spaces (Ray Tune's results table, ray#30333).
    void textTableIsNoWrap()
    {
        const QByteArray table = "| Trial name               |   # failures | error file                     "
                                 "                   |\n"
                                 "|--------------------------+--------------+--------------------------------"
                                 "-------------------|\n"
                                 "| TorchTrainer_96bfe_00000 |            1 | "
                                 "/home/ray/ray_results/TorchTrainer_96bfe/error.tx |\n"
                                 "| TorchTrainer_96bfe_00001 |            1 | "
                                 "/home/ray/ray_results/TorchTrainer_96bff/error.tx |\n"
                                 "+--------------------------+--------------+--------------------------------"
                                 "-------------------+\n"
                                 "2022-11-15 19:26:36,618\tERROR tune.py:773 -- Trials did not complete: "
                                 "[TorchTrainer_96bfe_00000]\n";
        QCOMPARE(detectWrap(std::string_view(table.constData(), size_t(table.size()))).width, 0);
    }

    // Open MPI's help box (open-mpi/ompi#12038): its dashes are as wide as its text, which Open MPI wraps at
    // the same width. A border is no cut line, and nothing after it continues it, in a file or a paste.
    void boxBorderIsNoWrap()
    {
        const QByteArray box = "--------------------------------------------------------------------------\n"
                               "Open MPI failed an OFI Libfabric library call (fi_domain).  This is highly\n"
                               "unusual; your job may behave unpredictably (and/or abort) after this.\n"
                               "\n"
                               "  Local host: crusher051\n"
                               "  Error: Function not implemented (38)\n"
                               "--------------------------------------------------------------------------\n";
        QCOMPARE(detectWrap(std::string_view(box.constData(), size_t(box.size()))).width, 0);
        QVERIFY(isBorderLine("-----------"));
        QVERIFY(!isBorderLine("---------"));
        QVERIFY(!isBorderLine("----- x -----"));
        const RejoinResult r = rejoinWrappedLines(box);
        QVERIFY2(r.text.startsWith("-------------------------------------------------------------------------"
                                   "-\nOpen MPI failed"),
            r.text.constData());
    }

    // libfabric's debug lines (fds#7868) are of many lengths and each starts with a long first word: a line
    // that starts with the line above's own tag ("libfabric:") is that writer's next line, never a piece.
    void sameTagStartsALine()
    {
        const QByteArray log =
            "libfabric:core:core:ofi_layering_ok():877<info> Need core provider, skipping ofi_rxm\n"
            "libfabric:core:core:fi_getinfo_():980<info> Since psm2 can be used, sockets has been skipped. "
            "To use "
            "sockets, please, set FI_PROVIDER=sockets\n"
            "libfabric:core:core:fi_getinfo_():980<info> Since psm2 can be used, tcp has been skipped. To "
            "use tcp, "
            "please, set FI_PROVIDER=tcp\n"
            "libfabric:core:core:fi_getinfo_():1002<warn> fi_getinfo: provider ofi_rxm returned -61 (No data "
            "available)\n"
            "libfabric:core:core:ofi_layering_ok():877<info> Need core provider, skipping ofi_rxm\n"
            "libfabric:core:core:fi_getinfo_():980<info> Since psm2 can be used, sockets has been skipped. "
            "To use "
            "sockets, please, set FI_PROVIDER=sockets\n"
            "libfabric:core:core:fi_getinfo_():980<info> Since psm2 can be used, tcp has been skipped. To "
            "use tcp, "
            "please, set FI_PROVIDER=tcp\n"
            "Abort(1094799) on node 0 (rank 0 in comm 0): Fatal error in PMPI_Init_thread: Other MPI error, "
            "error "
            "stack:\n"
            "MPIR_Init_thread(666)......: \n"
            "MPID_Init(922).............: \n"
            "MPIDI_NM_mpi_init_hook(719): OFI addrinfo() failed (ofi_init.h:719:MPIDI_NM_mpi_init_hook:No "
            "data "
            "available)\n"
            "libfabric:psm2:core:psmx2_fini():538<info>\n";
        QCOMPARE(detectWrap(std::string_view(log.constData(), size_t(log.size()))).width, 0);
        // Tested on its own, the pair that made the file read as wrapped.
        QVERIFY(!continuesWordWrap(
            "libfabric:core:core:fi_getinfo_():980<info> Since psm2 can be used, tcp has "
            "been skipped. To use tcp, please, set FI_PROVIDER=tcp",
            "libfabric:core:core:fi_getinfo_():1002<warn> fi_getinfo: provider ofi_rxm returned -61", 141));
    }

    // A file (not a paste) copied from a terminal that cut every line at its width: the width is seen in
    // the first read, and each cut line is read whole. The event keeps its first physical line, and the
    // lines after it keep the file's numbers. Real case 108: the NCCL WARN is cut inside "init.cc".
    void terminalCutFileReadsWhole()
    {
        QFile in(QStringLiteral(
            RANKSCOPE_TEST_DATA "/real/108-vgpu-uvm-disabled-cudamempool-not-supported/log.txt"));
        QVERIFY(in.open(QIODevice::ReadOnly));
        const QByteArray bare = in.readAll();
        const QByteArray cut = hardCut(bare, 100);
        const auto view = [](const QByteArray& b) {
            return std::string_view(b.constData(), size_t(b.size()));
        };
        QCOMPARE(detectWrap(view(bare)).width, 0);
        QCOMPARE(detectWrap(view(cut)).width, 100);
        QVERIFY(!detectWrap(view(cut)).atSpaces);

        QTemporaryDir dir;
        const auto diagnose = [&](const QString& name, const QByteArray& bytes) {
            return test::analyzeBytes(dir, name, bytes);
        };
        const Analysis want = diagnose(QStringLiteral("bare.log"), bare);
        const Analysis got = diagnose(QStringLiteral("cut.log"), cut);
        QVERIFY(want.currentAttempt() && got.currentAttempt());
        const AttemptAnalysis& w = *want.currentAttempt();
        const AttemptAnalysis& g = *got.currentAttempt();
        QCOMPARE(g.diagnosis.signature, w.diagnosis.signature);
        const LogEvent& we = w.incident.events[static_cast<size_t>(w.diagnosis.initiatingEvent)];
        const LogEvent& ge = g.incident.events[static_cast<size_t>(g.diagnosis.initiatingEvent)];
        QVERIFY2(we.text.startsWith(ge.text) && ge.text.size() == 100, qPrintable(ge.text));
        QCOMPARE(ge.line, we.line);
        // Every line of the cut file is counted, and the last event sits on its physical line.
        QList<QByteArray> lines = cut.split('\n');
        if (cut.endsWith('\n'))
            lines.removeLast();
        QCOMPARE(g.incident.files.front().lines, qint64(lines.size()));
        const LogEvent& last = g.incident.events.back();
        QVERIFY(last.line >= 1 && last.line <= lines.size());
        QVERIFY2(QString::fromUtf8(lines[int(last.line - 1)]).startsWith(last.text.left(40)),
            qPrintable(last.text));
        QVERIFY(g.incident.files.front().notes.join(u' ').contains(QLatin1String("cut at 100 columns")));
    }
};

QTEST_GUILESS_MAIN(TestPasteRejoin)
#include "tst_paste_rejoin.moc"
