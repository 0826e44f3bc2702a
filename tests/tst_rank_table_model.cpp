// SPDX-License-Identifier: MIT
// RankTableModel on the sample job (analyze(), as the window runs it): the model's contract under
// QAbstractItemModelTester, its rows and columns, sorting by rank and by first-WARN time through a proxy,
// and the status of rank 7, whose IB completion error starts the failure.
#include "analysis.h"
#include "rank_table_model.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QtTest>
#include <algorithm>
#include <memory>

using namespace rankscope;

namespace {

QList<int> ranksInOrder(const QAbstractItemModel& model)
{
    QList<int> ranks;
    for (int row = 0; row < model.rowCount(); ++row)
        ranks << model.index(row, RankTableModel::RankColumn).data(RankTableModel::RankRole).toInt();
    return ranks;
}

} // namespace

class TestRankTableModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void rowsAndColumns();
    void rankSevenIsInitiating();
    void sortsByRank();
    void sortsByFirstWarnTime();
    void resetKeepsTheContract();

private:
    const AttemptAnalysis& attempt() const { return *m_analysis->currentAttempt(); }

    std::unique_ptr<Analysis> m_analysis;
    RankTableModel m_model;
    QSortFilterProxyModel m_proxy;
    std::unique_ptr<QAbstractItemModelTester> m_modelTester, m_proxyTester;
};

