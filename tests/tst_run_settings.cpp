// SPDX-License-Identifier: MIT
// The variables a log shows set for the run: NCCL's "X set by environment to V" and the shell line that
// started the job. Read into the incident, they mark the fix actions the run already tried.
#include "analyze_bytes.h"
#include "run_settings.h"

#include <QtTest>

using namespace rankscope;

class RunSettingsTest : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shellLines_data();
    void shellLines();
    void ncclEnvLine();
    void incidentKeepsWhereEachWasSet();
    void verifyThatRerunsWhatTheRunHadGoesLast();
};

void RunSettingsTest::shellLines_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<QString>("found"); // "NAME=VALUE NAME=VALUE"
    QTest::newRow("prompt and a command")
        << QByteArray(
               "root@deepseek:/data/nccl-tests# CUDA_VISIBLE_DEVICES=0,1 NCCL_P2P_DISABLE=1 NCCL_DEBUG=INFO "
               "./build/all_reduce_perf -b 8 -g 2")
        << QStringLiteral("CUDA_VISIBLE_DEVICES=0,1 NCCL_P2P_DISABLE=1 NCCL_DEBUG=INFO");
    QTest::newRow("dollar prompt") << QByteArray("$ NCCL_IB_DISABLE=1 torchrun --nproc-per-node 8 train.py")
                                   << QStringLiteral("NCCL_IB_DISABLE=1");
    QTest::newRow("conda prompt") << QByteArray("(vllm) user@gpu1:~$ export NCCL_SOCKET_IFNAME=\"eth0\"")
                                  << QStringLiteral("NCCL_SOCKET_IFNAME=eth0");
    QTest::newRow("export") << QByteArray("export NCCL_CUMEM_ENABLE=0")
                            << QStringLiteral("NCCL_CUMEM_ENABLE=0");
    QTest::newRow("other variables are not kept")
        << QByteArray("HOME=/root PATH=/bin python x.py") << QString();
    QTest::newRow("prose") << QByteArray("NCCL_P2P_DISABLE is set to 1 in my environment") << QString();
    QTest::newRow("a log line") << QByteArray("Epoch 1: 45%|#### | loss=0.31") << QString();
}

void RunSettingsTest::shellLines()
{
    QFETCH(QByteArray, line);
    QFETCH(QString, found);
    std::vector<EnvSetting> out;
    readShellAssignments(std::string_view(line.constData(), static_cast<size_t>(line.size())), out);
    QStringList got;
    for (const EnvSetting& e : out)
        got << e.name + QLatin1Char('=') + e.value;
    QCOMPARE(got.join(QLatin1Char(' ')), found);
}

void RunSettingsTest::ncclEnvLine()
{
    std::vector<EnvSetting> out;
    QVERIFY(readNcclEnvLine("NCCL_IB_TIMEOUT set by environment to 22.", out));
    QVERIFY(readNcclEnvLine("NCCL_SOCKET_IFNAME set by environment to ens1f0", out));
    QVERIFY(!readNcclEnvLine("NCCL_SOCKET_IFNAME set to ens1f0", out));
    QVERIFY(!readNcclEnvLine("Bootstrap : Using ens1f0:10.0.0.1<0>", out));
    QCOMPARE(out.size(), size_t(2));
    QCOMPARE(out[0].value, QStringLiteral("22"));
    QCOMPARE(out[1].name, QStringLiteral("NCCL_SOCKET_IFNAME"));
}

// Real case 3303's shape (NVIDIA/nccl#1706): the command line sets NCCL_P2P_DISABLE=1 and NCCL says so
// again at init; the incident keeps each once, at the first line that shows it.
void RunSettingsTest::incidentKeepsWhereEachWasSet()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const Analysis a = test::analyzeBytes(dir, QStringLiteral("run.log"),
        "root@deepseek:/data/nccl-tests# NCCL_P2P_DISABLE=1 NCCL_DEBUG=INFO ./build/all_reduce_perf -g 4\n"
        "deepseek:2081556:2081556 [0] NCCL INFO NCCL_P2P_DISABLE set by environment to 1.\n"
        "deepseek:2081556:2081556 [0] NCCL INFO NCCL_IB_HCA set by environment to mlx5_1\n");
    QVERIFY(a.currentAttempt());
    const std::vector<EnvSetting>& s = a.currentAttempt()->incident.envSettings;
    QCOMPARE(s.size(), size_t(3));
    QCOMPARE(s[0].name, QStringLiteral("NCCL_P2P_DISABLE"));
    QCOMPARE(s[0].line, qint64(1));
    QCOMPARE(s[2].name, QStringLiteral("NCCL_IB_HCA"));
    QCOMPARE(s[2].value, QStringLiteral("mlx5_1"));
    QCOMPARE(s[2].line, qint64(3));
}

// Real case 3303: the hang's first check reruns nccl-tests with NCCL_P2P_DISABLE=1, which the run already
// had; it is shown after the checks that say something new.
void RunSettingsTest::verifyThatRerunsWhatTheRunHadGoesLast()
{
    AnalysisRequest r;
    r.logPaths = { QStringLiteral(
        RANKSCOPE_TEST_DATA "/real-found/3303-h800-all-reduce-perf-g4-hang-nvls-disable") };
    const Analysis a = analyze(r);
    QVERIFY(a.currentAttempt());
    const QStringList verify = a.currentAttempt()->diagnosis.verify;
    QVERIFY2(verify.size() >= 2, qPrintable(verify.join(QLatin1Char('\n'))));
    QVERIFY2(!verify.first().startsWith(QLatin1String("NCCL_P2P_DISABLE=1")),
        qPrintable(verify.join(QLatin1Char('\n'))));
    QVERIFY(verify.last().startsWith(QLatin1String("NCCL_P2P_DISABLE=1")));
}

QTEST_GUILESS_MAIN(RunSettingsTest)
#include "tst_run_settings.moc"
