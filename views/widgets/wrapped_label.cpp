// SPDX-License-Identifier: MIT
#include "wrapped_label.h"

#include <QEvent>
#include <QFontMetricsF>
#include <QStyle>
#include <QTextBlock>
#include <QTextBoundaryFinder>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextList>
#include <algorithm>
#include <cmath>

namespace rankscope {

WrappedLabel::WrappedLabel(const QString& text, QWidget* parent)
    : QLabel(text, parent)
{
}

WrappedLabel::~WrappedLabel() = default;

bool WrappedLabel::usesOwnHints() const
{
    // A buddy makes QLabel strip '&' mnemonics from the text it lays out: leave those to it.
    return wordWrap() && !(buddy() && text().contains(QLatin1Char('&')));
}

bool WrappedLabel::isRichText() const
{
    return textFormat() == Qt::RichText || (textFormat() == Qt::AutoText && Qt::mightBeRichText(text()));
}

WrappedLabel::Extra WrappedLabel::extra() const
{
    // The same room QLabel keeps around its document (QLabelPrivate::sizeForWidth).
    Extra e;
    e.horizontal = 2 * margin();
    e.vertical = e.horizontal;
    int indentation = indent();
    if (indentation < 0 && frameWidth() > 0)
        indentation = fontMetrics().horizontalAdvance(QLatin1Char('x')) - margin() * 2;
    if (indentation > 0) {
        const Qt::Alignment align = QStyle::visualAlignment(layoutDirection(), alignment());
        if (align & (Qt::AlignLeft | Qt::AlignRight))
            e.horizontal += indentation;
        if (align & (Qt::AlignTop | Qt::AlignBottom))
            e.vertical += indentation;
    }
    const QMargins m = contentsMargins();
    e.horizontal += m.left() + m.right();
    e.vertical += m.top() + m.bottom();
    return e;
}

void WrappedLabel::forget() const
{
    m_doc.reset();
    m_heights.clear();
    m_widestWord = -1;
}

QTextDocument& WrappedLabel::document() const
{
    if (m_doc && m_docText == text())
        return *m_doc;
    forget();
    m_docText = text();
    // Set up as QLabel sets up its own: the label's font, its alignment, word wrap, no frame margin.
    m_doc = std::make_unique<QTextDocument>();
    m_doc->setUndoRedoEnabled(false);
    m_doc->setDefaultFont(font());
    if (isRichText())
        m_doc->setHtml(m_docText);
    else
        m_doc->setPlainText(m_docText);
    QTextOption option = m_doc->defaultTextOption();
    option.setAlignment(alignment());
    option.setWrapMode(QTextOption::WordWrap);
    m_doc->setDefaultTextOption(option);
    QTextFrameFormat frame = m_doc->rootFrame()->frameFormat();
    frame.setMargin(0);
    m_doc->rootFrame()->setFrameFormat(frame);
    return *m_doc;
}

int WrappedLabel::heightForWidth(int width) const
{
    if (!usesOwnHints())
        return QLabel::heightForWidth(width);
    QTextDocument& doc = document();
    const auto it = m_heights.constFind(width);
    if (it != m_heights.constEnd())
        return *it;
    const Extra e = extra();
    const int w = std::max(width, minimumWidth());
    doc.setTextWidth(std::max(w - e.horizontal, 0));
    const int h = std::max(static_cast<int>(std::ceil(doc.size().height())) + e.vertical, minimumHeight());
    m_heights.insert(width, h);
    return h;
}

void WrappedLabel::measureWords() const
{
    QTextDocument& doc = document();
    if (m_widestWord >= 0)
        return;
    // The widest run of text between two line-break opportunities. A run of n characters is at most
    // n * maxWidth wide, so runs are measured longest first until no shorter one can be wider. Rich text
    // is measured in bold (its widest face here) plus its block and list indentation, so that the bound
    // is never below what QLabel would find.
    QFont f = font();
    if (isRichText())
        f.setBold(true);
    const QFontMetrics fm(f);
    const QFontMetricsF fmf(f);
    struct Run
    {
        QString text;
        int indentation = 0;
    };
    std::vector<Run> runs;
    m_naturalWidth = 0;
    for (QTextBlock block = doc.begin(); block.isValid(); block = block.next()) {
        const QString para = block.text();
        const QTextBlockFormat bf = block.blockFormat();
        double indentation = bf.leftMargin() + bf.indent() * doc.indentWidth();
        if (block.textList())
            indentation += block.textList()->format().indent() * doc.indentWidth();
        const int indent = static_cast<int>(std::ceil(indentation));
        m_naturalWidth =
            std::max(m_naturalWidth, indent + static_cast<int>(para.size()) * fm.averageCharWidth());
        QTextBoundaryFinder breaks(QTextBoundaryFinder::Line, para);
        qsizetype from = 0;
        for (qsizetype to = breaks.toNextBoundary(); to > 0; to = breaks.toNextBoundary()) {
            qsizetype end = to;
            while (end > from && para.at(end - 1).isSpace())
                --end; // trailing spaces hang past the line's end
            if (end > from)
                runs.push_back({ para.mid(from, end - from), indent });
            from = to;
        }
    }
    std::sort(
        runs.begin(), runs.end(), [](const Run& a, const Run& b) { return a.text.size() > b.text.size(); });
    m_widestWord = 0;
    const int maxChar = std::max(1, fm.maxWidth());
    for (const Run& run : runs) {
        if (run.indentation + static_cast<int>(run.text.size()) * maxChar <= m_widestWord)
            continue;
        // QTextDocument sums sub-pixel advances and rounds the total up: so does this, with a pixel to
        // spare (the integer advance of a long run can fall a pixel short of that).
        const int advance = static_cast<int>(std::ceil(fmf.horizontalAdvance(run.text)));
        m_widestWord =
            std::max(m_widestWord, run.indentation + std::max(advance, fm.horizontalAdvance(run.text)) + 1);
    }
}

QSize WrappedLabel::minimumSizeHint() const
{
    if (!usesOwnHints())
        return QLabel::minimumSizeHint();
    // QLabel: as wide as the widest word, as high as one line (at most the preferred height).
    measureWords();
    const Extra e = extra();
    const QSize msh(m_widestWord + e.horizontal, fontMetrics().lineSpacing() + e.vertical);
    return msh.expandedTo(minimumSize());
}

QSize WrappedLabel::sizeHint() const
{
    if (!usesOwnHints())
        return QLabel::sizeHint();
    // Preferred: unwrapped up to about 80 characters, then wrapped at that width.
    measureWords();
    const Extra e = extra();
    const int w = std::min(
        std::min(fontMetrics().averageCharWidth() * 80, m_naturalWidth) + e.horizontal, maximumWidth());
    return QSize(w, heightForWidth(w)).expandedTo(minimumSize());
}

void WrappedLabel::changeEvent(QEvent* event)
{
    // Font, style or direction changes lay the text out differently.
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange
        || event->type() == QEvent::LayoutDirectionChange)
        forget();
    QLabel::changeEvent(event);
}

} // namespace rankscope
