// SPDX-License-Identifier: MIT
// The static hub page and the `signatures show|search|hub` commands on the real catalog.
#include "hub_catalog.h"
#include "hub_html.h"
#include "signature_catalog.h"
#include "signature_matcher.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <memory>

using namespace rankscope;

namespace {
const QString kRepoCatalog = QStringLiteral(RANKSCOPE_SOURCE_DIR "/signatures");

struct Run
{
    int code = -1;
    QString out, err;
};

Run runBare(const QStringList& args)
{
    QProcess p;
    p.start(QStringLiteral(RANKSCOPE_BINARY), args);
    p.waitForFinished(60000);
    return { p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()),
        QString::fromUtf8(p.readAllStandardError()) };
}

Run runCli(const QStringList& args)
{
    return runBare(args + QStringList { QStringLiteral("--signatures"), kRepoCatalog });
}

// An unfilled template placeholder ({name}, not shell ${VAR}).
const QRegularExpression kPlaceholder(QStringLiteral("(?<!\\$)\\{[A-Za-z_][A-Za-z0-9_]*\\}"));
} // namespace

class TestHubHtml : public QObject
{
    Q_OBJECT
    Catalog m_catalog;
    std::unique_ptr<SignatureMatcher> m_matcher;
    QString m_html;

private Q_SLOTS:
    void initTestCase()
    {
        const CatalogLoadResult loaded = loadCatalogDir(kRepoCatalog);
        QVERIFY2(loaded.ok(), qPrintable(loaded.errors.join(QLatin1Char('\n'))));
        m_catalog = loaded.catalog;
        m_matcher = std::make_unique<SignatureMatcher>(m_catalog);
        m_html = hubCatalogHtml(m_catalog, *m_matcher, loadHubCatalog({ kRepoCatalog }).origin);
    }

    void anchorForEveryIdAndEveryLinkResolves()
    {
        QSet<QString> anchors;
        const QRegularExpression idAttr(QStringLiteral("id=\"([^\"]+)\""));
        for (auto it = idAttr.globalMatch(m_html); it.hasNext();) {
            const QString a = it.next().captured(1);
            QVERIFY2(!anchors.contains(a), qPrintable(QStringLiteral("duplicate anchor ") + a));
            anchors.insert(a);
        }
        for (const Signature& s : m_catalog.signatures)
            QVERIFY2(anchors.contains(s.id), qPrintable(s.id));
        int links = 0;
        const QRegularExpression href(QStringLiteral("href=\"#([^\"]+)\""));
        for (auto it = href.globalMatch(m_html); it.hasNext(); ++links) {
            const QString target = it.next().captured(1);
            QVERIFY2(anchors.contains(target), qPrintable(QStringLiteral("dangling link #") + target));
        }
        // The contents link every entry and every family; the "tell it apart" tables link the siblings.
        int siblings = 0;
        for (const Signature& s : m_catalog.signatures) {
            for (const QString& sib : s.siblings)
                siblings += m_catalog.indexOf(sib) >= 0 ? 1 : 0;
        }
        QVERIFY(siblings > 0);
        QCOMPARE(links, static_cast<int>(m_catalog.signatures.size()) + m_catalog.familyCount() + siblings);
    }

