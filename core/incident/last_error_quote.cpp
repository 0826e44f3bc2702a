// SPDX-License-Identifier: MIT
#include "last_error_quote.h"

#include "line_prefix.h"
#include "signature_catalog.h"

namespace rankscope {

namespace {

QString messageOf(const QString& raw)
{
    const QByteArray bytes = raw.toUtf8();
    const LinePrefix p =
        parseLinePrefix(std::string_view(bytes.constData(), static_cast<size_t>(bytes.size())));
    return QString::fromUtf8(p.message.data(), static_cast<qsizetype>(p.message.size())).trimmed();
}

// The record's signature names NCCL's failure: a cause, or a symptom in NCCL's own words (the "Error while
// creating shared memory segment" it quotes). The wrapper's own entries (PyTorch's) are left where they are.
bool quotesNcclFailure(const LogEvent& e, const Catalog& catalog)
{
    if (e.signature < 0 || e.signature >= static_cast<int>(catalog.signatures.size()))
        return false;
    const Signature& sig = catalog.signatures[static_cast<size_t>(e.signature)];
    if (sig.role == SignatureRole::Cause)
        return true;
    return sig.role == SignatureRole::Symptom && !sig.stacks.isEmpty()
        && (sig.stacks.front() == QLatin1String("NCCL") || sig.stacks.front() == QLatin1String("RCCL"));
}

} // namespace

void anchorQuotedLastErrors(std::vector<LogEvent>& events, const Catalog& catalog)
{
    for (LogEvent& e : events) {
        // The record's lines are consecutive only when every one of them was kept.
        const qsizetype kept = e.continuation.size();
        if (kept < 2 || e.lineCount != kept + 1 || !quotesNcclFailure(e, catalog))
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
