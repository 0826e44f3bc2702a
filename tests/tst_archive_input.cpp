// SPDX-License-Identifier: MIT
// Archives read in place: an archived folder gives the folder's diagnosis, its members named
// "x.tar.gz!/member"; the Log view reads a member; hostile archives keep their readable members and say
// what was not read. Archives are written at test time with libarchive's writer from the fixtures.
#include "analysis.h"
#include "archive_reader.h"
#include "file_lines.h"
#include "input_discovery.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include <archive.h>
#include <archive_entry.h>
#include <memory>
#include <zlib.h>

using namespace rankscope;

namespace {

struct Entry
{
    QString name;
    QByteArray bytes;
    mode_t type = AE_IFREG;
    QString link; // symlink target
};

Entry regular(const QString& name, const QByteArray& bytes)
{
    return { name, bytes, AE_IFREG, {} };
}

Entry special(const QString& name, mode_t type, const QString& link = {})
{
    return { name, {}, type, link };
}

struct WriteFree
{
    void operator()(archive* a) const { archive_write_free(a); }
};

// format: "tar", "zip"; filter: "", "gzip", "zstd", "xz".
bool writeArchive(
    const QString& path, const QString& format, const QString& filter, const std::vector<Entry>& entries)
{
    std::unique_ptr<archive, WriteFree> a(archive_write_new());
    if (format == QLatin1String("zip"))
        archive_write_set_format_zip(a.get());
    else
        archive_write_set_format_pax_restricted(a.get());
    if (filter == QLatin1String("gzip"))
        archive_write_add_filter_gzip(a.get());
    else if (filter == QLatin1String("zstd"))
        archive_write_add_filter_zstd(a.get());
    else if (filter == QLatin1String("xz"))
        archive_write_add_filter_xz(a.get());
    if (archive_write_open_filename(a.get(), path.toLocal8Bit().constData()) != ARCHIVE_OK)
        return false;
    for (const Entry& e : entries) {
        archive_entry* entry = archive_entry_new();
        archive_entry_set_pathname(entry, e.name.toUtf8().constData());
        archive_entry_set_filetype(entry, e.type);
        archive_entry_set_perm(entry, 0644);
        archive_entry_set_size(entry, e.type == AE_IFREG ? e.bytes.size() : 0);
        if (e.type == AE_IFLNK)
            archive_entry_set_symlink(entry, e.link.toUtf8().constData());
        if (e.type == AE_IFCHR)
            archive_entry_set_rdev(entry, 0x0103);
        const bool ok = archive_write_header(a.get(), entry) == ARCHIVE_OK;
        archive_entry_free(entry);
        if (!ok)
            return false;
        if (e.type == AE_IFREG
            && archive_write_data(a.get(), e.bytes.constData(), static_cast<size_t>(e.bytes.size()))
                != e.bytes.size())
            return false;
    }
    return archive_write_close(a.get()) == ARCHIVE_OK;
}

QByteArray gzipped(const QByteArray& plain)
{
    QByteArray out(static_cast<qsizetype>(compressBound(static_cast<uLong>(plain.size())) + 64), '\0');
    z_stream z {};
    deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(plain.constData()));
    z.avail_in = static_cast<uInt>(plain.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    deflate(&z, Z_FINISH);
    out.resize(static_cast<qsizetype>(z.total_out));
    deflateEnd(&z);
    return out;
}

// Every file of a folder, by its path below it.
std::vector<Entry> folderEntries(const QString& folder, bool gzipMembers = false)
{
    std::vector<Entry> out;
    QDirIterator it(folder, QDir::Files, QDirIterator::Subdirectories);
    QStringList names;
    while (it.hasNext())
        names << QDir(folder).relativeFilePath(it.next());
    names.sort();
    for (const QString& name : names) {
        QFile f(QDir(folder).filePath(name));
        if (!f.open(QIODevice::ReadOnly))
            return {};
        const QByteArray bytes = f.readAll();
        if (gzipMembers && name.endsWith(QLatin1String(".log")))
            out.push_back(regular(name + QStringLiteral(".gz"), gzipped(bytes)));
        else
            out.push_back(regular(name, bytes));
    }
    return out;
}

Analysis analyzePath(const QString& path)
{
    AnalysisRequest request;
    request.logPaths << path;
    return analyze(request);
}

struct Initiating
{
    int rank = -1;
    qint64 line = 0;
    QString text;
    QString file;
};

Initiating initiating(const Analysis& a)
{
    Initiating out;
    const AttemptAnalysis* at = a.currentAttempt();
    if (!at || at->diagnosis.initiatingEvent < 0)
        return out;
    const LogEvent& ev = at->incident.events[static_cast<size_t>(at->diagnosis.initiatingEvent)];
    out.rank = ev.rank;
    out.line = ev.line;
    out.text = ev.text;
    out.file = at->incident.files[static_cast<size_t>(ev.file)].displayPath;
    return out;
}

QString skippedText(const Analysis& a)
{
    QStringList out;
    if (const AttemptAnalysis* at = a.currentAttempt()) {
        for (const SkippedInput& s : at->incident.skipped)
            out << s.path + QStringLiteral(" :: ") + s.reason;
        for (const FileInfo& f : at->incident.files)
            out << f.notes;
    }
    return out.join(QLatin1Char('\n'));
}

const FileInfo* fileNamed(const Analysis& a, const QString& suffix)
{
    const AttemptAnalysis* at = a.currentAttempt();
    if (!at)
        return nullptr;
    for (const FileInfo& f : at->incident.files) {
        if (f.displayPath.endsWith(suffix))
            return &f;
    }
    return nullptr;
}

} // namespace

