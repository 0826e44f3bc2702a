// SPDX-License-Identifier: MIT
#include "hub_model.h"

#include <algorithm>

namespace rankscope {

namespace {
// internalId of a family row; an entry row stores its family's row + 1.
constexpr quintptr kFamilyRow = 0;
} // namespace

QString hubSearchText(const Signature& signature)
{
    QStringList parts { signature.id, signature.title, signature.summary, signature.literal };
    parts += signature.examplesMatch;
    return parts.join(QLatin1Char('\n')).toLower();
}

void HubModel::setCatalog(const Catalog* catalog)
{
    beginResetModel();
    m_catalog = catalog;
    m_families.clear();
    m_searchText.clear();
    if (catalog) {
        for (std::size_t s = 0; s < catalog->signatures.size(); ++s) {
            const Signature& sig = catalog->signatures[s];
            auto family = std::find_if(m_families.begin(), m_families.end(),
                [&sig](const Family& f) { return f.name == sig.family; });
            if (family == m_families.end())
                family = m_families.insert(m_families.end(), Family { sig.family, {} });
            family->signatures.push_back(static_cast<int>(s));
            m_searchText.push_back(hubSearchText(sig));
        }
    }
    endResetModel();
}

QModelIndex HubModel::indexOfSignature(int signature) const
{
    for (std::size_t f = 0; f < m_families.size(); ++f) {
        const std::vector<int>& entries = m_families[f].signatures;
        const auto it = std::find(entries.begin(), entries.end(), signature);
        if (it != entries.end())
            return createIndex(static_cast<int>(it - entries.begin()), 0, static_cast<quintptr>(f) + 1);
    }
    return {};
}

QModelIndex HubModel::indexOfId(const QString& id) const
{
    return m_catalog ? indexOfSignature(m_catalog->indexOf(id)) : QModelIndex();
}

QModelIndex HubModel::index(int row, int column, const QModelIndex& parent) const
{
    if (row < 0 || column != 0 || row >= rowCount(parent))
        return {};
    if (!parent.isValid())
        return createIndex(row, column, kFamilyRow);
    return createIndex(row, column, static_cast<quintptr>(parent.row()) + 1);
}

QModelIndex HubModel::parent(const QModelIndex& child) const
{
    if (!child.isValid() || child.internalId() == kFamilyRow)
        return {};
    return createIndex(static_cast<int>(child.internalId() - 1), 0, kFamilyRow);
}

int HubModel::rowCount(const QModelIndex& parent) const
{
    if (!parent.isValid())
        return static_cast<int>(m_families.size());
    if (parent.column() != 0 || parent.internalId() != kFamilyRow)
        return 0;
    return static_cast<int>(m_families[static_cast<std::size_t>(parent.row())].signatures.size());
}

int HubModel::columnCount(const QModelIndex& parent) const
{
    Q_UNUSED(parent)
    return 1;
}

QVariant HubModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || !m_catalog)
        return {};
    if (index.internalId() == kFamilyRow) {
        const Family& f = m_families[static_cast<std::size_t>(index.row())];
        switch (role) {
        case Qt::DisplayRole:
            return QStringLiteral("%1 (%2)").arg(f.name).arg(f.signatures.size());
        case FamilyRole:
            return f.name;
        case SignatureIndexRole:
            return -1;
        case IdRole:
        case RoleNameRole:
        case SearchTextRole:
            return QString();
        default:
            return {};
        }
    }
    const Family& f = m_families[static_cast<std::size_t>(index.internalId() - 1)];
    const int s = f.signatures[static_cast<std::size_t>(index.row())];
    const Signature& sig = m_catalog->signatures[static_cast<std::size_t>(s)];
    switch (role) {
    case Qt::DisplayRole:
        return sig.title;
    case Qt::ToolTipRole:
        return QStringLiteral("%1 (%2)").arg(sig.id, signatureRoleName(sig.role));
    case SignatureIndexRole:
        return s;
    case IdRole:
        return sig.id;
    case FamilyRole:
        return sig.family;
    case RoleNameRole:
        return signatureRoleName(sig.role);
    case SearchTextRole:
        return m_searchText[static_cast<std::size_t>(s)];
    default:
        return {};
    }
}

QVariant HubModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (section == 0 && orientation == Qt::Horizontal && role == Qt::DisplayRole)
        return tr("Signature");
    return {};
}

QHash<int, QByteArray> HubModel::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractItemModel::roleNames();
    names.insert(SignatureIndexRole, "signatureIndex");
    names.insert(IdRole, "id");
    names.insert(FamilyRole, "family");
    names.insert(RoleNameRole, "roleName");
    names.insert(SearchTextRole, "searchText");
    return names;
}

HubFilterProxy::HubFilterProxy(QObject* parent)
    : QSortFilterProxyModel(parent)
{
    setRecursiveFilteringEnabled(true); // a family stays while one of its entries passes
}

void HubFilterProxy::setFilterWords(const QString& text)
{
    m_words = text.toLower().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    invalidateFilter();
}

int HubFilterProxy::acceptedEntryCount() const
{
    int count = 0;
    for (int f = 0; f < rowCount(); ++f)
        count += rowCount(index(f, 0));
    return count;
}

bool HubFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    const QModelIndex row = sourceModel()->index(sourceRow, 0, sourceParent);
    if (m_words.isEmpty())
        return true;
    if (!sourceParent.isValid())
        return false; // a family row passes through its entries (recursive filtering)
    const QString text = row.data(HubModel::SearchTextRole).toString();
    return std::all_of(
        m_words.begin(), m_words.end(), [&text](const QString& w) { return text.contains(w); });
}

} // namespace rankscope
