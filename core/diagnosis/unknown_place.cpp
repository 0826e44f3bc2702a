// SPDX-License-Identifier: MIT
// "Reset all GPUs on {host}" when no host is known: the place is left out, not the sentence. The prose
// renderer drops a whole sentence that needs a value the incident lacks; where the value only says where
// the action goes ("on {host}", "of {nic}", "in {log_folder}"), the action still holds without it. "to
// {value}" stays: there the value is the action ("set X to {value}").
#include "diagnosis_parts.h"

#include <QRegularExpression>

namespace rankscope::detail {

QString withoutUnknownPlaces(const QString& tmpl, const RenderContext& ctx)
{
    static const QRegularExpression place(
        QStringLiteral(R"( (?:on|of|at|for|from|in) \{([A-Za-z_]\w*)\}(?=[\s.,;:)]|$))"));
    QString out;
    qsizetype from = 0;
    QRegularExpressionMatchIterator it = place.globalMatch(tmpl);
    while (it.hasNext()) {
        const QRegularExpressionMatch m = it.next();
        QString value;
        if (lookupPlaceholder(ctx, m.captured(1), &value))
            continue;
        out += tmpl.mid(from, m.capturedStart() - from);
        from = m.capturedEnd();
    }
    out += tmpl.mid(from);
    return out;
}

} // namespace rankscope::detail
