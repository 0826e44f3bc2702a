// SPDX-License-Identifier: MIT
#include "hub_panel.h"

#include "command_list.h"
#include "hub_html.h"
#include "hub_model.h"
#include "line_explain.h"
#include "signature_matcher.h"
#include "text_block.h"

#include <QApplication>
#include <QClipboard>
#include <QCursor>
#include <QFontDatabase>
#include <QGridLayout>
#include <QGuiApplication>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QTextDocument>
#include <QTimer>
#include <QToolButton>
#include <QToolTip>
#include <QTreeView>
#include <QUrl>
#include <QVBoxLayout>
#include <algorithm>

namespace rankscope {

namespace {

QString esc(const QString& s)
{
    return s.toHtmlEscaped();
}

QString code(const QString& s)
{
    return QStringLiteral("<code>%1</code>").arg(esc(s));
}

QString bullets(const QStringList& items)
{
    if (items.isEmpty())
        return {};
    QString out = QStringLiteral("<ul style='margin-top:0'>");
    for (const QString& i : items)
        out += QStringLiteral("<li>%1</li>").arg(i);
    return out + QStringLiteral("</ul>");
}

QString plain(const QString& html)
{
    QTextDocument doc;
    doc.setHtml(html);
    return doc.toPlainText();
}

} // namespace

HubPanel::HubPanel(QWidget* parent)
    : QWidget(parent)
{
    m_model = new HubModel(this);
    m_proxy = new HubFilterProxy(this);
    m_proxy->setSourceModel(m_model);

    auto* left = new QWidget;
    auto* lv = new QVBoxLayout(left);
    lv->setContentsMargins(0, 0, 0, 0);
    m_search = new QLineEdit;
    m_search->setObjectName(QStringLiteral("hubSearch"));
    m_search->setPlaceholderText(tr("Search id, title, summary, message, examples"));
    m_search->setClearButtonEnabled(true);
    m_tree = new QTreeView;
    m_tree->setObjectName(QStringLiteral("hubTree"));
    m_tree->setModel(m_proxy);
    m_tree->setHeaderHidden(true);
    m_tree->setUniformRowHeights(true);
    m_tree->setSelectionMode(QAbstractItemView::SingleSelection);
    lv->addWidget(m_search);
    lv->addWidget(m_tree, 1);
    m_catalogLabel = new QLabel;
    m_catalogLabel->setWordWrap(true);
    m_catalogLabel->setObjectName(QStringLiteral("hubCatalog"));
    lv->addWidget(m_catalogLabel);

    m_entryArea = new QScrollArea;
    m_entryArea->setObjectName(QStringLiteral("hubEntry"));
    m_entryArea->setWidgetResizable(true);
    m_entryArea->setFrameShape(QFrame::NoFrame);

    auto* lineBox = new QWidget;
    auto* bv = new QVBoxLayout(lineBox);
    bv->setContentsMargins(0, 0, 0, 0);
    bv->addWidget(new QLabel(tr("<b>Paste or type a log line</b>: which signatures match it, and why")));
    m_line = new QPlainTextEdit;
    m_line->setObjectName(QStringLiteral("hubLine"));
    m_line->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_line->setMaximumHeight(m_line->fontMetrics().lineSpacing() * 3 + 12);
    m_line->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_lineResult = richLabel(QString());
    m_lineResult->setObjectName(QStringLiteral("hubLineResult"));
    auto* resultArea = new QScrollArea;
    resultArea->setWidgetResizable(true);
    resultArea->setFrameShape(QFrame::NoFrame);
    resultArea->setWidget(m_lineResult);
    bv->addWidget(m_line);
    bv->addWidget(resultArea, 1);

    auto* right = new QSplitter(Qt::Vertical);
    right->addWidget(m_entryArea);
    right->addWidget(lineBox);
    right->setStretchFactor(0, 3);
    right->setStretchFactor(1, 1);
    right->setSizes({ 700, 220 });

    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(left);
    split->addWidget(right);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 3);
    split->setSizes({ 340, 1020 }); // the list wide enough for most titles
    // Where the user put the dividers is kept for the next start, like the docks (MainWindow::closeEvent).
    QSettings settings;
    for (QSplitter* s : { split, right }) {
        s->setObjectName(s == split ? QStringLiteral("hubSplit") : QStringLiteral("hubEntrySplit"));
        const QString key = QStringLiteral("hub/") + s->objectName();
        s->restoreState(settings.value(key).toByteArray());
        connect(s, &QSplitter::splitterMoved, s, [s, key] { QSettings().setValue(key, s->saveState()); });
    }
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(split);

