// SPDX-License-Identifier: MIT
#include "space_stand_ins.h"

#include <cstring>

namespace rankscope {

namespace {

// The length of the stand-in at `at`, or 0.
std::size_t standInAt(std::string_view s, std::size_t at)
{
    const std::string_view rest = s.substr(at);
    if (rest.size() >= 2 && rest[0] == '\xC2' && rest[1] == '\xA0')
        return 2; // U+00A0 NO-BREAK SPACE
    if (rest.size() >= 3 && rest[0] == '\xE2' && rest[1] == '\x80' && rest[2] == '\xAF')
        return 3; // U+202F NARROW NO-BREAK SPACE
    if (rest.size() >= 4 && rest.substr(0, 4) == "#011")
        return 4; // rsyslog's escape of a TAB
    return 0;
}

bool holds(std::string_view s, char lead)
{
    const char* p = s.data();
    const char* const end = s.data() + s.size();
    while ((p = static_cast<const char*>(std::memchr(p, lead, static_cast<std::size_t>(end - p))))) {
        if (standInAt(s, static_cast<std::size_t>(p - s.data())) > 0)
            return true;
        ++p;
    }
    return false;
}

} // namespace

bool mayHoldSpaceStandIns(std::string_view block)
{
    return holds(block, '\xC2') || holds(block, '\xE2') || holds(block, '#');
}

bool replaceSpaceStandIns(std::string_view line, std::string& out)
{
    bool any = false;
    std::size_t copied = 0;
    for (std::size_t i = 0; i < line.size();) {
        const char c = line[i];
        const std::size_t length = (c == '\xC2' || c == '\xE2' || c == '#') ? standInAt(line, i) : 0;
        if (length == 0) {
            ++i;
            continue;
        }
        if (!any) {
            out.clear();
            out.reserve(line.size());
            any = true;
        }
        out.append(line.data() + copied, i - copied);
        out.push_back(' ');
        i += length;
        copied = i;
    }
    if (any)
        out.append(line.data() + copied, line.size() - copied);
    return any;
}

} // namespace rankscope
