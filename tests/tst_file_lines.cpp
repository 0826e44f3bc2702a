// SPDX-License-Identifier: MIT
#include "file_lines.h"
#include "ingest.h"
#include "line_severity.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <zlib.h>

using namespace rankscope;

namespace {

// Line starts computed the way ingest does: 0 and after every '\n' that is not the last byte.
std::vector<qint64> offsetsOf(const QByteArray& data)
{
    std::vector<qint64> out;
    for (qsizetype i = 0; i < data.size(); ++i) {
        if (i == 0 || data.at(i - 1) == '\n')
            out.push_back(i);
    }
    return out;
}

QStringList expectedLines(const QByteArray& data)
{
    QStringList out;
    for (const QByteArray& raw : data.split('\n')) {
        QByteArray l = raw;
        if (l.endsWith('\r'))
            l.chop(1);
        out.push_back(QString::fromUtf8(l));
    }
    if (data.endsWith('\n'))
        out.removeLast();
    return out;
}

// A realistic, varied log body: NCCL, c10 and launcher lines, CRLF endings, blank lines,
// invalid UTF-8 and non-ASCII text.
QByteArray makeLog(int lines, bool crlf)
{
    QByteArray out;
    for (int i = 0; i < lines; ++i) {
        QByteArray l;
        switch (i % 6) {
        case 0:
            l = "gpu-a02:52117:52117 [3] NCCL INFO Channel " + QByteArray::number(i % 32)
                + "/0 : 7[3] -> 0[0] via NET/IB/0";
            break;
        case 1:
            l = "[2026-03-14 02:17:44] gpu-a02:52117:52203 [3] transport/net_ib.cc:2458 NCCL WARN NET/IB: "
                "line "
                + QByteArray::number(i);
            break;
        case 2:
            l = "";
            break;
        case 3:
            l = "[default3]:[rank7]:[E314 02:17:44.791203518 ProcessGroupNCCL.cpp:593] caf\xc3\xa9 "
                + QByteArray::number(i);
            break;
        case 4:
            l = "bad utf8 \xff\xfe tail " + QByteArray::number(i);
            break;
        default:
            l = QByteArray(i % 300, 'x');
        }
        out += l + (crlf && i % 2 ? "\r\n" : "\n");
    }
    return out;
}

QByteArray gzipMembers(const QString& path, const QList<QByteArray>& members)
{
    QFile::remove(path);
    for (const QByteArray& m : members) {
        gzFile f = gzopen(QFile::encodeName(path).constData(), "ab");
        gzwrite(f, m.constData(), static_cast<unsigned>(m.size()));
        gzclose(f);
    }
    QFile f(path);
    f.open(QIODevice::ReadOnly);
    return f.readAll();
}

} // namespace

class FileLinesTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void readsBack_data();
    void readsBack();
    void randomAccessAcrossBlocks();
    void lazyIndexReadsOnlyWhatItNeeds();
    void scanLineMarksJumpTheIndex_data();
    void scanLineMarksJumpTheIndex();
    void errorsNameTheFile();
    void classifiesSeverity_data();
    void classifiesSeverity();

private:
    QTemporaryDir m_dir;
};

void FileLinesTest::readsBack_data()
{
    QTest::addColumn<int>("lines");
    QTest::addColumn<bool>("crlf");
    QTest::addColumn<bool>("gzip");
    QTest::addColumn<bool>("withOffsets");
    QTest::addColumn<bool>("trailingNewline");
    QTest::addColumn<bool>("lazy");
    QTest::newRow("plain crlf") << 2000 << true << false << true << true << false;
    QTest::newRow("plain no final newline") << 300 << false << false << true << false << false;
    QTest::newRow("plain self-indexed") << 2000 << true << false << false << true << false;
    QTest::newRow("gzip multi-block") << 40000 << true << true << true << true << false;
    QTest::newRow("gzip self-indexed") << 40000 << false << true << false << false << false;
    QTest::newRow("plain lazy") << 40000 << true << false << false << true << true;
    QTest::newRow("plain lazy, no final newline") << 300 << false << false << false << false << true;
    QTest::newRow("gzip lazy") << 40000 << false << true << false << false << true;
}

