// SPDX-License-Identifier: MIT
// The test-incident generator: file layouts, the injected fault's location and text, sizes and determinism.
#include "incident_generator.h"
#include "timestamp.h"

#include <QCryptographicHash>
#include <QDirIterator>
#include <QFile>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <memory>
#include <zlib.h>

using namespace rankscope;
using namespace rankscope::testgen;

Q_DECLARE_METATYPE(rankscope::testgen::Fault)
Q_DECLARE_METATYPE(rankscope::testgen::Layout)

namespace {

QByteArray readAll(const QString& path)
{
    if (!path.endsWith(QLatin1String(".gz"))) {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }
    struct GzClose
    {
        void operator()(gzFile g) const { gzclose(g); }
    };
    std::unique_ptr<gzFile_s, GzClose> gz(gzopen(QFile::encodeName(path).constData(), "rb"));
    QByteArray out;
    char buf[65536];
    int n = 0;
    while (gz && (n = gzread(gz.get(), buf, sizeof buf)) > 0)
        out.append(buf, n);
    return out;
}

QByteArrayList readLines(const QString& path)
{
    QByteArray all = readAll(path);
    if (all.endsWith('\n'))
        all.chop(1);
    return all.split('\n');
}

QStringList allFiles(const QString& dir)
{
    QStringList files;
    QDirIterator it(dir, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext())
        files << it.next();
    files.sort();
    return files;
}

// Strips torchrun's "[defaultN]:" tee prefix.
QByteArray withoutTee(const QByteArray& line)
{
    if (line.startsWith("[default")) {
        const qsizetype colon = line.indexOf("]:");
        if (colon > 0)
            return line.mid(colon + 2);
    }
    return line;
}

std::string_view view(const QByteArray& b)
{
    return { b.constData(), static_cast<std::size_t>(b.size()) };
}

GenOptions twoNodes(Fault fault, Layout layout)
{
    GenOptions o;
    o.ranks = 8;
    o.gpusPerNode = 4;
    o.fault = fault;
    o.faultRank = 7;
    o.layout = layout;
    return o;
}

} // namespace

class TestIncidentGenerator : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void fileCounts_data();
    void fileCounts();
    void faultLine_data();
    void faultLine();
    void hangHasNoWarn();
    void survivorsTimeOutTenMinutesLater();
    void identityLines();
    void sizeWithinTenPercent_data();
    void sizeWithinTenPercent();
    void deterministic();
    void rejectsBadOptions();
    void parseSize_data();
    void parseSize();
};

void TestIncidentGenerator::fileCounts_data()
{
    QTest::addColumn<Layout>("layout");
    QTest::addColumn<int>("ranks");
    QTest::addColumn<int>("gpusPerNode");
    QTest::addColumn<int>("files");
    QTest::newRow("per-rank") << Layout::PerRankFiles << 8 << 4 << 8;
    QTest::newRow("nccl") << Layout::NcclDebugFiles << 8 << 4 << 8 + 2;
    QTest::newRow("nccl-uneven-last-node") << Layout::NcclDebugFiles << 12 << 8 << 12 + 2;
    QTest::newRow("torchrun") << Layout::TorchrunLogDir << 8 << 4 << 2 * 8 + 2;
    QTest::newRow("combined") << Layout::Combined << 16 << 8 << 1;
}

void TestIncidentGenerator::fileCounts()
{
    QFETCH(Layout, layout);
    QFETCH(int, ranks);
    QFETCH(int, gpusPerNode);
    QFETCH(int, files);
    QTemporaryDir dir;
    GenOptions o = twoNodes(Fault::IbRetryExceeded, layout);
    o.ranks = ranks;
    o.gpusPerNode = gpusPerNode;
    const GenResult r = generateIncident(o, dir.path());
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    QCOMPARE(r.files, files);
    const QStringList onDisk = allFiles(dir.path());
    QCOMPARE(onDisk.size(), files);
    qint64 total = 0;
    for (const QString& f : onDisk)
        total += QFileInfo(f).size();
    QCOMPARE(total, r.bytes);
}

