// SPDX-License-Identifier: MIT
// The Signature Hub: every catalog entry by family with a search box on the left; on the right the chosen
// entry (what it indicates, role, stacks, category, example lines, references, fix, actions, verify
// commands with Copy buttons, and "tell it apart": its siblings with the experiment that separates each),
// and a box where a pasted or typed log line shows, as it is typed, which entries match it and why.
// Commands are shown and copied, never run. The catalog is loaded the first time the panel is shown.
#pragma once

#include "hub_catalog.h"
#include "signature_catalog.h"

#include <QWidget>
#include <memory>

class QLineEdit;
class QPlainTextEdit;
class QTreeView;
class QScrollArea;
class QLabel;
class QVBoxLayout;

namespace rankscope {

class TextBlock;

class HubModel;
class HubFilterProxy;
class SignatureMatcher;

class HubPanel : public QWidget
{
    Q_OBJECT
public:
    explicit HubPanel(QWidget* parent = nullptr);
    ~HubPanel() override;

    // The catalog to show (tests; the window lets the panel load the built-in one when first shown), and
    // where its user entries came from.
    void setCatalog(Catalog catalog, HubCatalogOrigin origin = {});
    // The user catalog folders a diagnosis uses (--signatures DIR...): the panel shows the built-in
    // catalog with them over it, loaded when it is next needed, so that it shows the catalog in use.
    void setCatalogDirs(const QStringList& dirs);
    QString catalogText() const; // "Catalog: the built-in catalog (140 entries) plus DIR (...)"
    bool hasCatalog() const { return m_catalog != nullptr; }
    // Selects the entry, clearing a search that hides it; false when the catalog has no such id.
    bool showSignature(const QString& id);
    QString currentId() const;
    void setSearchText(const QString& text);
    void setLineText(const QString& text);
    int visibleEntryCount() const; // entries the search leaves in the list
    QString entryText() const; // the shown entry as plain text
    QString lineResultText() const; // what the line box says, as plain text
    QTreeView* tree() const { return m_tree; }

protected:
    void showEvent(QShowEvent* event) override;

private:
    void ensureCatalog();
    void showEntry(int signature);
    void explainTypedLine();
    void onLink(const QString& link);
    TextBlock* richLabel(const QString& html);
    QWidget* commandList(const QStringList& commands);
    void addSection(const QString& title, QWidget* body);

    std::unique_ptr<const Catalog> m_catalog;
    HubCatalogOrigin m_origin;
    QStringList m_catalogDirs;
    QLabel* m_catalogLabel = nullptr;
    std::unique_ptr<SignatureMatcher> m_matcher;
    HubModel* m_model = nullptr;
    HubFilterProxy* m_proxy = nullptr;
    QLineEdit* m_search = nullptr;
    QTreeView* m_tree = nullptr;
    QScrollArea* m_entryArea = nullptr;
    QWidget* m_entry = nullptr;
    QVBoxLayout* m_entryLayout = nullptr;
    QPlainTextEdit* m_line = nullptr;
    TextBlock* m_lineResult = nullptr;
    int m_current = -1;
};

} // namespace rankscope
