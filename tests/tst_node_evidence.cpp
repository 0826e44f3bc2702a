// SPDX-License-Identifier: MIT
// Node evidence on real captures copied from public threads (tests/data/node-evidence/README.md):
// recognised by content, parsed with their lines, tied to a host, and joined with the diagnosis of a
// small incident: an Xid on the initiating GPU, the OOM killer taking a rank's pid, a port down, the
// GID index, an NCCL_SOCKET_IFNAME the host does not have.
#include "analysis.h"
#include "input_discovery.h"
#include "node_evidence.h"
#include "node_evidence_join.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace rankscope;

namespace {

const QString kData = QStringLiteral(RANKSCOPE_TEST_DATA "/node-evidence");

NodeCapture load(const QString& rel)
{
    return loadNodeCapture(kData + QLatin1Char('/') + rel, rel);
}

Analysis analyzeFolder(const QString& folder)
{
    AnalysisRequest r;
    r.logPaths << kData + QLatin1Char('/') + folder;
    return analyze(r);
}

const NodeFinding* confirmed(const Diagnosis& d)
{
    for (const NodeFinding& f : d.nodeFindings) {
        if (f.confirms)
            return &f;
    }
    return nullptr;
}

QString findings(const Diagnosis& d)
{
    QStringList out;
    for (const NodeFinding& f : d.nodeFindings)
        out << QStringLiteral("%1 %2 (%3)")
                   .arg(f.confirms ? QStringLiteral("+") : QStringLiteral("-"), f.text, f.source);
    return out.join(QLatin1Char('\n'));
}

} // namespace

