// SPDX-License-Identifier: MIT
// Spaces a copy turned into something else. A log copied out of a rendered web page (a GitHub comment, a
// chat, a wiki) carries U+00A0 NO-BREAK SPACE where the page kept runs of spaces (indentation, the column
// padding of NCCL's and PyTorch's messages), and rsyslog writes a TAB as "#011". They mean a space to the
// reader; the scanner reads them as one, or a traceback's frame, a level column or a catalog pattern's
// " " would not match.
#pragma once

#include <string>
#include <string_view>

namespace rankscope {

// False when no line of `block` can hold a stand-in: memchr for the lead bytes of U+00A0 and U+202F
// (0xC2, 0xE2) that finds none, and no "#011". The scanner asks it of a file's first read, and of later
// blocks only when that read held one: such copy damage runs through a whole file.
bool mayHoldSpaceStandIns(std::string_view block);

// Copies `line` into `out` with each U+00A0, U+202F and rsyslog "#011" replaced by one space. Returns
// false, leaving `out` alone, when the line holds none.
bool replaceSpaceStandIns(std::string_view line, std::string& out);

} // namespace rankscope
