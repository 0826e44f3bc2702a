// SPDX-License-Identifier: MIT
// A word-wrapped QLabel whose size hints cost one text layout each instead of a dozen.
// QLabel answers sizeHint(), minimumSizeHint() and heightForWidth() by laying its whole document out
// several times (a golden-ratio search, a one-line pass, a one-word-per-line pass, and a restoring pass
// after each), and the window asks again after every relayout. On the diagnosis pane of a big incident
// that was most of a 70 ms stall. This label computes the same height for a width on a document of its
// own (laid out once per width and cached), and bounds the other two hints from one shaping pass.
// Painting, selection and links stay QLabel's. Labels without word wrap, or with a mnemonic, are
// plain QLabels.
#pragma once

#include <QHash>
#include <QLabel>
#include <memory>

class QTextDocument;

namespace rankscope {

class WrappedLabel : public QLabel
{
public:
    explicit WrappedLabel(const QString& text = {}, QWidget* parent = nullptr);
    ~WrappedLabel() override;

    int heightForWidth(int width) const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void changeEvent(QEvent* event) override;

private:
    struct Extra
    {
        int horizontal = 0; // margins, indent and frame around the text, as QLabel counts them
        int vertical = 0;
    };
    bool usesOwnHints() const;
    bool isRichText() const;
    Extra extra() const;
    QTextDocument& document() const; // rebuilt when the text or the font changed
    void measureWords() const;
    void forget() const;

    mutable std::unique_ptr<QTextDocument> m_doc;
    mutable QString m_docText;
    mutable QHash<int, int> m_heights;
    mutable int m_widestWord = -1; // the widest unbreakable run of text, -1 until measured
    mutable int m_naturalWidth = 0; // the widest paragraph unwrapped
};

} // namespace rankscope