void FileLinesTest::readsBack()
{
    QFETCH(int, lines);
    QFETCH(bool, crlf);
    QFETCH(bool, gzip);
    QFETCH(bool, withOffsets);
    QFETCH(bool, trailingNewline);
    QFETCH(bool, lazy);
    QByteArray data = makeLog(lines, crlf);
    if (!trailingNewline)
        data.chop(crlf && (lines - 1) % 2 ? 2 : 1);
    FileInfo info;
    info.path = m_dir.filePath(
        QStringLiteral("log%1.txt").arg(QString::fromLatin1(QTest::currentDataTag())).replace(u' ', u'_'));
    info.compressed = gzip;
    if (gzip) {
        info.path += QStringLiteral(".gz");
        // Two members, split mid-line, as `cat a.gz b.gz` produces.
        const qsizetype half = data.size() / 2 + 7;
        gzipMembers(info.path, { data.left(half), data.mid(half) });
    } else {
        QFile f(info.path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(data);
    }
    if (withOffsets)
        info.lineOffsets = offsetsOf(data);
    const QStringList expected = expectedLines(data);
    QCOMPARE(expected.size(), lines);
    // A small cache: evictions happen.
    const FileLinesResult opened =
        lazy ? FileLines::openLazily(info, 2 * 1024 * 1024) : FileLines::open(info, 2 * 1024 * 1024);
    QVERIFY2(opened.ok(), qPrintable(opened.error));
    if (!lazy)
        QCOMPARE(opened.lines->count(), qint64(lines));
    for (int i = 0; i < lines; ++i) // lazily: the index grows line by line, across block ends
        QCOMPARE(opened.lines->line(i), expected.at(i));
    QCOMPARE(opened.lines->count(), qint64(lines));
    QVERIFY(opened.lines->line(lines).isEmpty());
    QVERIFY2(opened.lines->lastError().isEmpty(), qPrintable(opened.lines->lastError()));
    QVERIFY(expected.at(4).contains(QChar(0xfffd))); // invalid bytes decode as replacement characters
}

void FileLinesTest::randomAccessAcrossBlocks()
{
    const QByteArray data = makeLog(60000, true);
    FileInfo info;
    info.path = m_dir.filePath(QStringLiteral("random.log.gz"));
    info.compressed = true;
    gzipMembers(info.path, { data });
    info.lineOffsets = offsetsOf(data);
    const QStringList expected = expectedLines(data);
    const FileLinesResult opened = FileLines::open(info, 1024 * 1024);
    QVERIFY(opened.ok());
    // Backwards and jumping: every read goes through a checkpoint, not a re-inflate from the start.
    for (int i = 59999; i >= 0; i -= 997)
        QCOMPARE(opened.lines->line(i), expected.at(i));
    for (int i : { 0, 59999, 30000, 1, 45000, 12345 })
        QCOMPARE(opened.lines->line(i), expected.at(i));
}

// A lazily opened file is indexed as far as the lines asked for: lines written after the first read
// are still counted, where an eager open counted the file as it was.
void FileLinesTest::lazyIndexReadsOnlyWhatItNeeds()
{
    const QByteArray first = makeLog(20000, false);
    const QByteArray more = makeLog(500, false);
    FileInfo info;
    info.path = m_dir.filePath(QStringLiteral("growing.log"));
    QFile f(info.path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    QVERIFY(f.write(first) == first.size());
    f.flush();
    const FileLinesResult eager = FileLines::open(info);
    const FileLinesResult lazy = FileLines::openLazily(info);
    QVERIFY(eager.ok() && lazy.ok());
    const QStringList expected = expectedLines(first);
    QCOMPARE(lazy.lines->line(3), expected.at(3));
    QVERIFY(f.write(more) == more.size());
    f.close();
    QCOMPARE(eager.lines->count(), qint64(20000));
    QCOMPARE(lazy.lines->count(), qint64(20500));
    QCOMPARE(lazy.lines->line(20000), expectedLines(more).at(0));
}

void FileLinesTest::scanLineMarksJumpTheIndex_data()
{
    QTest::addColumn<bool>("gzip");
    QTest::newRow("plain") << false;
    QTest::newRow("gzip") << true;
}

// The CLI keeps no line offsets; the scan leaves a line mark about every MiB, and a lazily opened file
// starts its index at the mark before the line asked for. Every mark is a true line start, and lines read
// through the marks, forwards, backwards and jumping, are those of the file.
void FileLinesTest::scanLineMarksJumpTheIndex()
{
    QFETCH(bool, gzip);
    const QByteArray data = makeLog(90000, true); // about 6 MiB, lines up to 300 bytes, CRLF and blanks
    const QString path = m_dir.filePath(gzip ? QStringLiteral("marks.log.gz") : QStringLiteral("marks.log"));
    if (gzip) {
        gzipMembers(path, { data });
    } else {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(data);
    }
    LoadOptions opt;
    opt.paths = { path };
    opt.lineIndex = false;
    const LoadResult loaded = loadIncidents(opt);
    QVERIFY2(loaded.current >= 0, qPrintable(loaded.error));
    const FileInfo& info = loaded.incidents[static_cast<size_t>(loaded.current)].files.front();
    QVERIFY(info.lineOffsets.empty());
    QVERIFY2(info.lineMarks.size() >= 4, qPrintable(QString::number(info.lineMarks.size())));
    const std::vector<qint64> starts = offsetsOf(data);
    for (const LineMark& m : info.lineMarks)
        QCOMPARE(m.offset, starts.at(static_cast<size_t>(m.line)));
    const QStringList expected = expectedLines(data);
    const FileLinesResult opened = FileLines::openLazily(info, 2 * 1024 * 1024);
    QVERIFY2(opened.ok(), qPrintable(opened.error));
    for (int i : { 85000, 84999, 85001, 3, 60000, 12345, 89999, 0, 44444, 44443 })
        QCOMPARE(opened.lines->line(i), expected.at(i));
    for (int i = 89999; i >= 0; i -= 7919)
        QCOMPARE(opened.lines->line(i), expected.at(i));
    QCOMPARE(opened.lines->count(), qint64(90000));
    QVERIFY(opened.lines->line(90000).isEmpty());
    QVERIFY2(opened.lines->lastError().isEmpty(), qPrintable(opened.lines->lastError()));
    // Without the marks the same lines come from an index built from the start.
    FileInfo bare = info;
    bare.lineMarks.clear();
    const FileLinesResult plain = FileLines::openLazily(bare);
    QVERIFY(plain.ok());
    QCOMPARE(plain.lines->line(60000), expected.at(60000));
}

void FileLinesTest::errorsNameTheFile()
{
    FileInfo missing;
    missing.path = m_dir.filePath(QStringLiteral("missing.log"));
    FileLinesResult r = FileLines::open(missing);
    QVERIFY(!r.ok());
    QVERIFY(r.error.contains(missing.path));

    FileInfo corrupt;
    corrupt.path = m_dir.filePath(QStringLiteral("corrupt.log.gz"));
    corrupt.compressed = true;
    QByteArray gz = gzipMembers(corrupt.path, { makeLog(5000, false) });
    for (qsizetype i = 200; i < 400; ++i)
        gz[i] = static_cast<char>(gz.at(i) ^ 0x5a);
    QFile f(corrupt.path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(gz);
    f.close();
    r = FileLines::open(corrupt);
    QVERIFY(!r.ok());
    QVERIFY2(
        r.error.contains(corrupt.path) && r.error.contains(QLatin1String("corrupt")), qPrintable(r.error));

    FileInfo truncated;
    truncated.path = m_dir.filePath(QStringLiteral("truncated.log.gz"));
    truncated.compressed = true;
    const QByteArray whole = gzipMembers(truncated.path, { makeLog(5000, false) });
    QFile t(truncated.path);
    QVERIFY(t.open(QIODevice::WriteOnly | QIODevice::Truncate));
    t.write(whole.left(whole.size() / 2));
    t.close();
    r = FileLines::open(truncated);
    QVERIFY(r.ok());
    QVERIFY(r.lines->count() > 100);
    QVERIFY(r.lines->lastError().contains(QLatin1String("truncated")));
    QVERIFY(r.lines->lastError().contains(truncated.path));
}

void FileLinesTest::classifiesSeverity_data()
{
    QTest::addColumn<QString>("line");
    QTest::addColumn<int>("severity");
    const auto row = [](const char* name, const char* line, Severity s) {
        QTest::newRow(name) << QString::fromUtf8(line) << static_cast<int>(s);
    };
    row("nccl info", "gpu-a02:52117:52117 [3] NCCL INFO Channel 00/0 : 7[3] -> 0[0] via NET/IB/0",
        Severity::Info);
    row("nccl warn", "[2026-03-14 02:17:44] gpu-a02:52117:52203 [3] net_ib.cc:2458 NCCL WARN NET/IB: x",
        Severity::Warn);
    row("c10 error", "[default3]:[rank7]:[E314 02:17:44.791203518 ProcessGroupNCCL.cpp:593] [Rank 7] x",
        Severity::Error);
    row("c10 old error", "[E ProcessGroupNCCL.cpp:828] [Rank 1] Watchdog caught", Severity::Error);
    row("c10 fatal", "[rank1]:[F1218 20:27:21.426415540 ProcessGroupNCCL.cpp:1309] stuck", Severity::Fatal);
    row("torch warning", "W0314 02:05:11.207000 52090 torch/distributed/run.py:766] ****", Severity::Warn);
    row("torch error", "E0813 08:21:22.980000 1245483 torch/distributed/elastic/api.py:984] failed",
        Severity::Error);
    row("old python",
        "[2024-01-25 04:10:31,303] torch.distributed.elastic.multiprocessing.api: [ERROR] failed",
        Severity::Error);
    row("traceback", "[default0]:Traceback (most recent call last):", Severity::Error);
    row("terminate", "[default3]:terminate called after throwing an instance of 'c10::DistBackendError'",
        Severity::Fatal);
    row("frame", "[default3]:frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x98",
        Severity::Info);
    row("plain", "Epoch 3 step 100 loss 2.31", Severity::Info);
    row("word starting with E", "Epoch 10 done", Severity::Info);
}

void FileLinesTest::classifiesSeverity()
{
    QFETCH(QString, line);
    QFETCH(int, severity);
    QCOMPARE(static_cast<int>(classifyLineSeverity(line)), severity);
}

QTEST_GUILESS_MAIN(FileLinesTest)
#include "tst_file_lines.moc"