class TestArchiveInput : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sameDiagnosisAsFolder_data();
    void sameDiagnosisAsFolder();
    void gzipMembersInsideTar();
    void logViewReadsMember();
    void unsafeNamesLinksDevicesAndNested();
    void truncatedArchiveKeepsEarlierMembers();
    void compressionBombIsCut();
    void notAnArchiveIsSaidSo();
};

void TestArchiveInput::sameDiagnosisAsFolder_data()
{
    QTest::addColumn<QString>("folder");
    QTest::addColumn<QString>("suffix");
    const QString sample = QStringLiteral(RANKSCOPE_TEST_DATA "/sample-job");
    for (const char* suffix : { ".tar", ".tar.gz", ".tgz", ".tar.zst", ".tar.xz", ".zip" })
        QTest::newRow(qPrintable(QStringLiteral("sample-job%1").arg(QLatin1String(suffix))))
            << sample << QString::fromLatin1(suffix);
    // Every real case, as a .tar.gz.
    const QDir real(QStringLiteral(RANKSCOPE_TEST_DATA "/real"));
    for (const QString& name : real.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
        QTest::newRow(qPrintable(name)) << real.filePath(name) << QStringLiteral(".tar.gz");
}

void TestArchiveInput::sameDiagnosisAsFolder()
{
    QFETCH(QString, folder);
    QFETCH(QString, suffix);
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QString path = tmp.filePath(QStringLiteral("job") + suffix);
    const QString format = suffix == QLatin1String(".zip") ? QStringLiteral("zip") : QStringLiteral("tar");
    const QString filter = suffix.endsWith(QLatin1String("gz")) ? QStringLiteral("gzip")
        : suffix.endsWith(QLatin1String("zst"))                 ? QStringLiteral("zstd")
        : suffix.endsWith(QLatin1String("xz"))                  ? QStringLiteral("xz")
                                                                : QString();
    // The folder's own files, minus the expectation written for the real-case test.
    std::vector<Entry> entries = folderEntries(folder);
    std::erase_if(entries, [](const Entry& e) { return e.name == QLatin1String("expected.json"); });
    QVERIFY(!entries.empty());
    QVERIFY(writeArchive(path, format, filter, entries));

    QTemporaryDir plain;
    for (const Entry& e : entries) {
        QDir().mkpath(QFileInfo(plain.filePath(e.name)).absolutePath());
        QFile f(plain.filePath(e.name));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(e.bytes);
    }
    const Analysis want = analyzePath(plain.path());
    const Analysis got = analyzePath(path);
    QVERIFY2(got.currentAttempt(), qPrintable(got.error));
    const Initiating w = initiating(want);
    const Initiating g = initiating(got);
    QCOMPARE(g.rank, w.rank);
    QCOMPARE(g.line, w.line);
    QCOMPARE(g.text, w.text);
    if (!w.file.isEmpty())
        QCOMPARE(g.file, path + QStringLiteral("!/") + w.file);
    QCOMPARE(got.currentAttempt()->incident.files.size(), want.currentAttempt()->incident.files.size());
    QCOMPARE(got.currentAttempt()->diagnosis.signature, want.currentAttempt()->diagnosis.signature);
    QCOMPARE(got.topologyPaths.size(), want.topologyPaths.size());
}

void TestArchiveInput::gzipMembersInsideTar()
{
    QTemporaryDir tmp;
    const QString sample = QStringLiteral(RANKSCOPE_TEST_DATA "/sample-job");
    const QString path = tmp.filePath(QStringLiteral("gz-members.tar"));
    QVERIFY(writeArchive(path, QStringLiteral("tar"), QString(), folderEntries(sample, true)));
    const Analysis want = analyzePath(sample);
    const Analysis got = analyzePath(path);
    const Initiating w = initiating(want);
    const Initiating g = initiating(got);
    QVERIFY(w.rank >= 0);
    QCOMPARE(g.rank, w.rank);
    QCOMPARE(g.line, w.line);
    QCOMPARE(g.file, path + QStringLiteral("!/") + w.file + QStringLiteral(".gz"));
    const FileInfo* f = fileNamed(got, w.file + QStringLiteral(".gz"));
    QVERIFY(f);
    QVERIFY(f->compressed);
}

void TestArchiveInput::logViewReadsMember()
{
    QTemporaryDir tmp;
    const QString sample = QStringLiteral(RANKSCOPE_TEST_DATA "/sample-job");
    const QString path = tmp.filePath(QStringLiteral("job.tar.xz"));
    QVERIFY(writeArchive(path, QStringLiteral("tar"), QStringLiteral("xz"), folderEntries(sample)));
    const Analysis got = analyzePath(path);
    const Initiating g = initiating(got);
    const FileInfo* info = fileNamed(got, g.file);
    QVERIFY(info);
    FileInfo noIndex = *info;
    noIndex.lineOffsets.clear(); // the CLI's way: the Log view indexes the member on open
    for (const FileInfo& which : { *info, noIndex }) {
        const FileLinesResult opened = FileLines::open(which);
        QVERIFY2(opened.ok(), qPrintable(opened.error));
        QCOMPARE(opened.lines->count(), info->lines);
        QCOMPARE(opened.lines->line(g.line - 1), g.text);
        // Back to the start after the end: the member is read again from the archive.
        const QString last = opened.lines->line(opened.lines->count() - 1);
        QFile plain(QDir(sample).filePath(g.file.section(QStringLiteral("!/"), 1)));
        QVERIFY(plain.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = plain.readAll().split('\n');
        QCOMPARE(opened.lines->line(0), QString::fromUtf8(lines.first()));
        QVERIFY(!last.isNull());
    }
}

void TestArchiveInput::unsafeNamesLinksDevicesAndNested()
{
    QTemporaryDir tmp;
    const QString sample = QStringLiteral(RANKSCOPE_TEST_DATA "/sample-job");
    std::vector<Entry> entries = folderEntries(sample);
    QByteArray inner;
    {
        const QString innerPath = tmp.filePath(QStringLiteral("inner.tar"));
        QVERIFY(writeArchive(innerPath, QStringLiteral("tar"), QString(), entries));
        QFile f(innerPath);
        QVERIFY(f.open(QIODevice::ReadOnly));
        inner = f.readAll();
    }
    const QByteArray evil("2026-03-14 02:17:44 rank 3 ERROR should never be read\n");
    entries.push_back(regular(QStringLiteral("../escape.log"), evil));
    entries.push_back(regular(QStringLiteral("/etc/absolute.log"), evil));
    entries.push_back(special(QStringLiteral("link.log"), AE_IFLNK, QStringLiteral("/etc/passwd")));
    entries.push_back(special(QStringLiteral("tty.log"), AE_IFCHR));
    entries.push_back(regular(QStringLiteral("nested/inner.tar"), inner));
    entries.push_back(regular(QStringLiteral("renamed.log"), inner)); // a tar by its content
    const QString path = tmp.filePath(QStringLiteral("hostile.tar.gz"));
    QVERIFY(writeArchive(path, QStringLiteral("tar"), QStringLiteral("gzip"), entries));

    const Discovery d = discoverInputs({ path }, {}, nullptr);
    QStringList reasons;
    for (const SkippedInput& s : d.skipped)
        reasons << s.reason;
    const QString all = reasons.join(QLatin1Char('\n'));
    QVERIFY2(all.contains(path + QStringLiteral("!/../escape.log: member name is absolute or contains")),
        qPrintable(all));
    QVERIFY2(
        all.contains(path + QStringLiteral("!//etc/absolute.log: member name is absolute")), qPrintable(all));
    QVERIFY2(all.contains(
                 QStringLiteral("link.log: symbolic link (to /etc/passwd) inside the archive: not followed")),
        qPrintable(all));
    QVERIFY2(all.contains(QStringLiteral("tty.log: a character device inside the archive")), qPrintable(all));
    QVERIFY2(all.contains(QStringLiteral("nested/inner.tar: an archive inside the archive: not read nested")),
        qPrintable(all));
    QVERIFY2(all.contains(QStringLiteral("renamed.log: an archive inside the archive")), qPrintable(all));
    QCOMPARE(d.files.size(), folderEntries(sample).size()); // every readable member, nothing else
    for (const InputFile& f : d.files)
        QVERIFY(!f.path.contains(QLatin1String("..")));

    // The diagnosis of the readable members is the folder's.
    const Initiating w = initiating(analyzePath(sample));
    const Initiating g = initiating(analyzePath(path));
    QCOMPARE(g.rank, w.rank);
    QCOMPARE(g.line, w.line);
}

void TestArchiveInput::truncatedArchiveKeepsEarlierMembers()
{
    QTemporaryDir tmp;
    const QString sample = QStringLiteral(RANKSCOPE_TEST_DATA "/sample-job");
    const QString whole = tmp.filePath(QStringLiteral("whole.tar"));
    std::vector<Entry> entries = folderEntries(sample);
    QVERIFY(writeArchive(whole, QStringLiteral("tar"), QString(), entries));
    QFile f(whole);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray bytes = f.readAll();
    // Cut in the middle of the last member's data.
    const qint64 lastSize = entries.back().bytes.size();
    const QString path = tmp.filePath(QStringLiteral("cut.tar"));
    QFile cut(path);
    QVERIFY(cut.open(QIODevice::WriteOnly));
    const qint64 keep = bytes.size() - 1024 * 2 - ((lastSize + 511) / 512) * 512 + lastSize / 2;
    cut.write(bytes.left(keep));
    cut.close();

    const Analysis got = analyzePath(path);
    QVERIFY(got.currentAttempt());
    const QString said = skippedText(got);
    const FileInfo* last = fileNamed(got, entries.back().name);
    QVERIFY2(last, qPrintable(said));
    QVERIFY2(said.contains(path + QStringLiteral("!/") + entries.back().name
                 + QStringLiteral(": truncated or damaged archive")),
        qPrintable(said));
    QVERIFY(last->bytes > 0 && last->bytes < lastSize);
    for (size_t i = 0; i + 1 < entries.size(); ++i) {
        const FileInfo* member = fileNamed(got, entries[i].name);
        QVERIFY(member);
        QCOMPARE(member->bytes, entries[i].bytes.size());
    }
}

void TestArchiveInput::compressionBombIsCut()
{
    QTemporaryDir tmp;
    const QString sample = QStringLiteral(RANKSCOPE_TEST_DATA "/sample-job");
    std::vector<Entry> entries;
    // 40 MiB of one line: zstd stores it in a few KiB, far over kMaxArchiveRatio.
    const QByteArray line("gpu-a01:41872:41872 [0] NCCL INFO all is well\n");
    entries.push_back(regular(QStringLiteral("bomb.log"), line.repeated(40 * 1024 * 1024 / line.size())));
    for (Entry& e : folderEntries(sample))
        entries.push_back(std::move(e));
    const QString path = tmp.filePath(QStringLiteral("bomb.tar.zst"));
    QVERIFY(writeArchive(path, QStringLiteral("tar"), QStringLiteral("zstd"), entries));
    QVERIFY(QFileInfo(path).size() < 2 * 1024 * 1024);

    const Analysis got = analyzePath(path);
    const FileInfo* bomb = fileNamed(got, QStringLiteral("!/bomb.log"));
    QVERIFY(bomb);
    const QString said = skippedText(got);
    QVERIFY2(said.contains(QStringLiteral("bomb.log: decompression stopped after")), qPrintable(said));
    QVERIFY2(said.contains(QStringLiteral("(kMaxArchiveRatio), a compression bomb?")), qPrintable(said));
    QVERIFY(bomb->bytes <= kArchiveRatioFloor + (1 << 20));
    QVERIFY(bomb->bytes >= kArchiveRatioFloor - (1 << 20));
    // The members after the bomb are read whole: the same diagnosis as the folder.
    const Initiating w = initiating(analyzePath(sample));
    const Initiating g = initiating(got);
    QCOMPARE(g.rank, w.rank);
    QCOMPARE(g.line, w.line);
}

void TestArchiveInput::notAnArchiveIsSaidSo()
{
    QTemporaryDir tmp;
    const QString path = tmp.filePath(QStringLiteral("logs.tar.gz"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("this is a log line, not a tar.gz\n");
    f.close();
    const Discovery d = discoverInputs({ path }, {}, nullptr);
    QVERIFY(d.files.empty());
    QCOMPARE(d.skipped.size(), size_t(1));
    QVERIFY2(d.skipped.front().reason.startsWith(path + QStringLiteral(": ")),
        qPrintable(d.skipped.front().reason));
    QVERIFY2(
        d.skipped.front().reason.contains(QStringLiteral("archive")), qPrintable(d.skipped.front().reason));
}

QTEST_GUILESS_MAIN(TestArchiveInput)
#include "tst_archive_input.moc"
