// SPDX-License-Identifier: MIT
// Every supported layout and console format, one row each, on small fixtures written from the real
// templates (tests/data/layouts): the incident count, one rank's attribution, and who warned first.
#include "file_lines.h"
#include "ingest.h"

#include <QFile>
#include <QProcess>
#include <QtTest>

using namespace rankscope;

namespace {

QString layout(const QString& name)
{
    return QStringLiteral(RANKSCOPE_TEST_DATA "/layouts/") + name;
}

// A layout fixture as the window takes it: a folder or file to read, or a file's text pasted.
LoadOptions optionsFor(const QString& input, bool pasted)
{
    LoadOptions o;
    if (pasted) {
        QFile f(layout(input));
        if (f.open(QIODevice::ReadOnly))
            o.pastedText = QString::fromUtf8(f.readAll());
    } else {
        o.paths = { layout(input) };
    }
    return o;
}

} // namespace

class TestIngestLayouts : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void layouts_data()
    {
        QTest::addColumn<QString>("input");
        QTest::addColumn<bool>("pasted");
        QTest::addColumn<int>("incidents");
        QTest::addColumn<int>("rank"); // a rank to look at (-1: none)
        QTest::addColumn<QString>("host");
        QTest::addColumn<int>("localRank");
        QTest::addColumn<int>("warnRank"); // rank of the first WARN or worse of the current incident
        QTest::addColumn<int>("warnLocalRank");

        QTest::newRow("per-rank files") << "per-rank" << false << 1 << 3 << "gpu-a01" << 3 << 3 << 3;
        QTest::newRow("host folders") << "host-folders" << false << 1 << 5 << "gpu-b02" << -1 << 5 << -1;
        QTest::newRow("NCCL_DEBUG_FILE") << "nccl-debug-file" << false << 1 << 7 << "gpu-a02" << 3 << 7 << 3;
        QTest::newRow("torchrun --log-dir")
            << "torchrun-log-dir" << false << 2 << 5 << "gpu-c03" << 1 << 5 << 1;
        QTest::newRow("srun --label") << "srun-label" << false << 1 << 12 << "gpu-d01" << -1 << 12 << -1;
        QTest::newRow("torchrun --tee") << "tee-console" << false << 1 << 7 << "" << 3 << 7 << 3;
        QTest::newRow("[rankN]: prefix") << "rank-prefix" << false << 1 << 2 << "" << -1 << 7 << -1;
        QTest::newRow("MPICH -prepend-rank") << "mpich" << false << 1 << 5 << "gpu-e01" << -1 << 5 << -1;
        // trainer0's watchdog names "[Rank 0]": the first attributed WARN is rank 0's.
        QTest::newRow("TorchX") << "torchx" << false << 1 << -1 << "" << -1 << 0 << 0;
        QTest::newRow("Ray") << "ray" << false << 1 << 2 << "gpu-a03" << -1 << 2 << -1;
        QTest::newRow("pdsh") << "pdsh" << false << 1 << 9 << "gpu-a04" << -1 << 9 << -1;
        QTest::newRow("restart: new NCCL banner")
            << "restart-banner" << false << 2 << 6 << "gpu-a05" << -1 << 6 << -1;
        QTest::newRow("restart: torchrun agent") << "restart-agent" << false << 2 << 1 << "" << 1 << 1 << 1;
        QTest::newRow("nccl-tests -g 2") << "nccl-tests" << false << 1 << 1 << "fengyun" << -1 << 1 << -1;
        QTest::newRow("gzip, two members") << "gzip-multi" << false << 1 << 5 << "gpu-a07" << -1 << 5 << -1;
        QTest::newRow("pasted from an issue")
            << "pasted/issue-comment.md" << true << 1 << 3 << "" << -1 << 3 << -1;
    }

    void layouts()
    {
        QFETCH(QString, input);
        QFETCH(bool, pasted);
        QFETCH(int, incidents);
        QFETCH(int, rank);
        QFETCH(QString, host);
        QFETCH(int, localRank);
        QFETCH(int, warnRank);
        QFETCH(int, warnLocalRank);

        LoadOptions o = optionsFor(input, pasted);
        QVERIFY(!o.paths.isEmpty() || !o.pastedText.isEmpty());
        const LoadResult r = loadIncidents(o);
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QCOMPARE(static_cast<int>(r.incidents.size()), incidents);
        QCOMPARE(r.current, incidents - 1);
        const Incident& inc = r.incidents[static_cast<size_t>(r.current)];
        QVERIFY(inc.skipped.empty());
        if (rank >= 0) {
            const RankInfo* info = inc.rankInfo(rank);
            QVERIFY2(info, qPrintable(QStringLiteral("rank %1 missing").arg(rank)));
            QCOMPARE(info->host, host);
            if (localRank >= 0)
                QCOMPARE(info->localRank, localRank);
            QVERIFY(!info->files.empty());
        }
        QVERIFY(inc.firstWarn >= 0);
        const LogEvent& first = inc.events[static_cast<size_t>(inc.firstWarn)];
        QCOMPARE(first.rank, warnRank);
        if (warnLocalRank >= 0)
            QCOMPARE(first.localRank, warnLocalRank);
        // Nothing is dropped: every file's lines are indexed.
        for (const FileInfo& f : inc.files)
            QVERIFY(f.lines > 0);
    }

    // The CLI scans without per-line offsets: every layout must give the same incidents, line counts and
    // attempt sizes, and a file opened afterwards is indexed to the offsets the scan would have kept.
    void withoutLineIndex_data() { layouts_data(); }
    void withoutLineIndex()
    {
        QFETCH(QString, input);
        QFETCH(bool, pasted);
        LoadOptions o = optionsFor(input, pasted);
        QVERIFY(!o.paths.isEmpty() || !o.pastedText.isEmpty());
        const LoadResult indexed = loadIncidents(o);
        o.lineIndex = false;
        const LoadResult bare = loadIncidents(o);
        QCOMPARE(bare.incidents.size(), indexed.incidents.size());
        for (size_t k = 0; k < indexed.incidents.size(); ++k) {
            const Incident& a = indexed.incidents[k];
            const Incident& b = bare.incidents[k];
            QCOMPARE(b.files.size(), a.files.size());
            for (size_t i = 0; i < a.files.size(); ++i) {
                const FileInfo& fa = a.files[i];
                const FileInfo& fb = b.files[i];
                QCOMPARE(fb.lines, fa.lines);
                QCOMPARE(fb.bytes, fa.bytes);
                QCOMPARE(fb.unattributedLines, fa.unattributedLines);
                QCOMPARE(static_cast<qint64>(fa.lineOffsets.size()), fa.lines);
                if (!fb.content.isEmpty() || fb.path.endsWith(QLatin1String("/error.json"))) {
                    // In-memory text has no file to index again, and error.json is read whole.
                    QCOMPARE(fb.lineOffsets, fa.lineOffsets);
                    continue;
                }
                QVERIFY(fb.lineOffsets.empty());
                const FileLinesResult opened = FileLines::open(fb);
                const FileLinesResult kept = FileLines::open(fa);
                QVERIFY2(opened.lines && kept.lines, qPrintable(opened.error + kept.error));
                QCOMPARE(opened.lines->count(), fa.lines);
                for (qint64 l = 0; l < fa.lines; ++l)
                    QCOMPARE(opened.lines->rawLine(l), kept.lines->rawLine(l));
            }
            QCOMPARE(b.events.size(), a.events.size());
            for (size_t e = 0; e < a.events.size(); ++e) {
                QCOMPARE(b.events[e].file, a.events[e].file);
                QCOMPARE(b.events[e].line, a.events[e].line);
                QCOMPARE(b.events[e].text, a.events[e].text);
            }
        }
    }

    // error.json becomes a stamped ERROR of its local rank, with the callstack as its continuation.
    void errorJson()
    {
        LoadOptions o;
        o.paths = { layout(QStringLiteral("torchrun-log-dir")) };
        const LoadResult r = loadIncidents(o);
        QCOMPARE(r.incidents.size(), size_t(2));
        const Incident& inc = r.incidents.back();
        QCOMPARE(inc.label, QStringLiteral("attempt_1"));
        const LogEvent* err = nullptr;
        for (const LogEvent& e : inc.events) {
            if (inc.files[static_cast<size_t>(e.file)].path.endsWith(QLatin1String("error.json")))
                err = &e;
        }
        QVERIFY(err);
        QCOMPARE(err->severity, Severity::Error);
        QCOMPARE(err->localRank, 1);
        QCOMPARE(err->rank, 5);
        QVERIFY(err->time.valid && !err->time.inferred);
        QCOMPARE(err->time.ms, qint64(1773454660) * 1000);
        QVERIFY(err->message.startsWith(QLatin1String("RuntimeError: NCCL communicator was aborted")));
        QVERIFY(err->continuation.contains(QStringLiteral("Traceback (most recent call last):")));
        // The plain-string variant, in attempt_0.
        const Incident& first = r.incidents.front();
        bool plain = false;
        for (const LogEvent& e : first.events)
            plain = plain || e.message == QLatin1String("ValueError: plain string message");
        QVERIFY(plain);
    }

    // Continuation lines with only "[default3]:" join the c10 record instead of being events of their own.
    void teeContinuation()
    {
        LoadOptions o;
        o.paths = { layout(QStringLiteral("tee-console")) };
        const LoadResult r = loadIncidents(o);
        const Incident& inc = r.incidents.front();
        const LogEvent* rank7 = nullptr;
        for (const LogEvent& e : inc.events) {
            if (e.rank == 7)
                rank7 = &e;
        }
        QVERIFY(rank7);
        QCOMPARE(rank7->lineCount, 3);
        // "[default0]:some plain output" has no rank of its own in a console without [rank0]: for default0
        // except the c10 line: it is attributed through the tee map, not dropped.
        QCOMPARE(inc.files.front().lines, qint64(5));
    }

    // The restarted file's attempts each keep their own events and lines.
    void restartSplitsEvents()
    {
        LoadOptions o;
        o.paths = { layout(QStringLiteral("restart-banner")) };
        const LoadResult r = loadIncidents(o);
        QCOMPARE(r.incidents.size(), size_t(2));
        QCOMPARE(r.incidents[0].label, QStringLiteral("attempt_0"));
        bool warnInFirst = false;
        for (const LogEvent& e : r.incidents[0].events)
            warnInFirst = warnInFirst || (e.severity == Severity::Warn && e.line == 4);
        QVERIFY(warnInFirst);
        for (const LogEvent& e : r.incidents[1].events)
            QVERIFY(e.line >= 5);
        QCOMPARE(r.incidents[0].rankInfo(6)->pid, qint64(1111));
        QCOMPARE(r.incidents[1].rankInfo(6)->pid, qint64(2222));
        // The attempts split the file's bytes between them, with or without a line index.
        for (const bool lineIndex : { true, false }) {
            o.lineIndex = lineIndex;
            const LoadResult split = loadIncidents(o);
            QCOMPARE(split.incidents.size(), size_t(2));
            const FileInfo& first = split.incidents[0].files.front();
            const FileInfo& second = split.incidents[1].files.front();
            QCOMPARE(first.path, second.path);
            QCOMPARE(first.bytes + second.bytes, QFileInfo(first.path).size());
            QFile file(first.path);
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QByteArray head = file.read(first.bytes);
            QVERIFY(head.endsWith('\n'));
            QVERIFY(file.readLine().contains("NCCL version")); // the second attempt starts at its banner
        }
    }

    // "-" reads stdin: the CLI diagnoses a console piped into it, and mixes it with a folder.
    void stdinInput()
    {
        QFile console(layout(QStringLiteral("tee-console/torchrun.gpu-a02.console.log")));
        QVERIFY(console.open(QIODevice::ReadOnly));
        QProcess cli;
        cli.start(QStringLiteral(RANKSCOPE_BINARY),
            { QStringLiteral("diagnose"), QStringLiteral("-"), layout(QStringLiteral("per-rank")) });
        QVERIFY(cli.waitForStarted());
        cli.write(console.readAll());
        cli.closeWriteChannel();
        QVERIFY(cli.waitForFinished(20000));
        const QString out = QString::fromUtf8(cli.readAllStandardOutput());
        QVERIFY2(cli.exitCode() <= 1, qPrintable(QString::fromUtf8(cli.readAllStandardError())));
        QVERIFY2(out.contains(QStringLiteral("<stdin>")) || out.contains(QStringLiteral("rank 7"))
                || out.contains(QStringLiteral("rank 3")),
            qPrintable(out));
    }

    // Several inputs at once: files and folders side by side make one incident.
    void severalInputs()
    {
        LoadOptions o;
        o.paths = { layout(QStringLiteral("per-rank/rank0.log")), layout(QStringLiteral("nccl-debug-file")),
            layout(QStringLiteral("host-folders")) };
        const LoadResult r = loadIncidents(o);
        QCOMPARE(r.incidents.size(), size_t(1));
        const Incident& inc = r.incidents.front();
        QCOMPARE(inc.files.size(), size_t(4));
        QVERIFY(inc.rankInfo(0) && inc.rankInfo(7) && inc.rankInfo(5));
        QCOMPARE(inc.rankInfo(5)->host, QStringLiteral("gpu-b02"));
    }

    // -g 2: one process, two GPUs, two ranks keyed by device.
    void ncclTestsDevices()
    {
        LoadOptions o;
        o.paths = { layout(QStringLiteral("nccl-tests")) };
        const Incident inc = loadIncidents(o).incidents.front();
        QVERIFY(inc.rankInfo(0) && inc.rankInfo(1));
        QCOMPARE(inc.rankInfo(0)->pid, qint64(3164639));
        QCOMPARE(inc.rankInfo(1)->pid, qint64(3164639));
    }
};

QTEST_GUILESS_MAIN(TestIngestLayouts)
#include "tst_ingest_layouts.moc"
