// SPDX-License-Identifier: MIT
// `rankscope signatures check`: the consistency rules a catalog must pass before it ships.
#pragma once

#include "signature_catalog.h"

#include <QString>
#include <QStringList>

namespace rankscope {

struct CatalogCheckReport
{
    int signatures = 0;
    int files = 0;
    int families = 0;
    int examplesRun = 0;
    QStringList problems; // each names the file, entry and field or example
    bool ok() const { return problems.isEmpty(); }
    // "N signatures in M files, K families: OK" or "...: P problems"
    QString summary() const;
};

// Checks: unique ids; every sibling exists and is not the entry itself; the matcher compiles; every
// "match" example is matched by its own entry and passes the prefilter; no "no_match" example is matched
// by its entry; every pattern has a literal the prefilter can use.
CatalogCheckReport checkCatalog(const Catalog& catalog);

// Loads `dir` (or the default catalog when empty) and checks it; load errors become problems too.
CatalogCheckReport checkCatalogDir(const QString& dir);

} // namespace rankscope
