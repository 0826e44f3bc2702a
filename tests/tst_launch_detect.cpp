// SPDX-License-Identifier: MIT
// Launcher and framework detection on real log lines (tests/data/launch, each file from one public thread
// named in its README), on cases of tests/data/real, and its negatives: "slurm" in a path is no Slurm, a
// plain NCCL log has no framework. Also the report sentence, the --launcher/--framework override and
// agreement of the scan with and without its shortcuts.
#include "analysis.h"
#include "incident_compare.h"
#include "ingest.h"
#include "launch_detect.h"
#include "launch_info.h"
#include "signature_catalog.h"
#include "signature_matcher.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>

using namespace rankscope;

namespace {

const QString kLaunch = QStringLiteral(RANKSCOPE_TEST_DATA "/launch");
const QString kReal = QStringLiteral(RANKSCOPE_TEST_DATA "/real");

Incident analyzed(const QStringList& paths, const QString& launcher = {}, const QString& framework = {})
{
    AnalysisRequest request;
    request.logPaths = paths;
    request.launcher = launcher;
    request.framework = framework;
    Analysis a = analyze(request);
    if (a.attempts.empty())
        return {};
    return std::move(a.attempts[static_cast<size_t>(a.current < 0 ? 0 : a.current)].incident);
}

QStringList launcherIds(const LaunchInfo& info)
{
    QStringList ids;
    for (const LaunchItem& item : info.launchers)
        ids << item.id;
    return ids;
}

QStringList fileLines(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'));
}

unsigned kindsOf(std::string_view line)
{
    const LinePrefix p = parseLinePrefix(line);
    return LaunchDetector::kindsInText(line, p) | LaunchDetector::kindsInPrefix(p, line);
}

constexpr unsigned bit(LaunchKind k)
{
    return 1u << static_cast<unsigned>(k);
}

} // namespace

