// SPDX-License-Identifier: MIT
// NCCL's setup as each host reports it (its build, network plugin and network), and the diagnosis of hosts
// of one job that were set up differently.
#include "analyze_bytes.h"
#include "setup_facts.h"

#include <QtTest>

using namespace rankscope;

class SetupFactsTest : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void readsTheSetupLines_data();
    void readsTheSetupLines();
    void hostsSetUpDifferentlyLeadAHang();
    void sameSetupSaysNothing();
    void aFailureKeepsItsLeadAndGetsTheNote();
};

void SetupFactsTest::readsTheSetupLines_data()
{
    QTest::addColumn<QByteArray>("message");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("group");
    QTest::newRow("version") << QByteArray("NCCL version 2.18.5+cuda12.2") << "NCCL version"
                             << "2.18.5+cuda12.2";
    QTest::newRow("2.19+ internal") << QByteArray(
        "NET/Plugin: Could not find: libnccl-net.so. Using internal network plugin.")
                                    << "network plugin"
                                    << "internal";
    QTest::newRow("2.26 internal") << QByteArray(
        "NET/Plugin: Could not find: libnccl-net.so. Using internal net plugin.")
                                   << "network plugin"
                                   << "internal";
    QTest::newRow("2.4 internal") << QByteArray(
        "NET/Plugin : No plugin found (libnccl-net.so), using internal implementation")
                                  << "network plugin"
                                  << "internal";
    QTest::newRow("loaded") << QByteArray("NET/Plugin: Loaded net plugin NCCL RDMA Plugin (v6)")
                            << "network plugin"
                            << "external";
    QTest::newRow("2.27 external") << QByteArray(
        "NET/Plugin: Successfully loaded external network plugin /opt/amazon/ofi-nccl/lib/libnccl-net.so")
                                   << "network plugin"
                                   << "external";
    QTest::newRow("path") << QByteArray("Plugin Path : /opt/hpcx/nccl_rdma_sharp_plugin/lib/libnccl-net.so")
                          << "network plugin"
                          << "external";
    QTest::newRow("network") << QByteArray("Using network IB") << "network"
                             << "IB";
    QTest::newRow("not a setup line") << QByteArray("NET/IB : No device found.") << ""
                                      << "";
    QTest::newRow("an identity line") << QByteArray("Channel 00/0 : 0[0] -> 1[1] via P2P/IPC") << ""
                                      << "";
}

void SetupFactsTest::readsTheSetupLines()
{
    QFETCH(QByteArray, message);
    QFETCH(QString, key);
    QFETCH(QString, group);
    SetupFact f;
    const bool found =
        readSetupFact(std::string_view(message.constData(), static_cast<std::size_t>(message.size())), f);
    QCOMPARE(found, !key.isEmpty());
    QCOMPARE(f.key, key);
    QCOMPARE(f.group, group);
}

namespace {

// NVIDIA/nccl#1634's shape: nccl-tests hangs, one host loads the HPC-X plugin and the other does not.
QByteArray twoHosts(const char* secondPluginLine)
{
    return QByteArray(
               "HGX-H100-04:589474:589541 [0] NCCL INFO NCCL version 2.21.5+cuda12.4\n"
               "HGX-H100-04:589474:589541 [0] NCCL INFO Plugin Path : /opt/hpcx/nccl_rdma_sharp_plugin/lib/"
               "libnccl-net.so\n"
               "HGX-H100-11:18226:18274 [5] NCCL INFO NCCL version 2.21.5+cuda12.4\n")
        + QByteArray(secondPluginLine) + '\n';
}

} // namespace

void SetupFactsTest::hostsSetUpDifferentlyLeadAHang()
{
    QTemporaryDir dir;
    const Analysis a = test::analyzeBytes(dir, QStringLiteral("hang.log"),
        twoHosts("HGX-H100-11:18226:18274 [5] NCCL INFO NET/Plugin: Could not find: libnccl-net.so. Using "
                 "internal "
                 "network plugin."));
    const AttemptAnalysis* at = a.currentAttempt();
    QVERIFY(at);
    const Diagnosis& d = at->diagnosis;
    QVERIFY2(
        d.headline.contains(QLatin1String("network plugin differs between hosts")), qPrintable(d.headline));
    QVERIFY(d.headline.contains(QLatin1String("on HGX-H100-11")));
    QCOMPARE(at->incident.setupFacts.size(), std::size_t(4));
    QVERIFY(d.signature >= 0);
    QCOMPARE(a.catalog.catalog.signatures[static_cast<std::size_t>(d.signature)].id,
        QStringLiteral("nccl-setup-differs-across-hosts"));
    QCOMPARE(d.evidence.fromLine, qint64(2)); // the host that differs from the others: one each, the first
}

void SetupFactsTest::sameSetupSaysNothing()
{
    QTemporaryDir dir;
    const Analysis a = test::analyzeBytes(dir, QStringLiteral("same.log"),
        twoHosts(
            "HGX-H100-11:18226:18274 [5] NCCL INFO NET/Plugin: Loaded net plugin NCCL RDMA Plugin (v6)"));
    const AttemptAnalysis* at = a.currentAttempt();
    QVERIFY(at);
    QVERIFY(!at->diagnosis.headline.contains(QLatin1String("differs between hosts")));
    for (const QString& n : at->diagnosis.notes)
        QVERIFY2(!n.contains(QLatin1String("differs between hosts")), qPrintable(n));
}

void SetupFactsTest::aFailureKeepsItsLeadAndGetsTheNote()
{
    QTemporaryDir dir;
    const Analysis a = test::analyzeBytes(dir, QStringLiteral("fail.log"),
        twoHosts("HGX-H100-11:18226:18274 [5] NCCL INFO Using network Socket")
            + "HGX-H100-04:589474:589541 [0] NCCL INFO Using network IB\n"
              "HGX-H100-11:18226:18274 [5] misc/socket.cc:484 NCCL WARN socketFinalizeAccept: wrong type 3 "
              "!= 4\n");
    const AttemptAnalysis* at = a.currentAttempt();
    QVERIFY(at && at->diagnosis.initiatingEvent >= 0);
    bool noted = false;
    for (const QString& n : at->diagnosis.notes)
        noted = noted || n.startsWith(QLatin1String("network differs between hosts: "));
    QVERIFY2(noted, qPrintable(at->diagnosis.notes.join(QLatin1Char('\n'))));
}

QTEST_GUILESS_MAIN(SetupFactsTest)
#include "tst_setup_facts.moc"
