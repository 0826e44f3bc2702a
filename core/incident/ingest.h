// SPDX-License-Identifier: MIT
// Entry point of the log engine: read folders, files, gzip and stdin, attribute every line, order events.
#pragma once

#include "cancel_token.h"
#include "input_discovery.h"
#include "log_model.h"

#include <QString>
#include <QStringList>
#include <functional>
#include <optional>
#include <vector>

namespace rankscope {

class BackgroundRelease;
class SignatureMatcher;
struct Catalog;
struct FileScan;
struct ScanContext;

// The scan of one input file: scanFile() (core/scan/file_scanner.h), or in the tests a plain reference.
using ScanFileFn = FileScan (*)(const InputFile& input, int fileIndex, const ScanContext& ctx);

struct LoadOptions
{
    QStringList paths; // folders (recursive), files, or "-" for stdin
    QString pastedText; // text pasted or dropped into the window; becomes its own input
    const Catalog* catalog = nullptr; // optional, with matcher: tags events with signature hits
    const SignatureMatcher* matcher = nullptr; // built from catalog
    int threads = 0; // 0 = all cores
    bool lineIndex = true; // keep each file's line offsets (see ScanContext::lineIndex)
    bool shortcuts = true; // see ScanContext::shortcuts
    bool foldRepeats = true; // see ScanContext::foldRepeats
    // The inputs of `paths` and `pastedText`, when the caller listed them already (analyze() does so while
    // it compiles the catalog); otherwise loadIncidents() lists them.
    std::optional<Discovery> discovered;
    // When set, each attempt's scan data is freed there once its incident is built (analyze() diagnoses
    // meanwhile); otherwise here.
    BackgroundRelease* release = nullptr;
    // Test hook: runs after the inputs are listed and before any is read (to delete or grow files then).
    std::function<void()> afterDiscovery;
    // Test hook: the scanner of each file; null is scanFile(). The tests compare scanFile() with a plain
    // line-by-line reference scan through it (tst_scan_reference, fuzz_scan_shortcuts).
    ScanFileFn scanner = nullptr;
};

struct LoadResult
{
    std::vector<Incident> incidents; // one per attempt (elastic restarts), oldest first
    int current = -1; // the latest attempt, shown by default
    QStringList topologyFiles; // topology captures found among the inputs (by content)
    QString error; // set when no input at all could be read
    bool cancelled = false;
};

LoadResult loadIncidents(
    const LoadOptions& options, const CancelToken* cancel = nullptr, const ProgressFn& progress = {});

} // namespace rankscope
