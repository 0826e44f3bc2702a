// SPDX-License-Identifier: MIT
// `rankscope capture-topology` run for real inside a cgroup cpuset of CPU 0, as inside a Slurm job's
// allocation: the capture must still hold every CPU of the machine (HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED),
// and loading it must say which CPUs the job could use. Without the flag hwloc exports only CPU 0 in the
// Machine's cpuset (what `lstopo` without --disallowed writes). The test needs root, a cpuset controller
// (cgroup v1 or v2) and at least two CPUs; elsewhere it is skipped with the reason.
#include "topology_loader.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <unistd.h>

using namespace rankscope;

namespace {

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll().trimmed() : QByteArray();
}

bool writeTo(const QString& path, const QByteArray& value)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(value) == value.size();
}

// A cpuset cgroup of CPU 0 made for the test and removed after it; error() says why none could be made.
class CpusetOfCpu0
{
public:
    CpusetOfCpu0()
    {
        const QString name = QStringLiteral("rankscope-test-%1").arg(QCoreApplication::applicationPid());
        const QString v1 = QStringLiteral("/sys/fs/cgroup/cpuset");
        const QString v2 = QStringLiteral("/sys/fs/cgroup");
        if (QFile::exists(v1 + QStringLiteral("/cpuset.cpus"))) {
            m_dir = v1 + QLatin1Char('/') + name;
            m_procs = m_dir + QStringLiteral("/tasks");
            const QByteArray mems = readAll(v1 + QStringLiteral("/cpuset.mems")).split(',').value(0);
            if (!QDir().mkdir(m_dir) || !writeTo(m_dir + QStringLiteral("/cpuset.cpus"), "0")
                || !writeTo(m_dir + QStringLiteral("/cpuset.mems"), mems.split('-').value(0)))
                m_error = QStringLiteral("cannot make the cgroup v1 cpuset %1").arg(m_dir);
        } else if (readAll(v2 + QStringLiteral("/cgroup.controllers")).contains("cpuset")) {
            m_dir = v2 + QLatin1Char('/') + name;
            m_procs = m_dir + QStringLiteral("/cgroup.procs");
            writeTo(v2 + QStringLiteral("/cgroup.subtree_control"), "+cpuset");
            if (!QDir().mkdir(m_dir) || !writeTo(m_dir + QStringLiteral("/cpuset.cpus"), "0"))
                m_error = QStringLiteral("cannot make the cgroup v2 cpuset %1").arg(m_dir);
        } else {
            m_error = QStringLiteral("no cpuset cgroup controller on this machine");
        }
    }
    ~CpusetOfCpu0()
    {
        if (!m_dir.isEmpty())
            QDir().rmdir(m_dir); // empty again once the capture's process has exited
    }
    CpusetOfCpu0(const CpusetOfCpu0&) = delete;
    CpusetOfCpu0& operator=(const CpusetOfCpu0&) = delete;
    QString error() const { return m_error; }
    QString procsFile() const { return m_procs; }
    QString name() const { return m_dir.mid(m_dir.lastIndexOf(QLatin1Char('/'))); }

private:
    QString m_dir, m_procs, m_error;
};

QString machineAttribute(const QByteArray& xml, const QString& attribute)
{
    const QRegularExpression machine(
        QStringLiteral("<object type=\"Machine\"[^>]*\\b%1=\"([^\"]*)\"").arg(attribute));
    return machine.match(QString::fromUtf8(xml)).captured(1);
}

} // namespace

class TestTopologyCaptureCpuset : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void captureInsideCpusetKeepsEveryCpu();
};

void TestTopologyCaptureCpuset::captureInsideCpusetKeepsEveryCpu()
{
    if (geteuid() != 0)
        QSKIP("making a cpuset cgroup needs root");
    const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    if (cpus < 2)
        QSKIP("one CPU: a cpuset of CPU 0 disallows nothing");
    const CpusetOfCpu0 cgroup;
    if (!cgroup.error().isEmpty())
        QSKIP(qPrintable(cgroup.error()));

    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QString out = tmp.filePath(QStringLiteral("capture.xml"));
    // The shell moves itself into the cgroup, then becomes the capture: the capture's own process is
    // the one the cpuset restricts, as srun's task would be.
    QProcess p;
    p.start(QStringLiteral("/bin/sh"),
        { QStringLiteral("-c"), QStringLiteral("echo $$ > \"$1\" && exec \"$2\" capture-topology -o \"$3\""),
            QStringLiteral("sh"), cgroup.procsFile(), QStringLiteral(RANKSCOPE_BINARY), out });
    QVERIFY(p.waitForFinished(60000));
    QVERIFY2(
        p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, p.readAllStandardError().constData());

    const QByteArray xml = readAll(out);
    QVERIFY(!xml.isEmpty());
    // The capture ran restricted (hwloc saw the cgroup and allowed only CPU 0) ...
    QCOMPARE(machineAttribute(xml, QStringLiteral("allowed_cpuset")), QStringLiteral("0x00000001"));
    const QString cgroupInfo = QStringLiteral("<info name=\"LinuxCgroup\" value=\"%1\"").arg(cgroup.name());
    QVERIFY2(xml.contains(cgroupInfo.toUtf8()), qPrintable(cgroupInfo));
    // ... and still holds every CPU in the tree: the Machine's cpuset is its complete one, one PU each.
    QCOMPARE(machineAttribute(xml, QStringLiteral("cpuset")),
        machineAttribute(xml, QStringLiteral("complete_cpuset")));
    QCOMPARE(xml.count("<object type=\"PU\""), static_cast<qsizetype>(cpus));

    const TopologyParse t = loadTopologyFile(out);
    QVERIFY2(t.error.isEmpty(), qPrintable(t.error));
    QCOMPARE(t.topo.machineCpus, QStringLiteral("0-%1").arg(cpus - 1));
    QCOMPARE(t.topo.allowedCpus, QStringLiteral("0"));
    QVERIFY2(!t.topo.numaNodes.empty(), "no NUMA node in the capture");
    const QString notes = t.topo.notes.join(QLatin1Char('\n'));
    QVERIFY2(notes.contains(QStringLiteral("captured inside a cpuset (cgroup %1)").arg(cgroup.name())),
        qPrintable(notes));
}

QTEST_GUILESS_MAIN(TestTopologyCaptureCpuset)
#include "tst_topology_capture_cpuset.moc"
