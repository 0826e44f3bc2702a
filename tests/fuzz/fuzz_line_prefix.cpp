// SPDX-License-Identifier: MIT
// Prefix peeling, severity, identity facts and path hints: everything that runs on every raw log line.
#include "fuzz_support.h"
#include "identity_facts.h"
#include "line_prefix.h"
#include "severity_rules.h"

using namespace rankscope;

namespace {

bool inside(std::string_view part, std::string_view whole)
{
    return part.empty()
        || (part.data() >= whole.data() && part.data() + part.size() <= whole.data() + whole.size());
}

void checkLine(std::string_view line)
{
    const LinePrefix p = parseLinePrefix(line);
    // The views must point into the line: a view outside it would be read after the buffer is gone.
    if (!inside(p.afterLauncher, line) || !inside(p.message, line) || !inside(p.pdshHost, line)
        || !inside(p.rayIp, line) || !inside(p.ncclHost, line))
        fuzz::fail("a LinePrefix view points outside the line");
    if (p.stampBorrowed && (!p.wrapperStamp.found() || p.stamp.offset != 0 || p.stamp.length != 0))
        fuzz::fail("a borrowed stamp has a span, or no wrapper clock to borrow from");
    if (p.stamp.found() && !p.stampBorrowed
        && (p.stamp.offset < 0 || p.stamp.length <= 0
            || static_cast<std::size_t>(p.stamp.offset) + static_cast<std::size_t>(p.stamp.length)
                > p.afterLauncher.size()))
        fuzz::fail("the stamp lies outside afterLauncher");
    (void)shortHostName(p.ncclHost);
    (void)classifyLine(p);
    IdentityFact fact;
    (void)parseNcclIdentity(p.message, fact);
    IdentityFact whole;
    (void)parseNcclIdentity(line, whole);
    IdentityFact tests;
    (void)parseNcclTestsRank(line, tests);
    (void)busIdFromNccl(line.substr(0, 32));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text = fuzz::asView(data, size);
    fuzz::forEachLine(text, checkLine);
    // The input's first line doubles as a file path (folders, ranks, hosts and pids in names).
    const std::string_view first = text.substr(0, text.find('\n'));
    (void)hintsFromPath(QString::fromUtf8(first.data(), static_cast<qsizetype>(first.size())));
    return 0;
}
