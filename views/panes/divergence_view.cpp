// SPDX-License-Identifier: MIT
#include "divergence_view.h"

#include "severity_palette.h"

#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QTextBlock>
#include <QVBoxLayout>

namespace rankscope {

namespace {

QPlainTextEdit* makeSide(QWidget* parent)
{
    auto* e = new QPlainTextEdit(parent);
    e->setReadOnly(true);
    e->setLineWrapMode(QPlainTextEdit::NoWrap);
    e->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    return e;
}

constexpr int kNumberWidth = 9; // "%7d  " in front of each line

QString numbered(qint64 line, const QString& text)
{
    return line > 0 ? QStringLiteral("%1  %2").arg(line, 7).arg(text) : QString();
}

QTextEdit::ExtraSelection charSelection(QPlainTextEdit* edit, int row, int from, int to, const QColor& color)
{
    QTextEdit::ExtraSelection sel;
    const QTextBlock block = edit->document()->findBlockByNumber(row);
    sel.cursor = QTextCursor(block);
    sel.cursor.setPosition(block.position() + kNumberWidth + from);
    sel.cursor.setPosition(block.position() + kNumberWidth + to, QTextCursor::KeepAnchor);
    sel.format.setBackground(color);
    sel.format.setFontWeight(QFont::Bold);
    return sel;
}

QTextEdit::ExtraSelection rowSelection(QPlainTextEdit* edit, int row, const QColor& color)
{
    QTextEdit::ExtraSelection sel;
    sel.cursor = QTextCursor(edit->document()->findBlockByNumber(row));
    sel.format.setBackground(color);
    sel.format.setProperty(QTextFormat::FullWidthSelection, true);
    return sel;
}

} // namespace

CharRange differingChars(const QString& a, const QString& b)
{
    // The common prefix and suffix are the same; what lies between differs (on each side).
    const qsizetype n = std::min(a.size(), b.size());
    qsizetype p = 0;
    while (p < n && a[p] == b[p])
        ++p;
    qsizetype s = 0;
    while (s < n - p && a[a.size() - 1 - s] == b[b.size() - 1 - s])
        ++s;
    return { static_cast<int>(p), static_cast<int>(a.size() - s), static_cast<int>(b.size() - s) };
}

DivergenceView::DivergenceView(QWidget* parent)
    : QWidget(parent)
{
    m_explain = new QLabel(
        tr("Divergence puts the failing rank's log before the failure beside the same rank's log from a "
           "healthy run of the same job, after masking what always differs (times, pids, addresses). The "
           "first line where they part is where the failing run went its own way: it is highlighted on "
           "both sides, its differing characters in bold, and lines that never occur in the healthy run "
           "are marked."),
        this);
    m_explain->setWordWrap(true);
    m_explain->setObjectName(QStringLiteral("divergenceExplanation"));
    m_compare = new QPushButton(tr("Compare with Healthy Run…"), this);
    m_compare->setObjectName(QStringLiteral("divergenceCompare"));
    connect(m_compare, &QPushButton::clicked, this, &DivergenceView::compareRequested);
    auto* top = new QHBoxLayout;
    top->addWidget(m_explain, 1);
    top->addWidget(m_compare, 0, Qt::AlignTop);
    m_header = new QLabel(this);
    m_header->setWordWrap(true);
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_left = makeSide(this);
    m_right = makeSide(this);
    auto* sides = new QHBoxLayout;
    sides->addWidget(m_left);
    sides->addWidget(m_right);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_header);
    layout->addLayout(sides, 1);
    // The two sides have the same rows: scroll them together.
    connect(m_left->verticalScrollBar(), &QScrollBar::valueChanged, m_right->verticalScrollBar(),
        &QScrollBar::setValue);
    connect(m_right->verticalScrollBar(), &QScrollBar::valueChanged, m_left->verticalScrollBar(),
        &QScrollBar::setValue);
    clear();
}

void DivergenceView::clear()
{
    m_left->clear();
    m_right->clear();
    m_left->setExtraSelections({});
    m_right->setExtraSelections({});
    m_highlighted = -1;
    m_onlyFailing.clear();
    m_firstChars = {};
    m_header->setText(tr("No control run loaded yet."));
}

QString DivergenceView::headerText() const
{
    return m_header->text();
}

