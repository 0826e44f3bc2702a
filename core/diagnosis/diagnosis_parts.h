// SPDX-License-Identifier: MIT
// Internal steps of diagnose(), one file each so that each rule stays readable.
#pragma once

#include "diagnosis_types.h"
#include "template_render.h"

namespace rankscope::detail {

int roleOf(const Incident& inc, const Catalog& cat, int event); // roleRank(), kUnmatchedRoleRank: none
// The initiating event by causal chains (causal_chains.cpp); `how` says how it was chosen when that is
// worth telling (by reason rather than time, among several chains).
// explainedBy (optional): a cause that closely follows an unrecognised initiating event in its chain and
// names what it reports, or -1.
int findInitiating(
    const Incident& inc, const Catalog& cat, bool* causeFound, QString* how, int* explainedBy = nullptr);
// The variant of d.signature that the incident selects (Signature::refines), else d.signature.
int refineSignature(const Incident& inc, const Catalog& cat, const Diagnosis& d, QString* why);
// Watchdog timeouts at one SeqNum that name different collectives, where one call has fewer ranks waiting in
// it than any other: the first event of that call (the rank that took another code path), else -1.
int oddCollectiveEvent(const Incident& inc, QString* why);
void fillCollateral(const Incident& inc, const Catalog& cat, Diagnosis& d);
void fillSuspects(const Incident& inc, const Catalog& cat, Diagnosis& d);
void fillTorchrunNotes(const Incident& inc, Diagnosis& d);
// The entry's summary, fix, checklist and commands, filled from `ctx`; what needs a value it lacks is left
// out.
// `tmpl` without the places ("on {host}") whose value this incident lacks (unknown_place.cpp).
QString withoutUnknownPlaces(const QString& tmpl, const RenderContext& ctx);
void renderSignatureTexts(const Signature& sig, const RenderContext& ctx, Diagnosis& d);
// The variables the run had (Incident::envSettings), the first value of each name, for the fix renderer.
QHash<QString, RunSetting> runSettingsOf(const Incident& inc);
// A hang without an error line: NCCL's setup began and no communicator completed it. Fills the headline
// and the catalog's stall entry (Signature::stall); false when the incident shows no such stall.
bool diagnoseStall(const Incident& inc, const Catalog& cat, Diagnosis& d);
// Hosts whose NCCL setup differs (Incident::setupFacts): for each key with two or more groups, one note
// ("network plugin differs between hosts: ... on A; ... on B"). With no failure line, the difference is the
// lead: the headline, the catalog's entry for it (Signature::stall "host-divergence") and the line of the
// host that differs from the most; true then.
QStringList setupDivergenceNotes(const Incident& inc, int* file = nullptr, qint64* line = nullptr);
bool diagnoseDivergence(const Incident& inc, const Catalog& cat, Diagnosis& d);
// An entry marked hint (Signature::hint) whose pattern the initiating record matches, for a line no entry
// knows: its advice is for the part of the library that printed it; -1 when none. Sets `how`.
int hintFor(const Incident& inc, const Catalog& cat, Diagnosis& d, QString* how);
// The event's record carries an NCCL return-code trail with an error ("graph/search.cc:749 -> 2").
bool passesAnErrorUp(const LogEvent& e);
// An NCCL WARN whose own words say something failed or was refused ("failed", "Invalid rank requested").
bool ncclWarnReportsFailure(const LogEvent& e);
QString peerDescription(const Incident& inc, const QString& peer);

} // namespace rankscope::detail
