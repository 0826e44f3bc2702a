// SPDX-License-Identifier: MIT
#include "rank_list_delegate.h"

#include <QApplication>
#include <QPainter>
#include <algorithm>

namespace rankscope {

void RankListDelegate::paint(
    QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    QStyleOptionViewItem opt(option);
    initStyleOption(&opt, index);
    const QString text = opt.text;
    opt.text.clear();
    const QWidget* widget = opt.widget;
    QStyle* style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget); // background, selection, focus

    // The text where the style puts it: inside the focus frame's margin, in the item's colour group.
    const int margin = style->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, widget) + 1;
    const QRect rect = opt.rect.adjusted(margin, 0, -margin, 0);
    if (text.isEmpty() || rect.width() <= 0)
        return;
    const QPalette::ColorGroup group = !(opt.state & QStyle::State_Enabled) ? QPalette::Disabled
        : (opt.state & QStyle::State_Active)                                ? QPalette::Normal
                                                                            : QPalette::Inactive;
    painter->save();
    painter->setFont(opt.font);
    painter->setPen(opt.palette.color(
        group, (opt.state & QStyle::State_Selected) ? QPalette::HighlightedText : QPalette::Text));
    const QFontMetrics fm(opt.font);
    // A text that cannot be wider than the cell is drawn as is; only a longer one is measured and cut.
    const bool fits = static_cast<qint64>(text.size()) * fm.maxWidth() <= rect.width();
    painter->drawText(rect, static_cast<int>(opt.displayAlignment) | Qt::TextSingleLine,
        fits ? text : elided(fm, text, opt.textElideMode, rect.width()));
    painter->restore();
}

QString RankListDelegate::elided(
    const QFontMetrics& fm, const QString& text, Qt::TextElideMode mode, int width)
{
    // Eliding shapes the whole text, and a message is up to 200 characters of which a cell shows a few
    // dozen. Cut at the right, a head about twice as wide as the cell elides to the same string; when the
    // head turns out to fit after all, the whole text is elided as before.
    const qsizetype head = 2 * static_cast<qsizetype>(width / std::max(1, fm.averageCharWidth())) + 8;
    if (mode != Qt::ElideRight || text.size() <= head)
        return fm.elidedText(text, mode, width);
    const QString cut = fm.elidedText(text.left(head), mode, width);
    return cut.size() < head ? cut : fm.elidedText(text, mode, width);
}

} // namespace rankscope
