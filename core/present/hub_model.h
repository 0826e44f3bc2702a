// SPDX-License-Identifier: MIT
// The Signature Hub's list: the catalog as a tree of families (top level, in catalog order) and their
// entries, and a proxy that filters entries by text over id, title, summary, literal and example lines (a
// family stays while one of its entries does). Qt Core only: the panel in views/panes shows it.
#pragma once

#include "signature_catalog.h"

#include <QAbstractItemModel>
#include <QSortFilterProxyModel>
#include <QStringList>
#include <vector>

namespace rankscope {

class HubModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Role : int
    {
        SignatureIndexRole = Qt::UserRole + 1, // int: index into the catalog, -1 for a family row
        IdRole, // QString: the entry's id (empty for a family row)
        FamilyRole, // QString: the family of the row
        RoleNameRole, // QString: cause | symptom | context (empty for a family row)
        SearchTextRole // QString: the text the filter looks in, lower case (empty for a family row)
    };
    Q_ENUM(Role)

    using QAbstractItemModel::QAbstractItemModel;

    void setCatalog(const Catalog* catalog); // one reset; the catalog must outlive its use here
    const Catalog* catalog() const { return m_catalog; }
    QModelIndex indexOfSignature(int signature) const; // invalid when absent
    QModelIndex indexOfId(const QString& id) const;
    int familyCount() const { return static_cast<int>(m_families.size()); }

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

private:
    struct Family
    {
        QString name;
        std::vector<int> signatures; // catalog indexes, in catalog order
    };
    const Catalog* m_catalog = nullptr;
    std::vector<Family> m_families;
    std::vector<QString> m_searchText; // per catalog index
};

// Keeps the entries whose search text holds every word of the filter (case-insensitive), and their families.
class HubFilterProxy : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit HubFilterProxy(QObject* parent = nullptr);
    void setFilterWords(const QString& text);
    int acceptedEntryCount() const; // entries that pass the filter now

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    QStringList m_words;
};

// The text an entry is found by: id, title, summary, literal and every example line, lower case.
QString hubSearchText(const Signature& signature);

} // namespace rankscope
