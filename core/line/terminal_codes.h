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
bool stripTerminalCodes(std::string_view line, std::string& out);

// False when no line of `block` can hold a sequence stripTerminalCodes() drops (one memchr, one memmem).
bool mayHoldTerminalCodes(std::string_view block);

} // namespace rankscope
