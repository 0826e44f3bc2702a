// SPDX-License-Identifier: MIT
// "Reset all GPUs on {host}" when no host is known: the place is left out, not the sentence (so is "on
// rank {rank}", and "({peer})" after the thing it names). The prose
// renderer drops a whole sentence that needs a value the incident lacks; where the value only says where
// the action goes ("on {host}", "of {nic}", "in {log_folder}"), the action still holds without it. "to
// {value}" stays: there the value is the action ("set X to {value}").
#include "diagnosis_parts.h"

#include <QRegularExpression>

namespace rankscope::detail {

QString withoutUnknownPlaces(const QString& tmpl, const RenderContext& ctx)
{
    // " on {host}", " on rank {rank}", " under {host}", and a parenthesis that only names the value
    // ("the peer ({peer})").
    static const QRegularExpression place(QStringLiteral(
        R"( (?:(?:on|of|at|for|from|in|under|inside|within|across|behind)(?: (?:rank|host|node|GPU|device|NIC|peer))? \{([A-Za-z_]\w*)\}(?=[\s.,;:)]|$)|\(\{([A-Za-z_]\w*)\}\)))"));
    QString out;
    qsizetype from = 0;
    QRegularExpressionMatchIterator it = place.globalMatch(tmpl);
    while (it.hasNext()) {
        const QRegularExpressionMatch m = it.next();
        QString value;
        const QString name = m.captured(1).isEmpty() ? m.captured(2) : m.captured(1);
        if (lookupPlaceholder(ctx, name, &value))
            continue;
        out += tmpl.mid(from, m.capturedStart() - from);
        from = m.capturedEnd();
    }
    out += tmpl.mid(from);
    return out;
}

} // namespace rankscope::detail
