// SPDX-License-Identifier: MIT
#include "rank_table_model.h"

#include <algorithm>
#include <limits>

namespace rankscope {

namespace {

constexpr qint64 kNoWarnKey = std::numeric_limits<qint64>::max();

// The WARN, ERROR and FATAL columns, in that order, count the lines of those severities.
size_t severityOfColumn(int column)
{
    const int severity = column - RankTableModel::WarnColumn + static_cast<int>(Severity::Warn);
    return static_cast<size_t>(severity);
}

QString countText(qint64 n)
{
    return n > 0 ? QString::number(n) : QString();
}

} // namespace

void RankTableModel::setRows(std::vector<RankRow> rows)
{
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
}

void RankTableModel::clear()
{
    setRows({});
}

int RankTableModel::rowOfRank(int rank) const
{
    // Rows come in rank order (Incident::ranks is sorted).
    const auto it = std::lower_bound(
        m_rows.begin(), m_rows.end(), rank, [](const RankRow& r, int value) { return r.rank < value; });
    return it != m_rows.end() && it->rank == rank ? static_cast<int>(it - m_rows.begin()) : -1;
}

int RankTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int RankTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RankTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    Q_ASSERT(index.column() < ColumnCount); // checkIndex holds it; the column switches below rely on it
    const RankRow& row = m_rows[static_cast<size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        return display(row, index.column());
    case Qt::ToolTipRole:
        return index.column() == MessageColumn && !row.tooltip.isEmpty() ? QVariant(row.tooltip) : QVariant();
    case Qt::TextAlignmentRole: {
        const int c = index.column();
        const bool number = c == RankColumn || c == LocalRankColumn || c == GpuColumn || c == WarnColumn
            || c == ErrorColumn || c == FatalColumn || c == LastStepColumn;
        return (Qt::Alignment(number ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter)
            .toInt(); // as QStandardItem
    }
    case FirstWarnEventRole:
        return row.firstWarn;
    case RankRole:
        return row.rank;
    case StatusRole:
        return static_cast<int>(row.status);
    case InitiatingRole:
        return row.initiating;
    case SignatureRole:
        return row.signature;
    case SortRole:
        return sortKey(row, index.column());
    default:
        return {};
    }
}

QVariant RankTableModel::display(const RankRow& row, int column) const
{
    switch (column) {
    case RankColumn:
        return row.rank;
    case HostColumn:
        return row.host;
    case LocalRankColumn:
        return row.localRank >= 0 ? QString::number(row.localRank) : QString();
    case GpuColumn:
        return row.gpu >= 0 ? QString::number(row.gpu) : QString();
    case FirstWarnColumn:
        if (row.firstWarn < 0)
            return QString();
        return row.firstWarnTimed ? row.firstWarnTime : QStringLiteral("no time");
    case StatusColumn:
        return rankStatusName(row.status);
    case WarnColumn:
    case ErrorColumn:
    case FatalColumn:
        return countText(row.severityCounts[severityOfColumn(column)]);
    case LastStepColumn:
        return row.lastStep >= 0 ? QString::number(row.lastStep) : QString();
    case MessageColumn:
        return row.message;
    default:
        return {};
    }
}

QVariant RankTableModel::sortKey(const RankRow& row, int column) const
{
    switch (column) {
    case RankColumn:
        return row.rank;
    case HostColumn:
        return row.host;
    case LocalRankColumn:
        return row.localRank;
    case GpuColumn:
        return row.gpu;
    case FirstWarnColumn:
        // Timed WARNs by time, then untimed ones, then ranks without any.
        if (row.firstWarn < 0)
            return kNoWarnKey;
        return row.firstWarnTimed ? row.firstWarnMs : kNoWarnKey - 1;
    case StatusColumn:
        return static_cast<int>(row.status);
    case WarnColumn:
    case ErrorColumn:
    case FatalColumn:
        return row.severityCounts[severityOfColumn(column)];
    case LastStepColumn:
        return row.lastStep;
    case MessageColumn:
        return row.message;
    default:
        return {};
    }
}

QVariant RankTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::ToolTipRole && section >= WarnColumn && section <= FatalColumn)
        return QStringLiteral("Lines of this severity the rank logged");
    if (role != Qt::DisplayRole)
        return {};
    static const char* const titles[ColumnCount] = { "Rank", "Host", "Local", "GPU", "First WARN", "Status",
        "WARN", "ERROR", "FATAL", "Last step", "Message" };
    return QString::fromLatin1(titles[section]);
}

QHash<int, QByteArray> RankTableModel::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractTableModel::roleNames();
    names.insert(FirstWarnEventRole, "firstWarnEvent");
    names.insert(RankRole, "rank");
    names.insert(StatusRole, "status");
    names.insert(InitiatingRole, "initiating");
    names.insert(SignatureRole, "signature");
    names.insert(SortRole, "sortKey");
    return names;
}

} // namespace rankscope
