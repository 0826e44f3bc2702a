// SPDX-License-Identifier: MIT
// Timestamp recognition on line starts, and the conversion of what it found to epoch milliseconds.
#include "fuzz_support.h"
#include "timestamp.h"

using namespace rankscope;

namespace {

void checkLine(std::string_view line)
{
    const ParsedStamp s = findTimestamp(line);
    if (!s.found())
        return;
    if (s.offset < 0 || s.length <= 0
        || static_cast<std::size_t>(s.offset) + static_cast<std::size_t>(s.length) > line.size())
        fuzz::fail("stamp offset/length outside the text");
    const std::optional<qint64> ms = stampToMs(s, 2026);
    // A valid wall-clock stamp of year 1..9999 lies within +-400000 years of ms: anything else overflowed.
    constexpr qint64 kLimit = qint64(400000) * 366 * 24 * 3600 * 1000;
    if (ms && (*ms > kLimit || *ms < -kLimit))
        fuzz::fail("stampToMs out of any calendar range");
    (void)stampToMs(s, 0);
    (void)stampToMs(s, 9999);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    fuzz::forEachLine(fuzz::asView(data, size), [](std::string_view line) {
        checkLine(line);
        // Every suffix start too: prefixes are peeled before the stamp is looked for.
        for (std::size_t i = 1; i < line.size() && i < 48; ++i)
            checkLine(line.substr(i));
    });
    return 0;
}
