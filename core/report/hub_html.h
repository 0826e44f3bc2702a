// SPDX-License-Identifier: MIT
// The Signature Hub outside a diagnosis: one catalog entry with its templates filled as for its own first
// example line (captures from that line; a value no line carries becomes a shell variable such as
// $LOG_FOLDER, listed with what to set it to), as plain text (`rankscope signatures show`), and the whole
// catalog as one self-contained static HTML page for a team wiki (`rankscope signatures hub`): grouped by
// family, a table of contents, an anchor per id, escaped text, print CSS, no script.
#pragma once

#include "fix_action.h"
#include "hub_catalog.h"
#include "signature_catalog.h"
#include "template_render.h"

#include <QString>
#include <QStringList>
#include <vector>

namespace rankscope {

class SignatureMatcher;

// One fix action as a line a person reads: "env: NCCL_SHM_DISABLE=1 — reason". The fields are filled
// already. One small function, so that an idiom-aware renderer (launcher, framework) can replace it.
QString describeFixAction(const FixAction& action);

struct HubSibling
{
    QString id;
    QString title; // empty when the sibling is not in the catalog
    QString experiment; // empty when the entry has no discriminator for this sibling
    QString outcome;
};

struct HubEntry
{
    int signature = -1;
    QString literal; // the canonical message, filled; empty when a value it needs is unknown
    QString summary, explanation, fix; // prose; a sentence that needs a value no example gives is left out
    QStringList checklist;
    QStringList verify; // commands, filled; shown and copied, never run
    QStringList evidenceCommands;
    std::vector<FixAction> actions; // filled
    QStringList variables; // "$LOG_FOLDER: the folder of the job's logs", for the commands above
    QString filledFrom; // the example line the captures came from, empty when none
    std::vector<HubSibling> siblings; // in the entry's order
};

HubEntry hubEntry(const Catalog& catalog, int signature, const SignatureMatcher& matcher);

// Everything about one entry, as text for a terminal; an entry of a user folder says which file.
QString hubEntryText(const Catalog& catalog, int signature, const SignatureMatcher& matcher,
    const HubCatalogOrigin& origin = {});

// The whole catalog as one HTML page: which catalog it is, and where each user entry came from.
QString hubCatalogHtml(
    const Catalog& catalog, const SignatureMatcher& matcher, const HubCatalogOrigin& origin = {});

} // namespace rankscope
