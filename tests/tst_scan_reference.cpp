// SPDX-License-Identifier: MIT
// scanFile() against the plain line-by-line reference scan (reference_scan.h): every test input, then the
// shapes where reads, windows and the block search could change a result (an atom or a level word cut by a
// read boundary, lines of 1 MiB and more, CR-only and CRLF files, colour codes, NUL bytes, a truncated
// gzip, generated incidents in every layout). The incidents must agree field by field: attribution, event
// times and order, records, counts, line offsets, notes.
#include "incident_compare.h"
#include "incident_generator.h"
#include "ingest.h"
#include "reference_scan.h"
#include "signature_catalog.h"
#include "signature_matcher.h"

#include <QDir>
#include <QDirIterator>
#include <QTemporaryDir>
#include <QtTest>
#include <zlib.h>

using namespace rankscope;
using namespace rankscope::testgen;

Q_DECLARE_METATYPE(Layout)

class TestScanReference : public QObject
{
    Q_OBJECT
private:
    Catalog m_catalog;
    std::unique_ptr<SignatureMatcher> m_matcher;
    QTemporaryDir m_scratch;

    LoadResult load(const QString& path, bool reference, bool lineIndex = true)
    {
        LoadOptions o;
        o.paths = { path };
        o.catalog = &m_catalog;
        o.matcher = m_matcher.get();
        o.lineIndex = lineIndex;
        if (reference)
            o.scanner = &testing::referenceScan;
        return loadIncidents(o);
    }

    // The fast load, after comparing it with the reference, with and without line offsets kept.
    LoadResult compare(const QString& path)
    {
        LoadResult fast;
        for (const bool lineIndex : { true, false }) {
            fast = load(path, false, lineIndex);
            const LoadResult slow = load(path, true, lineIndex);
            const QString difference = testing::loadDifference(fast, slow);
            if (!difference.isEmpty()) {
                QTest::qFail(qPrintable(path + QStringLiteral(": ") + difference), __FILE__, __LINE__);
                return {};
            }
        }
        return fast;
    }