class TestLaunchDetect : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // The scanner asks the detector only of lines the prefilter passed: every cue must hold a phrase the
    // prefilter knows, or its lines would never be looked at.
    void everyCueHoldsAPrefilterPhrase()
    {
        for (const std::string_view literal : launchCueLiterals()) {
            const QString lower =
                QString::fromLatin1(literal.data(), static_cast<qsizetype>(literal.size())).toLower();
            bool held = false;
            for (const std::string_view phrase : kLaunchPhrases)
                held = held
                    || lower.contains(QLatin1String(phrase.data(), static_cast<qsizetype>(phrase.size())));
            QVERIFY2(held, qPrintable(lower));
            QVERIFY(literal.size() >= 6); // the detector samples every third byte for a 4-byte gram
        }
        for (const std::string_view phrase : kLaunchPhrases)
            QVERIFY2(phrase.size() >= 6, phrase.data()); // shorter atoms would lower the prefilter's stride
        const Catalog catalog = loadDefaultCatalog().catalog;
        const SignatureMatcher matcher(catalog);
        QVERIFY(matcher.mayMatch("[2021-01-31 23:07:47,683] [INFO] [distributed.py:40:init_distributed] x"));
        QVERIFY(matcher.mayMatch("Initializing distributed: GLOBAL_RANK: 0, MEMBER: 1/2"));
    }

    void realLines_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QStringList>("launchers"); // innermost first
        QTest::addColumn<QString>("framework");
        const QStringList none;
        auto row = [](const char* file, const QStringList& launchers, const char* framework) {
            QTest::newRow(file) << kLaunch + QLatin1Char('/') + QLatin1String(file) << launchers
                                << QString::fromLatin1(framework);
        };
        // meta-llama/codellama#123, aws/aws-ofi-nccl#715
        row("torchrun.log", { QStringLiteral("torchrun") }, "torch");
        row("torchrun-glog.log", { QStringLiteral("torchrun") }, "torch");
        // IGNF/myria3d#123, facebookresearch/ParlAI#3084 (its NCCLUtils.hpp path is torch's c10d, no
        // framework)
        row("slurm.log", { QStringLiteral("slurm") }, "");
        row("slurm-parlai.log", { QStringLiteral("slurm") }, "");
        // NVIDIA/nccl#447: slurmd's own paths
        row("slurmd-paths.log", none, "");
        // NVIDIA/nccl-tests#218, baidu-research/DeepBench#97, ggml-org/llama.cpp#4792
        row("mpirun.log", { QStringLiteral("mpirun") }, "");
        row("mpirun-primary-job.log", { QStringLiteral("mpirun") }, "");
        row("mpich-hydra.log", { QStringLiteral("mpirun") }, "");
        // deepspeedai/DeepSpeed#736, huggingface/accelerate#1606
        row("deepspeed-launcher.log", { QStringLiteral("deepspeed") }, "");
        row("deepspeed-launcher-accelerate.log", { QStringLiteral("deepspeed") }, "");
        // lucidrains/denoising-diffusion-pytorch#345, huggingface/accelerate#218
        row("accelerate.log", { QStringLiteral("accelerate"), QStringLiteral("torchrun") }, "torch");
        row("accelerate-launch.log", { QStringLiteral("accelerate") }, "torch");
        // ray-project/ray#33290, verl-project/verl#2995
        row("ray.log", { QStringLiteral("ray") }, "lightning");
        row("ray-raylet.log", { QStringLiteral("ray") }, "");
        // hiyouga/LlamaFactory#6849, NVIDIA/nccl#1029
        row("kubernetes.log", { QStringLiteral("kubernetes") }, "");
        row("kubernetes-pdsh.log", { QStringLiteral("kubernetes") }, "torch");
        // ray-project/ray#33290 (the driver's own line)
        row("lightning.log", { QStringLiteral("ray") }, "lightning");
        // huggingface/accelerate#1993, deepspeedai/DeepSpeed#5022
        row("hf-trainer.log", none, "hf-trainer");
        row("hf-trainer-deepspeed.log", none, "hf-trainer");
        // deepspeedai/DeepSpeed#716
        row("deepspeed.log", { QStringLiteral("deepspeed") }, "deepspeed");
        // bigscience-workshop/Megatron-DeepSpeed#341, NVIDIA/nccl#653
        row("megatron.log", none, "megatron");
        row("megatron-nccl653.log", none, "megatron");
        // vllm-project/vllm#10626, huggingface/trl#3310
        row("vllm.log", none, "vllm");
        row("vllm-trl.log", none, "vllm");
        // NVIDIA/nccl#1504
        row("torch.log", none, "torch");
    }

    void realLines()
    {
        QFETCH(QString, file);
        QFETCH(QStringList, launchers);
        QFETCH(QString, framework);
        const Incident inc = analyzed({ file });
        QVERIFY2(!inc.files.empty(), qPrintable(file));
        QCOMPARE(launcherIds(inc.launch), launchers);
        QCOMPARE(inc.launch.framework.id, framework);
        // Every evidence line is a line of the file, at its line number.
        const QStringList lines = fileLines(file);
        std::vector<LaunchItem> items = inc.launch.launchers;
        if (!framework.isEmpty())
            items.push_back(inc.launch.framework);
        for (const LaunchItem& item : items) {
            QCOMPARE(item.evidence.size(), size_t(1));
            const LaunchEvidence& e = item.evidence.front();
            QCOMPARE(e.file, 0);
            QVERIFY(e.line >= 1 && e.line <= lines.size());
            // A whole-file common indentation is taken off the text; the rest is the line's own.
            QVERIFY(!e.text.trimmed().isEmpty());
            QVERIFY2(lines[static_cast<int>(e.line - 1)].trimmed().startsWith(e.text.trimmed()),
                qPrintable(e.text));
            QVERIFY(!item.name.isEmpty());
        }
    }

    // A line the full parse reads with shortcuts on must give what it gives with them off.
    void shortcutsAgree_data()
    {
        QTest::addColumn<QString>("path");
        for (const QString& f : QDir(kLaunch).entryList({ QStringLiteral("*.log") }, QDir::Files))
            QTest::newRow(qPrintable(f)) << kLaunch + QLatin1Char('/') + f;
        QTest::newRow("sample-job") << QStringLiteral(RANKSCOPE_TEST_DATA "/sample-job");
        QTest::newRow("ray layout") << QStringLiteral(RANKSCOPE_TEST_DATA "/layouts/ray");
        QTest::newRow("tee-console") << QStringLiteral(RANKSCOPE_TEST_DATA "/layouts/tee-console");
    }

    void shortcutsAgree()
    {
        QFETCH(QString, path);
        const Catalog catalog = loadDefaultCatalog().catalog;
        const SignatureMatcher matcher(catalog);
        LoadOptions o;
        o.paths = { path };
        o.catalog = &catalog;
        o.matcher = &matcher;
        o.threads = 1;
        const LoadResult fast = loadIncidents(o);
        o.shortcuts = false;
        const LoadResult full = loadIncidents(o);
        QVERIFY(!fast.incidents.empty());
        const QString d = testing::loadDifference(fast, full);
        QVERIFY2(d.isEmpty(), qPrintable(d));
    }

    void negatives()
    {
        // "slurm" inside a path or a file name is no Slurm; SLURM_ needs an upper-case name after it.
        QCOMPARE(
            kindsOf("FileNotFoundError: [Errno 2] No such file or directory: '/home/u/slurm_logs/run.out'")
                & bit(LaunchKind::Slurm),
            0u);
        QCOMPARE(kindsOf("cp /scratch/SLURM_TMP/ckpt.pt /data/") & bit(LaunchKind::Slurm), 0u);
        QCOMPARE(kindsOf("see the wiki page on srun: usage") & bit(LaunchKind::Slurm), 0u);
        // Not inside longer names.
        QCOMPARE(kindsOf("  File \"/opt/mymegatron/run.py\", line 3") & bit(LaunchKind::Megatron), 0u);
        QCOMPARE(kindsOf("x = np.array.train_split()") & bit(LaunchKind::Ray), 0u);
        // vLLM's own workers ("(VllmWorker TP0 pid=..)") look like Ray's but say no ip and no Ray.
        QCOMPARE(
            kindsOf("(VllmWorker TP0 pid=1285341) INFO 08-26 09:12:24 [shm_broadcast.py:289] vLLM message "
                    "queue communication handle")
                & bit(LaunchKind::Ray),
            0u);
        // ... but their logger header is vLLM's own, wherever it stands.
        QVERIFY(kindsOf("ERROR 12-08 20:46:56 [multiproc_executor.py:597] RuntimeError: x")
            & bit(LaunchKind::Vllm));
        QVERIFY(
            kindsOf("(Worker pid=508) INFO 04-13 19:52:24 selector.py:135] Using Flash Attention backend.")
            & bit(LaunchKind::Vllm));
        QCOMPARE(kindsOf("ERROR 12-08 20:46:56 no source here") & bit(LaunchKind::Vllm), 0u);
        // A host name is a pod name only with -worker-N / -master-N.
        QCOMPARE(
            kindsOf("gpu-worker3:4288:4521 [1] NCCL INFO Connected all rings") & bit(LaunchKind::Kubernetes),
            0u);
        // OpenMPI's tag behind --timestamp-output's clock is mpirun's (NVIDIA/nccl#957); horovodrun's Gloo
        // launcher tags "[13]<stderr>:" without a job number, and it is no mpirun.
        QVERIFY(kindsOf("Fri Aug 11 12:31:45 2023[1,0]<stdout>:tomte401:1850301:1881341 [0] transport.cc:154 "
                        "NCCL WARN Cuda failure 'invalid argument'")
            & bit(LaunchKind::Mpirun));
        QCOMPARE(
            kindsOf("Tue Nov 10 10:05:04 2020[13]<stderr>:terminate called after throwing an instance of "
                    "'gloo::EnforceNotMet'")
                & bit(LaunchKind::Mpirun),
            0u);
        // A plain NCCL log (nccl-tests; NVIDIA/nccl-tests#166) shows no framework and no launcher.
        const Incident plain =
            analyzed({ kReal + QStringLiteral("/110-shm-exhausted-because-p2p-level-forced-shm") });
        QVERIFY(!plain.files.empty());
        QVERIFY(plain.launch.empty());
        QVERIFY(plain.launchSentence().isEmpty());
    }

    // Cases of tests/data/real whose threads name their launcher (see each expected.json's source).
    void realCases_data()
    {
        QTest::addColumn<QString>("folder");
        QTest::addColumn<QStringList>("launchers");
        QTest::addColumn<QString>("framework");
        // alan-turing-institute/autocast#381: a Slurm job ("srun: error: ... Aborted"); the watchdog text was
        // retyped without ProcessGroupNCCL, so no framework shows
        QTest::newRow("102 srun") << QStringLiteral("102-watchdog-barrier-inside-rank0-only-block")
                                  << QStringList { QStringLiteral("slurm") } << QString();
        // ray-project/ray#15495: Ray 1.x's bare "(pid=767)" worker prefix in a KubeRay pod
        // ("ray-...-ray-worker-0" as NCCL host): Ray under Kubernetes
        QTest::newRow("115 kuberay") << QStringLiteral(
            "115-ray-sgd-hang-p2p-broken-in-vm-libibverbs-distractor")
                                     << QStringList { QStringLiteral("ray"), QStringLiteral("kubernetes") }
                                     << QString();
        // NVIDIA/nccl#2101: vLLM's multiproc workers in a pod
        QTest::newRow("108 vllm") << QStringLiteral("108-vgpu-uvm-disabled-cudamempool-not-supported")
                                  << QStringList {} << QStringLiteral("vllm");
        // vllm-project/vllm#4653: vLLM on Ray (RayWorkerWrapper with ip=)
        QTest::newRow("112 vllm on ray")
            << QStringLiteral("112-watchdog-gather-timeout-vllm-custom-allreduce")
            << QStringList { QStringLiteral("ray") } << QStringLiteral("torch");
        // NVIDIA/nccl-tests#166: nccl-tests alone
        QTest::newRow("110 nccl-tests") << QStringLiteral("110-shm-exhausted-because-p2p-level-forced-shm")
                                        << QStringList {} << QString();
    }

    void realCases()
    {
        QFETCH(QString, folder);
        QFETCH(QStringList, launchers);
        QFETCH(QString, framework);
        QStringList files;
        for (const QString& f : QDir(kReal + QLatin1Char('/') + folder).entryList(QDir::Files, QDir::Name)) {
            if (f != QLatin1String("expected.json"))
                files << kReal + QLatin1Char('/') + folder + QLatin1Char('/') + f;
        }
        const Incident inc = analyzed(files);
        QVERIFY(!inc.files.empty());
        QCOMPARE(launcherIds(inc.launch), launchers);
        QCOMPARE(inc.launch.framework.id, framework);
    }

    void sentence()
    {
        LaunchInfo info;
        mergeLaunch(info, 0,
            { { LaunchKind::Slurm, 3, QStringLiteral("srun: error: gpu-a01: task 0: Terminated") },
                { LaunchKind::Torchrun, 1, QStringLiteral("WARNING:torch.distributed.run:") },
                { LaunchKind::Torch, 5, QStringLiteral("[rank0]: ProcessGroupNCCL ...") },
                { LaunchKind::HfTrainer, 12, QStringLiteral("***** Running training *****") } });
        QCOMPARE(launcherIds(info), (QStringList { QStringLiteral("torchrun"), QStringLiteral("slurm") }));
        QCOMPARE(info.framework.id, QStringLiteral("hf-trainer")); // more specific than plain torch
        const QString one = describeLaunch(info, { QStringLiteral("train.log") });
        QVERIFY2(
            one.startsWith(QStringLiteral("launched by torchrun (line 1: `WARNING:torch.distributed.run:`) "
                                          "under Slurm (line 3: ")),
            qPrintable(one));
        QVERIFY2(
            one.endsWith(QStringLiteral("; framework: HF Trainer (line 12: `***** Running training *****`)")),
            qPrintable(one));
        // Several files: the file is named.
        const QString two = describeLaunch(info, { QStringLiteral("a.log"), QStringLiteral("b.log") });
        QVERIFY2(
            two.contains(QStringLiteral("(a.log line 12: `***** Running training *****`)")), qPrintable(two));
        // A framework without a launcher.
        LaunchInfo fw;
        mergeLaunch(
            fw, 0, { { LaunchKind::Vllm, 2, QStringLiteral("INFO ... Initializing an LLM engine") } });
        QVERIFY(describeLaunch(fw, {}).startsWith(
            QStringLiteral("launcher: not seen in the logs; framework: vLLM")));
        QVERIFY(describeLaunch(LaunchInfo {}, {}).isEmpty());
    }

    void overrideGiven()
    {
        const Incident inc = analyzed({ kLaunch + QStringLiteral("/torchrun.log") }, QStringLiteral("slurm"),
            QStringLiteral("hf-trainer"));
        QCOMPARE(launcherIds(inc.launch), QStringList { QStringLiteral("slurm") });
        QCOMPARE(inc.launch.framework.id, QStringLiteral("hf-trainer"));
        const QString s = inc.launchSentence();
        QCOMPARE(s,
            QStringLiteral(
                "launched by Slurm (given with --launcher); framework: HF Trainer (given with --framework)"));
        // Only the framework given: the launchers stay those of the logs.
        const Incident fw =
            analyzed({ kLaunch + QStringLiteral("/torchrun.log") }, {}, QStringLiteral("lightning"));
        QCOMPARE(launcherIds(fw.launch), QStringList { QStringLiteral("torchrun") });
        QVERIFY(fw.launch.framework.given);
    }

    void cliFlags()
    {
        QProcess p;
        p.start(QStringLiteral(RANKSCOPE_BINARY),
            { QStringLiteral("diagnose"), kLaunch + QStringLiteral("/torchrun.log"),
                QStringLiteral("--launcher"), QStringLiteral("pbs") });
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 64);
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(
            err.contains(QStringLiteral("torchrun, slurm, mpirun, deepspeed, accelerate, ray, kubernetes")),
            qPrintable(err));

        p.start(QStringLiteral(RANKSCOPE_BINARY),
            { QStringLiteral("diagnose"), kLaunch + QStringLiteral("/torchrun.log"),
                QStringLiteral("--framework"), QStringLiteral("jax") });
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 64);
        QVERIFY(QString::fromUtf8(p.readAllStandardError())
                    .contains(QStringLiteral("lightning, hf-trainer, deepspeed, megatron, vllm, torch")));

        p.start(QStringLiteral(RANKSCOPE_BINARY),
            { QStringLiteral("diagnose"), kLaunch + QStringLiteral("/hf-trainer.log"),
                QStringLiteral("--launcher"), QStringLiteral("slurm"), QStringLiteral("--format"),
                QStringLiteral("json") });
        QVERIFY(p.waitForFinished(60000));
        const QJsonObject launch = QJsonDocument::fromJson(p.readAllStandardOutput())
                                       .object()
                                       .value(QStringLiteral("launch"))
                                       .toObject();
        QCOMPARE(launch.value(QStringLiteral("launchers"))
                     .toArray()
                     .first()
                     .toObject()
                     .value(QStringLiteral("id"))
                     .toString(),
            QStringLiteral("slurm"));
        QCOMPARE(launch.value(QStringLiteral("framework")).toObject().value(QStringLiteral("id")).toString(),
            QStringLiteral("hf-trainer"));
        QVERIFY(launch.value(QStringLiteral("summary"))
                    .toString()
                    .contains(QStringLiteral("(given with --launcher)")));
        const QJsonArray evidence =
            launch.value(QStringLiteral("framework")).toObject().value(QStringLiteral("evidence")).toArray();
        QCOMPARE(evidence.size(), 1);
        QCOMPARE(evidence.first().toObject().value(QStringLiteral("line")).toInt(), 1);
    }
};

QTEST_GUILESS_MAIN(TestLaunchDetect)
#include "tst_launch_detect.moc"
