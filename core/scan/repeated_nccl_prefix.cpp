// SPDX-License-Identifier: MIT
#include "repeated_nccl_prefix.h"

#include "byte_compare.h"

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

void RepeatedNcclPrefix::learn(std::string_view line, const LinePrefix& p, int stream)
{
    if (p.nccl != NcclLevel::Info || p.ncclDev < 0 || p.ncclHost.empty() || p.stamp.found()
        || !p.pdshHost.empty() || !p.rayIp.empty() || p.rayPid >= 0 || p.ncclHost.data() < line.data()
        || p.ncclHost.data() != p.afterLauncher.data())
        return; // the NCCL prefix must come right after the launcher prefixes
    const auto hostAt = static_cast<std::size_t>(p.ncclHost.data() - line.data());
    const std::size_t pidEnd =
        hostAt + p.ncclHost.size() + 1 + digitsAt(line, hostAt + p.ncclHost.size() + 1);
    if (pidEnd >= line.size() || line[pidEnd] != ':')
        return;
    const std::size_t tidEnd = pidEnd + 1 + digitsAt(line, pidEnd + 1);
    const std::size_t messageAt = static_cast<std::size_t>(p.message.data() - line.data());
    if (tidEnd >= messageAt || messageAt > line.size() || messageAt < tidEnd + kInfo.size())
        return;
    const std::string_view head = line.substr(0, pidEnd + 1);
    const std::string_view tail = line.substr(tidEnd, messageAt - tidEnd);
    // Only the exact shape " [dev] NCCL INFO ": WARN and TRACE put "file:line (func)" in between.
    if (tail.size() < 4 + kInfo.size() || tail.substr(0, 2) != " [" || !tail.ends_with(kInfo)
        || tail.substr(tail.size() - kInfo.size() - 2, 2) != "] ")
        return;
    for (const int i : m_index.candidates(line)) {
        Entry& e = m_entries[static_cast<std::size_t>(i)];
        if (e.head == head && e.tail == tail) {
            e.stream = stream;
            return;
        }
    }
    if (m_entries.size() >= kMaxEntries)
        forget();
    m_index.add(head, static_cast<int>(m_entries.size()));
    m_entries.push_back({ std::string(head), std::string(tail), std::string(), stream });
}

bool RepeatedNcclPrefix::match(std::string_view line, std::string_view& message, int& stream)
{
    // Most lines come from the thread of the line before: one compare of the head and one of the tid and
    // tail that followed it last time.
    if (m_lastHit >= 0) {
        const Entry& e = m_entries[static_cast<std::size_t>(m_lastHit)];
        const std::size_t end = e.head.size() + e.tidAndTail.size();
        if (!e.tidAndTail.empty() && line.size() >= end
            && sameBytes(line.data(), e.head.data(), e.head.size())
            && sameBytes(line.data() + e.head.size(), e.tidAndTail.data(), e.tidAndTail.size())) {
            message = line.substr(end);
            stream = e.stream;
            return true;
        }
    }
    const auto tryEntry = [&](int i) {
        Entry& e = m_entries[static_cast<std::size_t>(i)];
        if (line.size() < e.head.size() + 1 + e.tail.size()
            || !sameBytes(line.data(), e.head.data(), e.head.size()))
            return false;
        const std::size_t tid = digitsAt(line, e.head.size());
        if (tid == 0 || tid > kMaxTidDigits)
            return false;
        const std::size_t tailAt = e.head.size() + tid;
        if (line.size() < tailAt + e.tail.size()
            || !sameBytes(line.data() + tailAt, e.tail.data(), e.tail.size()))
            return false;
        m_lastHit = i;
        e.tidAndTail.assign(line.data() + e.head.size(), tid + e.tail.size());
        message = line.substr(tailAt + e.tail.size());
        stream = e.stream;
        return true;
    };
    if (m_lastHit >= 0 && tryEntry(m_lastHit))
        return true;
    for (const int i : m_index.candidates(line)) {
        if (i != m_lastHit && tryEntry(i))
            return true;
    }
    return false;
}

void RepeatedNcclPrefix::forget()
{
    m_entries.clear();
    m_index.clear();
    m_lastHit = -1;
}

} // namespace rankscope
