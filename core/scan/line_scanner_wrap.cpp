// SPDX-License-Identifier: MIT
// LineScanner: a failure line cut in two by a hard wrap is matched whole (see line_scanner.h).
#include "line_scanner.h"
#include "paste_rejoin.h"
#include "signature_matcher.h"

namespace rankscope {

namespace {
// A wrap is at a terminal's or an editor's width: a shorter line ended where its writer ended it.
constexpr std::size_t kMinWrappedWidth = 60;
} // namespace

void LineScanner::rememberUnmatched(std::string_view text)
{
    if (!m_ctx.matcher || text.size() < kMinWrappedWidth
        || text.size() > static_cast<std::size_t>(kMaxWrapWidth))
        return;
    m_wrap.line = m_lineNo;
    m_wrap.event = static_cast<int>(m_out.events.size()) - 1;
    m_wrap.text.assign(text.data(), text.size());
}

void LineScanner::matchAcrossWrap(std::string_view next)
{
    Q_ASSERT(m_wrap.event >= 0 && static_cast<std::size_t>(m_wrap.event) < m_out.events.size());
    if (next.empty() || startsOwnRecord(next))
        return;
    // A terminal cuts at its width, inside a word: the pieces join as they are. An editor wraps at a space,
    // which the wrap swallowed.
    std::string joined = m_wrap.text;
    joined.append(next.data(), next.size());
    MatchResult match = m_ctx.matcher->match(joined);
    if (!match) {
        joined.insert(m_wrap.text.size(), 1, ' ');
        match = m_ctx.matcher->match(joined);
    }
    if (!match)
        return;
    ScannedEvent& ev = m_out.events[static_cast<std::size_t>(m_wrap.event)];
    const Signature& sig = m_ctx.catalog->signatures[static_cast<std::size_t>(match.signature)];
    ev.rolePriority = roleRank(sig.role);
    if (sig.severity && *sig.severity > ev.event.severity)
        ev.event.severity = *sig.severity;
    ev.event.signature = match.signature;
    ev.event.captures = std::move(match.captures);
    m_out.info.notes.push_back(
        QStringLiteral("line %1 matched %2 only with line %3 after it: the log looks hard-wrapped there")
            .arg(m_wrap.line)
            .arg(sig.id)
            .arg(m_wrap.line + 1));
}

} // namespace rankscope
