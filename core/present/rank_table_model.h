// SPDX-License-Identifier: MIT
// The rank list as an item model: one row per rank (rank_rows.h), one column per fact. Qt Core only: how a
// status or the initiating rank looks (colour, bold) is the views' business, read from the named roles.
// SortRole gives every column a key that sorts the way a reader expects (numbers as numbers, ranks with
// no WARN after all the others), for a QSortFilterProxyModel.
#pragma once

#include "rank_rows.h"

#include <QAbstractTableModel>
#include <vector>

namespace rankscope {

class RankTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column : int
    {
        RankColumn,
        HostColumn,
        LocalRankColumn,
        GpuColumn,
        FirstWarnColumn,
        StatusColumn,
        WarnColumn, // lines of each severity
        ErrorColumn,
        FatalColumn,
        LastStepColumn,
        MessageColumn, // the first WARN's message: last, so that it takes the rest of the width
        ColumnCount
    };
    enum Role : int
    {
        FirstWarnEventRole = Qt::UserRole + 1, // int: index into Incident::events, -1 when none
        RankRole, // int: the global rank
        StatusRole, // int: a RankStatus
        InitiatingRole, // bool: the row's first WARN is the initiating event
        SignatureRole, // int: catalog index of the first WARN's signature, -1 when none
        SortRole // the column's sort key
    };
    Q_ENUM(Role)

    using QAbstractTableModel::QAbstractTableModel;

    void setRows(std::vector<RankRow> rows); // one reset: the rows of another attempt
    void clear();
    const std::vector<RankRow>& rows() const { return m_rows; }
    int rowOfRank(int rank) const; // -1 when the rank has no row

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

private:
    QVariant display(const RankRow& row, int column) const;
    QVariant sortKey(const RankRow& row, int column) const;

    std::vector<RankRow> m_rows;
};

} // namespace rankscope
