// SPDX-License-Identifier: MIT
// The literal prefilter samples a line every `stride` bytes; these tests put atoms at every alignment,
// in every case, at both ends of a line, and check the stride it picks from the patterns' literals.
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
    void strideFollowsTheShortestLiteral_data()
    {
        QTest::addColumn<QStringList>("patterns");
        QTest::addColumn<int>("stride");
        QTest::addColumn<bool>("passesEverything");
        QTest::newRow("22 bytes at least: stride 19") << QStringList {
            QStringLiteral("unhandled system error"), QStringLiteral("Got completion from peer")
        } << 19 << false;
        QTest::newRow("a 10-byte literal: stride 7")
            << QStringList { QStringLiteral("unhandled system error"), QStringLiteral("ibv_reg_mr") } << 7
            << false;
        QTest::newRow("an 8-byte literal: stride 5")
            << QStringList { QStringLiteral("unhandled system error"), QStringLiteral("ibv_reg_") } << 5
            << false;
        QTest::newRow("a 6-byte literal: stride 3") << QStringList { QStringLiteral("unhandled system error"),
            QStringLiteral("failed") } << 3 << false;
        QTest::newRow("no literal at all: every line passes")
            << QStringList { QStringLiteral("unhandled system error"), QStringLiteral("[0-9]+x") } << -1
            << true;
    }
    void strideFollowsTheShortestLiteral()
    {
        QFETCH(QStringList, patterns);
        QFETCH(int, stride);
        QFETCH(bool, passesEverything);
        std::vector<std::string> p;
        for (const QString& s : patterns)
            p.push_back(s.toStdString());
        LiteralPrefilter f;
        QVERIFY(f.build(p));
        if (stride > 0)
            QCOMPARE(static_cast<int>(f.stride()), stride);
        QCOMPARE(!f.unfilteredPatterns().empty(), passesEverything);
        QCOMPARE(f.mayMatch("gpu-a01:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC"),
            passesEverything);
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
            for (std::size_t pad = 0; pad < 2 * f.stride() + 3; ++pad) {
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

    // atomMayOverlap() is asked about the few bytes in which a line differs from an atom-free one: it must
    // say yes for every stretch that touches an atom occurrence, at every position and case.
    void atomOverlapSeesEveryTouchedByte()
    {
        const std::vector<std::string> patterns { "(?i)unhandled system error", "Call to ibv_\\w+ failed",
            "NET/IB : Got completion from peer" };
        LiteralPrefilter f;
        QVERIFY(f.build(patterns));
        int checked = 0;
        for (const std::string needle :
            { "UNHANDLED system error", "Call to ibv_", "Got completion from peer" }) {
            for (std::size_t pad = 0; pad < 12; ++pad) {
                const std::string line = std::string(pad, '.') + needle + std::string(20, '.');
                const std::size_t atomEnd = pad + needle.size();
                for (std::size_t first = 0; first < line.size(); ++first) {
                    for (std::size_t width = 1; width <= 3 && first + width <= line.size(); ++width) {
                        const bool touches = first < atomEnd && first + width > pad;
                        if (touches) {
                            QVERIFY2(f.atomMayOverlap(line, first, first + width), line.c_str());
                            ++checked;
                        } else if (first >= atomEnd + 3 || first + width + 3 <= pad) {
                            // Only dots in every gram looked up: no atom, no hash of one.
                            QVERIFY2(!f.atomMayOverlap(line, first, first + width), line.c_str());
                        }
                    }
                }
            }
        }
        QVERIFY(checked > 1000);
    }
};

QTEST_GUILESS_MAIN(TestLiteralPrefilter)
#include "tst_literal_prefilter.moc"
