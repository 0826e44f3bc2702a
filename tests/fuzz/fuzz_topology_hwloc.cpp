// SPDX-License-Identifier: MIT
// hwloc XML captures go through hwloc's own XML importer; kept apart from the other topology parsers
// because each run loads a whole hwloc topology (slow) and the interesting inputs differ.
#include "fuzz_support.h"
#include "topology_loader.h"

using namespace rankscope;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QByteArray bytes =
        QByteArray::fromRawData(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    TopologyParse p = parseHwlocXml(bytes, QStringLiteral("hwloc-topo.fuzz-host.xml"));
    if (p.error.isEmpty()) {
        HostTopology merged = p.topo;
        mergeHostTopology(merged, p.topo);
        derivePathClasses(merged);
    } else if (!p.error.contains(QStringLiteral("hwloc-topo.fuzz-host.xml"))) {
        fuzz::fail("an hwloc error does not name its source");
    }
    return 0;
}
