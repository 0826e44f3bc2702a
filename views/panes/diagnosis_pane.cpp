// SPDX-License-Identifier: MIT
#include "diagnosis_pane.h"

#include "command_list.h"
#include "severity_palette.h"
#include "text_block.h"

#include <QApplication>
#include <QBoxLayout>
#include <QCheckBox>
#include <QClipboard>
#include <QCryptographicHash>
#include <QFontDatabase>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHash>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QSettings>
#include <QTextBlock>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>

namespace rankscope {

namespace {

constexpr int kFrameMs = 16;
constexpr int kSideBySideMin =
    560; // narrower than this, Fix and Verify stack instead of sitting side by side

// Two columns side by side when there is room, one above the other when there is not: a narrow pane
// reflows instead of cutting the commands off at its right edge.
class ReflowColumns : public QWidget
{
public:
    ReflowColumns()
        : m_box(new QBoxLayout(QBoxLayout::LeftToRight, this))
    {
    }
    QBoxLayout* box() const { return m_box; }

protected:
    void resizeEvent(QResizeEvent* event) override
    {
        QWidget::resizeEvent(event);
        const auto dir = width() < kSideBySideMin ? QBoxLayout::TopToBottom : QBoxLayout::LeftToRight;
        if (m_box->direction() != dir)
            m_box->setDirection(dir);
    }
    QSize minimumSizeHint() const override { return { 0, QWidget::minimumSizeHint().height() }; }

private:
    QBoxLayout* m_box;
};

QFont mono()
{
    return QFontDatabase::systemFont(QFontDatabase::FixedFont);
}

// The confidence badge's colours come from the window's one colour table, in the palette's variant.
QString confidenceHtml(const QString& level, const QString& reasons, const QPalette& palette)
{
    const Tone tone = level == QLatin1String("high") ? Tone::Healthy
        : level == QLatin1String("medium")           ? Tone::Unsure
                                                     : Tone::Failure;
    const ColorPair c = toneColors(tone, palette);
    return QStringLiteral(
        "<span style='color:%1;background:%2;padding:2px 6px'>&nbsp;confidence: %3&nbsp;</span>"
        "&nbsp; <span>%4</span>")
        .arg(c.text.name(), c.background.name(), level.toHtmlEscaped(), reasons.toHtmlEscaped());
}

// The fix's first sentences, up to about kFixLead characters, ending at a sentence's end ("… ."), or the
// whole fix when it is short or has no such end.
constexpr qsizetype kFixLead = 320;

QString leadOf(const QString& fix)
{
    if (fix.size() <= kFixLead + kFixLead / 2)
        return fix;
    qsizetype end = -1;
    for (qsizetype at = fix.indexOf(QLatin1String(". ")); at >= 0 && at < kFixLead;
         at = fix.indexOf(QLatin1String(". "), at + 2))
        end = at + 1;
    return end > 0 ? fix.left(end) + QStringLiteral(" …") : fix;
}

} // namespace

QString incidentKey(const Incident& inc, const Diagnosis& d)
{
    QCryptographicHash h(QCryptographicHash::Sha1);
    for (const FileInfo& f : inc.files)
        h.addData(f.path.toUtf8());
    if (d.initiatingEvent >= 0)
        h.addData(inc.events[static_cast<size_t>(d.initiatingEvent)].text.toUtf8());
    return QString::fromLatin1(h.result().toHex().left(16));
}

DiagnosisPane::DiagnosisPane(QWidget* parent)
    : QScrollArea(parent)
{
    setWidgetResizable(true);
    setFrameShape(QFrame::NoFrame);
    // The content reflows to the width: its text blocks break inside a word that is wider than the pane
    // (a command's "--export=ALL,NCCL_NET_GDR_LEVEL=PXB" is 280 px). Only a pane narrower than its
    // buttons (a few characters wide) scrolls sideways, rather than cutting anything off.
    setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    clear();
    showPending(); // nothing is on screen yet: no need to wait
}

void DiagnosisPane::clear()
{
    beginContent();
    m_headline->setText(
        tr("Open a log folder (Ctrl+O), drop files or a folder here, or paste a traceback (Ctrl+V)."));
    endContent();
}

void DiagnosisPane::beginContent()
{
    // The new content is built without a parent: widgets added to a shown parent are each shown later
    // by a queued call, and each of those shows lays out every ancestor up to the window again. Built
    // hidden, the whole pane is shown and laid out once, in endContent().
    m_content = new QWidget;
    m_layout = new QVBoxLayout(m_content);
    m_layout->setContentsMargins(12, 10, 12, 10);
    m_layout->setSpacing(10);
    m_headline = new TextBlock;
    m_headline->setObjectName(QStringLiteral("headline"));
    m_evidence = nullptr;
    m_confidence = nullptr;
    m_layout->addWidget(m_headline);
    m_fix.clear();
    m_actions.clear();
    m_verify.clear();
    m_checklist = 0;
}

void DiagnosisPane::endContent()
{
    m_layout->addStretch(1);
    // Shown two frames later, in two steps: laying out a pane full of text, then showing and painting it,
    // are a frame's work each, apart from the caller's (the window swapping in a whole new incident) and
    // from the repaint of the rest of the window that follows it. Posted events (that repaint among them)
    // are all delivered in one go, so a posted call or a zero timer would still share its turn.
    delete m_pending; // a newer diagnosis came before the older one was shown
    m_pending = m_content;
    m_pendingSized = false;
    QTimer::singleShot(kFrameMs, this, &DiagnosisPane::sizePending);
}

void DiagnosisPane::sizePending()
{
    if (!m_pending)
        return;
    // Laying the new content out for the pane's width is a turn of its own; showing and painting it is
    // the next one.
    measurePending();
    QTimer::singleShot(kFrameMs, this, &DiagnosisPane::showPending);
}

void DiagnosisPane::measurePending()
{
    m_pending->ensurePolished();
    // Laid out once: at the width it has beside a vertical scroll bar (a diagnosis is mostly taller than
    // the pane), or at the whole width when it fits without one.
    const QSize full = maximumViewportSize(); // the viewport without scroll bars
    const int minWidth = m_pending->minimumSizeHint().width();
    int width = std::max(full.width() - verticalScrollBar()->sizeHint().width(), minWidth);
    int height = m_pending->heightForWidth(width);
    m_pendingScrolls = height > full.height();
    if (!m_pendingScrolls) {
        width = std::max(full.width(), minWidth);
        height = m_pending->heightForWidth(width);
    }
    m_pending->resize(width, std::max(height, full.height()));
    m_pendingSized = true;
}

void DiagnosisPane::showPending()
{
    if (!m_pending)
        return;
    if (!m_pendingSized)
        measurePending();
    // The old content (hundreds of text documents) is freed on a later turn of the event loop.
    if (QWidget* old = takeWidget())
        old->deleteLater();
    placePending();
    m_pending = nullptr;
    // The last lines of the evidence matter most. Going there lays its whole text out: a turn of its
    // own, after the pane has its geometry.
    if (m_evidence) {
        QMetaObject::invokeMethod(
            m_evidence,
            [ev = m_evidence] {
                if (!ev)
                    return;
                // The last line, from its column 0: ending at End would scroll to the last line's end.
                ev->moveCursor(QTextCursor::End);
                ev->moveCursor(QTextCursor::StartOfBlock);
                ev->horizontalScrollBar()->setValue(0);
            },
            Qt::QueuedConnection);
    }
}

void DiagnosisPane::placePending()
{
    // Sized beforehand at the width it gets (sizePending). Left to itself QScrollArea sizes new content to
    // its preferred size, then to the viewport's width, then once more when the vertical scroll bar
    // appears: each of those lays every label of the pane out again. So the scroll bar is there (or not)
    // before the content comes.
    setVerticalScrollBarPolicy(m_pendingScrolls ? Qt::ScrollBarAlwaysOn : Qt::ScrollBarAlwaysOff);
    setWidget(m_pending);
    setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
}

void DiagnosisPane::changeEvent(QEvent* event)
{
    // A theme switch: the badge takes the new variant of its colours (the rest is the palette's).
    if (event->type() == QEvent::PaletteChange && m_confidence)
        m_confidence->setText(confidenceHtml(m_confidenceLevel, m_confidenceReasons, palette()));
    if (event->type() == QEvent::PaletteChange)
        if (auto* line = findChild<TextBlock*>(QStringLiteral("initiatingLine")))
            line->setAccent(initiatingColor(palette())); // the theme's variant
    QScrollArea::changeEvent(event);
}

DiagnosisPane::~DiagnosisPane()
{
    delete m_pending; // never parented
}

QString DiagnosisPane::headlineText() const
{
    return m_headline ? m_headline->text() : QString();
}
void DiagnosisPane::setFixIdiom(const FixIdiom& idiom)
{
    m_idiom = idiom;
}

QPlainTextEdit* DiagnosisPane::evidenceView() const
{
    return m_evidence;
}

QStringList DiagnosisPane::actionTexts() const
{
    return m_actions;
}

QString DiagnosisPane::fixText() const
{
    return m_fix;
}
QStringList DiagnosisPane::verifyCommands() const
{
    return m_verify;
}
int DiagnosisPane::checklistCount() const
{
    return m_checklist;
}

TextBlock* DiagnosisPane::richLabel(const QString& html)
{
    auto* label = new TextBlock(html, Qt::RichText);
    connect(label, &TextBlock::linkActivated, this, &DiagnosisPane::onLink);
    return label;
}

TextBlock* DiagnosisPane::plainLabel(const QString& text)
{
    return new TextBlock(text, Qt::PlainText);
}

void DiagnosisPane::onLink(const QString& link)
{
    if (link.startsWith(QLatin1String("event:")))
        Q_EMIT eventActivated(link.mid(6).toInt());
    else if (link.startsWith(QLatin1String("sig:")))
        Q_EMIT signatureActivated(link.mid(4));
}

QWidget* DiagnosisPane::section(const QString& title, QWidget* body)
{
    auto* box = new QWidget;
    auto* v = new QVBoxLayout(box);
    v->setContentsMargins(0, 0, 0, 0);
    v->setSpacing(4);
    // A title can hold a long path ("Evidence: /data/runs/…/log.txt"): it wraps like the text.
    v->addWidget(new TextBlock(QStringLiteral("<b>%1</b>").arg(title.toHtmlEscaped()), Qt::RichText));
    v->addWidget(body);
    return box;
}

// A long fix (a paragraph of alternatives) would push the actions below the fold: its first sentences are
// shown, the rest one click away.
QWidget* DiagnosisPane::fixBody(const QString& fix)
{
    auto* fixLabel = plainLabel(fix);
    fixLabel->setObjectName(QStringLiteral("fixText"));
    const QString lead = leadOf(fix);
    if (lead.size() == fix.size())
        return fixLabel;
    fixLabel->setText(lead);
    auto* box = new QWidget;
    auto* v = new QVBoxLayout(box);
    v->setContentsMargins(0, 0, 0, 0);
    v->setSpacing(2);
    v->addWidget(fixLabel);
    auto* more = new QToolButton;
    more->setObjectName(QStringLiteral("wholeFix"));
    more->setCheckable(true);
    more->setAutoRaise(true);
    more->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    more->setArrowType(Qt::RightArrow);
    more->setText(tr("The whole fix"));
    connect(more, &QToolButton::toggled, fixLabel, [more, fixLabel, fix, lead](bool on) {
        fixLabel->setText(on ? fix : lead);
        more->setArrowType(on ? Qt::DownArrow : Qt::RightArrow);
    });
    v->addWidget(more);
    return box;
}

QWidget* DiagnosisPane::commandList(const QStringList& commands)
{
    return makeCommandList(commands);
}

QWidget* DiagnosisPane::actionList(const std::vector<FixAction>& actions, const RenderContext& context)
{
    auto* box = new QWidget;
    auto* v = new QVBoxLayout(box);
    v->setContentsMargins(0, 0, 0, 0);
    v->setSpacing(6);
    const auto addAction = [this](QVBoxLayout* into, const RenderedFixAction& a) {
        const QString head = renderedActionHeading(a);
        // A command or snippet gets a copy button; a sentence is read, so it stays with its reason.
        const QString line = a.isCommand
            ? QStringLiteral("<b>%1</b>: %2").arg(head.toHtmlEscaped(), a.reason.toHtmlEscaped())
            : QStringLiteral("<b>%1</b>: %2 %3")
                  .arg(head.toHtmlEscaped(), a.text.toHtmlEscaped(), a.reason.toHtmlEscaped());
        into->addWidget(new TextBlock(line, Qt::RichText));
        if (a.isCommand)
            into->addWidget(commandList({ a.text }));
    };
    // What the run already had (and still failed with) goes last, as in the CLI and the JSON report.
    std::vector<std::pair<const FixAction*, RenderedFixAction>> rendered;
    for (const FixAction& action : actions)
        if (std::optional<RenderedFixAction> a = renderFixAction(action, m_idiom, context))
            rendered.emplace_back(&action, std::move(*a));
    std::stable_partition(
        rendered.begin(), rendered.end(), [](const auto& r) { return !r.second.alreadyTried; });
    bool any = false;
    for (const auto& [actionPtr, rendering] : rendered) {
        const FixAction& action = *actionPtr;
        const RenderedFixAction* a = &rendering;
        any = true;
        addAction(v, *a);
        m_actions << renderedActionHeading(*a) + QStringLiteral(": ") + a->reason + QLatin1Char('\n')
                + a->text;
        const std::vector<RenderedFixAction> others = renderFixAlternatives(action, m_idiom, context);
        if (others.empty())
            continue;
        // The other idioms one click away: a user whose job runs another way than the logs showed.
        auto* more = new QToolButton;
        more->setObjectName(QStringLiteral("otherIdioms"));
        more->setCheckable(true);
        more->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        more->setArrowType(Qt::RightArrow);
        more->setAutoRaise(true);
        more->setText(action.kind == FixActionKind::Timeout ? tr("Other frameworks (%1)").arg(others.size())
                                                            : tr("Other launchers (%1)").arg(others.size()));
        auto* list = new QWidget;
        auto* lv = new QVBoxLayout(list);
        lv->setContentsMargins(16, 0, 0, 0);
        for (const RenderedFixAction& o : others)
            addAction(lv, o);
        list->setVisible(false);
        connect(more, &QToolButton::toggled, list, [more, list](bool on) {
            list->setVisible(on);
            more->setArrowType(on ? Qt::DownArrow : Qt::RightArrow);
        });
        v->addWidget(more);
        v->addWidget(list);
    }
    if (!any) {
        delete box;
        return nullptr;
    }
    return box;
}

QWidget* DiagnosisPane::checklist(const QStringList& items, const QString& key)
{
    auto* box = new QWidget;
    auto* v = new QVBoxLayout(box);
    v->setContentsMargins(0, 0, 0, 0);
    QSettings settings;
    for (int i = 0; i < items.size(); ++i) {
        // QCheckBox does not wrap its text: a box plus a wrapping label keeps long steps readable.
        auto* row = new QWidget;
        auto* h = new QHBoxLayout(row);
        h->setContentsMargins(0, 0, 0, 0);
        auto* check = new QCheckBox;
        auto* text = plainLabel(QStringLiteral("%1. %2").arg(i + 1).arg(items[i]));
        const QString settingKey = QStringLiteral("checklist/%1/%2").arg(key).arg(i);
        check->setChecked(settings.value(settingKey, false).toBool());
        check->setAccessibleName(items[i]);
        connect(check, &QCheckBox::toggled, this,
            [settingKey](bool on) { QSettings().setValue(settingKey, on); });
        h->addWidget(check, 0, Qt::AlignTop);
        h->addWidget(text, 1);
        v->addWidget(row);
    }
    m_checklist = static_cast<int>(items.size());
    return box;
}

void DiagnosisPane::setDiagnosis(const Incident* inc, const Diagnosis* d, const Catalog* cat)
{
    if (!inc || !d || !cat) {
        clear();
        return;
    }
    // Rebuild from scratch: the pane is small and changes only when an analysis finishes.
    beginContent();

    QFont big = m_headline->font();
    big.setPointSizeF(big.pointSizeF() * 1.35);
    big.setBold(true);
    m_headline->setFont(big);
    m_headline->setTextFormat(Qt::PlainText);
    m_headline->setText(d->headline);

    if (!d->confidence.isEmpty()) {
        m_confidenceLevel = d->confidence;
        m_confidenceReasons = d->confidenceReasons.join(QStringLiteral("; "));
        m_confidence = richLabel(confidenceHtml(m_confidenceLevel, m_confidenceReasons, palette()));
        m_confidence->setObjectName(QStringLiteral("confidence"));
        m_layout->addWidget(m_confidence);
    }
    if (const QString launch = inc->launchSentence(); !launch.isEmpty())
        m_layout->addWidget(richLabel(launch.toHtmlEscaped()));
    if (d->initiatingEvent >= 0) {
        const LogEvent& e = inc->events[static_cast<size_t>(d->initiatingEvent)];
        const FileInfo& f = inc->files[static_cast<size_t>(e.file)];
        auto* line = plainLabel(e.text);
        line->setObjectName(QStringLiteral("initiatingLine"));
        line->setFont(mono());
        line->setPadding(4);
        line->setAccent(initiatingColor(palette()));
        m_layout->addWidget(richLabel(QStringLiteral("<a href='event:%1'>%2:%3</a>")
                                          .arg(d->initiatingEvent)
                                          .arg(f.displayPath.toHtmlEscaped())
                                          .arg(e.line)));
        m_layout->addWidget(line);
    }
    // A hang has no initiating line but has its fix: the fix never depends on a line to link to.
    if (d->initiatingEvent >= 0 || !d->fix.isEmpty() || !d->verify.isEmpty()) {
        // Fix and verification side by side.
        auto* columns = new ReflowColumns;
        auto* h = columns->box();
        h->setContentsMargins(0, 0, 0, 0);
        h->setSpacing(16);
        h->addWidget(section(tr("Fix"), fixBody(d->fix)), 1, Qt::AlignTop);
        h->addWidget(section(tr("Verify (copy and run yourself)"), commandList(d->verify)), 1, Qt::AlignTop);
        m_layout->addWidget(columns);
        m_fix = d->fix;
        m_verify = d->verify;
        // The typed actions after the fix prose, written for the job's launcher and framework.
        if (cat && d->signature >= 0 && static_cast<std::size_t>(d->signature) < cat->signatures.size()) {
            if (QWidget* actions = actionList(
                    cat->signatures[static_cast<std::size_t>(d->signature)].actions, d->fixContext))
                m_layout->addWidget(section(tr("Actions"), actions));
        }

        if (!d->checklist.isEmpty())
            m_layout->addWidget(section(tr("Checklist"), checklist(d->checklist, incidentKey(*inc, *d))));
        if (!d->evidenceCommands.isEmpty())
            m_layout->addWidget(section(tr("Evidence commands"), commandList(d->evidenceCommands)));
    }

    QString lists;
    // At 1024 ranks a list can have a hundred items (one torchrun note per node). Rich text is laid out
    // again on every layout pass of the window, so the pane shows the first few and counts the rest.
    static constexpr qsizetype kShownItems = 8;
    auto addList = [&lists](const QString& title, const QStringList& items) {
        if (items.isEmpty())
            return;
        lists += QStringLiteral("<p><b>%1</b></p><ul>").arg(title.toHtmlEscaped());
        for (qsizetype i = 0; i < std::min(items.size(), kShownItems); ++i)
            lists += QStringLiteral("<li>%1</li>").arg(items[i]);
        if (items.size() > kShownItems)
            lists += QStringLiteral("<li><i>%1</i></li>")
                         .arg(tr("… and %1 more: every one is in File ▸ Export Report")
                                  .arg(items.size() - kShownItems)
                                  .toHtmlEscaped());
        lists += QStringLiteral("</ul>");
    };
    QStringList collateral, suspects, torchrun, hypotheses, notes;
    for (const CollateralGroup& g : d->collateral) {
        QString item = QStringLiteral("%1: %2").arg(collateralWho(g), g.label).toHtmlEscaped();
        if (!g.pointsTo.isEmpty())
            item += QStringLiteral(" → points to %1").arg(g.pointsTo.toHtmlEscaped());
        if (g.firstEvent >= 0)
            item += QStringLiteral(" (<a href='event:%1'>first</a>)").arg(g.firstEvent);
        collateral << item;
    }
    for (const QString& line : suspectLines(d->suspects))
        suspects << line.toHtmlEscaped();
    for (const QString& line : d->torchrunSummary)
        torchrun << line.toHtmlEscaped();
    for (const Hypothesis& hy : d->hypotheses)
        hypotheses << QStringLiteral("<b><a href='sig:%1'>%1</a></b>: %2")
                          .arg(cat->signatures[static_cast<size_t>(hy.signature)].id.toHtmlEscaped(),
                              hy.reason.toHtmlEscaped());
    for (const QString& n : d->notes)
        notes << n.toHtmlEscaped();
    QStringList nodeFindings;
    for (const NodeFinding& f : d->nodeFindings)
        nodeFindings << QStringLiteral("%1%2 <i>(%3)</i>")
                            .arg(f.confirms ? tr("<b>confirms:</b> ") : QString(), f.text.toHtmlEscaped(),
                                f.source.toHtmlEscaped());
    addList(collateralHeading(d->collateral), collateral);
    addList(tr("Suspects"), suspects);
    addList(tr("torchrun's Root Cause"), torchrun);
    addList(tr("Node evidence"), nodeFindings);
    addList(tr("Topology and notes"), notes);
    addList(tr("Competing hypotheses"), hypotheses);
    if (!lists.isEmpty())
        m_layout->addWidget(richLabel(lists));

    if (!d->evidence.lines.isEmpty()) {
        auto* ev = new QPlainTextEdit;
        ev->setObjectName(QStringLiteral("evidence"));
        ev->setReadOnly(true);
        ev->setFont(mono());
        ev->setLineWrapMode(QPlainTextEdit::NoWrap);
        ev->setPlainText(d->evidence.lines.join(QLatin1Char('\n')));
        ev->setMinimumHeight(160);
        m_evidence = ev; // scrolled to its last lines once shown
        const QString title = tr("Evidence: %1 lines %2-%3")
                                  .arg(inc->files[static_cast<size_t>(d->evidence.file)].displayPath)
                                  .arg(d->evidence.fromLine)
                                  .arg(d->evidence.toLine);
        m_layout->addWidget(section(title, ev));
    }
    endContent();
}

} // namespace rankscope