    connect(m_search, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_proxy->setFilterWords(text);
        if (!text.isEmpty())
            m_tree->expandAll();
    });
    connect(
        m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this, [this](const QModelIndex& i) {
            const int s = i.data(HubModel::SignatureIndexRole).toInt();
            if (s >= 0)
                showEntry(s);
        });
    connect(m_line, &QPlainTextEdit::textChanged, this, &HubPanel::explainTypedLine);
}

HubPanel::~HubPanel() = default;

void HubPanel::showEvent(QShowEvent* event)
{
    ensureCatalog();
    QWidget::showEvent(event);
}

void HubPanel::ensureCatalog()
{
    if (!m_catalog) {
        HubCatalog loaded = loadHubCatalog(m_catalogDirs);
        setCatalog(std::move(loaded.loaded.catalog), std::move(loaded.origin));
    }
}

void HubPanel::setCatalogDirs(const QStringList& dirs)
{
    if (dirs == m_catalogDirs && (m_catalog || dirs.isEmpty()))
        return;
    m_catalogDirs = dirs;
    if (m_catalog) { // shown already: reload now; otherwise when first shown
        HubCatalog loaded = loadHubCatalog(m_catalogDirs);
        setCatalog(std::move(loaded.loaded.catalog), std::move(loaded.origin));
    }
}

QString HubPanel::catalogText() const
{
    return m_catalogLabel->text();
}

void HubPanel::setCatalog(Catalog catalog, HubCatalogOrigin origin)
{
    m_model->setCatalog(nullptr);
    m_origin = std::move(origin);
    const QString summary = m_origin.summary();
    m_catalogLabel->setText(summary.isEmpty() ? QString() : tr("Catalog: %1.").arg(summary));
    m_catalogLabel->setVisible(!summary.isEmpty());
    m_catalog = std::make_unique<const Catalog>(std::move(catalog));
    m_matcher = std::make_unique<SignatureMatcher>(*m_catalog);
    m_model->setCatalog(m_catalog.get());
    m_current = -1;
    if (!m_catalog->signatures.empty())
        showSignature(m_catalog->signatures.front().id);
    explainTypedLine();
}

bool HubPanel::showSignature(const QString& id)
{
    ensureCatalog();
    const QModelIndex source = m_model->indexOfId(id);
    if (!source.isValid())
        return false;
    if (!m_proxy->mapFromSource(source).isValid())
        m_search->clear();
    const QModelIndex shown = m_proxy->mapFromSource(source);
    m_tree->expand(shown.parent());
    m_tree->setCurrentIndex(shown);
    m_tree->scrollTo(shown);
    showEntry(source.data(HubModel::SignatureIndexRole).toInt());
    return true;
}

QString HubPanel::currentId() const
{
    return m_catalog && m_current >= 0 ? m_catalog->signatures[static_cast<std::size_t>(m_current)].id
                                       : QString();
}

void HubPanel::setSearchText(const QString& text)
{
    m_search->setText(text);
}

void HubPanel::setLineText(const QString& text)
{
    m_line->setPlainText(text);
}

int HubPanel::visibleEntryCount() const
{
    return m_proxy->acceptedEntryCount();
}

