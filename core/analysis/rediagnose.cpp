// SPDX-License-Identifier: MIT
#include "rediagnose.h"

namespace rankscope {

Analysis rediagnoseWithTopology(
    const Analysis& scanned, const QStringList& topologyPaths, const QString& host, const CancelToken* cancel)
{
    Analysis out;
    out.catalog = scanned.catalog;
    out.nodeEvidence = scanned.nodeEvidence;
    out.error = scanned.error;
    out.current = scanned.current;
    out.topologyPaths = topologyPaths;
    if (!topologyPaths.isEmpty())
        out.topology = loadTopologyFiles(topologyPaths, host);
    out.attempts.reserve(scanned.attempts.size());
    for (const AttemptAnalysis& before : scanned.attempts) {
        if (cancel && cancel->isCancelled()) {
            out.cancelled = true;
            return out;
        }
        AttemptAnalysis a;
        a.incident = before.incident;
        diagnoseAttempt(a, out.catalog.catalog, out.topology, out.nodeEvidence);
        out.attempts.push_back(std::move(a));
    }
    return out;
}

} // namespace rankscope
