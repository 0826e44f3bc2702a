// SPDX-License-Identifier: MIT
// Why a line matches what it matches: for one typed or pasted log line, every catalog entry whose patterns
// match it (which pattern, the span, the named captures), what the prefix parser peeled off the front, and
// which entry wins by the matcher's own rule (cause > symptom > context; a fallback loses to any other entry
// of its role; then catalog order). A pure function: the Signature Hub and `signatures search` call it.
#pragma once

#include "log_model.h"
#include "signature_catalog.h"

#include <QString>
#include <QStringList>
#include <vector>

namespace rankscope {

class SignatureMatcher;

struct LineMatchExplanation
{
    int signature = -1; // index into the catalog
    int pattern = -1; // index into that entry's patterns: the first one that matches
    QString patternText; // that pattern, as written in the catalog
    qsizetype spanStart = 0; // the matched span in the line, in QChars
    qsizetype spanLength = 0;
    QString matchedText;
    std::vector<Capture> captures; // named groups that took part in the match
    bool winner = false;
    QString whyNotWinner; // for the others: why the winner outranks this entry
};

struct LineExplanation
{
    QString line; // the line as given, trailing newline cut
    QStringList prefixes; // "srun label: rank 12", "NCCL: host gpu-a01, pid 4242, ...", in line order
    QString message; // the text after every prefix
    std::vector<LineMatchExplanation> matches; // in catalog order
    int winner = -1; // index into matches; -1 when nothing matched
    QString winnerReason; // why the winner wins, when several match
};

// The first line of `text` (a paste may hold more) explained against the catalog the matcher was built on.
LineExplanation explainLine(const QString& text, const Catalog& catalog, const SignatureMatcher& matcher);

} // namespace rankscope
