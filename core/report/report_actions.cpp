// SPDX-License-Identifier: MIT
#include "report.h"

namespace rankscope {

std::vector<RenderedFixAction> reportFixActions(const ReportInput& in)
{
    if (!in.diagnosis || !in.catalog || in.diagnosis->signature < 0
        || static_cast<std::size_t>(in.diagnosis->signature) >= in.catalog->signatures.size())
        return {};
    const Signature& sig = in.catalog->signatures[static_cast<std::size_t>(in.diagnosis->signature)];
    return renderFixActions(sig.actions, in.idiom, in.diagnosis->fixContext);
}

} // namespace rankscope
