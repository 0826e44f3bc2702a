// SPDX-License-Identifier: MIT
// What a scan of one file produces: streams (who wrote a run of lines), events with their stamps, identity
// facts and restarts. The scanner fills them; attribution and event order (incident/) read them.
#pragma once

#include "cancel_token.h"
#include "identity_facts.h"
#include "input_discovery.h"
#include "log_model.h"
#include "signature_catalog.h"
#include "timestamp.h"

#include <array>
#include <atomic>
#include <vector>

namespace rankscope {

class SignatureMatcher;
struct Catalog;

// Who wrote a run of lines, as far as the line itself says.
struct StreamKey
{
    int launcherRank = -1;
    int teeLocalRank = -1;
    int globalRank = -1;
    QString host;
    qint64 pid = -1;
    int dev = -1;
    int segment = 0; // elastic restarts inside one file: 0 before the first, 1 after it, ...
    friend bool operator==(const StreamKey&, const StreamKey&) = default;
};

struct StreamStats
{
    StreamKey key;
    std::array<qint64, 4> counts {};
    qint64 lines = 0;
    ParsedStamp firstStamp, lastStamp;
    qint64 firstLine = 0, lastLine = 0; // 1-based lines of the stamps above
    bool hasStamp = false;
    QString lastStep; // the last "step N" progress line seen
    int rank = -1; // filled by attribution
};

struct ScannedEvent
{
    LogEvent event;
    int stream = -1; // index into FileScan::streams
    ParsedStamp stamp; // the record's own stamp (kind None when it has none)
    ParsedStamp prevStamp, nextStamp; // nearest stamped lines of the same file, for inference
    ParsedStamp lastRepeatStamp; // the stamp of the last repeat folded into it (repeat_folding.h), if any
    qint64 prevStampLine = -1, nextStampLine = -1;
    bool nccl = false;
    bool ncclWarnText = false; // event.text holds " NCCL WARN " (found in the bytes, before decoding)
    int rolePriority = kUnmatchedRoleRank; // roleRank() of its best signature
};

struct FileScan
{
    FileInfo info;
    QString rootFolder;
    PathHints hints;
    std::vector<ScannedEvent> events;
    std::vector<StreamStats> streams;
    std::vector<IdentityFact> facts;
    std::vector<qint64> restartLines; // elastic restarts seen inside the file (1-based lines)
    std::vector<qint64> restartOffsets; // the byte offset of each of those lines
    int segment = 0; // which part of a restarted file this is (see splitRestarts)
    QString skipReason; // set when the file could not be analysed at all
    int yearSeen = 0; // the year of the first stamp that carries one
    bool ncclInitSeen = false; // an NCCL setup line ("NCCL version", "Bootstrap", "Init START")
    qint64 ncclInitLine = 0; // the first of them (1-based)
    bool ncclInitComplete = false; // some communicator printed "Init COMPLETE"
    qint64 ncclInitCompleteLine = 0; // the last such line (1-based)
    qint64 benchTableLine = 0; // nccl-tests' or rccl-tests' results header (1-based), 0 when none
    bool benchResultRow = false; // a result row followed it: the first collective completed
    std::vector<LaunchHit> launch; // the first line of each launcher and framework seen (launch_detect.h)
    std::vector<EnvSetting> envSettings; // variables the file shows set (run_settings.h); file unset
    std::vector<SetupFact> setupFacts; // each key once per host (setup_facts.h); file unset
};

struct ScanContext
{
    const Catalog* catalog = nullptr;
    const SignatureMatcher* matcher = nullptr;
    const CancelToken* cancel = nullptr;
    std::atomic<qint64>* bytesDone = nullptr;
    // Keep FileInfo::lineOffsets. Without them a file is indexed again when opened; writing 8 bytes per
    // line of a 1 GB folder cost a fifth of the scan's time. In-memory inputs and files split on '\r'
    // keep them regardless (FileLines indexes on '\n' only).
    bool lineIndex = true;
    // The per-line shortcuts for repeated NCCL and glog prefixes. Off, every line takes the full parse:
    // the tests compare both ways, since a shortcut must never change a result.
    bool shortcuts = true;
    // Repeats of one event folded into its first ones while scanning (repeat_folding.h). Off only in the
    // test that shows folding changes no finding.
    bool foldRepeats = true;
};

inline constexpr qint64 kMaxLineBytes = 1 << 20; // longer lines are cut, with a marker
inline constexpr int kMaxRecordLines = 400; // continuation lines kept per record
inline constexpr size_t kMaxEnvSettings = 64; // variables kept per file (FileScan::envSettings)
inline constexpr size_t kMaxSetupFacts = 64; // setup facts kept per file (FileScan::setupFacts)
inline constexpr size_t kMaxIncidentSetupFacts = 3 * 4096; // three keys of 4,096 hosts

} // namespace rankscope
