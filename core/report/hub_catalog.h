// SPDX-License-Identifier: MIT
// The catalog the hub shows is the one a diagnosis uses: the built-in catalog, then each user folder of
// --signatures DIR, whose entries replace built-in ones of the same id (loadDefaultCatalog(dirs)). The
// hub says so, and says where every user entry came from, so that a team's page shows its own entries.
#pragma once

#include "signature_catalog.h"

#include <QHash>
#include <QString>
#include <QStringList>

namespace rankscope {

struct HubEntryOrigin
{
    QString file; // DIR/FILE.json of the user folder
    bool replacesBuiltIn = false; // a built-in entry of the same id was replaced
};

struct HubCatalogOrigin
{
    QStringList
        userDirs; // empty: the built-in catalog alone (the built-in folder given again is no user one)
    int builtIn = 0; // entries of the built-in catalog
    QHash<QString, HubEntryOrigin> userEntries; // by id: every entry the user folders gave
    // "the built-in catalog (140 entries) plus my-catalog (2 entries: 1 new, 1 replacing a built-in one)";
    // empty for an origin not made by loadHubCatalog()
    QString summary() const;
    // "from my-catalog/shm.json (a user catalog; replaces the built-in entry)"; empty for a built-in one.
    QString entryText(const QString& id) const;
};

struct HubCatalog
{
    CatalogLoadResult loaded; // the same catalog as loadDefaultCatalog(userDirs)
    HubCatalogOrigin origin;
};

HubCatalog loadHubCatalog(const QStringList& userDirs);

} // namespace rankscope
