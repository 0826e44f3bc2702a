// SPDX-License-Identifier: MIT
// CPU sets as printed by nvidia-smi, NCCL (range lists, hex masks) and hwloc (0x-prefixed, empty groups).
#include "cpuset.h"

#include <QTest>

using namespace rankscope;

class TestTopologyCpuset : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void parse_data();
    void parse();
    void subset();
};

void TestTopologyCpuset::parse_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("ranges"); // canonical range list, or "error:<substring>"
    QTest::newRow("range-list") << "0-31,64-95"
                                << "0-31,64-95";
    QTest::newRow("single") << "5"
                            << "5";
    QTest::newRow("unsorted-overlap") << "8,0-3,2-4"
                                      << "0-4,8";
    QTest::newRow("nccl-mask-numa1") << "ffffffff,00000000,ffffffff,00000000"
                                     << "32-63,96-127";
    QTest::newRow("nccl-mask-dropped-zeros") << "ff,00000000"
                                             << "32-39";
    QTest::newRow("azure-affinity") << "00000000,0000ffff,ff000000"
                                    << "24-47";
    QTest::newRow("hwloc-empty-group") << "0x0000ffff,0xffffffff,,0x0000ffff,0xffffffff"
                                       << "0-47,96-143";
    QTest::newRow("bad-range") << "0-31,x"
                               << "error:bad CPU range \"x\"";
    QTest::newRow("reversed") << "9-3"
                              << "error:bad CPU range";
    QTest::newRow("huge") << "0-4000000000"
                          << "error:bad CPU range";
    QTest::newRow("bad-mask") << "ffffffff,zz"
                              << "error:bad CPU";
    QTest::newRow("empty") << ""
                           << "error:empty CPU list";
}

void TestTopologyCpuset::parse()
{
    QFETCH(QString, text);
    QFETCH(QString, ranges);
    const CpuSetParse p = parseCpuSet(text);
    if (ranges.startsWith(u"error:")) {
        QVERIFY2(p.error.contains(ranges.mid(6)), qPrintable(p.error));
        return;
    }
    QVERIFY2(p.error.isEmpty(), qPrintable(p.error));
    QCOMPARE(p.set.toRangeList(), ranges);
}

void TestTopologyCpuset::subset()
{
    const CpuSet numa1 = parseCpuRangeList(u"32-63,96-127").set;
    QVERIFY(parseCpuSet(u"32-63,96-127").set.isSubsetOf(numa1));
    QVERIFY(parseCpuSet(u"40-41").set.isSubsetOf(numa1));
    QVERIFY(!parseCpuSet(u"0-31,64-95").set.isSubsetOf(numa1));
    QVERIFY(!parseCpuSet(u"0-31,64-95").set.intersects(numa1));
    QVERIFY(parseCpuSet(u"30-33").set.intersects(numa1));
    QCOMPARE(numa1.count(), 64);
    QVERIFY(parseCpuSet(u"ffffffff,00000000,ffffffff,00000000").set == numa1);
}

QTEST_GUILESS_MAIN(TestTopologyCpuset)
#include "tst_topology_cpuset.moc"
