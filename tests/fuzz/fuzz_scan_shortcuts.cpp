// SPDX-License-Identifier: MIT
// The scanner's shortcuts (a repeated NCCL prefix, a repeated line but for a counter, a repeated glog
// header) against the full parse, and scanFile() against the plain line-by-line reference scan
// (reference_scan.h): one log file loaded the three ways, with the built-in catalog, must give the same
// incidents field by field. Any difference is a finding.
#include "../incident_compare.h"
#include "../reference_scan.h"
#include "fuzz_support.h"
#include "ingest.h"
#include "signature_catalog.h"
#include "signature_matcher.h"

#include <memory>

using namespace rankscope;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static const Catalog catalog = loadDefaultCatalog().catalog;
    static const auto matcher = std::make_unique<SignatureMatcher>(catalog);
    const QString path = fuzz::writeScratchFile(QStringLiteral("nccl.gpu-a01.41872.log"), data, size);
    LoadOptions options;
    options.paths = { path };
    options.threads = 1;
    options.catalog = &catalog;
    options.matcher = matcher.get();
    const LoadResult fast = loadIncidents(options);
    options.shortcuts = false;
    const LoadResult full = loadIncidents(options);
    const QString difference = testing::loadDifference(fast, full);
    if (!difference.isEmpty()) {
        std::fprintf(stderr, "with shortcuts against without: %s\n", qPrintable(difference));
        fuzz::fail("the scanner's shortcuts changed a result");
    }
    options.scanner = &testing::referenceScan;
    const LoadResult reference = loadIncidents(options);
    const QString fromReference = testing::loadDifference(fast, reference);
    if (!fromReference.isEmpty()) {
        std::fprintf(stderr, "scanFile() against the reference scan: %s\n", qPrintable(fromReference));
        fuzz::fail("scanFile() and the reference scan disagree");
    }
    return 0;
}
