// SPDX-License-Identifier: MIT
// Internal steps of diagnose(), one file each so that each rule stays readable.
#pragma once

#include "diagnosis_types.h"

namespace rankscope::detail {

int roleOf(const Incident& inc, const Catalog& cat, int event); // 0 cause, 1 symptom, 2 context, 3 none
int findInitiating(const Incident& inc, const Catalog& cat, bool* causeFound);
void fillCollateral(const Incident& inc, const Catalog& cat, Diagnosis& d);
void fillSuspects(const Incident& inc, const Catalog& cat, Diagnosis& d);
void fillTorchrunNotes(const Incident& inc, Diagnosis& d);
QString peerDescription(const Incident& inc, const QString& peer);

} // namespace rankscope::detail