    void noPlaceholderAndNoScript()
    {
        const qsizetype styleEnd = m_html.indexOf(QLatin1String("</style>"));
        QVERIFY(styleEnd > 0);
        const QString body = m_html.mid(styleEnd);
        const QRegularExpressionMatch brace = kPlaceholder.match(body);
        QVERIFY2(!brace.hasMatch(), qPrintable(body.mid(brace.capturedStart() - 80, 160)));
        QVERIFY(!m_html.contains(QLatin1String("<script"), Qt::CaseInsensitive));
        QVERIFY(!m_html.contains(QLatin1String("javascript:"), Qt::CaseInsensitive));
        QVERIFY(!m_html.contains(QRegularExpression(QStringLiteral("\\son[a-z]+="))));
        QVERIFY(m_html.contains(QLatin1String("@media print")));
        // What every entry says, before escaping: no {name}, and none of the entry's own placeholders left
        // as the <name> an unfilled template shows (the prose may quote a log format's "<reason>").
        for (int s = 0; s < static_cast<int>(m_catalog.signatures.size()); ++s) {
            const Signature& sig = m_catalog.signatures[static_cast<std::size_t>(s)];
            QStringList templates { sig.literal, sig.summary, sig.explanation, sig.fix };
            templates += sig.checklist + sig.verify + sig.evidenceCommands;
            for (const FixAction& a : sig.actions)
                templates << a.name << a.value << a.text << a.reason;
            QStringList names;
            for (const QString& t : templates)
                names += templatePlaceholders(t);
            const HubEntry e = hubEntry(m_catalog, s, *m_matcher);
            QStringList texts { e.literal, e.summary, e.explanation, e.fix };
            texts += e.checklist + e.verify + e.evidenceCommands + e.variables;
            for (const FixAction& a : e.actions)
                texts << describeFixAction(a);
            for (const QString& t : texts) {
                QVERIFY2(!kPlaceholder.match(t).hasMatch(), qPrintable(sig.id + QStringLiteral(": ") + t));
                for (const QString& n : names)
                    QVERIFY2(!t.contains(QLatin1Char('<') + n + QLatin1Char('>')),
                        qPrintable(sig.id + QStringLiteral(": ") + t));
            }
        }
    }

    void exampleLinesAreEscaped()
    {
        int checked = 0;
        for (const Signature& s : m_catalog.signatures) {
            for (const QString& x : s.examplesMatch) {
                if (!x.contains(QLatin1Char('<')))
                    continue;
                QVERIFY2(m_html.contains(x.toHtmlEscaped()), qPrintable(x));
                QVERIFY2(!m_html.contains(x), qPrintable(x));
                ++checked;
            }
        }
        QVERIFY2(checked > 0, "no example line holds '<': the escaping is not exercised");
    }

    void commandsShowSearchHub()
    {
        const Run show = runCli(
            { QStringLiteral("signatures"), QStringLiteral("show"), QStringLiteral("nccl-shm-too-small") });
        QCOMPARE(show.code, 0);
        const Signature& shm = m_catalog.signatures[static_cast<std::size_t>(
            m_catalog.indexOf(QStringLiteral("nccl-shm-too-small")))];
        QVERIFY(show.out.startsWith(QLatin1String("nccl-shm-too-small\n") + shm.title));
        QVERIFY(show.out.contains(QLatin1String("role: cause")));
        QVERIFY(show.out.contains(shm.examplesMatch.first()));
        QVERIFY(show.out.contains(QLatin1String("Tell it apart:")));
        QVERIFY(!kPlaceholder.match(show.out).hasMatch());

        const Run unknown =
            runCli({ QStringLiteral("signatures"), QStringLiteral("show"), QStringLiteral("no-such-id") });
        QCOMPARE(unknown.code, 64);
        QVERIFY2(unknown.err.contains(QLatin1String("no signature with id 'no-such-id'")),
            qPrintable(unknown.err));

        const Run words = runCli(
            { QStringLiteral("signatures"), QStringLiteral("search"), QStringLiteral("extend /dev/shm") });
        QCOMPARE(words.code, 0);
        QVERIFY(words.out.contains(QLatin1String("text\tnccl-shm-too-small\t")));
        const Run line =
            runCli({ QStringLiteral("signatures"), QStringLiteral("search"), shm.examplesMatch.first() });
        QCOMPARE(line.code, 0);
        QVERIFY2(line.out.contains(QRegularExpression(
                     QStringLiteral("line \\(pattern \\d+, wins\\)\tnccl-shm-too-small\t"))),
            qPrintable(line.out));

        const Run hub = runCli({ QStringLiteral("signatures"), QStringLiteral("hub"),
            QStringLiteral("--format"), QStringLiteral("html") });
        QCOMPARE(hub.code, 0);
        QCOMPARE(hub.out, m_html);
        const Run badFormat = runCli({ QStringLiteral("signatures"), QStringLiteral("hub"),
            QStringLiteral("--format"), QStringLiteral("json") });
        QCOMPARE(badFormat.code, 64);
        for (const QString& action :
            { QStringLiteral("show"), QStringLiteral("search"), QStringLiteral("hub") }) {
            const Run help = runCli({ QStringLiteral("signatures"), action, QStringLiteral("--help") });
            QCOMPARE(help.code, 0);
            QVERIFY2(
                help.out.contains(QLatin1String("rankscope signatures ") + action), qPrintable(help.out));
            QVERIFY(help.out.contains(QLatin1String("Exit codes")));
        }
    }

