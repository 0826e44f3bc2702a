// SPDX-License-Identifier: MIT
// Most lines of an NCCL log start like an earlier line of the same process: "host:pid:tid [dev] NCCL INFO ",
// behind a launcher prefix ("[default3]:", "12: ") in a combined console.
// This remembers such prefixes after a full parse, with the stream each belongs to, and recognises the
// lines that repeat one (any tid), so the scanner can skip the general prefix, stamp and severity parsing.
#pragma once

#include "line_prefix.h"
#include "prefix_index.h"

#include <string>
#include <string_view>
#include <vector>

namespace rankscope {

class RepeatedNcclPrefix
{
public:
    // After a full parse of `line`, which the scanner put in `stream`: remembers its prefix when it is a
    // plain NCCL INFO line behind at most srun, MPICH, tee and rank prefixes (no stamp, no pdsh or Ray).
    void learn(std::string_view line, const LinePrefix& p, int stream);
    // When `line` repeats a remembered prefix: true, with the message after "NCCL INFO " and the stream.
    bool match(std::string_view line, std::string_view& message, int& stream);
    // Streams change meaning at an elastic restart: everything learned before it is dropped.
    void forget();

private:
    struct Entry
    {
        std::string head; // launcher prefix + "host:pid:"
        std::string tail; // " [dev] NCCL INFO "
        std::string tidAndTail; // the tid of the entry's last line and the tail: "1007033 [0] NCCL INFO "
        int stream = -1;
    };
    static constexpr std::size_t kMaxEntries = 4096; // then everything is forgotten and learned again
    std::vector<Entry> m_entries;
    PrefixIndex m_index; // over the heads
    int m_lastHit = -1; // tried first: a per-rank file repeats one prefix
};

} // namespace rankscope