QString HubPanel::entryText() const
{
    QStringList parts;
    for (const TextBlock* l : m_entry ? m_entry->findChildren<TextBlock*>() : QList<TextBlock*>())
        parts << (l->textFormat() == Qt::PlainText ? l->text() : plain(l->text()));
    return parts.join(QLatin1Char('\n'));
}

QString HubPanel::lineResultText() const
{
    return plain(m_lineResult->text());
}

TextBlock* HubPanel::richLabel(const QString& html)
{
    auto* label = new TextBlock(html, Qt::RichText);
    connect(label, &TextBlock::linkActivated, this, &HubPanel::onLink);
    return label;
}

void HubPanel::onLink(const QString& link)
{
    if (link.startsWith(QLatin1String("sig:")))
        showSignature(link.mid(4));
    else if (link.startsWith(QLatin1String("https://")) || link.startsWith(QLatin1String("http://"))) {
        // Rankscope never goes on the network, not even through a browser: the link is copied.
        QGuiApplication::clipboard()->setText(link);
        QToolTip::showText(QCursor::pos(), tr("Link copied: %1").arg(link), this);
    }
}

QWidget* HubPanel::commandList(const QStringList& commands)
{
    return makeCommandList(commands);
}

void HubPanel::addSection(const QString& title, QWidget* body)
{
    m_entryLayout->addWidget(richLabel(QStringLiteral("<b>%1</b>").arg(esc(title))));
    m_entryLayout->addWidget(body);
}

void HubPanel::showEntry(int signature)
{
    if (!m_catalog || signature < 0 || static_cast<std::size_t>(signature) >= m_catalog->signatures.size())
        return;
    m_current = signature;
    const Signature& sig = m_catalog->signatures[static_cast<std::size_t>(signature)];
    const HubEntry e = hubEntry(*m_catalog, signature, *m_matcher);
    m_entry = new QWidget;
    m_entryLayout = new QVBoxLayout(m_entry);
    m_entryLayout->setSpacing(6);

    QString head =
        QStringLiteral("<h3 style='margin-bottom:2px'>%1</h3><span>%2 · <b>%3</b> · %4")
            .arg(esc(sig.title), code(sig.id), esc(signatureRoleName(sig.role)), esc(sig.category));
    if (!sig.stacks.isEmpty())
        head += QStringLiteral(" · stacks: %1").arg(esc(sig.stacks.join(QStringLiteral(", "))));
    head += QStringLiteral(" · family %1</span>").arg(esc(sig.family));
    if (const QString from = m_origin.entryText(sig.id); !from.isEmpty())
        head += QStringLiteral("<br><i>%1</i>").arg(esc(from));
    if (!e.summary.isEmpty())
        head += QStringLiteral("<p><b>What it indicates:</b> %1</p>").arg(esc(e.summary));
    if (!e.explanation.isEmpty())
        head += QStringLiteral("<p>%1</p>").arg(esc(e.explanation));
    m_entryLayout->addWidget(richLabel(head));

    QStringList examples;
    for (const QString& x : sig.examplesMatch)
        examples << code(x);
    if (!examples.isEmpty())
        m_entryLayout->addWidget(richLabel(QStringLiteral("<b>Example lines</b>") + bullets(examples)));

    QString fix;
    if (!e.fix.isEmpty())
        fix += QStringLiteral("<b>Fix</b><p style='margin-top:0'>%1</p>").arg(esc(e.fix));
    QStringList actions;
    for (const FixAction& a : e.actions)
        actions << esc(describeFixAction(a));
    if (!actions.isEmpty())
        fix += QStringLiteral("<b>Actions</b>") + bullets(actions);
    if (!fix.isEmpty())
        m_entryLayout->addWidget(richLabel(fix));
    if (!e.verify.isEmpty())
        addSection(tr("Verify (copy and run yourself)"), commandList(e.verify));
    if (!e.evidenceCommands.isEmpty())
        addSection(tr("Evidence commands"), commandList(e.evidenceCommands));
    if (!e.variables.isEmpty()) {
        QStringList vars;
        for (const QString& v : e.variables)
            vars << esc(v);
        m_entryLayout->addWidget(richLabel(tr("<b>Set first</b>") + bullets(vars)));
    }

    if (!e.siblings.empty()) {
        // The experiment columns only once the entry has a discriminator: a bare sibling is its title.
        const bool experiments = std::any_of(e.siblings.begin(), e.siblings.end(),
            [](const HubSibling& s) { return !s.experiment.isEmpty(); });
        QString table =
            QStringLiteral("<b>%1</b><table border='1' cellspacing='0' cellpadding='4' width='100%'>"
                           "<tr><th align='left'>%2</th>")
                .arg(tr("Tell it apart"), tr("Sibling"));
        if (experiments)
            table += QStringLiteral("<th align='left'>%1</th><th align='left'>%2</th>")
                         .arg(tr("Experiment"), tr("Outcome that decides"));
        table += QStringLiteral("</tr>");
        for (const HubSibling& s : e.siblings) {
            const QString name = s.title.isEmpty()
                ? esc(s.id)
                : QStringLiteral("<a href='sig:%1'>%2</a>").arg(esc(s.id), esc(s.title));
            table += QStringLiteral("<tr><td>%1</td>").arg(name);
            if (experiments)
                table += QStringLiteral("<td>%1</td><td>%2</td>").arg(esc(s.experiment), esc(s.outcome));
            table += QStringLiteral("</tr>");
        }
        m_entryLayout->addWidget(richLabel(table + QStringLiteral("</table>")));
    }
    if (!sig.references.isEmpty()) {
        QStringList refs;
        for (const QString& r : sig.references)
            refs << QStringLiteral("<a href='%1'>%1</a>").arg(esc(r));
        m_entryLayout->addWidget(richLabel(tr("<b>References</b>") + bullets(refs)));
    }
    m_entryLayout->addStretch(1);
    m_entryArea->setWidget(m_entry); // deletes the previous entry's widget
}

