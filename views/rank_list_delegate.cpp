#include "rank_list_delegate.h"

#include <QApplication>
#include <QPainter>

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
        fits ? text : fm.elidedText(text, opt.textElideMode, rect.width()));
    painter->restore();
}

} // namespace rankscope