class TestNodeEvidence : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void kernelLogs()
    {
        const NodeCapture fallen = load(QStringLiteral("captures/dmesg-fallen-off-bus-570.txt"));
        QCOMPARE(fallen.kind, NodeCaptureKind::KernelLog);
        QVERIFY2(fallen.error.isEmpty(), qPrintable(fallen.error));
        QCOMPARE(fallen.kernel.size(), size_t(1)); // the three wrapped NVRM lines are one record
        QCOMPARE(fallen.kernel[0].kind, KernelRecord::Kind::FallenOffBus);
        QCOMPARE(fallen.kernel[0].pci, QStringLiteral("0000:b3:00.0"));
        QCOMPARE(fallen.kernel[0].line, qint64(1));

        const NodeCapture xid = load(QStringLiteral("xid79/dmesg.gpu-n07.txt"));
        QCOMPARE(xid.kind, NodeCaptureKind::KernelLog);
        QCOMPARE(xid.kernel.size(), size_t(1));
        QCOMPARE(xid.kernel[0].xid, 79);
        QCOMPARE(xid.kernel[0].pci, QStringLiteral("0000:44:00.0"));

        // journalctl: the host column names the host; every victim once, with its own line.
        const NodeCapture journal = load(QStringLiteral("captures/journal-oom-ubuntu-s-1vcpu.txt"));
        QCOMPARE(journal.kind, NodeCaptureKind::KernelLog);
        QCOMPARE(journal.contentHost, QStringLiteral("ubuntu-s-1vcpu-2gb-ams3-01"));
        QCOMPARE(journal.kernel.size(), size_t(4));
        QCOMPARE(journal.kernel[2].pid, qint64(15783));
        QCOMPARE(journal.kernel[2].process, QStringLiteral("python3"));
        QCOMPARE(journal.kernel[2].line, qint64(5));
        QCOMPARE(journal.kernel[1].process, QStringLiteral("(resolved)"));

        // dmesg -T: the oom-kill summary and "Killed process" are the same victim.
        const NodeCapture human = load(QStringLiteral("oom/dmesg-T.txt"));
        QCOMPARE(human.kind, NodeCaptureKind::KernelLog);
        QCOMPARE(human.kernel.size(), size_t(1));
        QCOMPARE(human.kernel[0].kind, KernelRecord::Kind::OomKill);
        QCOMPARE(human.kernel[0].pid, qint64(7899));
    }

    void ibCaptures()
    {
        const NodeCapture down = load(QStringLiteral("port-down/ibstat.txt"));
        QCOMPARE(down.kind, NodeCaptureKind::IbStat);
        QCOMPARE(down.contentHost, QStringLiteral("test-sriov-ib-pod")); // the shell prompt
        QCOMPARE(down.ports.size(), size_t(1));
        const IbPort& p = down.ports[0];
        QCOMPARE(p.device, QStringLiteral("mlx5_7"));
        QCOMPARE(p.port, 1);
        QCOMPARE(p.state, QStringLiteral("Down"));
        QCOMPARE(p.physicalState, QStringLiteral("LinkUp"));
        QCOMPARE(p.rate, QStringLiteral("200"));
        QCOMPARE(p.linkLayer, QStringLiteral("InfiniBand"));
        QCOMPARE(p.stateLine, qint64(10));

        const NodeCapture disabled = load(QStringLiteral("captures/ibstat-mlx5_8-disabled.txt"));
        QCOMPARE(disabled.kind, NodeCaptureKind::IbStat);
        QCOMPARE(disabled.ports.size(), size_t(1));
        QCOMPARE(disabled.ports[0].physicalState, QStringLiteral("Disabled"));
        QVERIFY(!disabled.ports[0].active());

        const NodeCapture azure = load(QStringLiteral("captures/ibv_devinfo-azure-hbv2.txt"));
        QCOMPARE(azure.kind, NodeCaptureKind::IbvDevinfo);
        QCOMPARE(azure.contentHost, QStringLiteral("hbv2vm2"));
        QCOMPARE(azure.ports.size(), size_t(1));
        QCOMPARE(azure.ports[0].device, QStringLiteral("rdmaP23800p0s2"));
        QCOMPARE(azure.ports[0].state, QStringLiteral("Active"));
        QCOMPARE(azure.ports[0].linkLayer, QStringLiteral("Ethernet"));

        // A paste that starts with the command and holds only the GID lines.
        const NodeCapture gids = load(QStringLiteral("gid-index/ibv_devinfo.txt"));
        QCOMPARE(gids.kind, NodeCaptureKind::IbvDevinfo);
        QCOMPARE(gids.ports.size(), size_t(1));
        QCOMPARE(gids.ports[0].device, QStringLiteral("mlx5_bond_0"));
        const std::vector<GidEntry>& g = gids.ports[0].gids;
        QCOMPARE(g.size(), size_t(4));
        QCOMPARE(g[1].type, QStringLiteral("RoCE v2"));
        QVERIFY(g[1].ipv4.isEmpty()); // link-local IPv6
        QCOMPARE(g[2].ipv4, QStringLiteral("200.0.209.6")); // 0000:...:ffff:c800:d106
        QCOMPARE(g[2].type, QStringLiteral("RoCE v1"));
        QCOMPARE(g[3].ipv4, QStringLiteral("200.0.209.6"));
        QCOMPARE(g[3].line, qint64(7));
    }

    void nvidiaSmiAndInterfaces()
    {
        const NodeCapture q = load(QStringLiteral("captures/nvidia-smi-q-gtx960m.txt"));
        QCOMPARE(q.kind, NodeCaptureKind::NvidiaSmiQuery);
        QCOMPARE(q.gpus.size(), size_t(1));
        QCOMPARE(q.gpus[0].busId, QStringLiteral("0000:01:00.0"));
        QCOMPARE(q.gpus[0].persistenceMode, QStringLiteral("Disabled"));
        QCOMPARE(q.gpus[0].persistenceLine, qint64(13));

        const NodeCapture ifc = load(QStringLiteral("missing-ifname/ifconfig.txt"));
        QCOMPARE(ifc.kind, NodeCaptureKind::Ifconfig);
        QCOMPARE(ifc.contentHost, QStringLiteral("p5-st-p5-1"));
        QCOMPARE(ifc.interfaces.size(), size_t(1));
        QCOMPARE(ifc.interfaces[0].name, QStringLiteral("enp105s0"));
        QVERIFY(ifc.interfaces[0].up);
        QCOMPARE(ifc.interfaces[0].ipv4, QStringList { QStringLiteral("10.1.46.161") });

        const NodeCapture ip = load(QStringLiteral("captures/ip-addr-sglang.txt"));
        QCOMPARE(ip.kind, NodeCaptureKind::IpAddr);
        QCOMPARE(ip.contentHost, QStringLiteral("ubuntu"));
        QCOMPARE(ip.interfaces.size(), size_t(5));
        QCOMPARE(ip.interfaces[0].ipv4, QStringList { QStringLiteral("127.0.0.1") });
        QCOMPARE(ip.interfaces[3].name, QStringLiteral("ens16f0"));
        QVERIFY(!ip.interfaces[3].up); // NO-CARRIER
    }

    void logsAreNotEvidence()
    {
        // Job logs, a topology capture and a pasted issue that quotes NVRM lines among NCCL ones.
        for (const char* rel : { "sample-job/nccl.gpu-a01.41872.log",
                 "sample-job/torchrun.gpu-a01.console.log", "topology/nvidia-smi-topo.gpu-a02.txt",
                 "real/118-gpu-reset-required-gsp-nccltest-busy-unavailable/log.txt" }) {
            QFile f(QStringLiteral(RANKSCOPE_TEST_DATA "/") + QLatin1String(rel));
            QVERIFY2(f.open(QIODevice::ReadOnly), rel);
            QCOMPARE(detectNodeCapture(f.read(65536)), NodeCaptureKind::None);
        }
    }

    // Every log file's head is asked, so the test reads only as far as it must: a job log that quotes
    // `ip addr` and dmesg lines after its first 8 KiB stays a log; a kernel log behind a UTF-8 BOM and
    // blank lines is still one.
    void captureIsToldByItsHead()
    {
        QFile log(QStringLiteral(RANKSCOPE_TEST_DATA "/sample-job/nccl.gpu-a01.41872.log"));
        QVERIFY(log.open(QIODevice::ReadOnly));
        QByteArray head = log.readAll();
        while (head.size() < 9000)
            head += head;
        QCOMPARE(detectNodeCapture(head), NodeCaptureKind::None);
        const QByteArray quoted =
            "2: ens1f0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 9000 qdisc mq state UP\n"
            "    inet 10.10.0.11/24 brd 10.10.0.255 scope global ens1f0\n"
            "[  812.330811] NVRM: Xid (PCI:0000:18:00): 79, GPU has fallen off the bus.\n";
        QCOMPARE(detectNodeCapture(head + quoted), NodeCaptureKind::None);
        QCOMPARE(detectNodeCapture(quoted + head.left(2000)), NodeCaptureKind::IpAddr);
        QByteArray dmesg = "\xef\xbb\xbf\n\n";
        for (int i = 0; i < 400; ++i)
            dmesg += "[  812." + QByteArray::number(100000 + i) + "] NVRM: Xid (PCI:0000:18:00): 79, pid=1\n";
        QCOMPARE(detectNodeCapture(dmesg), NodeCaptureKind::KernelLog);
        // A log that starts with a few dmesg lines and goes on with 200 of its own is no kernel log.
        QByteArray mixed = dmesg.left(300);
        for (int i = 0; i < 200; ++i)
            mixed += "gpu-a01:41872:41872 [0] NCCL INFO Channel 00/02 : 0 1 2 3\n";
        QCOMPARE(detectNodeCapture(mixed), NodeCaptureKind::None);
    }

    // A comment that quotes the failing line, then the output it asks about (horovod#310): a log, or nobody
    // reads the failure. A prompt, a label or a sentence of the reporter's above a capture keeps it one.
    void failureAboveTheCaptureMakesALog()
    {
        const QByteArray ifconfig = "docker0   Link encap:Ethernet  HWaddr 02:42:a9:9e:3d:33\n"
                                    "          inet addr:172.17.0.1  Bcast:0.0.0.0  Mask:255.255.0.0\n"
                                    "          UP BROADCAST RUNNING MULTICAST  MTU:1500  Metric:1\n";
        QCOMPARE(
            detectNodeCapture("the error  last line\n`[u10-154-66-206][[38971,1],2][btl_tcp_endpoint.c:796:"
                              "mca_btl_tcp_endpoint_complete_connect] connect() to 172.17.0.1 failed: "
                              "Connection refused (111)`\n\nifconfig output\n\n"
                + ifconfig),
            NodeCaptureKind::None);
        QCOMPARE(detectNodeCapture("root@gpu-a01:~# ifconfig\n" + ifconfig), NodeCaptureKind::Ifconfig);
        QCOMPARE(detectNodeCapture("Error:\n" + ifconfig), NodeCaptureKind::Ifconfig);
        QCOMPARE(
            detectNodeCapture("After the job failed on my node I ran ifconfig and got this:\n" + ifconfig),
            NodeCaptureKind::Ifconfig);
        // Below the capture's first line a failure word is the capture's own ("errors:0", a quoted log line).
        QCOMPARE(detectNodeCapture(ifconfig + "NCCL WARN NET/Socket : connect failed\n"),
            NodeCaptureKind::Ifconfig);
    }

    // An issue's paste: a capture's output above the job's own lines. It is read as a log as well, so the
    // failure is not lost behind the capture; a capture alone says it is no log (1709's shape).
    void captureAboveALogIsBoth_data()
    {
        QTest::addColumn<QString>("capture");
        QTest::addColumn<bool>("topology");
        QTest::newRow("ibv_devinfo") << kData + QStringLiteral("/gid-index/ibv_devinfo.txt") << false;
        QTest::newRow("nvidia-smi topo -m")
            << QStringLiteral(RANKSCOPE_TEST_DATA "/topology/nvidia-smi-topo.gpu-a02.txt") << true;
    }

    void captureAboveALogIsBoth()
    {
        QFETCH(QString, capture);
        QFETCH(bool, topology);
        QFile c(capture);
        QVERIFY(c.open(QIODevice::ReadOnly));
        QFile log(kData + QStringLiteral("/gid-index/nccl.a100-node3.22101.log"));
        QVERIFY(log.open(QIODevice::ReadOnly));
        QByteArray warn;
        for (const QByteArray& l : log.readAll().split('\n'))
            if (warn.isEmpty() && l.contains("NCCL WARN"))
                warn = l;
        QVERIFY(!warn.isEmpty());
        QTemporaryDir dir;
        const QString paste = dir.filePath(QStringLiteral("issue.txt"));
        QFile out(paste);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write("This is my setup:\n" + c.readAll() + "\nand the log:\n" + warn + '\n');
        out.close();

        const Discovery d = discoverInputs({ paste }, {}, nullptr);
        QCOMPARE(d.files.size(), size_t(1));
        QCOMPARE(d.topology.size(), size_t(topology ? 1 : 0));
        QCOMPARE(d.nodeEvidence.size(), size_t(topology ? 0 : 1));
        AnalysisRequest r;
        r.logPaths << paste;
        const Analysis an = analyze(r);
        const AttemptAnalysis* a = an.currentAttempt();
        QVERIFY2(a, qPrintable(an.error));
        QCOMPARE(a->incident.events[static_cast<size_t>(a->diagnosis.initiatingEvent)].text,
            QString::fromUtf8(warn));

        AnalysisRequest alone;
        alone.logPaths << capture;
        const Analysis none = analyze(alone);
        QVERIFY(!none.currentAttempt());
        QVERIFY2(none.error.contains(QLatin1String("no log among the inputs")), qPrintable(none.error));
        QVERIFY2(none.error.contains(capture), qPrintable(none.error));
    }

    void discoveryAndHosts()
    {
        const Discovery xid = discoverInputs({ kData + QStringLiteral("/xid79") }, {}, nullptr);
        QCOMPARE(xid.nodeEvidence.size(), size_t(1));
        QCOMPARE(xid.files.size(), size_t(5)); // the kernel log is read as a log as well
        const Discovery ib = discoverInputs({ kData + QStringLiteral("/port-down") }, {}, nullptr);
        QCOMPARE(ib.nodeEvidence.size(), size_t(1));
        QCOMPARE(ib.files.size(), size_t(2)); // ibstat is not a log

        const NodeCapture journal = load(QStringLiteral("captures/journal-oom-ubuntu-s-1vcpu.txt"));
        QString how;
        QVERIFY(nodeCaptureHost(journal, { QStringLiteral("gpu-n07") }, &how).isEmpty());
        QVERIFY2(how.contains(QLatin1String("not in the logs")), qPrintable(how));
        QCOMPARE(nodeCaptureHost(
                     journal, { QStringLiteral("gpu-n07"), QStringLiteral("ubuntu-s-1vcpu-2gb-ams3-01") }),
            QStringLiteral("ubuntu-s-1vcpu-2gb-ams3-01"));
        const NodeCapture byName = load(QStringLiteral("xid79/dmesg.gpu-n07.txt"));
        QCOMPARE(nodeCaptureHost(byName, { QStringLiteral("gpu-n0"), QStringLiteral("gpu-n07") }, &how),
            QStringLiteral("gpu-n07"));
        QCOMPARE(how, QStringLiteral("named by the file name"));
        const NodeCapture anonymous = load(QStringLiteral("gid-index/ibv_devinfo.txt"));
        QCOMPARE(
            nodeCaptureHost(anonymous, { QStringLiteral("a100-node3") }, &how), QStringLiteral("a100-node3"));
        QCOMPARE(how, QStringLiteral("the only host of the logs"));
        QVERIFY(nodeCaptureHost(anonymous, { QStringLiteral("a"), QStringLiteral("b") }).isEmpty());
    }

    void xidOnTheInitiatingGpu()
    {
        const Analysis a = analyzeFolder(QStringLiteral("xid79"));
        const AttemptAnalysis* at = a.currentAttempt();
        QVERIFY(at);
        const Diagnosis& d = at->diagnosis;
        QCOMPARE(at->incident.events[static_cast<size_t>(d.initiatingEvent)].rank, 2);
        const NodeFinding* f = confirmed(d);
        QVERIFY2(f, qPrintable(findings(d)));
        QCOMPARE(f->source, QStringLiteral("dmesg.gpu-n07.txt:1"));
        QCOMPARE(f->host, QStringLiteral("gpu-n07"));
        QVERIFY2(f->text.contains(
                     QLatin1String("Xid 79 (fallen off the bus) on GPU 2 (0000:44:00.0), the GPU of rank 2, "
                                   "the initiating rank")),
            qPrintable(f->text));
        QCOMPARE(d.confidence, QStringLiteral("high"));
        // The CUDA error is the symptom; the fix now leads with the GPU that fell off the bus.
        QVERIFY2(d.fix.startsWith(QLatin1String("Node evidence (dmesg.gpu-n07.txt:1)")), qPrintable(d.fix));
        QVERIFY2(d.fix.contains(QLatin1String("0000:44:00.0")), qPrintable(d.fix));
    }

    void oomKillOfARank()
    {
        const Analysis a = analyzeFolder(QStringLiteral("oom"));
        const Diagnosis& d = a.currentAttempt()->diagnosis;
        const NodeFinding* f = confirmed(d);
        QVERIFY2(f, qPrintable(findings(d)));
        QCOMPARE(f->source, QStringLiteral("dmesg-T.txt:5"));
        QVERIFY2(f->text.contains(
                     QLatin1String("the kernel OOM killer killed pid 7899 (python), rank 0 on trainer-01")),
            qPrintable(f->text));
        QCOMPARE(f->host, QStringLiteral("trainer-01")); // the only host of the logs: dmesg names none
    }

    void portDown()
    {
        const Analysis a = analyzeFolder(QStringLiteral("port-down"));
        const Diagnosis& d = a.currentAttempt()->diagnosis;
        const NodeFinding* f = confirmed(d);
        QVERIFY2(f, qPrintable(findings(d)));
        QCOMPARE(f->source, QStringLiteral("ibstat.txt:10"));
        QVERIFY2(f->text.startsWith(
                     QLatin1String("mlx5_7 port 1 on test-sriov-ib-pod is Down (physical state LinkUp")),
            qPrintable(f->text));
        // The retry-exceeded completion was the symptom: the fix leads with restoring the port.
        QVERIFY2(d.fix.startsWith(QLatin1String("Node evidence (ibstat.txt:10)")), qPrintable(d.fix));
        QVERIFY2(d.fix.contains(QLatin1String("Restore the link of mlx5_7 on test-sriov-ib-pod")),
            qPrintable(d.fix));
    }

    void gidIndex()
    {
        const Analysis a = analyzeFolder(QStringLiteral("gid-index"));
        const Diagnosis& d = a.currentAttempt()->diagnosis;
        const NodeFinding* f = confirmed(d);
        QVERIFY2(f, qPrintable(findings(d)));
        QCOMPARE(f->source, QStringLiteral("ibv_devinfo.txt:7"));
        QVERIFY2(f->text.contains(QLatin1String(
                     "GID[3] of mlx5_bond_0 on a100-node3 is RoCE v2 with IPv4 address 200.0.209.6")),
            qPrintable(f->text));
        QVERIFY2(d.fix.startsWith(QLatin1String("export NCCL_IB_GID_INDEX=3")), qPrintable(d.fix));
    }

    void missingInterface()
    {
        const Analysis a = analyzeFolder(QStringLiteral("missing-ifname"));
        const Diagnosis& d = a.currentAttempt()->diagnosis;
        const NodeFinding* f = confirmed(d);
        QVERIFY2(f, qPrintable(findings(d)));
        QVERIFY2(f->text.startsWith(
                     QLatin1String("NCCL_SOCKET_IFNAME=eth0 (nccl.p5-st-p5-1.48213.log:1) matches no "
                                   "interface of p5-st-p5-1")),
            qPrintable(f->text));
        QCOMPARE(f->source, QStringLiteral("ifconfig.txt:3"));
        QVERIFY2(d.fix.startsWith(QLatin1String("export NCCL_SOCKET_IFNAME=enp105s0")), qPrintable(d.fix));
    }

    void foreignCaptureDrivesNoFix()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        for (const char* rel : { "port-down/nccl.test-sriov-ib-pod.3310.log",
                 "port-down/nccl.test-sriov-ib-pod.3311.log", "captures/ibv_devinfo-azure-hbv2.txt" }) {
            const QString name = QFileInfo(QLatin1String(rel)).fileName();
            QVERIFY(QFile::copy(kData + QLatin1Char('/') + QLatin1String(rel), dir.filePath(name)));
        }
        AnalysisRequest r;
        r.logPaths << dir.path();
        const Analysis a = analyze(r);
        const Diagnosis& d = a.currentAttempt()->diagnosis;
        QVERIFY2(!confirmed(d), qPrintable(findings(d)));
        QCOMPARE(d.nodeFindings.size(), size_t(1));
        QVERIFY2(d.nodeFindings[0].text.contains(QLatin1String("capture of an unknown host")),
            qPrintable(findings(d)));
        QVERIFY(d.nodeFindings[0].host.isEmpty());
        QVERIFY(!d.fix.contains(QLatin1String("Node evidence")));
    }

    void reportCarriesFindings()
    {
        QProcess p;
        p.start(QStringLiteral(RANKSCOPE_BINARY),
            { QStringLiteral("diagnose"), QStringLiteral("--format"), QStringLiteral("json"),
                kData + QStringLiteral("/gid-index") });
        QVERIFY(p.waitForFinished(60000));
        const QJsonObject root = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
        const QJsonArray found = root.value(QStringLiteral("node_evidence")).toArray();
        QVERIFY2(!found.isEmpty(), qPrintable(QString::fromUtf8(p.readAllStandardError())));
        const QJsonObject first = found.first().toObject();
        QCOMPARE(first.value(QStringLiteral("source")).toString(), QStringLiteral("ibv_devinfo.txt:7"));
        QVERIFY(first.value(QStringLiteral("confirms")).toBool());

        p.start(QStringLiteral(RANKSCOPE_BINARY),
            { QStringLiteral("diagnose"), kData + QStringLiteral("/gid-index") });
        QVERIFY(p.waitForFinished(60000));
        const QString text = QString::fromUtf8(p.readAllStandardOutput());
        QVERIFY2(text.contains(QLatin1String("Node evidence"), Qt::CaseInsensitive), qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("(ibv_devinfo.txt:7)")), qPrintable(text));
    }
};

QTEST_GUILESS_MAIN(TestNodeEvidence)
#include "tst_node_evidence.moc"
