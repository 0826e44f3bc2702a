// SPDX-License-Identifier: MIT
// A read-only block of text that wraps at word boundaries and, where one word is wider than the
// width, inside it. QLabel only breaks between words, so a pane holding a 280-pixel command word
// ("--export=ALL,NCCL_NET_GDR_LEVEL=PXB") or a long path can never be narrower than that word: at a
// scale factor of 2 the Diagnosis pane was cut off at its right edge. This block reflows to any width
// down to a few characters, keeps selection, keyboard copy and links (linkActivated, as QLabel), and
// copies exactly the text it shows (no soft-break characters are inserted into it).
// It is as tall as its text at its width (heightForWidth, measured on a document of its own, cached
// per width) and never scrolls itself: the wheel goes to the pane around it.
#pragma once

#include <QColor>
#include <QHash>
#include <QTextBrowser>
#include <memory>

class QTextDocument;

namespace rankscope {

class TextBlock : public QTextBrowser
{
    Q_OBJECT
public:
    explicit TextBlock(
        const QString& text = {}, Qt::TextFormat format = Qt::AutoText, QWidget* parent = nullptr);
    ~TextBlock() override;

    void setText(const QString& text);
    QString text() const { return m_text; } // as given (HTML for rich text)
    void setTextFormat(Qt::TextFormat format);
    Qt::TextFormat textFormat() const { return m_format; }
    // Room between the frame and the text, in pixels (QLabel's margin).
    void setPadding(int pixels);
    // A coloured bar down the left edge (the initiating line's mark); an invalid colour removes it.
    void setAccent(const QColor& color);

    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

Q_SIGNALS:
    void linkActivated(const QString& link);

protected:
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    bool event(QEvent* event) override;

private:
    bool isRich() const;
    void fill();
    void forget();
    void setTransparentText();
    QTextDocument& measure() const; // a copy of the shown document, laid out at the widths asked about
    QMargins frameRoom() const; // frame, contents and viewport margins around the document

    QString m_text;
    Qt::TextFormat m_format = Qt::AutoText;
    QColor m_accent;
    bool m_settingPalette = false;
    mutable std::unique_ptr<QTextDocument> m_measure;
    mutable QHash<int, int> m_heights;
    mutable int m_natural = -1; // the widest paragraph unwrapped, -1 until measured
};

} // namespace rankscope
