// SPDX-License-Identifier: MIT
// Bad input never crashes and is never silently dropped: binary files, broken encodings and line ends,
// damaged and hostile gzip, unreadable entries, huge lines and folders, files that change under the load.
#include "byte_stream.h"
#include "ingest.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

using namespace rankscope;

namespace {

const char* const kWarn = "gpu-a01:4242:4300 [0] transport/net_ib.cc:2458 NCCL WARN NET/IB: Got completion "
                          "from peer with status=12";

bool writeFile(const QString& path, const QByteArray& bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

QByteArray gzipBytes(const QByteArray& plain)
{
    z_stream zs {};
    deflateInit2(&zs, 9, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY);
    QByteArray out(static_cast<qsizetype>(deflateBound(&zs, static_cast<uLong>(plain.size()))) + 64, '\0');
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(plain.constData()));
    zs.avail_in = static_cast<uInt>(plain.size());
    zs.next_out = reinterpret_cast<Bytef*>(out.data());
    zs.avail_out = static_cast<uInt>(out.size());
    deflate(&zs, Z_FINISH);
    out.truncate(static_cast<qsizetype>(zs.total_out));
    deflateEnd(&zs);
    return out;
}

LoadResult load(const QStringList& paths)
{
    LoadOptions o;
    o.paths = paths;
    return loadIncidents(o);
}

QString reasonFor(const LoadResult& r, const QString& nameEnd)
{
    const std::vector<SkippedInput>& skipped =
        r.incidents.empty() ? std::vector<SkippedInput> {} : r.incidents.front().skipped;
    for (const SkippedInput& s : skipped) {
        if (s.path.endsWith(nameEnd))
            return s.reason;
    }
    return r.error.contains(nameEnd) ? r.error : QString();
}

const Incident& only(const LoadResult& r)
{
    return r.incidents.front();
}

} // namespace

class TestIngestHostile : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString path(const QString& name) const { return m_dir.filePath(name); }

