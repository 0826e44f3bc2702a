// SPDX-License-Identifier: MIT
// Paints the rank list's cells with one text shaping each. QStyledItemDelegate, through the style, lays
// a cell's text out three times (its size, eliding, drawing); a thousand-row list repainted on each
// click spent most of a frame there. Background, selection and focus are still the style's.
#pragma once

#include <QFontMetrics>
#include <QStyledItemDelegate>

namespace rankscope {

class RankListDelegate : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(
        QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;

    // fm.elidedText(text, mode, width), without shaping more of a long text than the cell can show.
    static QString elided(const QFontMetrics& fm, const QString& text, Qt::TextElideMode mode, int width);
};

} // namespace rankscope
