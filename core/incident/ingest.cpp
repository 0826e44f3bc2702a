// SPDX-License-Identifier: MIT
#include "ingest.h"

#include "attribution.h"
#include "background_release.h"
#include "file_scanner.h"
#include "input_discovery.h"
#include "last_error_quote.h"

#include <QFileInfo>
#include <algorithm>
#include <atomic>
#include <map>
#include <optional>
#include <thread>

namespace rankscope {

namespace {

// Scans files on all cores; each worker pulls the next file, so big files don't stall the rest.
std::vector<FileScan> scanAll(const std::vector<InputFile>& files, const LoadOptions& options,
    const CancelToken* cancel, const ProgressFn& progress)
{
    std::vector<FileScan> scans(files.size());
    qint64 total = 0;
    for (const InputFile& f : files)
        total += f.size;
    std::atomic<qint64> done { 0 };
    // Largest first: the last files to finish are then small ones, and no core waits on a big one alone.
    std::vector<size_t> order(files.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    // An archive's members go together, in archive order, ranked by the archive's size: each reader then
    // goes on from where the last member ended (input/archive_cursor.h).
    std::map<QString, qint64> archiveBytes;
    for (const InputFile& f : files) {
        if (!f.archive.isEmpty())
            archiveBytes[f.archive] += f.size;
    }
    const auto rankBytes = [&](const InputFile& f) {
        return f.archive.isEmpty() ? f.size : archiveBytes.at(f.archive);
    };
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        const InputFile& x = files[a];
        const InputFile& y = files[b];
        if (rankBytes(x) != rankBytes(y))
            return rankBytes(x) > rankBytes(y);
        if (x.archive != y.archive)
            return x.archive < y.archive;
        return x.archiveOrdinal < y.archiveOrdinal;
    });
    std::atomic<size_t> next { 0 };
    ScanContext ctx;
    ctx.catalog = options.catalog;
    ctx.matcher = options.matcher;
    ctx.cancel = cancel;
    ctx.bytesDone = &done;
    ctx.lineIndex = options.lineIndex;
    ctx.shortcuts = options.shortcuts;
    ctx.foldRepeats = options.foldRepeats;
    const ScanFileFn scan = options.scanner ? options.scanner : &scanFile;
    auto worker = [&] {
        for (;;) {
            const size_t k = next.fetch_add(1);
            if (k >= files.size() || (cancel && cancel->isCancelled()))
                return;
            const size_t i = order[k];
            // `order` is a permutation and `next` hands each k out once: slot i is this thread's alone.
            Q_ASSERT(i < scans.size() && scans[i].info.lines == 0 && scans[i].events.empty());
            scans[i] = scan(files[i], static_cast<int>(i), ctx);
        }
    };
    unsigned n =
        options.threads > 0 ? static_cast<unsigned>(options.threads) : std::thread::hardware_concurrency();
    n = std::max(1u, std::min<unsigned>(n, static_cast<unsigned>(files.size())));
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < n; ++t)
        pool.emplace_back(worker);
    // The calling thread works too, and reports progress between files.
    std::atomic<bool> finished { false };
    std::thread reporter;
    if (progress) {
        reporter = std::thread([&] {
            while (!finished.load()) {
                progress(done.load(), total);
                std::this_thread::sleep_for(std::chrono::milliseconds(50));
            }
        });
    }
    worker();
    for (std::thread& t : pool)
        t.join();
    finished = true;
    if (reporter.joinable())
        reporter.join();
    if (progress)
        progress(total, total);
    return scans;
}

QString attemptLabel(int attempt)
{
    return QStringLiteral("attempt_%1").arg(attempt);
}

} // namespace

