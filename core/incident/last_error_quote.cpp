// SPDX-License-Identifier: MIT
#include "last_error_quote.h"

#include "cann_header.h"
#include "line_prefix.h"
#include "paste_rejoin.h"

#include <QRegularExpression>

namespace rankscope {

namespace {

QString messageOf(const QString& raw)
{
    const QByteArray bytes = raw.toUtf8();
    const LinePrefix p =
        parseLinePrefix(std::string_view(bytes.constData(), static_cast<size_t>(bytes.size())));
    return QString::fromUtf8(p.message.data(), static_cast<qsizetype>(p.message.size())).trimmed();
}

// "ncclUnhandledCudaError: Call to CUDA function failed.", "ncclSystemError: System call ...".
bool isNcclErrorDescription(const QString& message)
{
    static const QRegularExpression description(QStringLiteral("^nccl[A-Z]\\w*Error: "));
    return description.match(message).hasMatch();
}

// The line under the description is NCCL's WARN when it is text of its own: not "Last error:" (the quote
// then follows it), not a traceback, frame or chained-exception line that starts another record.
bool quotesNcclsWords(const QString& message)
{
    if (message.isEmpty() || message == QLatin1String("Last error:"))
        return false;
    const QByteArray m = message.toUtf8();
    return !startsWithRecordMarker(std::string_view(m.constData(), static_cast<size_t>(m.size())));
}

bool isCannRuntimeReport(const QString& message)
{
    const QByteArray m = message.trimmed().toUtf8();
    return rankscope::isCannRuntimeReport(std::string_view(m.constData(), static_cast<size_t>(m.size())));
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
        // Huawei CANN's report under a framework's error (torch_npu's RuntimeError, then "EE9999: Inner
        // Error!" and the line that says what failed) is quoted the same way, when a collector's clock on
        // every line kept it in the exception's record.
        const bool cannHead = isCannRuntimeReport(e.message);
        for (qsizetype i = 0; i < kept; ++i) {
            qsizetype at = -1;
            const QString here = messageOf(e.continuation[i]);
            // NCCL 2.29 quotes its WARN right under the error's description ("ncclUnhandledCudaError: Call to
            // CUDA function failed."), without "Last error:".
            const bool quoteBelow = i + 1 < kept
                && (here == QLatin1String("Last error:")
                    || (isNcclErrorDescription(here) && quotesNcclsWords(messageOf(e.continuation[i + 1]))));
            if (quoteBelow)
                at = i + 1;
            else if (!cannHead && isCannRuntimeReport(here))
                at = i;
            if (at < 0)
                continue;
            const QString quoted = e.continuation[at];
            const QString message = messageOf(quoted);
            if (message.isEmpty())
                break;
            // Continuation line i is physical line e.line + 1 + i.
            e.line += at + 1;
            e.lineCount -= static_cast<int>(at + 1);
            e.text = quoted;
            e.message = message;
            e.continuation = e.continuation.mid(at + 1);
            break;
        }
    }
}

} // namespace rankscope
