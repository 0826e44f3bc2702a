// SPDX-License-Identifier: MIT
// The failure-signature catalog: JSON data files (signatures/*.json) loaded into plain value types.
// Loading never throws and never stops at the first bad entry: every problem becomes an error string that
// names the file, the entry and the field, and the other entries still load.
#pragma once

#include "fix_action.h"
#include "log_model.h"

#include <QString>
#include <QStringList>
#include <memory>
#include <optional>
#include <vector>

namespace re2 {
class RE2;
}

namespace rankscope {

// How much a matched line says about the failure. A symptom (watchdog timeout, wrapper exception) never
// outranks a cause; context lines are loud but benign.
enum class SignatureRole : quint8
{
    Cause = 0,
    Symptom = 1,
    Context = 2
};
QString signatureRoleName(SignatureRole role);
// A role as a rank, lower first (cause 0, symptom 1, context 2), and the rank of a line that no signature
// matched, after all of them: the scan keeps a record's best rank, the diagnosis orders by it.
constexpr int roleRank(SignatureRole role)
{
    return static_cast<int>(role);
}
constexpr int kUnmatchedRoleRank = roleRank(SignatureRole::Context) + 1;
std::optional<SignatureRole> parseSignatureRole(const QString& name);

// One stage of the multi-line fingerprint (an INFO start, an early WARN, an ERROR carrying the symptom).
struct FingerprintStep
{
    Severity severity = Severity::Info;
    QString pattern; // RE2, unanchored, may be empty when the stage is only described
    QString description;
};

// When a refinement applies (see Signature::refines): every condition given must hold.
struct RefineConditions
{
    QStringList signatures; // some event of the incident matched one of these ids
    QString initiating; // RE2 the initiating record (its line or a continuation line) must match
    std::shared_ptr<const re2::RE2> initiatingPattern;
    bool silentRank = false; // a rank the incident knows printed no failure while others timed out
    // Two ranks' watchdog timeouts name different collectives (OpType or size) at the same SeqNum of one
    // process group: the ranks called collectives in different orders.
    bool mismatchedCollectives = false;
    // Variables the run had (Incident::envSettings): "NCCL_HOSTID" (set to anything) or
    // "NCCL_ALGO=CollNetDirect" (that value); one of them is enough.
    QStringList env;
};

struct Signature
{
    QString id;
    QString title;
    QString literal; // the canonical message, searchable with rg -F
    QString family;
    SignatureRole role = SignatureRole::Cause;
    QString category; // hardware | communication | configuration | software | resource
    QString summary;
    QString explanation;
    QString fix; // template, see template_render.h: the explanation of the fix
    std::vector<FixAction> actions; // what the user does, typed (fix_action.h)
    std::vector<Discriminator> discriminators; // one per sibling: the experiment that tells them apart
    QStringList patterns; // RE2, unanchored, matched against the raw line
    // patterns[i] as the loader compiled it to validate it (default options, errors not logged), so the
    // matcher does not compile it again; null or missing for a pattern that did not compile or an entry
    // built in code.
    std::vector<std::shared_ptr<const re2::RE2>> compiledPatterns;
    QStringList stacks;
    QStringList symptoms;
    QStringList checklist;
    QStringList evidenceCommands; // command templates: shown and copied, never executed
    QStringList verify; // command templates
    QStringList siblings; // ids of adjacent failures to rule out
    QStringList references; // public URLs
    QStringList examplesMatch;
    QStringList examplesNoMatch;
    std::optional<Severity> severity; // the severity the line implies, when the entry states one
    std::vector<FingerprintStep> fingerprint;
    // A catch-all ("Cuda failure '...'"): any other entry of the same role that matches the line wins.
    bool fallback = false;
    // Advice for a part of a library rather than a wording ("an NCCL WARN from transport/net_ib.cc"): it
    // never matches a line in the scan; the diagnosis shows it when the initiating line matches no entry.
    bool hint = false;
    // A hint asked of the traceback's innermost frame only (its last 'File "..."' line): where the exception
    // was raised, not every library the call passed through.
    bool innermostFrame = false;
    // A network plugin or transport that failed to initialise: NCCL goes on with the next one (its sockets).
    // When the log shows it did and a later cause follows, that cause is the failure (diagnosis.cpp).
    bool networkFallback = false;
    // A variant of another entry told apart by the rest of the incident: when the initiating event matched
    // `refines` and `when` holds, the diagnosis shows this entry's summary, fix and checks instead.
    QString refines;
    RefineConditions when;
    // The phase a hang without any error line stopped in ("nccl-init"): the diagnosis shows this entry for
    // such a stall. Such an entry has no patterns.
    QString stall;
    QString sourceFile; // file the entry was loaded from (for messages)
    int sourceIndex = -1; // 0-based position of the entry in its file
};

struct Catalog
{
    std::vector<Signature> signatures;
    QStringList files; // every catalog file that contributed at least one entry

    int indexOf(const QString& id) const; // -1 when absent
    int familyCount() const;
};

struct CatalogLoadResult
{
    Catalog catalog;
    QStringList errors; // "ib.json: entry 3 (nccl-ib-foo): field 'patterns'[1]: RE2 error: missing )"
    QStringList notes; // non-fatal remarks, e.g. a user entry replacing a built-in one
    bool ok() const { return errors.isEmpty(); }
};

// Loads one catalog file ({"family": ..., "signatures": [...]}).
CatalogLoadResult loadCatalogFile(const QString& path);
// Loads every *.json in dir (sorted by name) except schema.json. Duplicate ids are errors.
CatalogLoadResult loadCatalogDir(const QString& dir);
// The installed data folder, else the source tree's signatures/, else the copy compiled into the binary;
// then each of extraDirs, whose entries replace built-in entries of the same id (with a note).
CatalogLoadResult loadDefaultCatalog(const QStringList& extraDirs = {});
// Where loadDefaultCatalog reads the built-in catalog from (a directory or a ":/signatures" resource path).
QString defaultCatalogDir();
// Makes the compiled-in copy (Qt resource "builtin_signatures") reachable from a static library.
void initBuiltinSignatures();

// Merges `overlay` into `base`: an entry with an existing id replaces it and adds a note.
void mergeCatalog(CatalogLoadResult& base, CatalogLoadResult overlay);

} // namespace rankscope
