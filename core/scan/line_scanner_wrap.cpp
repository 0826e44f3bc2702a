// SPDX-License-Identifier: MIT
// LineScanner: a failure line cut in two by a hard wrap is matched whole, and a file copied from a terminal
// that cut every long line at its width is read line by line as the program wrote it (see line_scanner.h).
#include "line_scanner.h"
#include "paste_rejoin.h"
#include "signature_matcher.h"

namespace rankscope {

namespace {
bool isLowerAscii(char c)
{
    return c >= 'a' && c <= 'z';
}

// The text stops inside a sentence: its last word is followed by nothing that ends a message (':' announces
// the next line, '.' ends a sentence).
bool endsMidSentence(std::string_view text)
{
    while (!text.empty() && (text.back() == ' ' || text.back() == '\r'))
        text.remove_suffix(1);
    return !text.empty() && (isLowerAscii(text.back()) || text.back() == ',');
}

std::string_view firstWord(std::string_view text)
{
    return text.substr(0, text.find(' '));
}

// A wrap is at a terminal's or an editor's width: a shorter line ended where its writer ended it.
constexpr std::size_t kMinWrappedWidth = 60;
// A message wrapped to 80 columns or so takes a few lines; more, and the lines are the log's own.
constexpr int kMaxWrapPieces = 4;
} // namespace

void LineScanner::rememberWrapCandidate(std::string_view text, int event)
{
    // A piece of a failure line still being joined (m_wrap.line is this line) stays a piece.
    if (!m_ctx.matcher || text.size() < kMinWrappedWidth
        || text.size() > static_cast<std::size_t>(kMaxWrapWidth) || m_wrap.line == m_lineNo)
        return;
    m_wrap.line = m_wrap.first = m_lineNo;
    m_wrap.event = event;
    m_wrap.cut.assign(text.data(), text.size());
    m_wrap.spaced = m_wrap.cut;
    m_wrap.pieces = 1;
    m_wrap.note = -1;
}

bool LineScanner::matchAcrossWrap(std::string_view next)
{
    Q_ASSERT(m_wrap.event >= 0 && static_cast<std::size_t>(m_wrap.event) < m_out.events.size());
    if (next.empty() || startsOwnRecord(next))
        return false;
    // A next line that begins with the first line's own first word ("slurmstepd: ...") is a line of its own.
    const bool midSentence =
        endsMidSentence(m_wrap.cut) && isLowerAscii(next.front()) && firstWord(next) != firstWord(m_wrap.cut);
    // A terminal cuts at its width, inside a word: the pieces join as they are. An editor wraps at a space,
    // which the wrap swallowed.
    m_wrap.cut.append(next.data(), next.size());
    m_wrap.spaced.append(1, ' ').append(next.data(), next.size());
    ++m_wrap.pieces;
    const bool goesOn = m_wrap.pieces < kMaxWrapPieces && next.size() >= kMinWrappedWidth;
    // Both joins are tried; the stronger role wins (the cut join may only repeat the first piece's match).
    MatchResult match = m_ctx.matcher->match(m_wrap.cut);
    MatchResult spaced = m_ctx.matcher->match(m_wrap.spaced);
    const auto roleOf = [this](const MatchResult& r) {
        return r ? roleRank(m_ctx.catalog->signatures[static_cast<std::size_t>(r.signature)].role)
                 : kUnmatchedRoleRank;
    };
    if (roleOf(spaced) < roleOf(match))
        match = std::move(spaced);
    if (!match)
        return goesOn;
    // A next line that names as much on its own is a message of its own (or the one the first line announced
    // with its ':'), not the rest of a cut one; unless the first stopped mid-sentence and the next goes on in
    // lower case ("... Watchdog caught " / "collective operation timeout: WorkNCCL(...").
    if (!midSentence && roleOf(m_ctx.matcher->match(next)) <= roleOf(match))
        return false;
    // More of the line says more: a match of the longer text replaces one of the shorter, unless it is of a
    // weaker role ("Call to ibv_modify_qp failed" first, then the GID index the rest of the line names).
    ScannedEvent& ev = m_out.events[static_cast<std::size_t>(m_wrap.event)];
    const Signature& sig = m_ctx.catalog->signatures[static_cast<std::size_t>(match.signature)];
    const int role = roleRank(sig.role);
    // A line that matched on its own keeps its match unless the whole line names a stronger role (a symptom's
    // "Error while creating shared memory segment" whose cut tail says "No space left on device").
    const bool ownMatch = m_wrap.note < 0 && ev.event.signature >= 0;
    if ((m_wrap.note >= 0 && role > ev.rolePriority) || (ownMatch && role >= ev.rolePriority))
        return goesOn;
    ev.rolePriority = role;
    if (sig.severity && *sig.severity > ev.event.severity)
        ev.event.severity = *sig.severity;
    ev.event.signature = match.signature;
    ev.event.captures = std::move(match.captures);
    const QString after = m_wrap.pieces == 2
        ? QStringLiteral("line %1").arg(m_wrap.first + 1)
        : QStringLiteral("lines %1-%2").arg(m_wrap.first + 1).arg(m_wrap.first + m_wrap.pieces - 1);
    const QString note =
        QStringLiteral("line %1 matched %2 only with %3 after it: the log looks hard-wrapped there")
            .arg(m_wrap.first)
            .arg(sig.id, after);
    if (m_wrap.note >= 0) {
        m_out.info.notes[m_wrap.note] = note;
    } else {
        m_wrap.note = static_cast<int>(m_out.info.notes.size());
        m_out.info.notes.push_back(note);
    }
    return goesOn;
}

namespace {

std::string_view withoutCr(std::string_view s)
{
    return !s.empty() && s.back() == '\r' ? s.substr(0, s.size() - 1) : s;
}

// The next piece of a line the terminal cut: the cut falls anywhere, so the piece may hold a level word or
// start with spaces; only what a line's start carries (a stamp, a prefix) makes it a line of its own.
bool continuesCutLine(std::string_view piece)
{
    return !piece.empty() && !startsWithLinePrefix(piece);
}

} // namespace

void LineScanner::cutAtWidth(std::string_view raw, qint64 offset, bool cut)
{
    const std::string_view bare = withoutCr(raw);
    // A terminal holds a line of exactly its width, whose rest is in the next lines; a wrap at spaces holds
    // every line until the next says whether its first word would have fitted (continuesWordWrap()).
    const bool mayGoOn = !cut && !isBorderLine(bare)
        && (m_wrapAtSpaces ? !bare.empty() && bare.size() <= static_cast<std::size_t>(m_wrapWidth)
                           : bare.size() == static_cast<std::size_t>(m_wrapWidth));
    if (!m_cut.pieces.empty()) {
        const bool continues = !cut
            && (m_wrapAtSpaces ? continuesWordWrap(m_cut.pieces.back(), bare, m_wrapWidth)
                               : continuesCutLine(bare));
        if (continues) {
            m_cut.pieces.emplace_back(bare);
            m_cut.offsets.push_back(offset);
            if (!mayGoOn)
                flushCutLine();
            return;
        }
        flushCutLine();
    }
    if (mayGoOn) {
        m_cut.pieces.emplace_back(bare);
        m_cut.offsets.push_back(offset);
        return;
    }
    line(raw, offset, cut);
}

// The pieces are read as the one line they were; the event keeps its first physical line as its text and
// the others as its continuation, and the line numbers after it stay the file's.
void LineScanner::flushCutLine()
{
    if (m_cut.pieces.empty())
        return;
    CutLine pieces = std::move(m_cut);
    m_cut = {};
    if (pieces.pieces.size() == 1) {
        line(pieces.pieces.front(), pieces.offsets.front(), false);
        return;
    }
    std::string joined;
    for (const std::string& piece : pieces.pieces) {
        if (m_wrapAtSpaces && !joined.empty() && joined.back() != ' ')
            joined += ' ';
        joined += piece;
    }
    const qint64 first = m_lineNo + 1;
    line(joined, pieces.offsets.front(), false);
    const auto extra = static_cast<qint64>(pieces.pieces.size() - 1);
    // The line opened an event, or became the headline of an open record (a traceback's exception). Not
    // told by the number of events: repeat folding may have dropped some before the line.
    int target = -1;
    if (!m_out.events.empty() && m_out.events.back().event.line == first)
        target = static_cast<int>(m_out.events.size()) - 1;
    else if (const int promoted = m_records.promotedEvent();
             promoted >= 0 && m_out.events[static_cast<std::size_t>(promoted)].event.line == first)
        target = promoted;
    if (target >= 0) {
        LogEvent& e = m_out.events[static_cast<std::size_t>(target)].event;
        e.text = QString::fromUtf8(
            pieces.pieces.front().data(), static_cast<qsizetype>(pieces.pieces.front().size()));
        QStringList rest;
        for (std::size_t i = 1; i < pieces.pieces.size(); ++i)
            rest.push_back(
                QString::fromUtf8(pieces.pieces[i].data(), static_cast<qsizetype>(pieces.pieces[i].size())));
        e.continuation = rest + e.continuation;
        e.lineCount += static_cast<int>(extra);
    }
    m_lineNo += extra;
    if (m_keepOffsets)
        for (std::size_t i = 1; i < pieces.offsets.size(); ++i)
            m_out.info.lineOffsets.push_back(pieces.offsets[i]);
    if (m_cutJoins++ == 0)
        m_firstCutLine = first;
}

} // namespace rankscope
