// SPDX-License-Identifier: MIT
// A topology capture added to or removed from an analysis whose logs were read already: only the
// diagnosis runs again. The window's File ▸ Open Topology… and Clear Topology use it; a scan of a big
// incident takes seconds, a diagnosis milliseconds.
#pragma once

#include "analysis.h"

namespace rankscope {

// `scanned` with the topology read from `topologyPaths` (host: for captures that name none) and every
// attempt diagnosed again on it. The incidents are copied from `scanned`, never read from the logs again;
// the catalog and the node evidence are the ones `scanned` was diagnosed with. Cancelled between
// attempts: the result has `cancelled` set.
Analysis rediagnoseWithTopology(const Analysis& scanned, const QStringList& topologyPaths,
    const QString& host = {}, const CancelToken* cancel = nullptr);

} // namespace rankscope