private Q_SLOTS:
    // Line ends and encodings: each row is one file next to a good one; the event's text comes back clean.
    void textForms_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<int>("lines");
        QTest::addColumn<QString>("textContains");
        const QByteArray warn(kWarn);
        QTest::newRow("LF") << QByteArray("a\n" + warn + "\nb\n") << 3 << "status=12";
        QTest::newRow("CRLF") << QByteArray("a\r\n" + warn + "\r\nb\r\n") << 3 << "status=12";
        QTest::newRow("CR only") << QByteArray("a\r" + warn + "\rb\r") << 3 << "status=12";
        QTest::newRow("no final newline") << QByteArray("a\n" + warn) << 2 << "status=12";
        QTest::newRow("invalid UTF-8")
            << QByteArray("a\n" + warn + " \xff\xfe\xc3(\n") << 2 << QString(QChar(0xFFFD));
    }
    void textForms()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(int, lines);
        QFETCH(QString, textContains);
        const QString file =
            path(QStringLiteral("text/%1.log").arg(QString::fromLatin1(QTest::currentDataTag())));
        QVERIFY(writeFile(file, bytes));
        const LoadResult r = load({ file });
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        const Incident& inc = only(r);
        QCOMPARE(inc.files.front().lines, qint64(lines));
        QCOMPARE(inc.events.size(), size_t(1));
        const LogEvent& e = inc.events.front();
        QCOMPARE(e.severity, Severity::Warn);
        QVERIFY2(e.text.contains(textContains), qPrintable(e.text));
        QVERIFY(!e.text.contains(QLatin1Char('\r')));
        QCOMPARE(e.line, qint64(2));
    }

    // Entries that cannot be read are listed with a reason, and the rest of the folder still loads.
    void skippedEntries_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("reason");
        QTest::newRow("binary") << "core.bin"
                                << "binary file";
        QTest::newRow("broken symlink") << "dangling.log"
                                        << "broken symbolic link";
        QTest::newRow("symlink loop (file)") << "loop-a.log"
                                             << "symbolic link loop";
        QTest::newRow("symlink loop (folder)") << "sub/up"
                                               << "symbolic link loop";
        QTest::newRow("fifo") << "pipe.log"
                              << "not a regular file";
        // Archives are read in place (tst_archive_input); this one's header has no checksum.
        QTest::newRow("tar archive") << "logs.tar"
                                     << "logs.tar: not a readable archive: Unrecognized archive format";
        // A job's config next to its logs: its "timeout" and "error" keys are no failure.
        QTest::newRow("json document") << "ds_config.json"
                                       << "not a log: ds_config.json (a JSON document)";
    }
    void skippedEntries()
    {
        QFETCH(QString, name);
        QFETCH(QString, reason);
        const QString dir = path(QStringLiteral("skipped"));
        if (!QDir(dir).exists()) {
            QVERIFY(writeFile(dir + QStringLiteral("/good.log"), QByteArray(kWarn) + '\n'));
            QByteArray binary("\x7f"
                              "ELF\x02\x01\x01",
                7);
            binary.append(QByteArray(64, '\0'));
            QVERIFY(writeFile(dir + QStringLiteral("/core.bin"), binary));
            // One ustar header (the name, then "ustar" at byte 257), then the member's text.
            QByteArray tar(512, '\0');
            tar.replace(0, 9, "rank0.log");
            tar.replace(257, 8,
                QByteArray("ustar\0"
                           "00",
                    8));
            tar += QByteArray(kWarn) + '\n';
            QVERIFY(writeFile(dir + QStringLiteral("/logs.tar"), tar));
            QVERIFY(::symlink("nowhere.log", qPrintable(dir + QStringLiteral("/dangling.log"))) == 0);
            QVERIFY(::symlink("loop-b.log", qPrintable(dir + QStringLiteral("/loop-a.log"))) == 0);
            QVERIFY(::symlink("loop-a.log", qPrintable(dir + QStringLiteral("/loop-b.log"))) == 0);
            QVERIFY(QDir(dir).mkpath(QStringLiteral("sub")));
            QVERIFY(::symlink("..", qPrintable(dir + QStringLiteral("/sub/up"))) == 0);
            QVERIFY(::mkfifo(qPrintable(dir + QStringLiteral("/pipe.log")), 0600) == 0);
            QVERIFY(writeFile(dir + QStringLiteral("/ds_config.json"),
                "{\n  \"comms_logger\": {\"enabled\": true},\n  \"timeout\": 1800,\n"
                "  \"on_error\": \"failed to start: Connection refused\"\n}\n"));
        }
        const LoadResult r = load({ dir });
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QCOMPARE(only(r).files.size(), size_t(1));
        QCOMPARE(only(r).events.size(), size_t(1));
        const QString got = reasonFor(r, name);
        QVERIFY2(got.contains(reason), qPrintable(name + QStringLiteral(": '") + got + QLatin1Char('\'')));
    }

    // JSON lines (one object per line) is a structured log, whatever its name: it is scanned.
    void jsonLinesStayALog()
    {
        const QString dir = path(QStringLiteral("jsonl"));
        QVERIFY(writeFile(dir + QStringLiteral("/events.json"),
            "{\"level\": \"info\", \"msg\": \"step 1\"}\n"
            "{\"level\": \"error\", \"msg\": \"NCCL error: unhandled system error\"}\n"));
        const LoadResult r = load({ dir });
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QCOMPARE(only(r).files.size(), size_t(1));
        QVERIFY(!only(r).events.empty());
    }

    // Permission errors: as root every file is readable, so only this check is skipped there.
    void unreadable()
    {
        const QString file = path(QStringLiteral("secret/locked.log"));
        QVERIFY(writeFile(file, QByteArray(kWarn) + '\n'));
        QVERIFY(writeFile(path(QStringLiteral("secret/open.log")), QByteArray(kWarn) + '\n'));
        QVERIFY(QFile::setPermissions(file, QFileDevice::Permissions()));
        if (::access(qPrintable(file), R_OK) == 0)
            QSKIP("running as root: a mode-000 file is still readable");
        const LoadResult r = load({ path(QStringLiteral("secret")) });
        QVERIFY(reasonFor(r, QStringLiteral("locked.log")).contains(QStringLiteral("not readable")));
        QCOMPARE(only(r).files.size(), size_t(1));
    }

    void emptyFiles()
    {
        QVERIFY(writeFile(path(QStringLiteral("empty/a.log")), QByteArray()));
        QVERIFY(writeFile(path(QStringLiteral("empty/b.log")), QByteArray(kWarn) + '\n'));
        const LoadResult r = load({ path(QStringLiteral("empty")) });
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QCOMPARE(only(r).files.size(), size_t(2));
        QCOMPARE(only(r).events.size(), size_t(1));
        const LoadResult alone = load({ path(QStringLiteral("empty/a.log")) });
        QVERIFY(alone.incidents.size() == 1 || !alone.error.isEmpty());
    }

    // A line over 1 MiB is cut with a marker (and a note); a 50 MB line costs no more than 1 MiB of memory.
    void longLines_data()
    {
        QTest::addColumn<qint64>("length");
        QTest::newRow("2 MiB") << qint64(2) * 1024 * 1024;
        QTest::newRow("50 MB") << qint64(50'000'000);
    }
    void longLines()
    {
        QFETCH(qint64, length);
        QByteArray bytes("first line\n");
        bytes += kWarn;
        bytes += QByteArray(static_cast<qsizetype>(length), 'x');
        bytes += "\nlast line NCCL WARN after the long one\n";
        const QString file = path(QStringLiteral("long-%1.log").arg(length));
        QVERIFY(writeFile(file, bytes));
        bytes.clear();
        const LoadResult r = load({ file });
        const Incident& inc = only(r);
        QCOMPARE(inc.files.front().lines, qint64(3));
        QVERIFY(!inc.events.empty());
        const LogEvent& e = inc.events.front();
        QCOMPARE(e.line, qint64(2));
        QVERIFY(e.text.endsWith(QStringLiteral("[… line cut at 1 MiB]")));
        QVERIFY(e.text.size() < 1100 * 1024);
        QVERIFY(
            inc.warnings.join(QLatin1Char('\n')).contains(QStringLiteral("1 MiB or longer: cut at 1 MiB")));
        QCOMPARE(inc.files.front().bytes, static_cast<qint64>(QFileInfo(file).size()));
    }

    // Multi-member gzip reads through; a truncated one yields what was readable, with a warning.
    void gzip_data()
    {
        QTest::addColumn<bool>("truncate");
        QTest::newRow("two members") << false;
        QTest::newRow("truncated") << true;
    }
    void gzip()
    {
        QFETCH(bool, truncate);
        QByteArray first;
        for (int i = 0; i < 2000; ++i)
            first +=
                "2026-03-14 02:17:44,120 - train - INFO - step " + QByteArray::number(i) + " loss 2.31\n";
        first += QByteArray(kWarn) + '\n';
        QByteArray second;
        for (int i = 0; i < 20000; ++i)
            second += "line " + QByteArray::number(i * 7919) + " of the second member\n";
        QByteArray gz = gzipBytes(first) + gzipBytes(second);
        if (truncate)
            gz.truncate(gz.size() - gz.size() / 4);
        const QString file = path(QStringLiteral("gz-%1.log.gz").arg(truncate));
        QVERIFY(writeFile(file, gz));
        const LoadResult r = load({ file });
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        const Incident& inc = only(r);
        QVERIFY(inc.files.front().compressed);
        QCOMPARE(inc.events.size(), size_t(1));
        QCOMPARE(inc.events.front().line, qint64(2001));
        const QString warnings = inc.warnings.join(QLatin1Char('\n'));
        if (truncate) {
            QVERIFY2(warnings.contains(QStringLiteral("truncated")), qPrintable(warnings));
            QVERIFY(inc.files.front().lines > 2001 && inc.files.front().lines < 22001);
        } else {
            QVERIFY(!warnings.contains(QStringLiteral("truncated")));
            QCOMPARE(inc.files.front().lines, qint64(22001));
        }
    }

    // A gzip that expands more than 1000:1 stops at the limit with a message.
    void gzipBomb()
    {
        const QString file = path(QStringLiteral("bomb.log.gz"));
        gzFile gz = gzopen(qPrintable(file), "wb9");
        QVERIFY(gz);
        const QByteArray block(1 << 20, 'a');
        for (int i = 0; i < 200; ++i)
            QCOMPARE(gzwrite(gz, block.constData(), static_cast<unsigned>(block.size())), block.size());
        gzclose(gz);
        const qint64 onDisk = QFileInfo(file).size();
        QVERIFY(onDisk * ByteStream::kMaxGzipRatio < qint64(200) << 20);
        const LoadResult r = load({ file });
        const Incident& inc = only(r);
        QVERIFY(inc.files.front().bytes <= onDisk * ByteStream::kMaxGzipRatio + (1 << 20) + (1 << 17));
        QVERIFY2(inc.warnings.join(QLatin1Char('\n')).contains(QStringLiteral("gzip bomb")),
            qPrintable(inc.warnings.join(QLatin1Char('\n'))));
    }

    // Files that change between discovery and the scan: a deleted one is listed as skipped, a growing
    // one is read to its new end.
    void changingFiles()
    {
        const QString dir = path(QStringLiteral("changing"));
        QVERIFY(writeFile(dir + QStringLiteral("/gone.log"), QByteArray(kWarn) + '\n'));
        QVERIFY(writeFile(dir + QStringLiteral("/grows.log"), QByteArray("one\ntwo\n")));
        LoadOptions o;
        o.paths = { dir };
        o.afterDiscovery = [&] {
            QFile::remove(dir + QStringLiteral("/gone.log"));
            QFile f(dir + QStringLiteral("/grows.log"));
            if (f.open(QIODevice::Append))
                f.write(QByteArray(kWarn) + "\nthree\n");
        };
        const LoadResult r = loadIncidents(o);
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QVERIFY(reasonFor(r, QStringLiteral("gone.log")).contains(QStringLiteral("cannot open")));
        QCOMPARE(only(r).files.size(), size_t(1));
        QCOMPARE(only(r).files.front().lines, qint64(4));
        QCOMPARE(only(r).events.size(), size_t(1));
    }

    // 100,000 small files load, all listed, within the time budget.
    void hundredThousandFiles()
    {
        // In memory when possible: on a busy virtual disk, creating and deleting 100,000 inodes can take
        // minutes, which measures the disk rather than the engine.
        QTemporaryDir shm(QStringLiteral("/dev/shm/rankscope-many-XXXXXX"));
        const QString dir = shm.isValid() ? shm.path() : path(QStringLiteral("many"));
        constexpr int kFiles = 100'000;
        for (int d = 0; d < 100; ++d) {
            const QString sub = dir + QStringLiteral("/d%1").arg(d);
            QVERIFY(QDir().mkpath(sub));
            for (int i = 0; i < kFiles / 100; ++i) {
                const int n = d * (kFiles / 100) + i;
                // Plain POSIX calls: QFile per file would make the setup slower than the load.
                const QByteArray name = (sub + QStringLiteral("/rank%1.log").arg(n)).toLocal8Bit();
                const QByteArray body = n == 77'777 ? QByteArray(kWarn) + '\n' : QByteArray("step 1\n");
                const int fd = ::open(name.constData(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
                QVERIFY(fd >= 0);
                QCOMPARE(::write(fd, body.constData(), static_cast<size_t>(body.size())),
                    static_cast<ssize_t>(body.size()));
                ::close(fd);
            }
        }
        QElapsedTimer t;
        t.start();
        const LoadResult r = load({ dir });
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QCOMPARE(only(r).files.size(), size_t(kFiles));
        QVERIFY(only(r).firstWarn >= 0);
        QCOMPARE(only(r).events[static_cast<size_t>(only(r).firstWarn)].rank, 77'777);
        qInfo("100,000 files loaded in %lld ms", static_cast<long long>(t.elapsed()));
        QDir(dir).removeRecursively();
    }

    // Cancellation reaches the scan and stops it; progress reports bytes done of the total.
    void progressAndCancel()
    {
        const QString dir = path(QStringLiteral("big"));
        QByteArray lines;
        for (int i = 0; i < 20000; ++i)
            lines += "2026-03-14 02:17:44,120 - train - INFO - step " + QByteArray::number(i) + "\n";
        for (int i = 0; i < 16; ++i)
            QVERIFY(writeFile(dir + QStringLiteral("/rank%1.log").arg(i), lines));
        const qint64 total = static_cast<qint64>(lines.size()) * 16;

        LoadOptions o;
        o.paths = { dir };
        std::atomic<qint64> lastDone { 0 }, lastTotal { 0 };
        std::atomic<bool> backwards { false };
        const LoadResult full = loadIncidents(o, nullptr, [&](qint64 done, qint64 all) {
            if (done < lastDone.load())
                backwards = true;
            lastDone = done;
            lastTotal = all;
        });
        QVERIFY(!full.cancelled);
        QCOMPARE(lastTotal.load(), total);
        QCOMPARE(lastDone.load(), total);
        QVERIFY(!backwards.load());

        CancelToken cancel;
        const LoadResult stopped = loadIncidents(o, &cancel, [&](qint64 done, qint64) {
            if (done > 0)
                cancel.cancel();
        });
        QVERIFY(stopped.cancelled);
        QVERIFY(stopped.incidents.empty());
        QVERIFY(!stopped.error.isEmpty());

        CancelToken early;
        early.cancel();
        const LoadResult none = loadIncidents(o, &early);
        QVERIFY(none.cancelled);
    }
};

QTEST_GUILESS_MAIN(TestIngestHostile)
#include "tst_ingest_hostile.moc"
