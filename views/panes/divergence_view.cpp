// SPDX-License-Identifier: MIT
#include "divergence_view.h"

#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
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

QString numbered(qint64 line, const QString& text)
{
    return line > 0 ? QStringLiteral("%1  %2").arg(line, 7).arg(text) : QString();
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

DivergenceView::DivergenceView(QWidget* parent)
    : QWidget(parent)
{
    m_header = new QLabel(this);
    m_header->setWordWrap(true);
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_left = makeSide(this);
    m_right = makeSide(this);
    auto* sides = new QHBoxLayout;
    sides->addWidget(m_left);
    sides->addWidget(m_right);
    auto* layout = new QVBoxLayout(this);
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
    m_header->setText(tr("No control run loaded. Use File > Compare with Healthy Run..."));
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

    const QColor onlyFailing(255, 214, 214), changed(255, 243, 191), onlyControl(214, 234, 255);
    const QColor first(255, 170, 60);
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
    }
    m_left->setExtraSelections(ls);
    m_right->setExtraSelections(rs);
    scrollToFirstDifference();
}

void DivergenceView::scrollToFirstDifference()
{
    if (m_highlighted < 0)
        return;
    QTextCursor c(m_left->document()->findBlockByNumber(m_highlighted));
    m_left->setTextCursor(c);
    m_left->centerCursor();
}

} // namespace rankscope