    QString write(const QString& name, const QByteArray& bytes)
    {
        const QString path = m_scratch.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size())
            return {};
        return path;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_scratch.isValid());
        CatalogLoadResult cat = loadCatalogDir(QStringLiteral(RANKSCOPE_SOURCE_DIR "/signatures"));
        QVERIFY(cat.catalog.signatures.size() > 10);
        m_catalog = cat.catalog;
        m_matcher = std::make_unique<SignatureMatcher>(m_catalog);
        QVERIFY(m_matcher->isValid());
    }

    void everyTestInput_data()
    {
        QTest::addColumn<QString>("input");
        const QString data = QStringLiteral(RANKSCOPE_TEST_DATA);
        for (const QString& top : { QStringLiteral("layouts"), QStringLiteral("diagnosis"),
                 QStringLiteral("launch"), QStringLiteral("real"), QStringLiteral("real-found") }) {
            const QDir dir(data + QLatin1Char('/') + top);
            for (const QString& name : dir.entryList(QDir::Dirs | QDir::Files | QDir::NoDotAndDotDot))
                QTest::newRow(qPrintable(top + QLatin1Char('/') + name)) << dir.filePath(name);
        }
        QTest::newRow("sample-job") << data + QStringLiteral("/sample-job");
    }

    void everyTestInput()
    {
        QFETCH(QString, input);
        const LoadResult fast = compare(input);
        QVERIFY(fast.error.isEmpty() || fast.incidents.empty());
    }

    // An atom, a level word and a restart phrase at every offset around the first read's end (128 KiB):
    // the window search sees them cut, the carried line sees them whole.
    void wordsAcrossTheReadBoundary_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::newRow("NCCL WARN") << QByteArray("host:1:2 [0] NCCL WARN Call to ibv_reg_mr failed");
        QTest::newRow("level word") << QByteArray("2026-03-14 02:04:13,341 - ERROR - train.py:88 - boom");
        QTest::newRow("exception") << QByteArray("RuntimeError: NCCL error: unhandled system error");
        QTest::newRow("restart") << QByteArray("[default] Worker group FAILED; will restart worker group");
    }

    void wordsAcrossTheReadBoundary()
    {
        QFETCH(QByteArray, line);
        const QByteArray filler("2026-03-14 02:04:13,341 - INFO - train.py:88 - rank 3: step 1 loss 10.3\n");
        for (int shift = -40; shift <= 8; shift += 3) {
            QByteArray log;
            while (log.size() < (128 << 10) - line.size() / 2 + shift)
                log += filler;
            log.chop(std::max<qsizetype>(0, log.size() - ((128 << 10) - line.size() / 2 + shift)));
            log += '\n' + line + '\n' + filler;
            const LoadResult fast = compare(write(QStringLiteral("boundary-%1.log").arg(shift + 100), log));
            QVERIFY(!fast.incidents.empty());
        }
    }

    // Lines of about 1 MiB end before, at and after the cut, inside one read or across eight.
    void longLines()
    {
        const qint64 mib = kMaxLineBytes;
        for (const qint64 length : { mib - 1, mib, mib + 1, mib + 5000, mib + (128 << 10) + 7, 3 * mib }) {
            for (const qint64 before : { qint64(0), qint64(100), qint64(128 << 10) - 3 }) {
                QByteArray log(before, 'a');
                log += "\nhost:1:2 [0] NCCL WARN before the long line\n";
                log += QByteArray(length, 'x');
                log += "\nhost:1:2 [0] NCCL WARN after the long line\n";
                const LoadResult fast =
                    compare(write(QStringLiteral("long-%1-%2.log").arg(length).arg(before), log));
                QVERIFY(!fast.incidents.empty());
                QVERIFY(fast.incidents.front().events.size() >= 2);
            }
        }
    }

    // Repeat folding runs before a line once enough events came: the fast scan (shortcuts, block search,
    // lines skipped whole) and the reference must fold the same events into the same ones. NCCL INFO lines
    // the shortcuts take, WARNs with return trails, glog warnings and tracebacks of four ranks, repeated.
    void repeatsFoldAlike()
    {
        QByteArray log;
        for (int i = 0; i < 4000; ++i) {
            const int rank = i % 4;
            log += QStringLiteral("node1:%1:%2 [%3] NCCL INFO Channel 00/0 : %3[%3] -> %4[%4] via P2P/IPC\n")
                       .arg(100 + rank)
                       .arg(200 + rank)
                       .arg(rank)
                       .arg((rank + 1) % 4)
                       .toUtf8();
            log +=
                QStringLiteral("node1:%1:%2 [%3] transport/net_ib.cc:%4 NCCL WARN NET/IB : Got async event : "
                               "port error\nnode1:%1:%2 [%3] NCCL INFO transport/net.cc:%4 -> 6\n")
                    .arg(100 + rank)
                    .arg(300 + rank)
                    .arg(rank)
                    .arg(1000 + i % 7)
                    .toUtf8();
            log +=
                QStringLiteral("[rank%1]:[W1206 18:44:%2.%3 reducer.cpp:1400] Warning: grad strides do not "
                               "match bucket view strides (step %4)\n")
                    .arg(rank)
                    .arg(10 + i / 1000)
                    .arg(i % 1000, 6, 10, QLatin1Char('0'))
                    .arg(i)
                    .toUtf8();
            if (i % 500 == 7)
                log += QStringLiteral(
                    "[rank%1]:Traceback (most recent call last):\n[rank%1]:  File \"t.py\", line "
                    "%2, in <module>\n[rank%1]:RuntimeError: NCCL error in: step %2\n")
                           .arg(rank)
                           .arg(i)
                           .toUtf8();
        }
        const LoadResult fast = compare(write(QStringLiteral("repeats.log"), log));
        QVERIFY(!fast.incidents.empty());
        qint64 folded = 0;
        for (const LogEvent& e : fast.incidents.front().events)
            folded += e.repeats;
        QVERIFY2(folded > 7000, qPrintable(QString::number(folded))); // of 8,000 WARNs and warnings
    }

    // Line ends, colour codes, NUL bytes and a missing last newline.
    void oddBytes_data()
    {
        QTest::addColumn<QByteArray>("log");
        const QByteArray lines = "host:1:2 [0] NCCL INFO Init START\nhost:1:2 [0] NCCL WARN Error : ring 0\n"
                                 "RuntimeError: boom\nplain\n";
        QTest::newRow("CRLF") << QByteArray(lines).replace("\n", "\r\n");
        QTest::newRow("CR only") << QByteArray(lines).replace("\n", "\r");
        QTest::newRow("colour") << QByteArray(lines).replace("NCCL", "\x1b[31mNCCL\x1b[0m");
        QTest::newRow("NUL late") << QByteArray(9000, 'a') + '\n' + lines + QByteArray("x\0y\n", 4);
        QTest::newRow("no last newline") << QByteArray(lines).chopped(1);
        QTest::newRow("empty lines") << QByteArray("\n\n\n") + lines + "\n\n";
    }

    void oddBytes()
    {
        QFETCH(QByteArray, log);
        compare(write(
            QStringLiteral("%1.log").arg(
                QString::fromLatin1(QTest::currentDataTag()).replace(QLatin1Char(' '), QLatin1Char('-'))),
            log));
    }

    // A gzip cut in the middle: what was decompressed is kept, its last unfinished line included.
    void truncatedGzip()
    {
        QByteArray log;
        for (int i = 0; i < 4000; ++i)
            log += "host:1:2 [0] NCCL INFO AllReduce: opCount " + QByteArray::number(i, 16) + " sendbuff\n";
        log += "host:1:2 [0] NCCL WARN NET/IB : Got completion from peer 10.0.0.2<1> with status=12\n";
        uLongf size = compressBound(static_cast<uLong>(log.size())) + 64;
        QByteArray gz(static_cast<qsizetype>(size), '\0');
        z_stream z {};
        QCOMPARE(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
        z.next_in = reinterpret_cast<Bytef*>(log.data());
        z.avail_in = static_cast<uInt>(log.size());
        z.next_out = reinterpret_cast<Bytef*>(gz.data());
        z.avail_out = static_cast<uInt>(gz.size());
        QCOMPARE(deflate(&z, Z_FINISH), Z_STREAM_END);
        gz.resize(static_cast<qsizetype>(z.total_out));
        deflateEnd(&z);
        const LoadResult fast = compare(write(QStringLiteral("cut.log.gz"), gz.left(gz.size() * 2 / 3)));
        QVERIFY(!fast.incidents.empty());
        QVERIFY(fast.incidents.front().files.front().lines > 100);
    }

    void generated_data()
    {
        QTest::addColumn<Layout>("layout");
        QTest::newRow("combined console") << Layout::Combined;
        QTest::newRow("NCCL_DEBUG_FILE") << Layout::NcclDebugFiles;
        QTest::newRow("per-rank files") << Layout::PerRankFiles;
        QTest::newRow("torchrun --log-dir") << Layout::TorchrunLogDir;
    }

    void generated()
    {
        QFETCH(Layout, layout);
        QTemporaryDir dir;
        GenOptions g;
        g.ranks = 16;
        g.layout = layout;
        g.fault = Fault::IbRetryExceeded;
        g.targetBytes = 2 << 20;
        const GenResult gen = generateIncident(g, dir.path());
        QVERIFY2(gen.error.isEmpty(), qPrintable(gen.error));
        const LoadResult fast = compare(dir.path());
        QVERIFY(!fast.incidents.empty());
    }
};

QTEST_GUILESS_MAIN(TestScanReference)
#include "tst_scan_reference.moc"