void HubPanel::explainTypedLine()
{
    const QString text = m_line->toPlainText();
    if (!m_catalog || text.trimmed().isEmpty()) {
        m_lineResult->setText(QString());
        return;
    }
    const LineExplanation e = explainLine(text, *m_catalog, *m_matcher);
    QString html;
    if (!e.prefixes.isEmpty())
        html += tr("<b>Prefixes peeled off:</b> %1<br>").arg(esc(e.prefixes.join(QStringLiteral("; "))));
    if (e.matches.empty()) {
        html += tr("No signature matches this line.");
        m_lineResult->setText(html);
        return;
    }
    if (e.winner >= 0)
        html += tr("<b>Wins:</b> %1<br>").arg(esc(e.winnerReason));
    QStringList items;
    for (const LineMatchExplanation& m : e.matches) {
        const Signature& sig = m_catalog->signatures[static_cast<std::size_t>(m.signature)];
        // Concatenated, not arg()-chained: a pattern or a line may hold "%1".
        QString item = (m.winner ? tr("<b>winner</b> ") : QString()) + QStringLiteral("<a href='sig:")
            + esc(sig.id) + QStringLiteral("'>") + esc(sig.title) + QStringLiteral("</a> (") + code(sig.id)
            + QStringLiteral(", ") + esc(signatureRoleName(sig.role)) + QStringLiteral("): pattern ")
            + QString::number(m.pattern) + QLatin1Char(' ') + code(m.patternText) + tr(" matched ")
            + code(m.matchedText);
        QStringList caps;
        for (const Capture& c : m.captures)
            caps << code(c.first + QLatin1Char('=') + c.second);
        if (!caps.isEmpty())
            item += tr("; captures %1").arg(caps.join(QStringLiteral(", ")));
        if (!m.whyNotWinner.isEmpty())
            item += tr("; loses: %1").arg(esc(m.whyNotWinner));
        items << item;
    }
    m_lineResult->setText(html + bullets(items));
}

} // namespace rankscope
