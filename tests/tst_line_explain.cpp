// SPDX-License-Identifier: MIT
// explainLine() on the catalog's own example lines: every example explains its entry with a span that is
// really in the line, the prefixes peeled off are named, and the winner is the matcher's.
#include "line_explain.h"
#include "signature_catalog.h"
#include "signature_matcher.h"

#include <QTest>
#include <memory>

using namespace rankscope;

namespace {
const QString kRepoCatalog = QStringLiteral(RANKSCOPE_SOURCE_DIR "/signatures");

const LineMatchExplanation* find(const LineExplanation& e, const Catalog& catalog, const QString& id)
{
    for (const LineMatchExplanation& m : e.matches) {
        if (catalog.signatures[static_cast<std::size_t>(m.signature)].id == id)
            return &m;
    }
    return nullptr;
}
} // namespace

class TestLineExplain : public QObject
{
    Q_OBJECT
    Catalog m_catalog;
    std::unique_ptr<SignatureMatcher> m_matcher;

private Q_SLOTS:
    void initTestCase()
    {
        const CatalogLoadResult loaded = loadCatalogDir(kRepoCatalog);
        QVERIFY2(loaded.ok(), qPrintable(loaded.errors.join(QLatin1Char('\n'))));
        m_catalog = loaded.catalog;
        m_matcher = std::make_unique<SignatureMatcher>(m_catalog);
        QVERIFY(m_matcher->isValid());
    }

    // Every example of every entry: the entry is among the matches, its pattern and span are real.
    void everyExampleExplainsItsEntry()
    {
        int checked = 0;
        for (const Signature& sig : m_catalog.signatures) {
            for (const QString& example : sig.examplesMatch) {
                const LineExplanation e = explainLine(example, m_catalog, *m_matcher);
                const LineMatchExplanation* m = find(e, m_catalog, sig.id);
                QVERIFY2(m, qPrintable(sig.id + QStringLiteral(": ") + example));
                QVERIFY(m->pattern >= 0 && m->pattern < sig.patterns.size());
                QCOMPARE(m->patternText, sig.patterns[m->pattern]);
                QVERIFY(m->spanStart >= 0 && m->spanStart + m->spanLength <= e.line.size());
                QCOMPARE(e.line.mid(m->spanStart, m->spanLength), m->matchedText);
                for (const Capture& c : m->captures)
                    QVERIFY2(e.line.contains(c.second), qPrintable(sig.id + QStringLiteral(" ") + c.first));
                QCOMPARE(e.winner >= 0, !sig.hint); // a hint never wins a line (Signature::hint)
                ++checked;
            }
        }
        QVERIFY(checked > 100);
    }

    // The winner is the one the matcher picks, and it has the best rank by the catalog's rule.
    void winnerFollowsTheCatalogRule()
    {
        int contested = 0;
        for (const Signature& sig : m_catalog.signatures) {
            if (sig.hint)
                continue; // chosen by the diagnosis for a line no entry knows, never by the matcher
            for (const QString& example : sig.examplesMatch) {
                const LineExplanation e = explainLine(example, m_catalog, *m_matcher);
                const MatchResult best = m_matcher->match(example.toStdString());
                // Checked before indexing: a failed check reports, it does not crash the run.
                QVERIFY2(e.winner >= 0 && static_cast<std::size_t>(e.winner) < e.matches.size(),
                    qPrintable(sig.id + QStringLiteral(": ") + example));
                QCOMPARE(e.matches[static_cast<std::size_t>(e.winner)].signature, best.signature);
                if (e.matches.size() < 2)
                    continue;
                ++contested;
                QVERIFY(!e.winnerReason.isEmpty());
                const Signature& win = m_catalog.signatures[static_cast<std::size_t>(best.signature)];
                for (const LineMatchExplanation& m : e.matches) {
                    if (m.winner)
                        continue;
                    QVERIFY(!m.whyNotWinner.isEmpty());
                    const Signature& other = m_catalog.signatures[static_cast<std::size_t>(m.signature)];
                    if (!other.refines.isEmpty() || other.hint)
                        continue; // a variant or a hint never wins on a line
                    const int wKey = roleRank(win.role) * 2 + (win.fallback ? 1 : 0);
                    const int oKey = roleRank(other.role) * 2 + (other.fallback ? 1 : 0);
                    QVERIFY2(wKey < oKey || (wKey == oKey && best.signature < m.signature),
                        qPrintable(win.id + QStringLiteral(" vs ") + other.id));
                }
            }
        }
        QVERIFY2(contested > 0, "no example line matches two entries: the rule is not exercised");
    }

    // A real NCCL line: the NCCL prefix and the level are peeled off, the captures are named.
    void ncclPrefixAndCaptures()
    {
        const QString line =
            QStringLiteral("[2026-03-14 02:17:44] gpu-a02:52117:52203 [3] misc/shmutils.cc:70 "
                           "NCCL WARN Error: failed to create shared memory file "
                           "/dev/shm/nccl-3fQz1a, error Permission denied (13)\nsecond line");
        const LineExplanation e = explainLine(line, m_catalog, *m_matcher);
        QVERIFY(!e.line.contains(QLatin1String("second line")));
        QVERIFY2(e.prefixes.join(QLatin1Char('|')).contains(QLatin1String("host gpu-a02, pid 52117")),
            qPrintable(e.prefixes.join(QLatin1Char('|'))));
        QVERIFY(e.prefixes.contains(QStringLiteral("NCCL level: WARN")));
        QVERIFY(
            e.prefixes.join(QLatin1Char('|')).contains(QLatin1String("timestamp: [2026-03-14 02:17:44]")));
        QVERIFY(e.message.startsWith(QLatin1String("misc/shmutils.cc:70"))
            || e.message.startsWith(QLatin1String("Error")));
        QVERIFY(e.winner >= 0);
        QCOMPARE(
            m_catalog
                .signatures[static_cast<std::size_t>(e.matches[static_cast<std::size_t>(e.winner)].signature)]
                .id,
            QStringLiteral("nccl-shm-permission-denied"));
    }

    void torchrunTeeAndRankPrefixes()
    {
        const LineExplanation e = explainLine(
            QStringLiteral("[default3]:[rank3]: some text that no entry knows"), m_catalog, *m_matcher);
        QVERIFY(e.prefixes.contains(QStringLiteral("torchrun --tee label: local rank 3")));
        QVERIFY(e.prefixes.contains(QStringLiteral("PyTorch rank prefix: rank 3")));
        QCOMPARE(e.winner, -1);
        QVERIFY(e.matches.empty());
    }

    void emptyLine()
    {
        const LineExplanation e = explainLine(QString(), m_catalog, *m_matcher);
        QVERIFY(e.matches.empty());
        QCOMPARE(e.winner, -1);
    }
};

QTEST_GUILESS_MAIN(TestLineExplain)
#include "tst_line_explain.moc"
