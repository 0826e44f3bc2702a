// SPDX-License-Identifier: MIT
#include "hub_catalog.h"

#include <QDir>

namespace rankscope {

QString HubCatalogOrigin::summary() const
{
    if (builtIn == 0 && userDirs.isEmpty())
        return {}; // not loaded through loadHubCatalog(): nothing to say
    QString out = QStringLiteral("the built-in catalog (%1 entries)").arg(builtIn);
    if (userDirs.isEmpty())
        return out;
    int replacing = 0;
    for (const HubEntryOrigin& e : userEntries)
        replacing += e.replacesBuiltIn ? 1 : 0;
    const auto total = static_cast<int>(userEntries.size());
    return out
        + QStringLiteral(" plus %1 (%2 %3: %4 new, %5 replacing a built-in one)")
              .arg(userDirs.join(QStringLiteral(", ")))
              .arg(total)
              .arg(total == 1 ? QStringLiteral("entry") : QStringLiteral("entries"))
              .arg(total - replacing)
              .arg(replacing);
}

QString HubCatalogOrigin::entryText(const QString& id) const
{
    const auto it = userEntries.constFind(id);
    if (it == userEntries.constEnd())
        return {};
    return QStringLiteral("from %1 (a user catalog%2)")
        .arg(it->file, it->replacesBuiltIn ? QStringLiteral("; replaces the built-in entry") : QString());
}

HubCatalog loadHubCatalog(const QStringList& userDirs)
{
    // loadDefaultCatalog(userDirs) step by step, to see which ids each folder brings and replaces.
    HubCatalog out;
    out.loaded = loadDefaultCatalog();
    out.origin.builtIn = static_cast<int>(out.loaded.catalog.signatures.size());
    const QString builtInDir = QDir(defaultCatalogDir()).canonicalPath();
    for (const QString& dir : userDirs) {
        // The built-in folder given again replaces every entry by itself: not a user catalog.
        if (!builtInDir.isEmpty() && QDir(dir).canonicalPath() == builtInDir)
            continue;
        out.origin.userDirs << dir;
        CatalogLoadResult overlay = loadCatalogDir(dir);
        for (const Signature& s : overlay.catalog.signatures) {
            // A later folder's entry wins, as in mergeCatalog; it replaces a built-in one if either did.
            const bool builtIn = out.loaded.catalog.indexOf(s.id) >= 0
                && (!out.origin.userEntries.contains(s.id) || out.origin.userEntries[s.id].replacesBuiltIn);
            out.origin.userEntries.insert(s.id, HubEntryOrigin { QDir(dir).filePath(s.sourceFile), builtIn });
        }
        mergeCatalog(out.loaded, std::move(overlay));
    }
    return out;
}

} // namespace rankscope
