// SPDX-License-Identifier: MIT
// The matcher: role priority, captures, the prefilter's no-false-negative guarantee, the memory budget,
// concurrent use, and throughput over a realistic NCCL INFO mix.
#include "signature_catalog.h"
#include "signature_matcher.h"

#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QRandomGenerator>
#include <QTest>
#include <memory>
#include <thread>

using namespace rankscope;

namespace {
const QString kRepoCatalog = QStringLiteral(RANKSCOPE_SOURCE_DIR "/signatures");

Signature makeSignature(const QString& id, SignatureRole role, const QStringList& patterns)
{
    Signature s;
    s.id = id;
    s.role = role;
    s.family = QStringLiteral("test");
    s.patterns = patterns;
    return s;
}

// ~100k lines shaped like a real NCCL_DEBUG=INFO log of a large job, with a few WARNs mixed in.
std::vector<std::string> realisticMix(int count)
{
    // Each template takes exactly six numbers (%1..%6).
    const QString templates[] = {
        QStringLiteral("gpu-a%1:%2:%3 [%4] NCCL INFO Channel %5/0 : %6[0] -> 1[1] via P2P/CUMEM"),
        QStringLiteral(
            "gpu-a%1:%2:%3 [%4] NCCL INFO Channel %5/0 : %6[3] -> 0[0] [send] via NET/IB/0/GDRDMA"),
        QStringLiteral("gpu-a%1:%2:%3 [%4] NCCL INFO Connected all rings, use ring PXN 0 GDR %5 %6"),
        QStringLiteral(
            "gpu-a%1:%2:%3 [%4] NCCL INFO ncclCommInitRankConfig comm 0x55d0c8a1e2b0 rank %5 nranks %6 "
            "cudaDev 0 nvmlDev 0 busId 18000 - Init START"),
        QStringLiteral("gpu-a%1:%2:%3 [%4] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [RO]; OOB "
                       "ens1f0:10.10.%5.%6<0>"),
        QStringLiteral("gpu-a%1:%2:%3 [%4] NCCL INFO Trees [0] %5/-1/-1->%6->-1 [1] 1/-1/-1->0->-1"),
        QStringLiteral("gpu-a%1:%2:%3 [%4] NCCL INFO transport/net.cc:%5 -> %6"),
        QStringLiteral("gpu-a%1:%2:%3 [%4] NCCL INFO [Proxy Progress] Device %5 CPU core %6"),
        QStringLiteral(
            "[default%1]:[rank%2]:[W314 02:17:%3.734401926 ProcessGroupNCCL.cpp:%4] Warning: %5 %6"),
    };
    const int nTemplates = static_cast<int>(std::size(templates));
    std::vector<std::string> lines;
    lines.reserve(static_cast<std::size_t>(count));
    QRandomGenerator rng(42);
    const auto r = [&rng] { return static_cast<int>(rng.bounded(64)); };
    for (int i = 0; i < count; ++i) {
        QString line;
        if (i % 997 == 0) {
            line = QStringLiteral(
                "[2026-03-14 02:17:44] gpu-a%1:%2:%3 [3] transport/net_ib.cc:2458 NCCL WARN NET/IB: Got "
                "completion from peer 10.10.0.%4<45819> with status=12 opcode=0 len=0 vendor err 129 "
                "(Send) hca mlx5_0")
                       .arg(r())
                       .arg(50000 + r())
                       .arg(50100 + r())
                       .arg(r());
        } else {
            line = templates[i % nTemplates]
                       .arg(r())
                       .arg(40000 + r())
                       .arg(40000 + r())
                       .arg(r() % 8)
                       .arg(r())
                       .arg(r());
        }
        lines.push_back(line.toStdString());
    }
    return lines;
}
} // namespace

