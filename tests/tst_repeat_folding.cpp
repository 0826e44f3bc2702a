// SPDX-License-Identifier: MIT
// Repeat folding (core/scan/repeat_folding.h): what is folded, what never is, and that folding changes no
// finding. The last is shown on real logs: every tenth case of tests/data/real-found, each repeated until it
// holds thousands of events (a warning printed at every step, a watchdog's retries), diagnosed with folding
// on and off. The initiating event, the signature, the fix, the collateral groups (with their counts) and
// the suspects must agree.
#include "diagnosis.h"
#include "ingest.h"
#include "signature_catalog.h"
#include "signature_matcher.h"

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

using namespace rankscope;

class TestRepeatFolding : public QObject
{
    Q_OBJECT
private:
    Catalog m_catalog;
    std::unique_ptr<SignatureMatcher> m_matcher;
    QTemporaryDir m_scratch;

    LoadResult load(const QString& path, bool fold)
    {
        LoadOptions o;
        o.paths = { path };
        o.catalog = &m_catalog;
        o.matcher = m_matcher.get();
        o.foldRepeats = fold;
        return loadIncidents(o);
    }

    QString write(const QString& name, const QByteArray& bytes)
    {
        const QString path = m_scratch.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size())
            return {};
        return path;
    }

    static qint64 total(const Incident& inc, const QString& needle)
    {
        qint64 n = 0;
        for (const LogEvent& e : inc.events) {
            if (e.text.contains(needle))
                n += 1 + e.repeats;
        }
        return n;
    }

    static QString describe(const Incident& inc, const Diagnosis& d)
    {
        const auto where = [&](int i) {
            if (i < 0)
                return QStringLiteral("none");
            const LogEvent& e = inc.events[static_cast<size_t>(i)];
            return QStringLiteral("%1:%2 %3").arg(e.file).arg(e.line).arg(e.text);
        };
        QStringList out { d.headline, where(d.initiatingEvent), QString::number(d.signature), d.fix,
            d.confidence };
        for (const CollateralGroup& g : d.collateral)
            out << QStringLiteral("collateral %1 %2 ranks %3 (%4) events %5 first %6")
                       .arg(g.signature)
                       .arg(g.label)
                       .arg(g.rankCount)
                       .arg(g.ranks)
                       .arg(g.eventCount)
                       .arg(where(g.firstEvent));
        for (const Suspect& s : d.suspects)
            out << QStringLiteral("suspect %1 %2 %3").arg(s.rank).arg(s.host, s.reason);
        return out.join(QLatin1Char('\n'));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_scratch.isValid());
        CatalogLoadResult cat = loadCatalogDir(QStringLiteral(RANKSCOPE_SOURCE_DIR "/signatures"));
        QVERIFY(cat.catalog.signatures.size() > 10);
        m_catalog = cat.catalog;
        m_matcher = std::make_unique<SignatureMatcher>(m_catalog);
        QVERIFY(m_matcher->isValid());
    }

    // Four ranks print one c10d warning at every step; rank 2 fails in the middle with a traceback.
    void repeatsFoldIntoTheFirstOnes()
    {
        QByteArray log;
        const int steps = 3000;
        for (int step = 0; step < steps; ++step) {
            for (int rank = 0; rank < 4; ++rank)
                log += QStringLiteral(
                    "[rank%1]:2025-12-06 18:%2:%3,%4 - WARNING - ddp.py:88 - find_unused_parameters=True "
                    "was specified in DDP constructor, but did not find any unused parameters in "
                    "the forward pass (step %5)\n")
                           .arg(rank)
                           .arg(10 + step / 600)
                           .arg((step / 10) % 60, 2, 10, QLatin1Char('0'))
                           .arg(step % 1000, 3, 10, QLatin1Char('0'))
                           .arg(step)
                           .toUtf8();
            if (step == 1500)
                log += "[rank2]:Traceback (most recent call last):\n"
                       "[rank2]:  File \"train.py\", line 88, in <module>\n"
                       "[rank2]:    loss.backward()\n"
                       "[rank2]:RuntimeError: CUDA error: an illegal memory access was encountered\n";
        }
        const QString path = write(QStringLiteral("console.log"), log);
        const LoadResult folded = load(path, true);
        const LoadResult plain = load(path, false);
        QCOMPARE(folded.incidents.size(), std::size_t(1));
        const Incident& inc = folded.incidents.front();
        const QString warning = QStringLiteral("find_unused_parameters=True");
        // Nothing printed is lost: the kept events and their counts make every line.
        QCOMPARE(total(inc, warning), qint64(4 * steps));
        QCOMPARE(total(plain.incidents.front(), warning), qint64(4 * steps));
        QCOMPARE(static_cast<qint64>(plain.incidents.front().events.size()), qint64(4 * steps + 1));
        // Eight of each rank's warnings stay events, the first ones; the eighth counts the rest.
        for (int rank = 0; rank < 4; ++rank) {
            std::vector<const LogEvent*> kept;
            for (const LogEvent& e : inc.events) {
                if (e.rank == rank && e.text.contains(warning))
                    kept.push_back(&e);
            }
            QStringList lines;
            for (const LogEvent* e : kept)
                lines << QStringLiteral("%1 +%2 x%3").arg(e->line).arg(e->lineCount).arg(e->repeats);
            QVERIFY2(kept.size() == 8,
                qPrintable(QString::number(rank) + QLatin1Char(' ') + lines.join(QLatin1String(", "))));
            QVERIFY(kept.front()->text.contains(QLatin1String("(step 0)")));
            QCOMPARE(kept.back()->repeats, steps - 8);
            QVERIFY(kept.back()->lastRepeatLine > 4 * (steps - 1));
        }
        // The failure is untouched: one event, its exception the headline, its frames its continuation.
        int failures = 0;
        for (const LogEvent& e : inc.events) {
            if (e.text.contains(QLatin1String("illegal memory access"))) {
                ++failures;
                QCOMPARE(e.rank, 2);
                QCOMPARE(e.lineCount, 4);
                QCOMPARE(e.repeats, 0);
            }
        }
        QCOMPARE(failures, 1);
        // Said so, with the count.
        const QStringList& notes = inc.files.front().notes;
        const auto note = std::find_if(notes.begin(), notes.end(),
            [](const QString& n) { return n.contains(QLatin1String("repeated event(s) folded")); });
        QVERIFY2(note != notes.end(), qPrintable(notes.join(QLatin1Char('\n'))));
        QVERIFY2(note->startsWith(QString::number(4 * (steps - 8))), qPrintable(*note));
        // The finding is the same either way.
        QCOMPARE(describe(inc, diagnose(inc, m_catalog)),
            describe(plain.incidents.front(), diagnose(plain.incidents.front(), m_catalog)));
    }

    // What the line says beyond its numbers differs, or what the signature reads from it: never folded.
    void differentWordsOrCapturesStay()
    {
        QByteArray log;
        for (int i = 0; i < 3000; ++i) {
            // The sequence number is a capture of the watchdog's signature: each line says something new.
            log += QStringLiteral(
                "[rank1]:[E1206 18:44:12.%1 ProcessGroupNCCL.cpp:607] [Rank 1] Watchdog caught "
                "collective operation timeout: WorkNCCL(SeqNum=%2, OpType=ALLREDUCE, NumelIn=1, "
                "NumelOut=1, Timeout(ms)=600000) ran for 600013 milliseconds before timing out.\n")
                       .arg(i, 6, 10, QLatin1Char('0'))
                       .arg(i)
                       .toUtf8();
            // A host name in the words: no number-only difference.
            log += QStringLiteral(
                "[rank1]:[W1206 18:44:12.%1 socket.cpp:%2] Warning: could not reach node-%3x\n")
                       .arg(i, 6, 10, QLatin1Char('0'))
                       .arg(i)
                       .arg(QChar(QLatin1Char(static_cast<char>('a' + i % 26))))
                       .toUtf8();
        }
        const LoadResult folded = load(write(QStringLiteral("watchdog.log"), log), true);
        QCOMPARE(folded.incidents.size(), std::size_t(1));
        const Incident& inc = folded.incidents.front();
        qint64 watchdogs = 0, reaches = 0;
        for (const LogEvent& e : inc.events) {
            watchdogs += e.text.contains(QLatin1String("Watchdog caught")) ? 1 : 0;
            if (e.text.contains(QLatin1String("could not reach")))
                reaches += 1 + e.repeats;
        }
        QCOMPARE(watchdogs, qint64(3000));
        QCOMPARE(reaches, qint64(3000));
        // 26 host names, eight of each kept, and at most one more for each time folding ran: the newest
        // failure line that matched nothing may still gain the line after it (a wrap), so it stays as it is.
        // (Each line here is a piece such a line could gain.)
        qint64 reachEvents = 0;
        for (const LogEvent& e : inc.events)
            reachEvents += e.text.contains(QLatin1String("could not reach")) ? 1 : 0;
        QVERIFY2(reachEvents >= 26 * 8 && reachEvents <= 26 * 8 + 6000 / 2048 + 1,
            qPrintable(QString::number(reachEvents)));
    }

    void findingsAgreeOnTiledRealLogs_data()
    {
        QTest::addColumn<QString>("log");
        const QDir root(QStringLiteral(RANKSCOPE_SOURCE_DIR "/tests/data/real-found"));
        const QStringList cases = root.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
        QVERIFY(cases.size() > 100);
        for (int i = 0; i < cases.size(); i += 10) {
            const QString log = root.filePath(cases[i] + QStringLiteral("/log.txt"));
            if (QFile::exists(log))
                QTest::newRow(qPrintable(cases[i])) << log;
        }
    }

    void findingsAgreeOnTiledRealLogs()
    {
        QFETCH(QString, log);
        QFile f(log);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QByteArray one = f.readAll();
        if (!one.endsWith('\n'))
            one += '\n';
        // About 3 MB: thousands of events in most cases, so folding runs many times during the scan.
        QByteArray tiled;
        while (tiled.size() < 3'000'000)
            tiled += one;
        const QString path =
            write(QFileInfo(QFileInfo(log).path()).fileName() + QStringLiteral(".log"), tiled);
        const LoadResult folded = load(path, true);
        const LoadResult plain = load(path, false);
        QCOMPARE(folded.incidents.size(), plain.incidents.size());
        for (std::size_t i = 0; i < folded.incidents.size(); ++i) {
            const Incident& a = folded.incidents[i];
            const Incident& b = plain.incidents[i];
            QVERIFY(a.events.size() <= b.events.size());
            qint64 printed = 0;
            for (const LogEvent& e : a.events)
                printed += 1 + e.repeats;
            QCOMPARE(printed, static_cast<qint64>(b.events.size()));
            QCOMPARE(describe(a, diagnose(a, m_catalog)), describe(b, diagnose(b, m_catalog)));
        }
    }
};

QTEST_GUILESS_MAIN(TestRepeatFolding)
#include "tst_repeat_folding.moc"
