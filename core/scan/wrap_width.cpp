// SPDX-License-Identifier: MIT
#include "wrap_width.h"

#include "line_prefix.h"
#include "paste_rejoin.h"
#include "severity_rules.h"

#include <algorithm>
#include <vector>

namespace rankscope {

namespace {

std::vector<std::string_view> completeLines(std::string_view block)
{
    std::vector<std::string_view> lines;
    for (std::size_t at = 0; at < block.size();) {
        const std::size_t end = block.find('\n', at);
        if (end == std::string_view::npos)
            break; // the unfinished last line of the read says nothing
        std::string_view line = block.substr(at, end - at);
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        lines.push_back(line);
        at = end + 1;
    }
    return lines;
}

// A line the terminal cut goes on in the next; a single space there is a cut that fell before a word.
bool continuesCut(std::string_view next)
{
    if (!next.empty() && next[0] == ' ' && next.size() > 1 && next[1] != ' ')
        next.remove_prefix(1);
    return !next.empty() && !startsOwnRecord(next);
}

// How many lines go on; 0 unless two or more do, not all the same line (a repeated banner proves nothing).
template <typename Goes> int countGoingOn(const std::vector<std::string_view>& lines, Goes goesOn)
{
    int count = 0;
    std::string_view first;
    bool distinct = false;
    for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
        if (!goesOn(lines[i], lines[i + 1]))
            continue;
        ++count;
        distinct = distinct || (!first.empty() && first != lines[i]);
        if (first.empty())
            first = lines[i];
    }
    return count >= 2 && distinct ? count : 0;
}

// What a wrap at spaces cannot leave at the start of a piece: indentation (the wrap took the space), what
// only a line's start carries (a stamp, a prefix, a traceback header), a block marker, or an exception line.
// A level word can (the wrap falls between "NCCL" and "WARN", or before "NCCL WARN" itself).
bool startsOwnLine(std::string_view next)
{
    if (next.empty() || next[0] == ' ' || next[0] == '\t' || startsWithRecordMarker(next)
        || startsWithLinePrefix(next))
        return true;
    const LineShape shape = classifyLine(parseLinePrefix(next)).shape;
    return shape == LineShape::TracebackStart || shape == LineShape::ExceptionLine;
}

// "libfabric:core:core:fi_getinfo_():980<info> ..." then "libfabric:core:...": a next line that starts with
// the held line's own tag (what comes before its first ':', in its first word) is the same writer's next
// line, whatever its length.
std::string_view leadingTag(std::string_view line)
{
    const std::size_t colon = line.find(':');
    if (colon == 0 || colon == std::string_view::npos || colon > 40 || line.find(' ') < colon)
        return {};
    return line.substr(0, colon + 1);
}

bool sameLeadingTag(std::string_view held, std::string_view next)
{
    const std::string_view tag = leadingTag(held);
    return !tag.empty() && next.substr(0, tag.size()) == tag;
}

// Tags that start three or more lines of the probe: a writer's own prefix ("libfabric:", "slurmstepd:"),
// so a line that starts with one is that writer's line, never the piece of another's.
std::vector<std::string_view> frequentTags(const std::vector<std::string_view>& lines)
{
    std::vector<std::string_view> tags;
    for (const std::string_view l : lines) {
        const std::string_view tag = leadingTag(l);
        if (!tag.empty())
            tags.push_back(tag);
    }
    std::sort(tags.begin(), tags.end());
    std::vector<std::string_view> frequent;
    for (std::size_t i = 0; i + 2 < tags.size(); ++i) {
        if (tags[i] == tags[i + 2] && (frequent.empty() || frequent.back() != tags[i]))
            frequent.push_back(tags[i]);
    }
    return frequent;
}

} // namespace

bool isTableRow(std::string_view line)
{
    const std::size_t first = line.find_first_not_of(' ');
    if (first == std::string_view::npos)
        return false;
    const char a = line[first];
    const char z = line.back();
    return (a == '|' || a == '+') && (z == '|' || z == '+');
}

bool continuesWordWrap(std::string_view held, std::string_view next, int width)
{
    // A wrap breaks only where the next word does not fit; a line far shorter than the width ended where
    // its writer ended it, unless what follows starts with a word as long as a third of the width (a path
    // the wrap moved whole: "FileNotFoundError: [Errno 2] Failed to open local file" then '/home/...').
    if (startsOwnLine(next) || sameLeadingTag(held, next))
        return false;
    const std::size_t word = std::min(next.find(' '), next.size());
    const auto w = static_cast<std::size_t>(width);
    // A Markdown label ("**Error:**", "## Log") ends where its writer ended it, before whatever follows.
    const bool label = held.find("**") != std::string_view::npos || held.substr(0, 1) == "#";
    return held.size() + 1 + word > w && (held.size() * 3 >= w * 2 || (word * 3 >= w && !label));
}

WrapShape detectWrap(std::string_view block)
{
    const std::vector<std::string_view> lines = completeLines(block.substr(0, kWrapProbeBytes));
    std::size_t widest = 0;
    for (const std::string_view l : lines)
        widest = std::max(widest, l.size());
    if (widest < kMinTerminalWidth || widest > kMaxTerminalWidth)
        return {};
    // A wrap at spaces leaves lines of many lengths, short of the width by the word that did not fit; a
    // terminal's cut leaves lines of the one width that go on (and a wrap at spaces some of those too).
    // Lines that all go on at the widest length or one short of it (a line one wider carries a Markdown
    // backtick) are a cut.
    const int cut = countGoingOn(lines, [&](std::string_view line, std::string_view next) {
        return line.size() == widest && !isTableRow(line) && !isBorderLine(line) && continuesCut(next);
    });
    const int width = static_cast<int>(widest);
    const std::vector<std::string_view> tags = frequentTags(lines);
    const auto writersLine = [&](std::string_view next) {
        const std::string_view tag = leadingTag(next);
        return !tag.empty() && std::binary_search(tags.begin(), tags.end(), tag);
    };
    const int atSpaces = widest > kMaxWordWrapWidth
        ? 0
        : countGoingOn(lines, [&](std::string_view line, std::string_view next) {
              return line.size() + 2 <= widest && line.size() * 3 >= widest * 2 && !isTableRow(line)
                  && !isBorderLine(line) && !writersLine(next) && continuesWordWrap(line, next, width);
          });
    if (atSpaces > 0 && atSpaces >= cut)
        return { width, true };
    return cut > 0 ? WrapShape { width, false } : WrapShape {};
}

} // namespace rankscope
