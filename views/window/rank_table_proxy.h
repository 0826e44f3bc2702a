// SPDX-License-Identifier: MIT
// The rank table as the window shows it: sorted by RankTableModel's sort keys, the initiating rank's row
// in bold and each status in its colour from severity_palette. The model stays Qt Core only; the looks
// are added here, on the way to the view.
#pragma once

#include <QFont>
#include <QSortFilterProxyModel>
#include <functional>

namespace rankscope {

class RankTableProxy : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit RankTableProxy(QObject* parent = nullptr);
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

    // Which rows to show, by the row's rank and the event index of its first WARN (-1 when none); an
    // empty function shows every row. The window passes the timeline's filters through this.
    using RowFilter = std::function<bool(int rank, int firstWarnEvent)>;
    void setRowFilter(RowFilter filter);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    QFont m_bold;
    RowFilter m_filter;
};

} // namespace rankscope
