// SPDX-License-Identifier: MIT
// Terminal control sequences inside a line: a coloured console (a logger's level colours, tqdm, a CI
// runner's group markers) puts ESC sequences anywhere in a line, not only in front of it. They are
// presentation, never content, so the scanner reads the line without them: a colour reset between
// "timeout:" and the end of the line must not hide a signature, and a coloured continuation line must
// still continue its record.
#pragma once

#include <string>
#include <string_view>

namespace rankscope {

// Copies `line` into `out` without its ESC sequences: CSI (ESC '[' parameters, intermediates, one final
// byte 0x40-0x7E), OSC (ESC ']' ... BEL or ESC '\'), and other escapes (ESC, intermediates, a final
// byte: "ESC ( B"). An ESC at the end of the line, or a CSI cut off by the end of the line, is dropped
// with what follows it. Returns false, leaving `out` alone, when the line holds no sequence.
// Also what a copy left for the ESC byte, in a line that holds a reset ("[0m"): rsyslog's "#033[", caret
// notation "^[[", U+FFFD, or a bare "[NN;NNm".
// standIns: the file showed such stand-ins on its first read (holdsCodesWithoutEsc()); otherwise only ESC
// sequences are looked for, at memchr speed.
bool stripTerminalCodes(std::string_view line, std::string& out, bool standIns = true);

// Whether `text` holds "[0m", the reset every stand-in for ESC ends its colouring with. A file is looked
// at once, on its first read: a copy that lost or rewrote the ESC bytes did so throughout.
bool holdsCodesWithoutEsc(std::string_view text);

// False when no line of `block` can hold a sequence stripTerminalCodes() drops: one memchr for ESC, and,
// in a file whose first read showed stand-ins, one search for their reset.
bool mayHoldTerminalCodes(std::string_view block, bool standIns = true);

} // namespace rankscope
