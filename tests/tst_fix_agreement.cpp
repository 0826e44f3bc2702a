// SPDX-License-Identifier: MIT
// alignVerifyWithBinding: a verify command that pins NCCL_IB_HCA for the initiating rank names the NIC the
// topology binds that rank to, so running it tests the fix instead of repeating the failure. No entry of
// the built-in catalog pins the failing NIC any more, but a user catalog (--signatures DIR) may.
#include "fix_agreement.h"

#include <QtTest>

using namespace rankscope;

namespace {

// Rank 7, local rank 3 on gpu-a02; its initiating event is event 0.
Incident incidentOfRank7()
{
    Incident incident;
    RankInfo info;
    info.rank = 7;
    info.host = QStringLiteral("gpu-a02");
    info.localRank = 3;
    incident.ranks.push_back(info);
    LogEvent e;
    e.rank = 7;
    e.host = QStringLiteral("gpu-a02");
    incident.events.push_back(e);
    return incident;
}

HcaChoice choice(const char* host, int localRank, const char* nic)
{
    HcaChoice c;
    c.host = QString::fromLatin1(host);
    c.localRank = localRank;
    c.nic = QString::fromLatin1(nic);
    return c;
}

} // namespace

class TestFixAgreement : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void pinsTheBoundNic()
    {
        const Incident incident = incidentOfRank7();
        Diagnosis d;
        d.initiatingEvent = 0;
        d.verify = { QStringLiteral("NCCL_IB_HCA=mlx5_0 NCCL_DEBUG=INFO all_reduce_perf -b 8 -e 1G"),
            QStringLiteral("export NCCL_IB_HCA='mlx5_0'; ibstat mlx5_0"),
            QStringLiteral("nvidia-smi topo -m") };
        PlacementResult placement;
        placement.hca = { choice("gpu-a02", 0, "mlx5_0"), choice("gpu-a02", 3, "mlx5_1"),
            choice("gpu-a01", 3, "mlx5_0") };
        QCOMPARE(boundNicOfInitiatingRank(incident, d, placement), QStringLiteral("mlx5_1"));
        QCOMPARE(alignVerifyWithBinding(incident, d, placement), 2);
        QCOMPARE(
            d.verify[0], QStringLiteral("NCCL_IB_HCA=mlx5_1 NCCL_DEBUG=INFO all_reduce_perf -b 8 -e 1G"));
        // Only the assignment changes: the ibstat of the NIC that failed still names it.
        QCOMPARE(d.verify[1], QStringLiteral("export NCCL_IB_HCA='mlx5_1'; ibstat mlx5_0"));
        QCOMPARE(d.verify[2], QStringLiteral("nvidia-smi topo -m"));
        // Already agreeing: nothing counted as changed.
        QCOMPARE(alignVerifyWithBinding(incident, d, placement), 0);
    }

    void leavesCommandsAloneWithoutABinding()
    {
        const Incident incident = incidentOfRank7();
        Diagnosis d;
        d.initiatingEvent = 0;
        d.verify = { QStringLiteral("NCCL_IB_HCA=mlx5_0 all_reduce_perf") };
        PlacementResult placement;
        placement.hca = { choice("gpu-a01", 3, "mlx5_1") }; // another host's local rank 3
        QCOMPARE(alignVerifyWithBinding(incident, d, placement), 0);
        QCOMPARE(d.verify[0], QStringLiteral("NCCL_IB_HCA=mlx5_0 all_reduce_perf"));
        d.initiatingEvent = -1; // no initiating event at all
        placement.hca = { choice("gpu-a02", 3, "mlx5_1") };
        QVERIFY(boundNicOfInitiatingRank(incident, d, placement).isEmpty());
        QCOMPARE(alignVerifyWithBinding(incident, d, placement), 0);
    }
};

QTEST_MAIN(TestFixAgreement)
#include "tst_fix_agreement.moc"
