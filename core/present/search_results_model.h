// SPDX-License-Identifier: MIT
// The results of a search of everything as a two-level item model: a row per group (a rank, or the
// unattributed lines of a host or file) with its count, and under it a row per hit ("file:line  text").
// Qt Core only; the views read the hit's file and line from the named roles to open it in the Log view.
#pragma once

#include "incident_search.h"

#include <QAbstractItemModel>

namespace rankscope {

class SearchResultsModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Role : int
    {
        FileRole = Qt::UserRole + 1, // int: index into Incident::files; -1 on a group row
        LineRole, // qint64: 1-based line; 0 on a group row
        RankRole, // int: the rank of the hit or group, -1 when none
        CountRole // qint64: the group's hits (a hit row: 1)
    };
    Q_ENUM(Role)

    using QAbstractItemModel::QAbstractItemModel;

    // One reset; `files` are the display paths of the incident's files, for the hit rows.
    void setResults(SearchResults results, QStringList files);
    void clear();
    const SearchResults& results() const { return m_results; }

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

private:
    static constexpr quintptr kGroupRow = ~quintptr(0); // internalId of a group row
    const SearchHit* hitOf(const QModelIndex& index) const;

    SearchResults m_results;
    QStringList m_files;
};

} // namespace rankscope
