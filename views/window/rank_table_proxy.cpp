// SPDX-License-Identifier: MIT
#include "rank_table_proxy.h"

#include "rank_table_model.h"
#include "severity_palette.h"

#include <QBrush>
#include <QGuiApplication>

namespace rankscope {

RankTableProxy::RankTableProxy(QObject* parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(RankTableModel::SortRole);
    m_bold.setBold(true);
}

QVariant RankTableProxy::data(const QModelIndex& index, int role) const
{
    if (role == Qt::FontRole && index.data(RankTableModel::InitiatingRole).toBool())
        return m_bold;
    if (role == Qt::ForegroundRole && index.column() == RankTableModel::StatusColumn) {
        // Read each time: the palette follows the system's light or dark mode.
        const QPalette palette = QGuiApplication::palette();
        switch (static_cast<RankStatus>(index.data(RankTableModel::StatusRole).toInt())) {
        case RankStatus::Initiating:
            return QBrush(initiatingColor(palette));
        case RankStatus::Suspect:
            return QBrush(severityColor(Severity::Warn, palette));
        case RankStatus::Collateral:
            return QBrush(collateralColor(palette));
        case RankStatus::None:
            break;
        }
    }
    return QSortFilterProxyModel::data(index, role);
}

void RankTableProxy::setRowFilter(RowFilter filter)
{
    m_filter = std::move(filter);
    invalidateRowsFilter();
}

bool RankTableProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    if (!m_filter)
        return true;
    const QModelIndex index = sourceModel()->index(sourceRow, 0, sourceParent);
    return m_filter(
        index.data(RankTableModel::RankRole).toInt(), index.data(RankTableModel::FirstWarnEventRole).toInt());
}

} // namespace rankscope
