// The scanner's per-line shortcuts (a repeated NCCL prefix, a repeated glog header, a plain message) must
// never change a result: every input is loaded with and without them and the incidents compared field by
// field. The layouts and the sample job, then generated incidents in every layout with their faults.
#include "incident_generator.h"
#include "ingest.h"
#include "signature_catalog.h"
#include "signature_matcher.h"

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

using namespace rankscope;
using namespace rankscope::testgen;

Q_DECLARE_METATYPE(Layout)
Q_DECLARE_METATYPE(Fault)

namespace {

QString describe(const LogEvent& e)
{
    QStringList captures;
    for (const Capture& c : e.captures)
        captures << c.first + QLatin1Char('=') + c.second;
    return QStringLiteral(
        "%1:%2 +%3 sev %4 t %5/%6/%7 rank %8 local %9 host %10 pid %11 dev %12 sig %13 [%14] %15 | %16 | %17")
        .arg(e.file)
        .arg(e.line)
        .arg(e.lineCount)
        .arg(static_cast<int>(e.severity))
        .arg(e.time.ms)
        .arg(e.time.valid)
        .arg(e.time.inferred)
        .arg(e.rank)
        .arg(e.localRank)
        .arg(e.host)
        .arg(e.pid)
        .arg(e.device)
        .arg(e.signature)
        .arg(captures.join(QLatin1Char(',')), e.text, e.message, e.continuation.join(QLatin1Char('\n')));
}

QString describe(const RankInfo& r)
{
    return QStringLiteral(
        "rank %1 host %2 pid %3 local %4 step %5 first %6 last %7 known %8 counts %9/%10/%11/%12 "
        "warn %13 files %14")
        .arg(r.rank)
        .arg(r.host)
        .arg(r.pid)
        .arg(r.localRank)
        .arg(r.lastStep)
        .arg(r.firstTime.ms)
        .arg(r.lastTime.ms)
        .arg(r.timesKnown)
        .arg(r.severityCounts[0])
        .arg(r.severityCounts[1])
        .arg(r.severityCounts[2])
        .arg(r.severityCounts[3])
        .arg(r.firstWarn)
        .arg(static_cast<int>(r.files.size()));
}

void compareIncidents(const Incident& fast, const Incident& full)
{
    QCOMPARE(fast.label, full.label);
    QCOMPARE(fast.files.size(), full.files.size());
    for (size_t i = 0; i < full.files.size(); ++i) {
        QCOMPARE(fast.files[i].lines, full.files[i].lines);
        QCOMPARE(fast.files[i].unattributedLines, full.files[i].unattributedLines);
        QCOMPARE(fast.files[i].hasTimestamps, full.files[i].hasTimestamps);
    }
    QCOMPARE(fast.events.size(), full.events.size());
    for (size_t i = 0; i < full.events.size(); ++i)
        QCOMPARE(describe(fast.events[i]), describe(full.events[i]));
    QCOMPARE(fast.ranks.size(), full.ranks.size());
    for (size_t i = 0; i < full.ranks.size(); ++i)
        QCOMPARE(describe(fast.ranks[i]), describe(full.ranks[i]));
    QCOMPARE(fast.firstWarn, full.firstWarn);
    QCOMPARE(fast.warnings, full.warnings);
}

} // namespace

class TestScanShortcuts : public QObject
{
    Q_OBJECT
private:
    Catalog m_catalog;
    std::unique_ptr<SignatureMatcher> m_matcher;

    void compareLoads(const QString& path)
    {
        LoadOptions o;
        o.paths = { path };
        o.catalog = &m_catalog;
        o.matcher = m_matcher.get();
        const LoadResult fast = loadIncidents(o);
        o.shortcuts = false;
        const LoadResult full = loadIncidents(o);
        QCOMPARE(fast.error, full.error);
        QCOMPARE(fast.incidents.size(), full.incidents.size());
        QVERIFY(!full.incidents.empty());
        for (size_t k = 0; k < full.incidents.size(); ++k) {
            compareIncidents(fast.incidents[k], full.incidents[k]);
            if (QTest::currentTestFailed())
                return;
        }
    }

private Q_SLOTS:
    void initTestCase()
    {
        CatalogLoadResult cat = loadCatalogDir(QStringLiteral(RANKSCOPE_SOURCE_DIR "/signatures"));
        QVERIFY(cat.catalog.signatures.size() > 10);
        m_catalog = cat.catalog;
        m_matcher = std::make_unique<SignatureMatcher>(m_catalog);
        QVERIFY(m_matcher->isValid());
    }

    void fixtures_data()
    {
        QTest::addColumn<QString>("input");
        QTest::newRow("sample job") << "sample-job";
        const QDir layouts(QStringLiteral(RANKSCOPE_TEST_DATA "/layouts"));
        for (const QString& name : layouts.entryList(QDir::Dirs | QDir::NoDotAndDotDot))
            QTest::newRow(qPrintable(name)) << QStringLiteral("layouts/") + name;
    }

    void fixtures()
    {
        QFETCH(QString, input);
        compareLoads(QStringLiteral(RANKSCOPE_TEST_DATA "/") + input);
    }

    void generated_data()
    {
        QTest::addColumn<Layout>("layout");
        QTest::addColumn<Fault>("fault");
        QTest::newRow("combined console, IB") << Layout::Combined << Fault::IbRetryExceeded;
        QTest::newRow("combined console, hang") << Layout::Combined << Fault::Hang;
        QTest::newRow("NCCL_DEBUG_FILE, GDR") << Layout::NcclDebugFiles << Fault::GdrCrossNuma;
        QTest::newRow("per-rank files, shm") << Layout::PerRankFiles << Fault::ShmTooSmall;
        QTest::newRow("torchrun --log-dir, none") << Layout::TorchrunLogDir << Fault::None;
    }

    void generated()
    {
        QFETCH(Layout, layout);
        QFETCH(Fault, fault);
        QTemporaryDir dir;
        GenOptions g;
        g.ranks = 32;
        g.layout = layout;
        g.fault = fault;
        g.targetBytes = 3 << 20;
        const GenResult gen = generateIncident(g, dir.path());
        QVERIFY2(gen.error.isEmpty(), qPrintable(gen.error));
        compareLoads(dir.path());
    }
};

QTEST_GUILESS_MAIN(TestScanShortcuts)
#include "tst_scan_shortcuts.moc"