    // A user catalog folder (--signatures DIR) lies over the built-in catalog, as it does for diagnose:
    // the hub shows every built-in entry, the user's version of the one it replaces, its new entry,
    // and says where each came from.
    void userCatalogOverTheBuiltInOne()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QFile shm(kRepoCatalog + QStringLiteral("/shm.json"));
        QVERIFY(shm.open(QIODevice::ReadOnly));
        QJsonObject doc = QJsonDocument::fromJson(shm.readAll()).object();
        QJsonObject replaced = doc.value(QStringLiteral("signatures")).toArray().at(0).toObject();
        QCOMPARE(replaced.value(QStringLiteral("id")).toString(), QStringLiteral("nccl-shm-too-small"));
        replaced.insert(QStringLiteral("title"), QStringLiteral("Our pods: /dev/shm is 64 MB"));
        QJsonObject added = replaced;
        added.insert(QStringLiteral("id"), QStringLiteral("team-shm-in-sidecar"));
        added.insert(QStringLiteral("title"), QStringLiteral("The sidecar's /dev/shm"));
        added.insert(QStringLiteral("siblings"), QJsonArray());
        added.insert(QStringLiteral("discriminators"), QJsonArray());
        doc.insert(QStringLiteral("signatures"), QJsonArray { replaced, added });
        QFile out(dir.filePath(QStringLiteral("team.json")));
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(QJsonDocument(doc).toJson());
        out.close();

        const Run hub = runBare({ QStringLiteral("signatures"), QStringLiteral("hub"),
            QStringLiteral("--signatures"), dir.path() });
        QCOMPARE(hub.code, 0);
        QCOMPARE(hub.out.count(QLatin1String("<section class=\"entry\"")),
            static_cast<qsizetype>(m_catalog.signatures.size() + 1));
        QVERIFY2(hub.out.contains(
                     QStringLiteral("Catalog: the built-in catalog (%1 entries) plus %2 (2 entries: 1 "
                                    "new, 1 replacing a built-in one).")
                         .arg(m_catalog.signatures.size())
                         .arg(dir.path())),
            qPrintable(hub.out.left(2000)));
        QVERIFY(hub.out.contains(QLatin1String("Our pods: /dev/shm is 64 MB")));
        QVERIFY(hub.out.contains(QLatin1String("id=\"team-shm-in-sidecar\"")));
        QVERIFY(hub.out.contains(
            QStringLiteral("from %1 (a user catalog; replaces the built-in entry)").arg(out.fileName())));
        QVERIFY(hub.out.contains(QStringLiteral("from %1 (a user catalog)</p>").arg(out.fileName())));
        // Entries the folder does not touch are the built-in ones, with no origin line.
        QVERIFY(hub.out.contains(QLatin1String("id=\"nccl-shm-permission-denied\"")));
        QCOMPARE(hub.out.count(QLatin1String("(a user catalog")), 2);

        const Run show = runBare({ QStringLiteral("signatures"), QStringLiteral("show"),
            QStringLiteral("nccl-shm-too-small"), QStringLiteral("--signatures"), dir.path() });
        QCOMPARE(show.code, 0);
        QVERIFY(show.out.startsWith(QLatin1String("nccl-shm-too-small\nOur pods: /dev/shm is 64 MB\n")));
        QVERIFY(show.out.contains(QLatin1String("replaces the built-in entry")));
        // A sibling that only the built-in catalog has is still there to tell it apart from.
        const Run sibling = runBare({ QStringLiteral("signatures"), QStringLiteral("show"),
            QStringLiteral("nccl-shm-permission-denied"), QStringLiteral("--signatures"), dir.path() });
        QCOMPARE(sibling.code, 0);
        const Run search = runBare({ QStringLiteral("signatures"), QStringLiteral("search"),
            QStringLiteral("sidecar"), QStringLiteral("--signatures"), dir.path() });
        QVERIFY2(search.out.contains(QLatin1String("text\tteam-shm-in-sidecar\t")), qPrintable(search.out));
    }
};

QTEST_GUILESS_MAIN(TestHubHtml)
#include "tst_hub_html.moc"