LoadResult loadIncidents(const LoadOptions& options, const CancelToken* cancel, const ProgressFn& progress)
{
    LoadResult result;
    Discovery found =
        options.discovered ? *options.discovered : discoverInputs(options.paths, options.pastedText, cancel);
    if (options.afterDiscovery)
        options.afterDiscovery();
    std::vector<FileScan> scans = scanAll(found.files, options, cancel, progress);
    if (cancel && cancel->isCancelled()) {
        result.cancelled = true;
        result.error = QStringLiteral("loading stopped");
        return result;
    }

    // Files that could not be analysed are listed, with the reason; the rest go on.
    std::vector<SkippedInput> skipped = std::move(found.skipped);
    for (const InputFile& capture : found.topology)
        result.topologyFiles.push_back(capture.path); // discovery told them from logs by content
    std::map<int, std::vector<FileScan>> byAttempt;
    // The usual job has one attempt and no restart inside a file: its scans are compacted where they are,
    // not moved into a second vector (100,000 files would hold both, 90 MB, at once).
    std::optional<int> onlyAttempt;
    bool oneAttempt = true;
    for (const FileScan& s : scans) {
        if (!s.skipReason.isEmpty())
            continue;
        if ((!s.restartLines.empty() && s.hints.attempt < 0)
            || (onlyAttempt && *onlyAttempt != s.hints.attempt)) {
            oneAttempt = false;
            break;
        }
        onlyAttempt = s.hints.attempt;
    }
    std::size_t kept = 0;
    for (FileScan& s : scans) {
        if (!s.skipReason.isEmpty()) {
            skipped.push_back({ s.info.path, s.skipReason });
            continue;
        }
        if (oneAttempt) {
            if (&scans[kept] != &s)
                scans[kept] = std::move(s);
            ++kept;
            continue;
        }
        for (FileScan& part : splitRestarts(std::move(s)))
            byAttempt[part.hints.attempt].push_back(std::move(part));
    }
    if (oneAttempt && kept > 0) {
        scans.erase(scans.begin() + static_cast<std::ptrdiff_t>(kept), scans.end());
        byAttempt[*onlyAttempt] = std::move(scans);
    }
    // Files outside any attempt_N folder belong to the latest attempt.
    if (byAttempt.size() > 1 && byAttempt.count(-1)) {
        std::vector<FileScan> loose = std::move(byAttempt[-1]);
        byAttempt.erase(-1);
        auto& latest = byAttempt.rbegin()->second;
        for (FileScan& s : loose)
            latest.push_back(std::move(s));
    }
    if (byAttempt.empty()) {
        QStringList reasons;
        for (const SkippedInput& s : skipped)
            reasons.push_back(QStringLiteral("%1: %2").arg(s.path, s.reason));
        // Captures alone are no incident: say what they were read as, so the user knows to add the logs.
        QStringList captures;
        for (const InputFile& c : found.topology)
            captures.push_back(QStringLiteral("%1 (a topology capture)").arg(c.displayPath));
        for (const InputFile& c : found.nodeEvidence)
            captures.push_back(QStringLiteral("%1 (node evidence)").arg(c.displayPath));
        if (!captures.isEmpty())
            result.error = QStringLiteral("no log among the inputs, only %1; captures are read beside the "
                                          "job's logs, so give the logs with them")
                               .arg(captures.join(QStringLiteral(", ")))
                + (reasons.isEmpty() ? QString() : QStringLiteral("\nskipped:\n") + reasons.join(u'\n'));
        else
            result.error = reasons.isEmpty()
                ? QStringLiteral("no input files found in %1").arg(options.paths.join(QStringLiteral(", ")))
                : QStringLiteral("no input could be read:\n") + reasons.join(QLatin1Char('\n'));
        if (options.paths.isEmpty() && options.pastedText.isEmpty())
            result.error = QStringLiteral("no input given");
        return result;
    }

    for (auto& [attempt, attemptScans] : byAttempt) {
        Incident inc;
        inc.inputs = options.paths;
        if (!options.pastedText.isEmpty())
            inc.inputs.push_back(QStringLiteral("<pasted text>"));
        inc.label = attempt >= 0        ? attemptLabel(attempt)
            : options.paths.size() == 1 ? QFileInfo(options.paths.front()).fileName()
                                        : QStringLiteral("incident");
        if (inc.label.isEmpty() || inc.label == QLatin1String("-"))
            inc.label = QStringLiteral("incident");
        inc.skipped = skipped;
        buildIncident(attemptScans, inc);
        if (options.catalog)
            anchorQuotedLastErrors(inc.events);
        if (options.release)
            options.release->release(std::move(attemptScans));
        for (const FileInfo& f : inc.files) {
            for (const QString& note : f.notes)
                inc.warnings.push_back(QStringLiteral("%1: %2").arg(f.displayPath, note));
        }
        result.incidents.push_back(std::move(inc));
    }
    if (result.incidents.size() > 1) {
        for (Incident& inc : result.incidents)
            inc.warnings.push_back(QStringLiteral("elastic restarts: %1 attempts; this is %2")
                                       .arg(result.incidents.size())
                                       .arg(inc.label));
    }
    result.current = static_cast<int>(result.incidents.size()) - 1;
    return result;
}

} // namespace rankscope
