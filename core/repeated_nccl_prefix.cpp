#include "repeated_nccl_prefix.h"

#include <cstring>

namespace rankscope {

namespace {
constexpr std::string_view kInfo = "NCCL INFO ";
constexpr std::size_t kMaxTidDigits = 12;

std::size_t digitsAt(std::string_view s, std::size_t pos)
{
    std::size_t n = 0;
    while (pos + n < s.size() && n <= kMaxTidDigits && s[pos + n] >= '0' && s[pos + n] <= '9')
        ++n;
    return n;
}
} // namespace

void RepeatedNcclPrefix::learn(std::string_view line, const LinePrefix& p)
{
    m_head.clear();
    if (p.nccl != NcclLevel::Info || p.ncclDev < 0 || p.ncclHost.empty() || p.stamp.found()
        || p.launcherRank >= 0 || p.teeLocalRank >= 0 || p.globalRank >= 0 || !p.pdshHost.empty()
        || !p.rayIp.empty() || p.ncclHost.data() != line.data())
        return; // the prefix must be the first thing on the line
    const std::size_t pidEnd = p.ncclHost.size() + 1 + digitsAt(line, p.ncclHost.size() + 1);
    if (pidEnd >= line.size() || line[pidEnd] != ':')
        return;
    const std::size_t tidEnd = pidEnd + 1 + digitsAt(line, pidEnd + 1);
    const std::size_t messageAt = static_cast<std::size_t>(p.message.data() - line.data());
    if (tidEnd >= messageAt || messageAt > line.size() || messageAt < tidEnd + kInfo.size())
        return;
    const std::string_view tail = line.substr(tidEnd, messageAt - tidEnd);
    // Only the exact shape " [dev] NCCL INFO ": WARN and TRACE put "file:line (func)" in between.
    if (tail.size() < 4 + kInfo.size() || tail.substr(0, 2) != " [" || !tail.ends_with(kInfo)
        || tail.substr(tail.size() - kInfo.size() - 2, 2) != "] ")
        return;
    m_head.assign(line.substr(0, pidEnd + 1));
    m_tail.assign(tail);
}

bool RepeatedNcclPrefix::match(std::string_view line, std::string_view& message) const
{
    if (m_head.empty() || line.size() < m_head.size() + 1 + m_tail.size()
        || std::memcmp(line.data(), m_head.data(), m_head.size()) != 0)
        return false;
    const std::size_t tid = digitsAt(line, m_head.size());
    if (tid == 0 || tid > kMaxTidDigits)
        return false;
    const std::size_t tailAt = m_head.size() + tid;
    if (line.size() < tailAt + m_tail.size()
        || std::memcmp(line.data() + tailAt, m_tail.data(), m_tail.size()) != 0)
        return false;
    message = line.substr(tailAt + m_tail.size());
    return true;
}

} // namespace rankscope
