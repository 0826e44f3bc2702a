// SPDX-License-Identifier: MIT
// The literal prefilter finds the patterns' atoms with one Vectorscan pass per block of bytes; these tests
// put atoms at every alignment, in every case, at both ends of a line and across line ends, and check that
// a line looked up in its block's hits gets the same answer as the line scanned on its own.
#include "level_cues.h"
#include "literal_prefilter.h"

#include <QTest>
#include <re2/re2.h>

using namespace rankscope;

namespace {

// What the prefilter promises: it never rejects a line that one of the patterns matches.
bool anyMatches(const std::vector<std::string>& patterns, const std::string& line)
{
    for (const std::string& p : patterns) {
        if (RE2::PartialMatch(line, RE2(p)))
            return true;
    }
    return false;
}

std::string flipCase(std::string s, unsigned seed)
{
    for (char& c : s) {
        seed = seed * 1103515245u + 12345u;
        if ((seed >> 16) & 1)
            c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 32 : (c >= 'A' && c <= 'Z' ? c + 32 : c));
    }
    return s;
}

} // namespace

class TestLiteralPrefilter : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void linesWithoutLiteralsPassOnlyWhenAPatternHasNone_data()
    {
        QTest::addColumn<QStringList>("patterns");
        QTest::addColumn<bool>("passesEverything");
        QTest::newRow("long literals") << QStringList { QStringLiteral("unhandled system error"),
            QStringLiteral("Got completion from peer") }
                                       << false;
        QTest::newRow("a 6-byte literal")
            << QStringList { QStringLiteral("unhandled system error"), QStringLiteral("failed") } << false;
        QTest::newRow("no literal at all: every line passes")
            << QStringList { QStringLiteral("unhandled system error"), QStringLiteral("[0-9]+x") } << true;
    }
    void linesWithoutLiteralsPassOnlyWhenAPatternHasNone()
    {
        QFETCH(QStringList, patterns);
        QFETCH(bool, passesEverything);
        std::vector<std::string> p;
        for (const QString& s : patterns)
            p.push_back(s.toStdString());
        LiteralPrefilter f;
        QVERIFY(f.build(p));
        QCOMPARE(!f.unfilteredPatterns().empty(), passesEverything);
        const std::string_view line = "gpu-a01:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC";
        QCOMPARE(f.mayMatch(line), passesEverything);
        AtomHits hits;
        f.scanBlock(line, hits);
        QCOMPARE(f.mayMatch(hits, line), passesEverything);
    }

    void findsAtomsAtEveryAlignmentAndCase()
    {
        const std::vector<std::string> patterns { "(?i)unhandled system error", "Call to ibv_\\w+ failed",
            "(?i)status=12", "NET/IB : Got completion from peer", "(?i)failed" };
        LiteralPrefilter f;
        QVERIFY(f.build(patterns));
        const std::vector<std::string> needles { "unhandled system error", "Call to ibv_reg_mr failed",
            "STATUS=12", "NET/IB : Got completion from peer", "FaIlEd" };
        int checked = 0;
        for (const std::string& needle : needles) {
            for (std::size_t pad = 0; pad < 24; ++pad) {
                for (unsigned seed = 0; seed < 4; ++seed) {
                    const std::string head(pad, 'x');
                    for (const std::string& line :
                        { head + needle, head + needle + " tail", needle + head }) {
                        const std::string variant = seed == 0 ? line : flipCase(line, seed);
                        if (!anyMatches(patterns, variant))
                            continue; // a case flip broke a case-sensitive pattern: nothing to promise
                        QVERIFY2(f.mayMatch(variant), variant.c_str());
                        ++checked;
                    }
                }
            }
        }
        QVERIFY(checked > 100);
    }

    void rejectsLinesWithoutTheLiterals()
    {
        LiteralPrefilter f;
        QVERIFY(f.build({ "unhandled system error", "Got completion from peer .* with vendor err (\\d+)" }));
        QVERIFY(!f.mayMatch(""));
        QVERIFY(!f.mayMatch("abc"));
        QVERIFY(!f.mayMatch("gpu-a01:1007035:1007035 [2] NCCL INFO AllReduce: opCount 17 sendbuff 0x7f3c"));
        QVERIFY(!f.mayMatch("unhandled system erro")); // one byte short
        // Both literals of the second pattern are required: one alone is not enough.
        QVERIFY(!f.mayMatch("NET/IB : Got completion from peer 10.0.0.1<4> with status=12"));
        QVERIFY(f.mayMatch("NET/IB : Got completion from peer 10.0.0.1<4> with vendor err 129"));
    }

    // sawAtom tells a line without any atom (whose bytes can complete no other line's pattern) from a line
    // that holds some atoms but not enough for a pattern.
    void reportsWhetherAnAtomWasSeen()
    {
        LiteralPrefilter f;
        QVERIFY(f.build({ "unhandled system error", "Got completion from peer .* with vendor err (\\d+)" }));
        bool saw = true;
        QVERIFY(
            !f.mayMatch("gpu-a01:1007035:1007035 [2] NCCL INFO AllReduce: opCount 17 sendbuff 0x7f3c", &saw));
        QVERIFY(!saw);
        QVERIFY(!f.mayMatch("NET/IB : Got completion from peer 10.0.0.1<4> with status=12", &saw));
        QVERIFY(saw);
        saw = false;
        QVERIFY(f.mayMatch("x unhandled system error", &saw));
        QVERIFY(saw);
    }

    // A block of lines scanned once: every line (and every view inside a line, as the scanner asks about a
    // line without its CR or its message) gets the answer it gets when scanned on its own. Atoms that cross
    // a line end belong to neither line.
    // The level cues are found as written (case matters) beside the atoms, and are no atoms themselves.
    void findsLevelCuesInTheBlock()
    {
        LiteralPrefilter f;
        QVERIFY(f.build({ "(?i)unhandled system error" }));
        const std::vector<std::string> lines { "2026-01-01 10:00:00,1 - WARNING - x",
            "x - warning - lower case", "RuntimeError: boom", "runtimeerror: lower case", "[E] short",
            "[e] short lower", "plain INFO line", "Segmentation fault", "unhandled system error",
            "NVRM: Xid 79", "nvrm: xid lower", "" };
        std::string block;
        for (const std::string& l : lines)
            block += l + "\n";
        AtomHits hits;
        f.scanBlock(block, hits);
        std::size_t at = 0;
        for (const std::string& l : lines) {
            const std::string_view view(block.data() + at, l.size());
            bool cue = false;
            for (const std::string_view c : kLevelCues)
                cue = cue || view.find(c) != std::string_view::npos;
            QCOMPARE(f.mayHoldLevelWord(hits, view), cue);
            bool sawAtom = false;
            QCOMPARE(f.mayMatch(hits, view, &sawAtom), l == "unhandled system error");
            QCOMPARE(sawAtom, l == "unhandled system error");
            at += l.size() + 1;
        }
        // A line not inside the block is not known: the caller must read it.
        QVERIFY(f.mayHoldLevelWord(hits, std::string_view("plain")));
    }

    void blockHitsAnswerLikeTheLineAlone()
    {
        const std::vector<std::string> patterns { "(?i)unhandled system error", "Call to ibv_\\w+ failed",
            "(?i)status=12", "NET/IB : Got completion from peer", "(?i)failed" };
        LiteralPrefilter f;
        QVERIFY(f.build(patterns));
        const std::vector<std::string> needles { "unhandled system error", "Call to ibv_reg_mr failed",
            "STATUS=12", "NET/IB : Got completion from peer", "FaIlEd", "Call to ibv_" };
        std::string block;
        for (const std::string& needle : needles) {
            for (std::size_t pad = 0; pad < 9; ++pad) {
                block += std::string(pad, 'x') + flipCase(needle, static_cast<unsigned>(pad)) + "\n";
                block += std::string(pad, '.') + "plain INFO line\r\n";
                // An atom cut by a line end: "unhandled sys" / "tem error".
                const std::size_t cut = std::min(pad + 1, needle.size() - 1);
                block += needle.substr(0, cut) + "\n" + needle.substr(cut) + "\n";
            }
        }
        AtomHits hits;
        f.scanBlock(block, hits);
        QVERIFY(hits.covers(std::string_view(block).substr(3, 10)));
        QVERIFY(!hits.covers(std::string_view("elsewhere")));
        int lines = 0, passed = 0;
        std::size_t at = 0;
        while (at < block.size()) {
            const std::size_t nl = block.find('\n', at);
            const std::string_view line(block.data() + at, nl - at);
            for (std::size_t from = 0; from <= std::min<std::size_t>(line.size(), 4); ++from) {
                const std::string_view view = line.substr(from);
                bool sawAlone = false, sawInBlock = false;
                const bool alone = f.mayMatch(std::string(view), &sawAlone); // a copy: scanned on its own
                QCOMPARE(f.mayMatch(hits, view, &sawInBlock), alone);
                QCOMPARE(sawInBlock, sawAlone);
                passed += alone ? 1 : 0;
            }
            ++lines;
            at = nl + 1;
        }
        QVERIFY(lines > 100);
        QVERIFY(passed > 50);
    }
};

QTEST_GUILESS_MAIN(TestLiteralPrefilter)
#include "tst_literal_prefilter.moc"