class TestSignatureMatcher : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        m_loaded = loadCatalogDir(kRepoCatalog);
        QVERIFY2(m_loaded.ok(), qPrintable(m_loaded.errors.join(QLatin1Char('\n'))));
        m_matcher = std::make_unique<SignatureMatcher>(m_loaded.catalog);
    }

    void causeBeatsSymptomThenCatalogOrder()
    {
        Catalog c;
        c.signatures.push_back(
            makeSignature(QStringLiteral("ctx"), SignatureRole::Context, { QStringLiteral("remote") }));
        c.signatures.push_back(
            makeSignature(QStringLiteral("sym"), SignatureRole::Symptom, { QStringLiteral("remote peer") }));
        c.signatures.push_back(makeSignature(
            QStringLiteral("cause-a"), SignatureRole::Cause, { QStringLiteral("peer (?P<peer>\\S+)") }));
        c.signatures.push_back(
            makeSignature(QStringLiteral("cause-b"), SignatureRole::Cause, { QStringLiteral("closed by") }));
        const SignatureMatcher m(c);
        QVERIFY(m.isValid());
        const MatchResult r = m.match("x Connection closed by remote peer 10.0.0.1<5>");
        QCOMPARE(r.signature, 2); // first cause in catalog order, although symptom and context also match
        QCOMPARE(
            r.captures, (std::vector<Capture> { { QStringLiteral("peer"), QStringLiteral("10.0.0.1<5>") } }));
        QCOMPARE(
            m.matchAll("x Connection closed by remote peer 10.0.0.1<5>"), (std::vector<int> { 0, 1, 2, 3 }));
        QCOMPARE(m.match("only a remote line").signature, 0);
        QVERIFY(!m.match("nothing here"));
    }

    void matchBeforeStopsAtTheRoleLimit()
    {
        Catalog c;
        c.signatures.push_back(makeSignature(QStringLiteral("sym"), SignatureRole::Symptom,
            { QStringLiteral("watchdog timeout SeqNum=(?P<seq>\\d+)") }));
        c.signatures.push_back(makeSignature(
            QStringLiteral("cause-plain"), SignatureRole::Cause, { QStringLiteral("port went down") }));
        const SignatureMatcher m(c);
        QVERIFY(m.isValid());
        const std::string symptom = "x watchdog timeout SeqNum=42 y";
        // A record that already has a cause (0) or a symptom (1) cannot be improved by a symptom line.
        QVERIFY(!m.matchBefore(symptom, 0));
        QVERIFY(!m.matchBefore(symptom, 1));
        const MatchResult r = m.matchBefore(symptom, 2);
        QCOMPARE(r.signature, 0);
        QCOMPARE(r.captures, (std::vector<Capture> { { QStringLiteral("seq"), QStringLiteral("42") } }));
        QCOMPARE(m.match(symptom).captures, r.captures);
        // A pattern without groups: matched through the Set alone, and never matched where it is absent.
        const MatchResult plain = m.matchBefore("mlx5_0 port went down", 1);
        QCOMPARE(plain.signature, 1);
        QVERIFY(plain.captures.empty());
        QVERIFY(!m.matchSignature(1, "the port is up"));
        QCOMPARE(m.matchSignature(1, "port went down").signature, 1);
    }

    // A signature whose literals are in the line but whose pattern does not match gives way to the next
    // best. Patterns without literals (they pass every line through the prefilter) change nothing.
    void signatureThatDoesNotMatchGivesWay_data()
    {
        QTest::addColumn<int>("unfiltered"); // patterns without a literal, added at the end
        QTest::newRow("every pattern has literals") << 0;
        QTest::newRow("six patterns without literals") << 6;
    }
    void signatureThatDoesNotMatchGivesWay()
    {
        QFETCH(int, unfiltered);
        Catalog c;
        c.signatures.push_back(makeSignature(QStringLiteral("cause-digits"), SignatureRole::Cause,
            { QStringLiteral("closed by peer (?P<n>\\d+)") }));
        c.signatures.push_back(makeSignature(QStringLiteral("sym"), SignatureRole::Symptom,
            { QStringLiteral("closed by peer (?P<host>[a-z]+)") }));
        for (int k = 0; k < unfiltered; ++k)
            c.signatures.push_back(makeSignature(QStringLiteral("context-%1").arg(k), SignatureRole::Context,
                { QStringLiteral("[a-z]%1[0-9]").arg(k) }));
        const SignatureMatcher m(c);
        QVERIFY2(m.isValid(), qPrintable(m.errorString()));
        QCOMPARE(m.unfilteredPatterns().size(), unfiltered);
        const MatchResult host = m.match("connection closed by peer gpuhost x05");
        QCOMPARE(host.signature, 1);
        QCOMPARE(
            host.captures, (std::vector<Capture> { { QStringLiteral("host"), QStringLiteral("gpuhost") } }));
        const MatchResult digits = m.match("connection closed by peer 17 x05");
        QCOMPARE(digits.signature, 0);
        QCOMPARE(digits.captures, (std::vector<Capture> { { QStringLiteral("n"), QStringLiteral("17") } }));
        QCOMPARE(m.match("only x05 here").signature, unfiltered > 0 ? 2 : -1);
        QVERIFY(!m.match("closed by peer ."));
    }

    void optionalGroupsAreNotReported()
    {
        Catalog c;
        c.signatures.push_back(makeSignature(QStringLiteral("opt"), SignatureRole::Cause,
            { QStringLiteral("status=(?P<status>\\d+)(?: hca (?P<nic>\\w+))?"),
                QStringLiteral("second (?P<x>\\d+)") }));
        const SignatureMatcher m(c);
        const MatchResult r = m.match("status=12 opcode=0");
        QCOMPARE(r.pattern, 0);
        QCOMPARE(r.captures, (std::vector<Capture> { { QStringLiteral("status"), QStringLiteral("12") } }));
        const MatchResult second = m.match("the second 7");
        QCOMPARE(second.pattern, 1);
        QCOMPARE(second.captures, (std::vector<Capture> { { QStringLiteral("x"), QStringLiteral("7") } }));
        QVERIFY(!m.matchSignature(0, "nothing"));
    }

    // The catalog's named groups capture in every wording they are written for: PyTorch's CUDA OOM says
    // the GPU as "(GPU 0; ..." in old releases and ". GPU 3 has a total capacity" in new ones.
    void catalogCapturesBothOomWordings()
    {
        const auto captureOf = [&](const char* line, const QString& name) {
            const MatchResult r = m_matcher->match(line);
            for (const Capture& c : r.captures)
                if (c.first == name)
                    return c.second;
            return QString();
        };
        QCOMPARE(captureOf(
                     "[rank3]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 3 "
                     "has a total capacity of 79.10 GiB of which 1.02 GiB is free.",
                     QStringLiteral("gpu2")),
            QStringLiteral("3"));
        QCOMPARE(captureOf(
                     "RuntimeError: CUDA out of memory. Tried to allocate 512.00 MiB (GPU 0; 39.59 GiB total "
                     "capacity; 37.10 GiB already allocated)",
                     QStringLiteral("gpu")),
            QStringLiteral("0"));
    }

    // A line retyped in lower case matches only without regard to case, with its captures; a refinement
    // (a variant) never matches a line directly either way.
    void lowerCaseRetypingMatchesIgnoringCase()
    {
        const char* typed = "runtimeerror: cuda error: invalid device ordinal";
        QVERIFY(!m_matcher->match(typed));
        const MatchResult r = m_matcher->matchIgnoringCase(typed);
        QVERIFY(r);
        QCOMPARE(m_loaded.catalog.signatures[static_cast<size_t>(r.signature)].id,
            QStringLiteral("cuda-invalid-device-ordinal"));
        const MatchResult oom =
            m_matcher->matchIgnoringCase("runtimeerror: cuda out of memory. tried to allocate 512.00 mib "
                                         "(gpu 0; 39.59 gib total capacity)");
        QVERIFY(oom);
        QVERIFY(std::any_of(oom.captures.begin(), oom.captures.end(), [](const Capture& c) {
            return c.first == QLatin1String("gpu") && c.second == QLatin1String("0");
        }));
        const MatchResult watchdog = m_matcher->matchIgnoringCase(
            "[rank1]:[e processgroupnccl.cpp:523] [rank 1] watchdog caught collective operation timeout: "
            "worknccl(seqnum=1, optype=broadcast, timeout(ms)=600000) ran for 600023 milliseconds before "
            "timing out.");
        QVERIFY(watchdog);
        QVERIFY(m_loaded.catalog.signatures[static_cast<size_t>(watchdog.signature)].refines.isEmpty());
        QVERIFY(!m_matcher->matchIgnoringCase("step 120 loss 0.31"));
    }

    void prefilterNeverRejectsAMatch_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<int>("signature");
        for (std::size_t i = 0; i < m_loaded.catalog.signatures.size(); ++i) {
            const Signature& s = m_loaded.catalog.signatures[i];
            for (int e = 0; e < s.examplesMatch.size(); ++e)
                QTest::newRow(qPrintable(s.id + QLatin1Char('#') + QString::number(e)))
                    << s.examplesMatch[e] << static_cast<int>(i);
            if (!s.examplesMatch.isEmpty()) // a stall entry has no line to match (Signature::stall)
                QTest::newRow(qPrintable(s.id + QStringLiteral("#literal-lower")))
                    << s.examplesMatch.first().toLower() << -1;
        }
    }
    void prefilterNeverRejectsAMatch()
    {
        QFETCH(QString, line);
        QFETCH(int, signature);
        const SignatureMatcher& m = *m_matcher;
        const std::string utf8 = line.toStdString();
        const std::vector<int> all = m.matchAll(utf8);
        if (signature >= 0)
            QVERIFY(std::find(all.begin(), all.end(), signature) != all.end());
        // The guarantee: whenever any pattern matches, the prefilter said "maybe".
        bool anyPattern = false;
        for (std::size_t i = 0; i < m_loaded.catalog.signatures.size(); ++i)
            anyPattern = anyPattern || bool(m.matchSignature(static_cast<int>(i), utf8));
        if (anyPattern)
            QVERIFY(m.mayMatch(utf8));
        QCOMPARE(!all.empty(), anyPattern);
    }

    // The prefilter's candidates, tried alone and strongest first, give exactly what the RE2::Set over every
    // pattern gives: on every line of every file under tests/data (the real cases among them) and on every
    // catalog example, at every role limit.
    void candidatesAgreeWithTheSet()
    {
        const SignatureMatcher& m = *m_matcher;
        std::vector<std::string> lines;
        QDirIterator it(
            QStringLiteral(RANKSCOPE_SOURCE_DIR "/tests/data"), QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            QFile f(it.next());
            if (f.fileName().endsWith(QLatin1String(".gz")) || !f.open(QIODevice::ReadOnly))
                continue;
            const QByteArray bytes = f.readAll();
            if (bytes.contains('\0'))
                continue; // a tarball or a binary fixture
            for (const QByteArray& l : bytes.split('\n'))
                lines.push_back(l.toStdString());
        }
        for (const Signature& s : m_loaded.catalog.signatures) {
            for (const QString& e : s.examplesMatch + s.examplesNoMatch)
                lines.push_back(e.toStdString());
        }
        QVERIFY(lines.size() > 10000);
        int matched = 0;
        for (const std::string& l : lines) {
            const MatchResult bySet = m.matchWithSet(l);
            matched += bySet ? 1 : 0;
            for (int limit = 1; limit <= kUnmatchedRoleRank; ++limit) {
                const bool allowed = bySet
                    && static_cast<int>(
                           m_loaded.catalog.signatures[static_cast<std::size_t>(bySet.signature)].role)
                        < limit;
                const MatchResult fast = m.matchBefore(l, limit);
                QVERIFY2(fast.signature == (allowed ? bySet.signature : -1)
                        && fast.pattern == (allowed ? bySet.pattern : -1)
                        && (!allowed || fast.captures == bySet.captures),
                    qPrintable(QStringLiteral("limit %1: %2").arg(limit).arg(QString::fromStdString(l))));
            }
        }
        qInfo("%zu lines, %d matched by the Set, all alike", lines.size(), matched);
        QVERIFY(matched > 1000);
    }

    void prefilterRejectsOrdinaryInfoLines()
    {
        const SignatureMatcher m(m_loaded.catalog);
        QVERIFY2(
            m.unfilteredPatterns().isEmpty(), qPrintable(m.unfilteredPatterns().join(QLatin1Char('\n'))));
        const std::vector<std::string> lines = realisticMix(5000);
        int info = 0, rejected = 0, warns = 0;
        for (const std::string& l : lines) {
            if (l.find("NCCL WARN") != std::string::npos) {
                ++warns;
                QVERIFY(m.mayMatch(l));
                QVERIFY(m.match(l));
                continue;
            }
            ++info;
            if (!m.mayMatch(l)) {
                ++rejected;
                QVERIFY(!m.match(l));
            }
        }
        QVERIFY(warns > 0);
        qInfo("prefilter rejected %d of %d INFO lines", rejected, info);
        QVERIFY2(rejected * 10 >= info * 9,
            qPrintable(QStringLiteral("%1 of %2 rejected").arg(rejected).arg(info)));
    }

    void memoryBudgetIsEnforced()
    {
        const SignatureMatcher tiny(m_loaded.catalog, MatcherOptions { 64 * 1024 });
        QVERIFY(!tiny.isValid());
        QVERIFY(tiny.errorString().contains(QLatin1String("memory budget")));
        QVERIFY(!tiny.match("NET/IB: Got completion from peer 10.10.0.11<45819> with status=12"));
        const SignatureMatcher normal(m_loaded.catalog);
        QVERIFY2(normal.isValid(), qPrintable(normal.errorString()));
        QVERIFY(normal.errorString().isEmpty());
    }

    void emptyCatalogMatchesNothing()
    {
        const SignatureMatcher m { Catalog {} };
        QVERIFY(!m.isValid());
        QVERIFY(!m.mayMatch("anything"));
        QVERIFY(!m.match("anything"));
    }

    void concurrentUseGivesSameResults()
    {
        const SignatureMatcher m(m_loaded.catalog);
        const std::vector<std::string> lines = realisticMix(4000);
        std::vector<int> expected;
        for (const std::string& l : lines)
            expected.push_back(m.match(l).signature);
        std::vector<std::vector<int>> results(4);
        std::vector<std::thread> threads;
        for (std::size_t t = 0; t < results.size(); ++t) {
            threads.emplace_back([&, t] {
                for (const std::string& l : lines)
                    results[t].push_back(m.match(l).signature);
            });
        }
        for (std::thread& th : threads)
            th.join();
        for (const auto& r : results)
            QCOMPARE(r, expected);
    }

    void benchmarkThroughput()
    {
        const SignatureMatcher m(m_loaded.catalog);
        const std::vector<std::string> lines = realisticMix(100000);
        int hits = 0;
        QElapsedTimer timer;
        timer.start();
        QBENCHMARK
        {
            hits = 0;
            for (const std::string& l : lines) {
                if (m.mayMatch(l) && m.match(l))
                    ++hits;
            }
        }
        const double seconds = static_cast<double>(timer.nsecsElapsed()) / 1e9;
        QVERIFY(hits >= 100000 / 997);
        qInfo("mayMatch+match: %d lines, %d hits, %.0f lines/s (all benchmark iterations)",
            static_cast<int>(lines.size()), hits, static_cast<double>(lines.size()) / seconds);
    }

private:
    CatalogLoadResult m_loaded;
    std::unique_ptr<SignatureMatcher> m_matcher;
};

QTEST_GUILESS_MAIN(TestSignatureMatcher)
#include "tst_signature_matcher.moc"