void TestIncidentGenerator::faultLine_data()
{
    QTest::addColumn<Fault>("fault");
    QTest::addColumn<Layout>("layout");
    QTest::addColumn<bool>("gzip");
    QTest::addColumn<QByteArray>("warnText");
    QTest::addColumn<QByteArray>("trail");
    const QByteArray ib = "NET/IB: Got completion from peer 10.10.0.11<";
    const QByteArray ibTail = "with status=12 opcode=0 len=0 vendor err 129 (Send) hca mlx5_";
    const QByteArray shm = "Error while creating shared memory segment /dev/shm/nccl-";
    const std::pair<const char*, Layout> layouts[] = { { "per-rank", Layout::PerRankFiles },
        { "nccl", Layout::NcclDebugFiles }, { "torchrun", Layout::TorchrunLogDir },
        { "combined", Layout::Combined } };
    for (const auto& [name, layout] : layouts) {
        QTest::addRow("ib-%s", name) << Fault::IbRetryExceeded << layout << false
                                     << ib + QByteArray("*") + ibTail
                                     << QByteArray("transport/net.cc:1227 -> 6");
        QTest::addRow("shm-%s", name)
            << Fault::ShmTooSmall << layout << false << shm << QByteArray("transport/shm.cc:531 -> 2");
    }
    QTest::newRow("ib-nccl-gzip") << Fault::IbRetryExceeded << Layout::NcclDebugFiles << true
                                  << ib + QByteArray("*") + ibTail
                                  << QByteArray("transport/net.cc:1227 -> 6");
    QTest::newRow("shm-combined-gzip")
        << Fault::ShmTooSmall << Layout::Combined << true << shm << QByteArray("transport/shm.cc:531 -> 2");
}

void TestIncidentGenerator::faultLine()
{
    QFETCH(Fault, fault);
    QFETCH(Layout, layout);
    QFETCH(bool, gzip);
    QFETCH(QByteArray, warnText);
    QFETCH(QByteArray, trail);
    QTemporaryDir dir;
    GenOptions o = twoNodes(fault, layout);
    o.gzip = gzip;
    const GenResult r = generateIncident(o, dir.path());
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    QCOMPARE(r.faultRank, 7);
    QCOMPARE(r.faultHost, QStringLiteral("gpu-a02"));
    QVERIFY(QFileInfo(r.faultFile).isAbsolute());
    QVERIFY(r.faultFile.startsWith(QDir(dir.path()).absolutePath()));
    QCOMPARE(r.faultFile.endsWith(QLatin1String(".gz")), gzip);

    const QByteArrayList lines = readLines(r.faultFile);
    QVERIFY(r.faultLine >= 2 && r.faultLine < lines.size());
    const QByteArray warn = withoutTee(lines[static_cast<qsizetype>(r.faultLine - 1)]);
    QVERIFY2(warn.startsWith("[2026-03-14 02:17:44] gpu-a02:"), warn.constData());
    QVERIFY2(warn.contains(" [3] ") && warn.contains(" NCCL WARN "), warn.constData());
    // warnText may hold one '*' wildcard (the invented peer port).
    const QByteArrayList parts = warnText.split('*');
    qsizetype from = warn.indexOf(" NCCL WARN ");
    for (const QByteArray& part : parts) {
        from = warn.indexOf(part, from);
        QVERIFY2(from >= 0, warn.constData());
    }
    QCOMPARE(
        withoutTee(lines[static_cast<qsizetype>(r.faultLine - 2)]), QByteArray()); // the WARN's leading "\n"
    QVERIFY2(lines[static_cast<qsizetype>(r.faultLine)].contains(trail), lines[r.faultLine].constData());

    // The WARN's stamp is the 2.26+ NCCL form, and reads as the fault instant.
    const ParsedStamp stamp = findTimestamp(view(warn));
    QCOMPARE(stamp.kind, StampKind::NcclBracket);
    QCOMPARE(stampToMs(stamp, 2000).value_or(0), Q_INT64_C(1773454664000));
    // Exactly one WARN in the whole incident.
    int warns = 0;
    for (const QString& f : allFiles(dir.path()))
        warns += static_cast<int>(readAll(f).count(" NCCL WARN "));
    QCOMPARE(warns, 1);
}

void TestIncidentGenerator::hangHasNoWarn()
{
    QTemporaryDir dir;
    const GenResult r = generateIncident(twoNodes(Fault::Hang, Layout::PerRankFiles), dir.path());
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    QCOMPARE(r.faultFile, QDir(dir.path()).absoluteFilePath(QStringLiteral("rank-0007.log")));
    const QByteArrayList lines = readLines(r.faultFile);
    // The hung rank's last line is its last collective; it logs nothing afterwards.
    QCOMPARE(r.faultLine, static_cast<qint64>(lines.size()));
    QVERIFY(lines.last().contains("NCCL INFO AllReduce: opCount"));
    QVERIFY(!readAll(r.faultFile).contains("Watchdog caught"));
    const QByteArray rank0 = readAll(dir.filePath(QStringLiteral("rank-0000.log")));
    QVERIFY(rank0.contains("[Rank 0] Watchdog caught collective operation timeout"));
    // Its peers logged one more step than it did.
    const QByteArray rank6 = readAll(dir.filePath(QStringLiteral("rank-0006.log")));
    QCOMPARE(rank6.count("NCCL INFO AllReduce"), readAll(r.faultFile).count("NCCL INFO AllReduce") + 1);
    for (const QString& f : allFiles(dir.path()))
        QVERIFY2(!readAll(f).contains("NCCL WARN"), qPrintable(f));
}

