// SPDX-License-Identifier: MIT
#include "text_block.h"

#include <QAbstractTextDocumentLayout>
#include <QEvent>
#include <QPainter>
#include <QResizeEvent>
#include <QScrollBar>
#include <QTextDocument>
#include <QTextFrame>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

namespace rankscope {

namespace {
constexpr int kMinChars = 6; // the narrowest a block may be made: a few characters a line
constexpr int kPreferredChars = 80;
constexpr int kAccentWidth = 4;
} // namespace

TextBlock::TextBlock(const QString& text, Qt::TextFormat format, QWidget* parent)
    : QTextBrowser(parent)
    , m_format(format)
{
    setOpenLinks(false);
    setOpenExternalLinks(false); // never: links here are in-app (event:, sig:), nothing is opened
    setFrameShape(QFrame::NoFrame);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setLineWrapMode(QTextEdit::WidgetWidth);
    setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    setFocusPolicy(Qt::ClickFocus); // forty blocks in the Tab chain would bury the pane's buttons
    // Transparent: the pane shows through, as behind a QLabel, and the text takes the window's colour.
    viewport()->setAutoFillBackground(false);
    setTransparentText();
    document()->setDocumentMargin(0);
    QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Minimum);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
    // Told on the next turn of the event loop: a link often rebuilds the pane this block is in (the hub
    // opens another entry), and the block must not be deleted inside its own mouse event.
    connect(this, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        QMetaObject::invokeMethod(
            this, [this, link = url.toString()] { Q_EMIT linkActivated(link); }, Qt::QueuedConnection);
    });
    setText(text);
}

TextBlock::~TextBlock() = default;

void TextBlock::setTransparentText()
{
    // On a transparent viewport the text is window text, not the Base-coloured editor's text.
    QPalette p = palette();
    if (p.color(QPalette::Text) == p.color(QPalette::WindowText))
        return;
    m_settingPalette = true;
    p.setColor(QPalette::Text, p.color(QPalette::WindowText));
    setPalette(p);
    m_settingPalette = false;
}

bool TextBlock::isRich() const
{
    return m_format == Qt::RichText || (m_format == Qt::AutoText && Qt::mightBeRichText(m_text));
}

void TextBlock::setText(const QString& text)
{
    m_text = text;
    fill();
}

void TextBlock::setTextFormat(Qt::TextFormat format)
{
    if (format == m_format)
        return;
    m_format = format;
    fill();
}

void TextBlock::setPadding(int pixels)
{
    document()->setDocumentMargin(pixels);
    forget();
}

void TextBlock::setAccent(const QColor& color)
{
    // A bar at the left edge (the initiating line's colour), drawn on the frame beside the viewport.
    m_accent = color;
    setViewportMargins(color.isValid() ? kAccentWidth * 2 : 0, 0, 0, 0);
    forget();
    update();
}

void TextBlock::fill()
{
    if (isRich())
        setHtml(m_text);
    else
        setPlainText(m_text);
    forget();
}

void TextBlock::forget()
{
    m_measure.reset();
    m_heights.clear();
    m_natural = -1;
    updateGeometry();
}

QMargins TextBlock::frameRoom() const
{
    const int f = frameWidth();
    const QMargins c = contentsMargins(); // the frame is inside these for a QFrame
    const QMargins v = viewportMargins();
    return { std::max(c.left(), f) + v.left(), std::max(c.top(), f) + v.top(),
        std::max(c.right(), f) + v.right(), std::max(c.bottom(), f) + v.bottom() };
}

QTextDocument& TextBlock::measure() const
{
    if (!m_measure) {
        // The shown document's own layout belongs to its width; sizes for other widths come from a copy.
        m_measure.reset(document()->clone());
        m_measure->setDefaultFont(document()->defaultFont());
        m_measure->setDefaultTextOption(document()->defaultTextOption());
        m_measure->setDocumentMargin(document()->documentMargin());
    }
    return *m_measure;
}

int TextBlock::heightForWidth(int width) const
{
    const auto it = m_heights.constFind(width);
    if (it != m_heights.constEnd())
        return *it;
    const QMargins room = frameRoom();
    QTextDocument& doc = measure();
    doc.setTextWidth(std::max(width - room.left() - room.right(), 1));
    const int h = static_cast<int>(std::ceil(doc.size().height())) + room.top() + room.bottom();
    m_heights.insert(width, h);
    return h;
}

QSize TextBlock::minimumSizeHint() const
{
    const QMargins room = frameRoom();
    const int margin = static_cast<int>(std::ceil(document()->documentMargin() * 2));
    return { room.left() + room.right() + margin + kMinChars * fontMetrics().averageCharWidth(),
        room.top() + room.bottom() + margin + fontMetrics().lineSpacing() };
}

QSize TextBlock::sizeHint() const
{
    const QMargins room = frameRoom();
    if (m_natural < 0) {
        QTextDocument& doc = measure();
        doc.setTextWidth(-1);
        m_natural = static_cast<int>(std::ceil(doc.idealWidth()));
    }
    const int w =
        std::min(m_natural, kPreferredChars * fontMetrics().averageCharWidth()) + room.left() + room.right();
    return { w, heightForWidth(w) };
}

void TextBlock::resizeEvent(QResizeEvent* event)
{
    QTextBrowser::resizeEvent(event);
    // The layout gave this width a height from heightForWidth: nothing is left to scroll.
    verticalScrollBar()->setValue(0);
}

void TextBlock::changeEvent(QEvent* event)
{
    QTextBrowser::changeEvent(event);
    switch (event->type()) {
    case QEvent::FontChange:
    case QEvent::StyleChange:
        forget();
        break;
    case QEvent::PaletteChange:
        if (!m_settingPalette)
            setTransparentText();
        break;
    default:
        break;
    }
}

void TextBlock::wheelEvent(QWheelEvent* event)
{
    // Never scrolls itself: the pane around it does.
    event->ignore();
}

bool TextBlock::event(QEvent* event)
{
    const bool done = QTextBrowser::event(event);
    if (event->type() == QEvent::Paint && m_accent.isValid()) {
        QPainter p(this);
        p.fillRect(QRect(frameRoom().left() - kAccentWidth * 2, 0, kAccentWidth, height()), m_accent);
    }
    return done;
}

} // namespace rankscope
