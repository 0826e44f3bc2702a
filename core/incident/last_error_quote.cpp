// SPDX-License-Identifier: MIT
#include "last_error_quote.h"

#include "line_prefix.h"

namespace rankscope {

namespace {

QString messageOf(const QString& raw)
{
    const QByteArray bytes = raw.toUtf8();
    const LinePrefix p =
        parseLinePrefix(std::string_view(bytes.constData(), static_cast<size_t>(bytes.size())));
    return QString::fromUtf8(p.message.data(), static_cast<qsizetype>(p.message.size())).trimmed();
}

} // namespace

void anchorQuotedLastErrors(std::vector<LogEvent>& events)
{
    for (LogEvent& e : events) {
        // The record's lines are consecutive only when every one of them was kept.
        const qsizetype kept = e.continuation.size();
        // A record whose best match is the wrapper's own entry, or none, still quotes where NCCL failed: a
        // quote the catalog does not know ("NET/OFI Unable to insert remote address ...") heads it too, with
        // the wrapper's signature, since it is the first line that says what went wrong.
        if (kept < 2 || e.lineCount != kept + 1)
            continue;
        if (e.text.contains(QLatin1String(" NCCL WARN ")) || e.text.contains(QLatin1String(" NCCL INFO ")))
            continue;
        for (qsizetype i = 0; i + 1 < kept; ++i) {
            if (messageOf(e.continuation[i]) != QLatin1String("Last error:"))
                continue;
            const QString quoted = e.continuation[i + 1];
            const QString message = messageOf(quoted);
            if (message.isEmpty())
                break;
            // Continuation line i is physical line e.line + 1 + i; the quoted one follows it.
            e.line += i + 2;
            e.lineCount -= static_cast<int>(i + 2);
            e.text = quoted;
            e.message = message;
            e.continuation = e.continuation.mid(i + 2);
            break;
        }
    }
}

} // namespace rankscope
