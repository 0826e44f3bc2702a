// SPDX-License-Identifier: MIT
// The Signature Hub panel offscreen: the search narrows the list, a real line typed into the line box shows
// its match, a sibling link navigates, and a diagnosis link opens the hub in the window.
// RANKSCOPE_HUB_SCREENSHOT=FILE.png saves the panel after the line is typed (for looking at it);
// RANKSCOPE_HUB_SCREENSHOT_LINE puts another line in the box first.
#include "diagnosis_pane.h"
#include "hub_panel.h"
#include "main_window.h"
#include "signature_catalog.h"
#include "text_block.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTreeView>

using namespace rankscope;

namespace {
const QString kRepoCatalog = QStringLiteral(RANKSCOPE_SOURCE_DIR "/signatures");

// The first block of text inside `w` whose rich text holds `href`.
TextBlock* labelWithLink(QWidget* w, const QString& href)
{
    for (TextBlock* l : w->findChildren<TextBlock*>()) {
        if (l->text().contains(href))
            return l;
    }
    return nullptr;
}

// Clicks the link to `target` in `block` where it is drawn, as the user would.
bool clickLink(TextBlock* block, const QString& target)
{
    block->ensurePolished();
    for (QTextBlock b = block->document()->begin(); b.isValid(); b = b.next()) {
        for (auto it = b.begin(); !it.atEnd(); ++it) {
            const QTextFragment f = it.fragment();
            if (f.charFormat().anchorHref() != target)
                continue;
            QTextCursor c(block->document());
            c.setPosition(f.position() + 1);
            QWidget* vp = block->viewport();
            const QPoint at = block->cursorRect(c).center();
            if (!vp->rect().contains(at) || block->anchorAt(at) != target)
                return false; // not on screen, or laid out for another width: the caller waits
            QTest::mouseClick(vp, Qt::LeftButton, {}, at);
            return true;
        }
    }
    return false;
}
} // namespace

class TestHubPanel : public QObject
{
    Q_OBJECT
    Catalog m_catalog;

private Q_SLOTS:
    void initTestCase()
    {
        const CatalogLoadResult loaded = loadCatalogDir(kRepoCatalog);
        QVERIFY2(loaded.ok(), qPrintable(loaded.errors.join(QLatin1Char('\n'))));
        m_catalog = loaded.catalog;
    }

    void searchNarrowsTheList()
    {
        HubPanel panel;
        panel.setCatalog(m_catalog);
        panel.resize(1400, 800);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        const int all = panel.visibleEntryCount();
        QCOMPARE(all, static_cast<int>(m_catalog.signatures.size()));
        auto* search = panel.findChild<QLineEdit*>(QStringLiteral("hubSearch"));
        QVERIFY(search);
        QTest::keyClicks(search, QStringLiteral("/dev/shm"));
        const int left = panel.visibleEntryCount();
        QVERIFY(left > 0 && left < all);
        QVERIFY(panel.tree()->model()->rowCount() < m_catalog.familyCount());
        search->clear();
        QCOMPARE(panel.visibleEntryCount(), all);
    }

    void typedLineShowsItsMatch()
    {
        HubPanel panel;
        panel.setCatalog(m_catalog);
        panel.resize(1400, 800);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        const int s = m_catalog.indexOf(QStringLiteral("nccl-shm-too-small"));
        const QString line = m_catalog.signatures[static_cast<std::size_t>(s)].examplesMatch.at(1);
        auto* box = panel.findChild<QPlainTextEdit*>(QStringLiteral("hubLine"));
        QVERIFY(box);
        QVERIFY(panel.lineResultText().isEmpty());
        box->setFocus();
        QTest::keyClicks(box, line.left(40));
        QVERIFY(!panel.lineResultText().contains(QLatin1String("nccl-shm-too-small")));
        QTest::keyClicks(box, line.mid(40));
        const QString result = panel.lineResultText();
        QVERIFY2(result.contains(QLatin1String("winner nccl-shm-too-small"))
                || result.contains(
                    QLatin1String("winner ") + m_catalog.signatures[static_cast<std::size_t>(s)].title),
            qPrintable(result));
        QVERIFY2(result.contains(QLatin1String("NCCL prefix: host")), qPrintable(result));
        QVERIFY(result.contains(QLatin1String("matched")));
        const QByteArray shot = qgetenv("RANKSCOPE_HUB_SCREENSHOT");
        if (!shot.isEmpty()) {
            // RANKSCOPE_HUB_SCREENSHOT_LINE: another line to show explained (one that several entries match).
            const QByteArray other = qgetenv("RANKSCOPE_HUB_SCREENSHOT_LINE");
            if (!other.isEmpty())
                panel.setLineText(QString::fromUtf8(other));
            panel.setSearchText(QStringLiteral("shm"));
            panel.showSignature(QStringLiteral("nccl-shm-too-small"));
            QTest::qWait(100);
            // The "tell it apart" table at the bottom of the entry in sight.
            auto* entry = panel.findChild<QScrollArea*>(QStringLiteral("hubEntry"));
            entry->verticalScrollBar()->setValue(entry->verticalScrollBar()->maximum());
            QTest::qWait(50);
            QVERIFY(panel.grab().save(QString::fromLocal8Bit(shot)));
        }
    }