void TestIncidentGenerator::survivorsTimeOutTenMinutesLater()
{
    QTemporaryDir dir;
    const GenResult r =
        generateIncident(twoNodes(Fault::IbRetryExceeded, Layout::NcclDebugFiles), dir.path());
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    const QByteArrayList node0 = readLines(dir.filePath(QStringLiteral("torchrun.gpu-a01.console.log")));
    int timeouts = 0;
    for (const QByteArray& line : node0) {
        // c10 lines only: the "what():" continuation repeats the text without a stamp.
        if (!line.contains("Watchdog caught collective operation timeout")
            || !withoutTee(line).startsWith("[rank"))
            continue;
        ++timeouts;
        QVERIFY(line.contains("Timeout(ms)=600000"));
        const QByteArray c10 = withoutTee(line).mid(withoutTee(line).indexOf("]:") + 2); // after [rankN]:
        const ParsedStamp s = findTimestamp(view(c10));
        QCOMPARE(s.kind, StampKind::Glog);
        QCOMPARE(s.subsecondOrdered, false);
        QCOMPARE(stampToMs(s, 2026).value_or(0) - Q_INT64_C(1773454664000), Q_INT64_C(600000));
    }
    QCOMPARE(timeouts, 4 * 2); // the first c10 line and the watchdog's exception text, per rank
    // The fault node's summary names the fault rank as root cause; the other node's names its first rank.
    const QByteArray node1 = readAll(dir.filePath(QStringLiteral("torchrun.gpu-a02.console.log")));
    QVERIFY(node1.contains("Root Cause (first observed failure):\n[0]:\n  time      : 2026-03-14_02:17:45\n"
                           "  host      : gpu-a02.cluster.local\n  rank      : 7 (local_rank: 3)\n"));
    QVERIFY(node1.contains("  <NO_OTHER_FAILURES>"));
    QCOMPARE(node1.count("closing signal SIGTERM"), 3);
    QVERIFY(readAll(dir.filePath(QStringLiteral("torchrun.gpu-a01.console.log")))
                .contains("Root Cause (first observed failure):\n[0]:\n  time      : 2026-03-14_02:27:45\n"
                          "  host      : gpu-a01.cluster.local\n  rank      : 0 (local_rank: 0)\n"));
}

void TestIncidentGenerator::identityLines()
{
    QTemporaryDir dir;
    const GenResult r =
        generateIncident(twoNodes(Fault::IbRetryExceeded, Layout::NcclDebugFiles), dir.path());
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    QSet<int> ranksSeen;
    for (const QString& f : allFiles(dir.path())) {
        if (!QFileInfo(f).fileName().startsWith(QLatin1String("nccl.")))
            continue;
        const QByteArray text = readAll(f);
        QCOMPARE(text.count("NCCL INFO NCCL version 2.27.7+cuda12.9"), 1);
        QCOMPARE(text.count(" - Init START"), 1);
        QCOMPARE(text.count(" - Init COMPLETE"), 1);
        const qsizetype at = text.indexOf("ncclCommInitRankConfig comm 0x");
        const QByteArray init = text.mid(at, text.indexOf('\n', at) - at);
        const QList<QByteArray> words = init.split(' ');
        QCOMPARE(words.value(3), QByteArray("rank"));
        const int rank = words.value(4).toInt();
        ranksSeen.insert(rank);
        const QByteArray host = rank < 4 ? "gpu-a01" : "gpu-a02";
        // The file is named by the NCCL_DEBUG_FILE pattern nccl.%h.%p.log, matching every line's prefix.
        const QByteArray pid = QFileInfo(f).fileName().section(QLatin1Char('.'), 2, 2).toLatin1();
        const QByteArray prefix =
            host + ':' + pid + ':' + pid + " [" + QByteArray::number(rank % 4) + "] NCCL INFO ";
        QVERIFY(text.startsWith(prefix));
        QVERIFY(init.contains(QByteArray(" nranks 8 cudaDev " + QByteArray::number(rank % 4))));
        const QByteArray node = " rank " + QByteArray::number(rank)
            + " nRanks 8 nNodes 2 localRanks 4 localRank " + QByteArray::number(rank % 4) + " MNNVL 0\n";
        QVERIFY(text.contains(node));
        QVERIFY(
            text.contains("NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [2]mlx5_2:1/IB [3]mlx5_3:1/IB [RO]; "
                          "OOB ens1f0:10.10.0."));
    }
    QCOMPARE(ranksSeen.size(), 8);
}

