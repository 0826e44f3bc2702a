// SPDX-License-Identifier: MIT
// A user catalog file: loading (JSON, fields, RE2 syntax) and then matching with what loaded, so that a
// hostile pattern set can neither crash the matcher nor slip past its memory budget.
#include "fuzz_support.h"
#include "signature_catalog.h"
#include "signature_matcher.h"

using namespace rankscope;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QString path = fuzz::writeScratchFile(QStringLiteral("user.json"), data, size);
    const CatalogLoadResult loaded = loadCatalogFile(path);
    for (const QString& e : loaded.errors)
        if (!e.contains(QStringLiteral("user.json")))
            fuzz::fail("a catalog error does not name its file");
    if (loaded.catalog.signatures.empty())
        return 0;
    MatcherOptions options;
    options.maxMemoryBytes = 8 << 20; // small budget: keeps the fuzzer fast and exercises rejection
    const SignatureMatcher matcher(loaded.catalog, options);
    static const char* const kLines[] = {
        "gpu-a02:52117:52190 [3] NCCL WARN NET/IB : Got completion from peer 10.10.0.11<45123> with "
        "status=12",
        "[default3]:[rank7]:[E314 02:17:44.791203518 ProcessGroupNCCL.cpp:593] [Rank 7] Watchdog caught "
        "collective operation timeout",
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB",
        "",
        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab",
    };
    for (const char* line : kLines) {
        const MatchResult best = matcher.match(line);
        const std::vector<int> all = matcher.matchAll(line);
        if (best && best.signature >= static_cast<int>(loaded.catalog.signatures.size()))
            fuzz::fail("match() returned a signature index outside the catalog");
        for (int s : all)
            (void)matcher.matchSignature(s, line);
    }
    // The catalog's own examples are the lines its authors expect to match.
    for (const Signature& s : loaded.catalog.signatures)
        for (const QString& example : s.examplesMatch) {
            const QByteArray utf8 = example.toUtf8();
            (void)matcher.match(std::string_view(utf8.constData(), static_cast<std::size_t>(utf8.size())));
        }
    return 0;
}
