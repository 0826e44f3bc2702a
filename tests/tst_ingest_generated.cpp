// SPDX-License-Identifier: MIT
// A 64-rank generated incident in every generator layout (plain and gzip): the engine ties the injected
// fault's line to the right rank and host, and the diagnosis names that rank.
#include "diagnosis.h"
#include "incident_generator.h"
#include "ingest.h"
#include "signature_catalog.h"
#include "signature_matcher.h"

#include <QDirIterator>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using namespace rankscope;
using namespace rankscope::testgen;

Q_DECLARE_METATYPE(Layout)

class TestIngestGenerated : public QObject
{
    Q_OBJECT
private:
    Catalog m_catalog;

private Q_SLOTS:
    void initTestCase()
    {
        CatalogLoadResult cat = loadCatalogDir(QStringLiteral(RANKSCOPE_SOURCE_DIR "/signatures"));
        QVERIFY(cat.catalog.signatures.size() > 10);
        m_catalog = cat.catalog;
    }

    void faultRank_data()
    {
        QTest::addColumn<Layout>("layout");
        QTest::addColumn<bool>("gzip");
        QTest::addColumn<int>("faultRank");
        QTest::newRow("per-rank files") << Layout::PerRankFiles << false << 37;
        QTest::newRow("NCCL_DEBUG_FILE") << Layout::NcclDebugFiles << false << 21;
        QTest::newRow("torchrun --log-dir") << Layout::TorchrunLogDir << false << 50;
        QTest::newRow("combined console") << Layout::Combined << false << 13;
        QTest::newRow("per-rank files, gzip") << Layout::PerRankFiles << true << 62;
        QTest::newRow("NCCL_DEBUG_FILE, gzip") << Layout::NcclDebugFiles << true << 7;
    }

    void faultRank()
    {
        QFETCH(Layout, layout);
        QFETCH(bool, gzip);
        QFETCH(int, faultRank);
        QTemporaryDir dir;
        GenOptions g;
        g.ranks = 64;
        g.layout = layout;
        g.gzip = gzip;
        g.faultRank = faultRank;
        g.fault = Fault::IbRetryExceeded;
        g.targetBytes = 4 << 20;
        const GenResult gen = generateIncident(g, dir.path());
        QVERIFY2(gen.error.isEmpty(), qPrintable(gen.error));
        QCOMPARE(gen.faultRank, faultRank);

        SignatureMatcher matcher(m_catalog);
        LoadOptions o;
        o.paths = { dir.path() };
        o.catalog = &m_catalog;
        o.matcher = &matcher;
        const LoadResult r = loadIncidents(o);
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QCOMPARE(r.incidents.size(), size_t(1));
        const Incident& inc = r.incidents.front();
        QVERIFY(inc.skipped.empty());
        QCOMPARE(static_cast<int>(inc.ranks.size()), 64);

        // The injected line is an event of the fault rank, on its host.
        const LogEvent* fault = nullptr;
        for (const LogEvent& e : inc.events) {
            if (inc.files[static_cast<size_t>(e.file)].path == gen.faultFile && e.line == gen.faultLine)
                fault = &e;
        }
        QVERIFY2(fault, qPrintable(QStringLiteral("%1:%2").arg(gen.faultFile).arg(gen.faultLine)));
        QCOMPARE(fault->rank, faultRank);
        QCOMPARE(fault->host, gen.faultHost);
        QCOMPARE(inc.rankInfo(faultRank)->host, gen.faultHost);

        // Each rank's last step is the number of the last "step N" line its consoles print, read here with
        // a plain regular expression.
        if (!gzip) {
            static const QRegularExpression stepRe(
                QStringLiteral(R"(\[rank(\d+)\]:I\d{4} [^\]]*\] step (\d+) )"));
            QMap<int, QString> expected;
            QDirIterator files(dir.path(), QDir::Files, QDirIterator::Subdirectories);
            while (files.hasNext()) {
                QFile f(files.next());
                QVERIFY(f.open(QIODevice::ReadOnly));
                while (!f.atEnd()) {
                    const QRegularExpressionMatch m = stepRe.match(QString::fromUtf8(f.readLine()));
                    if (m.hasMatch())
                        expected[m.captured(1).toInt()] = m.captured(2);
                }
            }
            if (layout == Layout::Combined || layout == Layout::NcclDebugFiles)
                QCOMPARE(expected.size(), 64);
            for (auto it = expected.cbegin(); it != expected.cend(); ++it)
                QCOMPARE(inc.rankInfo(it.key())->lastStep, it.value());
        }

        const Diagnosis d = diagnose(inc, m_catalog);
        QVERIFY(d.failureFound);
        QVERIFY(d.initiatingEvent >= 0);
        QCOMPARE(inc.events[static_cast<size_t>(d.initiatingEvent)].rank, faultRank);
    }
};

QTEST_GUILESS_MAIN(TestIngestGenerated)
#include "tst_ingest_generated.moc"
