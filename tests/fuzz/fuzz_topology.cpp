// SPDX-License-Identifier: MIT
// Every text and NCCL-XML topology parser, the content-sniffing dispatcher, and what runs on a parsed
// graph afterwards (merging a second capture, deriving path classes).
#include "fuzz_support.h"
#include "topology_loader.h"

using namespace rankscope;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QByteArray bytes =
        QByteArray::fromRawData(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    const QString name = QStringLiteral("nvidia-smi-topo.fuzz-host.txt");
    TopologyParse parses[] = {
        parseNvidiaSmiTopo(bytes, name),
        parseRocmSmiTopo(bytes, name),
        parseNcclTopoXml(bytes, name),
        parseTopologyCapture(bytes, name),
    };
    (void)detectTopologyFormat(bytes);
    for (TopologyParse& p : parses) {
        if (!p.error.isEmpty()) {
            if (!p.error.contains(name))
                fuzz::fail("a topology error does not name its source");
            continue;
        }
        HostTopology merged = p.topo;
        mergeHostTopology(merged, p.topo);
        derivePathClasses(merged);
    }
    return 0;
}