void TestIncidentGenerator::sizeWithinTenPercent_data()
{
    QTest::addColumn<Layout>("layout");
    QTest::addColumn<int>("ranks");
    QTest::addColumn<qint64>("target");
    QTest::newRow("nccl-64-ranks-8M") << Layout::NcclDebugFiles << 64 << qint64(8) * 1024 * 1024;
    QTest::newRow("per-rank-8-ranks-4M") << Layout::PerRankFiles << 8 << qint64(4) * 1024 * 1024;
    QTest::newRow("combined-16-ranks-6M") << Layout::Combined << 16 << qint64(6) * 1024 * 1024;
    QTest::newRow("torchrun-256-ranks-20M") << Layout::TorchrunLogDir << 256 << qint64(20) * 1024 * 1024;
}

void TestIncidentGenerator::sizeWithinTenPercent()
{
    QFETCH(Layout, layout);
    QFETCH(int, ranks);
    QFETCH(qint64, target);
    QTemporaryDir dir;
    GenOptions o = twoNodes(Fault::IbRetryExceeded, layout);
    o.ranks = ranks;
    o.gpusPerNode = 8;
    o.targetBytes = target;
    const GenResult r = generateIncident(o, dir.path());
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    qint64 total = 0;
    for (const QString& f : allFiles(dir.path()))
        total += QFileInfo(f).size();
    QCOMPARE(total, r.bytes);
    QVERIFY2(
        qAbs(total - target) * 10 <= target, qPrintable(QStringLiteral("%1 vs %2").arg(total).arg(target)));
}

void TestIncidentGenerator::deterministic()
{
    auto digest = [](const QString& root) {
        QCryptographicHash h(QCryptographicHash::Sha256);
        for (const QString& f : allFiles(root)) {
            h.addData(QDir(root).relativeFilePath(f).toUtf8());
            h.addData(readAll(f));
        }
        return h.result();
    };
    QTemporaryDir a, b, c;
    GenOptions o = twoNodes(Fault::IbRetryExceeded, Layout::TorchrunLogDir);
    o.targetBytes = 512 * 1024;
    o.seed = 42;
    const GenResult ra = generateIncident(o, a.path());
    const GenResult rb = generateIncident(o, b.path());
    QVERIFY(ra.error.isEmpty() && rb.error.isEmpty());
    QCOMPARE(digest(a.path()), digest(b.path()));
    QCOMPARE(ra.faultLine, rb.faultLine);
    QCOMPARE(QDir(a.path()).relativeFilePath(ra.faultFile), QDir(b.path()).relativeFilePath(rb.faultFile));
    o.seed = 43;
    QVERIFY(generateIncident(o, c.path()).error.isEmpty());
    QVERIFY(digest(a.path()) != digest(c.path()));
}

void TestIncidentGenerator::rejectsBadOptions()
{
    QTemporaryDir dir;
    GenOptions o;
    o.ranks = 4;
    o.faultRank = 7;
    GenResult r = generateIncident(o, dir.path());
    QVERIFY2(r.error.contains(QLatin1String("faultRank 7")), qPrintable(r.error));
    QCOMPARE(allFiles(dir.path()).size(), 0);

    o.faultRank = 2;
    o.ranks = 0;
    r = generateIncident(o, dir.path());
    QVERIFY2(r.error.contains(QLatin1String("ranks")), qPrintable(r.error));

    // The output folder sits below a regular file: creating it must fail with the path in the message.
    QFile blocker(dir.filePath(QStringLiteral("file")));
    QVERIFY(blocker.open(QIODevice::WriteOnly));
    blocker.close();
    o.ranks = 4;
    const QString bad = dir.filePath(QStringLiteral("file/out"));
    r = generateIncident(o, bad);
    QVERIFY2(r.error.contains(bad), qPrintable(r.error));
}

void TestIncidentGenerator::parseSize_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<qint64>("bytes");
    QTest::newRow("plain") << QStringLiteral("1000") << qint64(1000);
    QTest::newRow("kilo") << QStringLiteral("64k") << qint64(64 * 1024);
    QTest::newRow("mega") << QStringLiteral("200M") << qint64(200) * 1024 * 1024;
    QTest::newRow("giga") << QStringLiteral("1G") << (qint64(1) << 30);
    QTest::newRow("giga-bytes") << QStringLiteral("2GB") << (qint64(2) << 30);
    QTest::newRow("fraction") << QStringLiteral("1.5G") << (qint64(3) << 29);
    QTest::newRow("garbage") << QStringLiteral("lots") << qint64(-1);
    QTest::newRow("negative") << QStringLiteral("-5M") << qint64(-1);
}

void TestIncidentGenerator::parseSize()
{
    QFETCH(QString, text);
    QFETCH(qint64, bytes);
    QCOMPARE(testgen::parseSize(text), bytes);
}

QTEST_GUILESS_MAIN(TestIncidentGenerator)
#include "tst_incident_generator.moc"
