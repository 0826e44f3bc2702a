// SPDX-License-Identifier: MIT
#include "search_results_model.h"

#include <QFileInfo>

namespace rankscope {

void SearchResultsModel::setResults(SearchResults results, QStringList files)
{
    beginResetModel();
    m_results = std::move(results);
    m_files = std::move(files);
    endResetModel();
}

void SearchResultsModel::clear()
{
    setResults({}, {});
}

// A hit row's internalId is its group's row; a group row's is kGroupRow.
QModelIndex SearchResultsModel::index(int row, int column, const QModelIndex& parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    if (!parent.isValid())
        return createIndex(row, column, kGroupRow);
    return createIndex(row, column, static_cast<quintptr>(parent.row()));
}

QModelIndex SearchResultsModel::parent(const QModelIndex& child) const
{
    if (!child.isValid() || child.internalId() == kGroupRow)
        return {};
    return createIndex(static_cast<int>(child.internalId()), 0, kGroupRow);
}

int SearchResultsModel::rowCount(const QModelIndex& parent) const
{
    if (!parent.isValid())
        return static_cast<int>(m_results.groups.size());
    if (parent.internalId() != kGroupRow || parent.column() != 0)
        return 0;
    return static_cast<int>(m_results.groups[static_cast<size_t>(parent.row())].hits.size());
}

int SearchResultsModel::columnCount(const QModelIndex&) const
{
    return 1;
}

const SearchHit* SearchResultsModel::hitOf(const QModelIndex& index) const
{
    if (!index.isValid() || index.internalId() == kGroupRow)
        return nullptr;
    const SearchGroup& g = m_results.groups[static_cast<size_t>(index.internalId())];
    return &m_results.hits[static_cast<size_t>(g.hits[static_cast<size_t>(index.row())])];
}

QVariant SearchResultsModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid())
        return {};
    if (index.internalId() == kGroupRow) {
        const SearchGroup& g = m_results.groups[static_cast<size_t>(index.row())];
        switch (role) {
        case Qt::DisplayRole:
            return g.count == static_cast<qint64>(g.hits.size())
                ? tr("%1 (%2)").arg(g.label).arg(g.count)
                : tr("%1 (%2, %3 listed)").arg(g.label).arg(g.count).arg(g.hits.size());
        case Qt::ToolTipRole:
            return g.label;
        case FileRole:
            return -1;
        case LineRole:
            return qint64(0);
        case RankRole:
            return g.rank;
        case CountRole:
            return g.count;
        default:
            return {};
        }
    }
    const SearchHit* hit = hitOf(index);
    const QString file = hit->file >= 0 && hit->file < m_files.size() ? m_files[hit->file] : QString();
    switch (role) {
    case Qt::DisplayRole:
        return QStringLiteral("%1:%2  %3").arg(QFileInfo(file).fileName()).arg(hit->line).arg(hit->text);
    case Qt::ToolTipRole:
        return QStringLiteral("%1:%2").arg(file).arg(hit->line);
    case FileRole:
        return hit->file;
    case LineRole:
        return hit->line;
    case RankRole:
        return hit->rank;
    case CountRole:
        return qint64(1);
    default:
        return {};
    }
}

QHash<int, QByteArray> SearchResultsModel::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractItemModel::roleNames();
    names[FileRole] = "file";
    names[LineRole] = "line";
    names[RankRole] = "rank";
    names[CountRole] = "count";
    return names;
}

} // namespace rankscope
