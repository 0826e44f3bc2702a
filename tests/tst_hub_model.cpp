// SPDX-License-Identifier: MIT
// The hub's tree of families and entries, checked by QAbstractItemModelTester, and its text filter.
#include "hub_model.h"
#include "signature_catalog.h"

#include <QAbstractItemModelTester>
#include <QSet>
#include <QTest>

using namespace rankscope;

namespace {
const QString kRepoCatalog = QStringLiteral(RANKSCOPE_SOURCE_DIR "/signatures");
} // namespace

class TestHubModel : public QObject
{
    Q_OBJECT
    Catalog m_catalog;

private Q_SLOTS:
    void initTestCase()
    {
        const CatalogLoadResult loaded = loadCatalogDir(kRepoCatalog);
        QVERIFY2(loaded.ok(), qPrintable(loaded.errors.join(QLatin1Char('\n'))));
        m_catalog = loaded.catalog;
    }

    void treeHoldsEveryEntryOnceUnderItsFamily()
    {
        HubModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setCatalog(&m_catalog);
        QCOMPARE(model.familyCount(), m_catalog.familyCount());
        QSet<int> seen;
        for (int f = 0; f < model.rowCount(); ++f) {
            const QModelIndex family = model.index(f, 0);
            QCOMPARE(family.data(HubModel::SignatureIndexRole).toInt(), -1);
            const QString name = family.data(HubModel::FamilyRole).toString();
            QVERIFY(family.data().toString().startsWith(name));
            for (int r = 0; r < model.rowCount(family); ++r) {
                const QModelIndex entry = model.index(r, 0, family);
                QCOMPARE(entry.parent(), family);
                const int s = entry.data(HubModel::SignatureIndexRole).toInt();
                const Signature& sig = m_catalog.signatures[static_cast<std::size_t>(s)];
                QCOMPARE(sig.family, name);
                QCOMPARE(entry.data().toString(), sig.title);
                QCOMPARE(entry.data(HubModel::IdRole).toString(), sig.id);
                QCOMPARE(entry.data(HubModel::RoleNameRole).toString(), signatureRoleName(sig.role));
                QCOMPARE(model.rowCount(entry), 0);
                QVERIFY(!seen.contains(s));
                seen.insert(s);
                QCOMPARE(model.indexOfId(sig.id), entry);
            }
        }
        QCOMPARE(seen.size(), static_cast<qsizetype>(m_catalog.signatures.size()));
        QVERIFY(!model.indexOfId(QStringLiteral("no-such-signature")).isValid());
        model.setCatalog(nullptr); // a reset to nothing is a valid model too
        QCOMPARE(model.rowCount(), 0);
    }

    void filterFindsByEveryField_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("id") << QStringLiteral("nccl-shm-too-small") << QStringLiteral("nccl-shm-too-small");
        QTest::newRow("example words")
            << QStringLiteral("failed to extend /dev/shm") << QStringLiteral("nccl-shm-too-small");
        const Catalog catalog = loadCatalogDir(kRepoCatalog).catalog;
        const Signature& shm = catalog.signatures[static_cast<std::size_t>(
            catalog.indexOf(QStringLiteral("nccl-shm-permission-denied")))];
        QTest::newRow("title, upper case") << shm.title.toUpper() << shm.id;
        QTest::newRow("example line") << shm.examplesMatch.first() << shm.id;
    }

    void filterFindsByEveryField()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        HubModel model;
        model.setCatalog(&m_catalog);
        HubFilterProxy proxy;
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.setSourceModel(&model);
        const int all = proxy.acceptedEntryCount();
        QCOMPARE(all, static_cast<int>(m_catalog.signatures.size()));
        proxy.setFilterWords(text);
        const int left = proxy.acceptedEntryCount();
        QVERIFY(left >= 1);
        QVERIFY(left < all);
        QVERIFY(proxy.mapFromSource(model.indexOfId(expected)).isValid());
        // Every family left has an entry left; every entry left holds every word.
        for (int f = 0; f < proxy.rowCount(); ++f) {
            const QModelIndex family = proxy.index(f, 0);
            QVERIFY(proxy.rowCount(family) > 0);
            for (int r = 0; r < proxy.rowCount(family); ++r) {
                const QString hay = proxy.index(r, 0, family).data(HubModel::SearchTextRole).toString();
                for (const QString& w : text.toLower().split(QLatin1Char(' '), Qt::SkipEmptyParts))
                    QVERIFY(hay.contains(w));
            }
        }
        proxy.setFilterWords(QStringLiteral("zzqx-nothing-has-this"));
        QCOMPARE(proxy.rowCount(), 0);
        proxy.setFilterWords(QString());
        QCOMPARE(proxy.acceptedEntryCount(), all);
    }
};

QTEST_GUILESS_MAIN(TestHubModel)
#include "tst_hub_model.moc"
