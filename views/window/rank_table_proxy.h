// SPDX-License-Identifier: MIT
// The rank table as the window shows it: sorted by RankTableModel's sort keys, the initiating rank's row
// in bold and each status in its colour from severity_palette. The model stays Qt Core only; the looks
// are added here, on the way to the view.
#pragma once

#include <QFont>
#include <QSortFilterProxyModel>

namespace rankscope {

class RankTableProxy : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit RankTableProxy(QObject* parent = nullptr);
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

private:
    QFont m_bold;
};

} // namespace rankscope