    void siblingLinkNavigates()
    {
        HubPanel panel;
        panel.setCatalog(m_catalog);
        panel.resize(1400, 800);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QVERIFY(panel.showSignature(QStringLiteral("nccl-shm-permission-denied")));
        QCOMPARE(panel.currentId(), QStringLiteral("nccl-shm-permission-denied"));
        QVERIFY(panel.entryText().contains(QLatin1String("Tell it apart")));
        TextBlock* table = labelWithLink(&panel, QStringLiteral("href='sig:nccl-shm-too-small'"));
        QVERIFY(table);
        QVERIFY(clickLink(table, QStringLiteral("sig:nccl-shm-too-small")));
        QTRY_COMPARE(panel.currentId(), QStringLiteral("nccl-shm-too-small"));
        QCOMPARE(panel.tree()->currentIndex().data(Qt::DisplayRole).toString(),
            m_catalog
                .signatures[static_cast<std::size_t>(m_catalog.indexOf(QStringLiteral("nccl-shm-too-small")))]
                .title);
        // A search that hides the entry is cleared when a link asks for it.
        panel.setSearchText(QStringLiteral("zzqx-nothing"));
        QCOMPARE(panel.visibleEntryCount(), 0);
        QVERIFY(panel.showSignature(QStringLiteral("nccl-shm-permission-denied")));
        QVERIFY(panel.visibleEntryCount() > 0);
        QVERIFY(!panel.showSignature(QStringLiteral("no-such-id")));
    }

    void windowOpensTheHubOnAnEntry()
    {
        MainWindow window;
        window.resize(1600, 1000);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.showSignatureInHub(QStringLiteral("nccl-shm-too-small")));
        QVERIFY(window.hubPanel()->isVisible());
        QVERIFY(window.hubPanel()->hasCatalog());
        QCOMPARE(window.hubPanel()->currentId(), QStringLiteral("nccl-shm-too-small"));
        QAction* open = window.findChild<QAction*>(QStringLiteral("signatureHub"));
        QVERIFY(open);
        QCOMPARE(open->shortcut(), QKeySequence(QStringLiteral("Ctrl+Shift+H")));
    }

    // The demo's diagnosis lists competing hypotheses; each id is a link that opens the hub on its entry.
    void diagnosisHypothesisLinksIntoTheHub()
    {
        MainWindow window;
        window.resize(1600, 1000);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QSignalSpy done(&window, &MainWindow::analysisFinished);
        window.openPaths({ QStringLiteral(RANKSCOPE_SOURCE_DIR "/resources/demo") });
        QVERIFY(done.wait(60000));
        const QString id = QStringLiteral("nccl-ib-port-down"); // a sibling of the demo's retry-exceeded
        const QString href = QStringLiteral("href='sig:") + id + QLatin1Char('\'');
        TextBlock* link = nullptr;
        QTRY_VERIFY((link = labelWithLink(window.diagnosisPane(), href)) != nullptr);
        window.diagnosisPane()->ensureWidgetVisible(link);
        QTRY_VERIFY(clickLink(link, QStringLiteral("sig:") + id));
        QTRY_COMPARE(window.hubPanel()->currentId(), id);
        QVERIFY(window.hubPanel()->isVisible());
    }

    // With the user folders a diagnosis uses (--signatures DIR), the panel shows that catalog: the
    // user's version of an entry it replaces, the file it came from, and which catalog it is.
    void userCatalogFolder()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QFile shm(kRepoCatalog + QStringLiteral("/shm.json"));
        QVERIFY(shm.open(QIODevice::ReadOnly));
        QJsonObject doc = QJsonDocument::fromJson(shm.readAll()).object();
        QJsonObject replaced = doc.value(QStringLiteral("signatures")).toArray().at(0).toObject();
        QCOMPARE(replaced.value(QStringLiteral("id")).toString(), QStringLiteral("nccl-shm-too-small"));
        replaced.insert(QStringLiteral("title"), QStringLiteral("Our pods: /dev/shm is 64 MB"));
        doc.insert(QStringLiteral("signatures"), QJsonArray { replaced });
        QFile out(dir.filePath(QStringLiteral("team.json")));
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(QJsonDocument(doc).toJson());
        out.close();

        HubPanel hub;
        hub.setCatalogDirs({ dir.path() });
        hub.resize(1000, 700);
        hub.show(); // the first show loads the catalog with the folder over it
        QVERIFY(hub.hasCatalog());
        QVERIFY2(hub.catalogText().contains(
                     QStringLiteral("plus %1 (1 entry: 0 new, 1 replacing a built-in one)").arg(dir.path())),
            qPrintable(hub.catalogText()));
        QVERIFY(hub.showSignature(QStringLiteral("nccl-shm-too-small")));
        QVERIFY2(hub.entryText().contains(QLatin1String("Our pods: /dev/shm is 64 MB")),
            qPrintable(hub.entryText()));
        QVERIFY2(
            hub.entryText().contains(
                QStringLiteral("from %1 (a user catalog; replaces the built-in entry)").arg(out.fileName())),
            qPrintable(hub.entryText()));
        // A built-in entry says nothing of a user catalog; back to the built-in catalog alone, neither does
        // this.
        QVERIFY(hub.showSignature(QStringLiteral("nccl-shm-permission-denied")));
        QVERIFY(!hub.entryText().contains(QLatin1String("a user catalog")));
        hub.setCatalogDirs({});
        QVERIFY(hub.showSignature(QStringLiteral("nccl-shm-too-small")));
        QVERIFY(!hub.entryText().contains(QLatin1String("Our pods")));
        QVERIFY(!hub.catalogText().contains(QLatin1String(" plus ")));
    }
};

QTEST_MAIN(TestHubPanel)
#include "tst_hub_panel.moc"
