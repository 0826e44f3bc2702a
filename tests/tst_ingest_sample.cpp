// SPDX-License-Identifier: MIT
// The shared sample job (2 nodes x 4 GPUs) through the whole engine: attribution, time, first WARN.
#include "ingest.h"
#include "signature_catalog.h"
#include "signature_matcher.h"

#include <QtTest>

using namespace rankscope;

class TestIngestSample : public QObject
{
    Q_OBJECT
private:
    LoadResult m_result;
    Catalog m_catalog;
    const Incident& inc() const { return m_result.incidents.front(); }

private Q_SLOTS:
    void initTestCase()
    {
        CatalogLoadResult cat = loadCatalogDir(QStringLiteral(RANKSCOPE_SOURCE_DIR "/signatures"));
        m_catalog = cat.catalog;
        SignatureMatcher matcher(m_catalog);
        LoadOptions o;
        o.paths = { QStringLiteral(RANKSCOPE_TEST_DATA "/sample-job") };
        o.catalog = &m_catalog;
        o.matcher = &matcher;
        m_result = loadIncidents(o);
        QVERIFY2(m_result.error.isEmpty(), qPrintable(m_result.error));
        QCOMPARE(m_result.incidents.size(), size_t(1));
    }

    void counts()
    {
        QCOMPARE(inc().files.size(), size_t(4));
        // Ranks 4-6 never print a line (their agent SIGTERMs them); the communicator says there are 8.
        QCOMPARE(inc().ranks.size(), size_t(5));
        QCOMPARE(inc().rankInfo(7)->nRanks, 8);
        QCOMPARE(inc().hosts().size(), 2);
        QVERIFY(inc().skipped.empty());
    }

    void rankSevenAttribution()
    {
        const RankInfo* r = inc().rankInfo(7);
        QVERIFY(r);
        QCOMPARE(r->host, QStringLiteral("gpu-a02"));
        QVERIFY(
            r->hostAliases.contains(QStringLiteral("gpu-a02.cluster.local"))); // from torchrun's FQDN summary
        QCOMPARE(r->pid, qint64(52117));
        QCOMPARE(r->localRank, 3);
        QCOMPARE(r->nvmlDev, 3);
        QCOMPARE(r->busId, QStringLiteral("0000:99:00.0"));
        QCOMPARE(r->nics.size(), size_t(1));
        QCOMPARE(r->nics.front().name, QStringLiteral("mlx5_0"));
        QCOMPARE(r->channelNics, std::vector<int> { 0 });
        QVERIFY(!r->gdr);
        QCOMPARE(r->cpuAffinity, QStringLiteral("32-63,96-127"));
        QVERIFY(r->addresses.contains(QStringLiteral("10.10.0.12")));
        QVERIFY(r->initCompleted);
    }

    void rankZeroAttribution()
    {
        const RankInfo* r = inc().rankInfo(0);
        QVERIFY(r);
        QCOMPARE(r->host, QStringLiteral("gpu-a01"));
        QCOMPARE(r->nics.size(), size_t(2));
        QVERIFY(r->gdr);
        QCOMPARE(r->busId, QStringLiteral("0000:18:00.0"));
        // Ranks 1-3 are known only from the torchrun console: [defaultN]:[rankM]: and the summary.
        for (int rank = 1; rank <= 3; ++rank) {
            const RankInfo* other = inc().rankInfo(rank);
            QVERIFY(other);
            QCOMPARE(other->host, QStringLiteral("gpu-a01"));
            QCOMPARE(other->localRank, rank);
        }
    }

    void firstWarnIsRankSevenIbCompletion()
    {
        QVERIFY(inc().firstWarn >= 0);
        const LogEvent& e = inc().events[static_cast<size_t>(inc().firstWarn)];
        QCOMPARE(e.rank, 7);
        QCOMPARE(e.host, QStringLiteral("gpu-a02"));
        QVERIFY2(e.text.contains(
                     QLatin1String("NET/IB: Got completion from peer 10.10.0.11<45819> with status=12")),
            qPrintable(e.text));
        QCOMPARE(
            inc().files[static_cast<size_t>(e.file)].displayPath, QStringLiteral("nccl.gpu-a02.52117.log"));
        QCOMPARE(e.line, qint64(32)); // line 31 is the empty line NCCL prints before a WARN
        QVERIFY(e.time.valid && !e.time.inferred);
        QCOMPARE(formatTime(e.time), QStringLiteral("2026-03-14T02:17:44"));
        // The "-> 6" return-code trail is part of the WARN's record.
        QCOMPARE(e.lineCount, 3);
        QVERIFY(e.continuation.last().contains(QLatin1String("[Progress Thread]")));
    }

    void c10MultiLineRecord()
    {
        // Rank 7's async error: continuation lines carry only [default3]: and become one event. The
        // exception quotes NCCL's error after "Last error:" (line 7); the record starts at that quoted line
        // (line 8), the exception header above it only reports it (incident/last_error_quote.h).
        bool found = false;
        for (const LogEvent& e : inc().events) {
            if (e.rank != 7 || e.line != 8)
                continue;
            found = true;
            QCOMPARE(inc().files[static_cast<size_t>(e.file)].displayPath,
                QStringLiteral("torchrun.gpu-a02.console.log"));
            QVERIFY(
                e.text.startsWith(QLatin1String("[default3]:NET/IB: Got completion from peer 10.10.0.11")));
            QVERIFY(e.lineCount > 5);
            QVERIFY(e.continuation.first().contains(QLatin1String("Exception raised from")));
            QCOMPARE(e.severity, Severity::Error);
            QVERIFY(e.time.valid); // the header's stamp stays the record's time
        }
        QVERIFY(found);
    }

    void victimsTimeOutTenMinutesLater()
    {
        int watchdog = 0;
        for (const LogEvent& e : inc().events) {
            if (e.message.contains(QLatin1String("] Watchdog caught collective operation timeout"))
                && e.message.startsWith(QLatin1String("[Rank "))) {
                ++watchdog;
                QVERIFY(e.rank >= 0 && e.rank <= 3);
                QCOMPARE(
                    formatTime(e.time), QStringLiteral("2026-03-14T02:27:44")); // c10 fractions are dropped
            }
        }
        QCOMPARE(watchdog, 4);
    }

    void torchrunSummaries()
    {
        int roots = 0;
        for (const TorchrunFailure& f : inc().torchrunFailures) {
            if (!f.rootCause)
                continue;
            ++roots;
            if (f.host.startsWith(QLatin1String("gpu-a01")))
                QCOMPARE(f.rank, 0);
            else
                QCOMPARE(f.rank, 7);
        }
        QCOMPARE(roots, 2);
    }

    void untimedFileIsSaid()
    {
        bool said = false;
        for (const QString& w : inc().warnings)
            said = said
                || (w.contains(QLatin1String("nccl.gpu-a01.41872.log"))
                    && w.contains(QLatin1String("order")));
        QVERIFY2(said, qPrintable(inc().warnings.join(QLatin1Char('\n'))));
    }

    void lineIndexCoversEveryLine()
    {
        for (const FileInfo& f : inc().files) {
            QFile file(f.path);
            QVERIFY(file.open(QIODevice::ReadOnly));
            const qint64 lines = file.readAll().count('\n');
            QCOMPARE(f.lines, lines);
        }
    }
};

QTEST_GUILESS_MAIN(TestIngestSample)
#include "tst_ingest_sample.moc"
