// SPDX-License-Identifier: MIT
// Small text helpers that several stages need: one copy each, here.
#pragma once

#include <QString>
#include <string_view>
#include <vector>

namespace rankscope {

constexpr bool startsWith(std::string_view s, std::string_view prefix)
{
    return s.substr(0, prefix.size()) == prefix;
}

constexpr std::string_view trimLeft(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    return s;
}

// Short host name: up to the first '.', unless the name is an IP address (bytes, as a line carries it).
std::string_view shortHostName(std::string_view host);
// The same for a name that is compared across files: trimmed, lower-cased, up to the first '.'.
QString shortHostName(const QString& host);

// "00000000:18:00.0", "18:00.0", "0000:18:00" and NCCL's "18000" -> "0000:18:00.0"; "" if unreadable.
QString normaliseBusId(const QString& busId);

// Ranks for people: "0-3,5,7-9" (sorted, duplicates dropped).
QString formatRankRanges(std::vector<int> ranks);

} // namespace rankscope