void TestRankTableModel::initTestCase()
{
    AnalysisRequest r;
    r.logPaths << QStringLiteral(RANKSCOPE_TEST_DATA "/sample-job");
    m_analysis = std::make_unique<Analysis>(analyze(r));
    QVERIFY(m_analysis->currentAttempt());
    // The testers watch every change from here on, through the model and through a sorting proxy.
    m_modelTester = std::make_unique<QAbstractItemModelTester>(
        &m_model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    m_proxy.setSortRole(RankTableModel::SortRole);
    m_proxy.setSourceModel(&m_model);
    m_proxyTester = std::make_unique<QAbstractItemModelTester>(
        &m_proxy, QAbstractItemModelTester::FailureReportingMode::Fatal);
    m_model.setRows(buildRankRows(attempt()));
}

void TestRankTableModel::rowsAndColumns()
{
    const Incident& inc = attempt().incident;
    QCOMPARE(m_model.rowCount(), static_cast<int>(inc.ranks.size()));
    QCOMPARE(m_model.rowCount(), 5); // ranks 0-3 and 7: ranks 4-6 never print a line
    QCOMPARE(m_model.columnCount(), int(RankTableModel::ColumnCount));
    QCOMPARE(m_model.headerData(RankTableModel::FirstWarnColumn, Qt::Horizontal).toString(),
        QStringLiteral("First WARN"));
    for (int row = 0; row < m_model.rowCount(); ++row) {
        const RankInfo& r = inc.ranks[static_cast<size_t>(row)];
        auto cell = [&](int column, int role = Qt::DisplayRole) {
            return m_model.index(row, column).data(role);
        };
        QCOMPARE(cell(RankTableModel::RankColumn).toInt(), r.rank);
        QCOMPARE(cell(RankTableModel::HostColumn).toString(), r.host);
        QCOMPARE(cell(0, RankTableModel::FirstWarnEventRole).toInt(), r.firstWarn);
        QCOMPARE(m_model.rowOfRank(r.rank), row);
    }
    QCOMPARE(m_model.rowOfRank(5), -1); // silent: no row
}

void TestRankTableModel::rankSevenIsInitiating()
{
    const AttemptAnalysis& a = attempt();
    const int init = a.diagnosis.initiatingEvent;
    QVERIFY(init >= 0);
    QCOMPARE(a.incident.events[static_cast<size_t>(init)].rank, 7);
    const int row = m_model.rowOfRank(7);
    QVERIFY(row >= 0);
    auto cell = [&](int column, int role = Qt::DisplayRole) { return m_model.index(row, column).data(role); };
    QCOMPARE(cell(RankTableModel::StatusColumn).toString(), QStringLiteral("initiating"));
    QCOMPARE(cell(RankTableModel::StatusColumn, RankTableModel::StatusRole).toInt(),
        static_cast<int>(RankStatus::Initiating));
    QVERIFY(cell(0, RankTableModel::InitiatingRole).toBool());
    QCOMPARE(cell(0, RankTableModel::FirstWarnEventRole).toInt(), init);
    QCOMPARE(cell(0, RankTableModel::SignatureRole).toInt(),
        a.incident.events[static_cast<size_t>(init)].signature);
    QCOMPARE(cell(RankTableModel::HostColumn).toString(), QStringLiteral("gpu-a02"));
    QCOMPARE(cell(RankTableModel::LocalRankColumn).toString(), QStringLiteral("3"));
    QCOMPARE(cell(RankTableModel::GpuColumn).toString(), QStringLiteral("3"));
    QCOMPARE(cell(RankTableModel::FirstWarnColumn).toString(), QStringLiteral("02:17:44"));
    QVERIFY(
        cell(RankTableModel::MessageColumn, Qt::ToolTipRole).toString().contains(QLatin1String("NET/IB")));
    // Every other rank is something else than initiating, and no other row claims the initiating event.
    for (int other = 0; other < m_model.rowCount(); ++other) {
        if (other == row)
            continue;
        QVERIFY(m_model.index(other, RankTableModel::StatusColumn).data(RankTableModel::StatusRole).toInt()
            != static_cast<int>(RankStatus::Initiating));
        QVERIFY(!m_model.index(other, 0).data(RankTableModel::InitiatingRole).toBool());
    }
    // The ranks that only timed out after rank 7 failed are collateral (or suspects, when named).
    QVERIFY(!a.diagnosis.collateralEvents.empty());
    for (int ev : a.diagnosis.collateralEvents) {
        const int rank = a.incident.events[static_cast<size_t>(ev)].rank;
        if (rank < 0 || rank == 7)
            continue;
        const int status = m_model.index(m_model.rowOfRank(rank), 0).data(RankTableModel::StatusRole).toInt();
        QVERIFY(status == static_cast<int>(RankStatus::Collateral)
            || status == static_cast<int>(RankStatus::Suspect));
    }
}

void TestRankTableModel::sortsByRank()
{
    m_proxy.sort(RankTableModel::RankColumn, Qt::DescendingOrder);
    QCOMPARE(ranksInOrder(m_proxy), QList<int>({ 7, 3, 2, 1, 0 }));
    m_proxy.sort(RankTableModel::RankColumn, Qt::AscendingOrder);
    QCOMPARE(ranksInOrder(m_proxy), QList<int>({ 0, 1, 2, 3, 7 }));
}

void TestRankTableModel::sortsByFirstWarnTime()
{
    // The order expected, from the incident itself: timed first WARNs by time, then the untimed, then
    // ranks without a WARN; ties in rank order.
    const Incident& inc = attempt().incident;
    struct Key
    {
        int group;
        qint64 ms;
        int rank;
    };
    std::vector<Key> keys;
    for (const RankInfo& r : inc.ranks) {
        const LogEvent* e = r.firstWarn >= 0 ? &inc.events[static_cast<size_t>(r.firstWarn)] : nullptr;
        keys.push_back({ !e ? 2 : e->time.valid ? 0 : 1, e && e->time.valid ? e->time.ms : 0, r.rank });
    }
    std::stable_sort(keys.begin(), keys.end(),
        [](const Key& x, const Key& y) { return x.group != y.group ? x.group < y.group : x.ms < y.ms; });
    QList<int> expected;
    for (const Key& k : keys)
        expected << k.rank;

    m_proxy.sort(RankTableModel::FirstWarnColumn, Qt::AscendingOrder);
    QCOMPARE(ranksInOrder(m_proxy), expected);
    QCOMPARE(ranksInOrder(m_proxy).front(), 7); // the first WARN of the job is rank 7's
    QCOMPARE(keys.front().group, 0);
    m_proxy.sort(RankTableModel::RankColumn, Qt::AscendingOrder);
}

void TestRankTableModel::resetKeepsTheContract()
{
    QSignalSpy reset(&m_model, &QAbstractItemModel::modelReset);
    m_model.clear();
    QCOMPARE(m_model.rowCount(), 0);
    QCOMPARE(m_proxy.rowCount(), 0);
    m_model.setRows(buildRankRows(attempt()));
    QCOMPARE(reset.size(), 2);
    QCOMPARE(m_proxy.rowCount(), 5);
}

QTEST_MAIN(TestRankTableModel)
#include "tst_rank_table_model.moc"
