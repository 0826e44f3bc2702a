// Most lines of a per-rank NCCL log start like the line before: "host:pid:tid [dev] NCCL INFO ".
// This remembers that prefix after a full parse and recognises the next lines that repeat it (any tid),
// so the scanner can skip the general prefix, stamp and severity parsing for them.
#pragma once

#include "line_prefix.h"

#include <string>
#include <string_view>

namespace rankscope {

class RepeatedNcclPrefix
{
public:
    // After a full parse of `line`: remembers its prefix when it is a plain NCCL INFO line (no launcher,
    // tee, rank or stamp in front), forgets it otherwise.
    void learn(std::string_view line, const LinePrefix& p);
    // When `line` repeats the remembered prefix: the message after "NCCL INFO ", else nullopt-like empty
    // result with ok = false.
    bool match(std::string_view line, std::string_view& message) const;
    void forget() { m_head.clear(); }

private:
    std::string m_head; // "host:pid:"
    std::string m_tail; // " [dev] NCCL INFO "
};

} // namespace rankscope