void DivergenceView::setDivergence(const Divergence& d)
{
    clear();
    if (d.alignedBy.isEmpty()) {
        m_header->setText(d.note);
        return;
    }
    QString header = tr("Failing run: rank %1 (%2), %3 — control: rank %4, %5 (aligned by %6).")
                         .arg(d.rank)
                         .arg(d.host, d.failingFile)
                         .arg(d.controlRank)
                         .arg(d.controlFile, d.alignedBy);
    header += QLatin1Char(' ')
        + (d.found ? tr("First difference at line %1; %2 line(s) only in the failing run.")
                         .arg(d.failingLine)
                         .arg(d.onlyInFailingTotal)
                   : tr("No difference before the initiating event (line %1).").arg(d.initiatingLine));
    if (!d.note.isEmpty())
        header += QLatin1Char(' ') + d.note;
    m_header->setText(header);

    QStringList left, right;
    left.reserve(static_cast<qsizetype>(d.rows.size()));
    right.reserve(static_cast<qsizetype>(d.rows.size()));
    for (const DiffRow& r : d.rows) {
        left << numbered(r.failingLine, r.failingText);
        right << numbered(r.controlLine, r.controlText);
    }
    m_left->setPlainText(left.join(QLatin1Char('\n')));
    m_right->setPlainText(right.join(QLatin1Char('\n')));

    const QPalette pal = palette();
    const QColor onlyFailing = diffColor(DiffMark::OnlyFailing, pal),
                 changed = diffColor(DiffMark::Changed, pal),
                 onlyControl = diffColor(DiffMark::OnlyControl, pal),
                 first = diffColor(DiffMark::FirstRow, pal);
    QList<QTextEdit::ExtraSelection> ls, rs;
    for (size_t i = 0; i < d.rows.size(); ++i) {
        const int row = static_cast<int>(i);
        if (d.rows[i].failingOnly)
            m_onlyFailing.push_back(row);
        switch (d.rows[i].kind) {
        case DiffRow::Same:
            break;
        case DiffRow::Changed:
            ls << rowSelection(m_left, row, d.rows[i].failingOnly ? onlyFailing : changed);
            rs << rowSelection(m_right, row, changed);
            break;
        case DiffRow::OnlyFailing:
            ls << rowSelection(m_left, row, onlyFailing);
            break;
        case DiffRow::OnlyControl:
            rs << rowSelection(m_right, row, onlyControl);
            break;
        }
    }
    // Added last so that it paints over the row's own mark.
    if (d.firstRow >= 0 && d.firstRow < static_cast<int>(d.rows.size())) {
        m_highlighted = d.firstRow;
        ls << rowSelection(m_left, d.firstRow, first);
        rs << rowSelection(m_right, d.firstRow, first);
        const DiffRow& row = d.rows[static_cast<size_t>(d.firstRow)];
        if (row.failingLine > 0 && row.controlLine > 0) {
            m_firstChars = differingChars(row.failingText, row.controlText);
            const QColor chars = diffColor(DiffMark::FirstChars, pal);
            // An insertion or deletion has an empty side: one character marks where.
            ls << charSelection(m_left, d.firstRow, m_firstChars.from,
                std::max(m_firstChars.toFailing, m_firstChars.from + 1), chars);
            rs << charSelection(m_right, d.firstRow, m_firstChars.from,
                std::max(m_firstChars.toControl, m_firstChars.from + 1), chars);
        } else {
            m_firstChars = { 0, static_cast<int>(row.failingText.size()), 0 };
        }
    }
    m_left->setExtraSelections(ls);
    m_right->setExtraSelections(rs);
    scrollToFirstDifference();
}

void DivergenceView::scrollToFirstDifference()
{
    if (m_highlighted < 0)
        return;
    // To the differing characters, not the line's start: on a long line they are off to the right.
    for (QPlainTextEdit* side : { m_left, m_right }) {
        const QTextBlock block = side->document()->findBlockByNumber(m_highlighted);
        QTextCursor c(block);
        const int end = side == m_left ? m_firstChars.toFailing : m_firstChars.toControl;
        c.setPosition(
            block.position() + std::min(kNumberWidth + std::max(end, m_firstChars.from), block.length() - 1));
        side->setTextCursor(c);
        side->ensureCursorVisible();
        c.setPosition(block.position() + std::min(kNumberWidth + m_firstChars.from, block.length() - 1));
        side->setTextCursor(c);
        side->ensureCursorVisible();
    }
    m_left->centerCursor();
}

int DivergenceView::firstDifferenceX() const
{
    if (m_highlighted < 0)
        return -1;
    const QTextBlock block = m_left->document()->findBlockByNumber(m_highlighted);
    QTextCursor c(block);
    c.setPosition(block.position() + std::min(kNumberWidth + m_firstChars.from, block.length() - 1));
    return m_left->cursorRect(c).x();
}

} // namespace rankscope
