// SPDX-License-Identifier: MIT
// What more than one report format writes the same way.
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

QString collateralSummary(const CollateralGroup& g)
{
    // Lines without a rank are named by their writer, as in the window ("0 rank(s) []" said nothing).
    QString line = QStringLiteral("%1: %2").arg(collateralWho(g), g.label);
    if (!g.pointsTo.isEmpty())
        line += QStringLiteral(" → points to %1").arg(g.pointsTo);
    return line;
}

} // namespace rankscope
