// SPDX-License-Identifier: MIT
// Which launchers started a job and which framework ran it, read from one file's lines as the scanner
// sees them: literal cues in the text ("slurmstepd", "***** Running training *****", "deepspeed/runtime/"
// frames) and what the prefix parser already read (torchrun's "[default3]:" tee, a Ray worker's
// "(RayTrainWorker pid=.., ip=..)", OpenMPI's "[1,3]<stderr>:", a pod name as host). Each kind keeps the
// first line of the file that shows it and is not looked for again.
//
// Cost: the scanner asks lookText() only of lines the literal prefilter passed (every cue literal holds
// one of kLaunchPhrases, which the prefilter knows), so no shortcut skips a cue and almost no line pays
// anything; lookText() then reads the line once through a table of the cues' first two bytes.
// lookPrefix() compares a few fields of the parsed prefix, and only for kinds not seen yet.
#pragma once

#include "launch_info.h"
#include "line_prefix.h"

#include <string_view>
#include <vector>

namespace rankscope {

// The literal of every text cue read on lines the prefilter passed, for the test that each holds one of
// kLaunchPhrases (a cue read on WARN-or-worse lines only needs none).
std::vector<std::string_view> launchCueLiterals();

class LaunchDetector
{
public:
    explicit LaunchDetector(std::vector<LaunchHit>& out)
        : m_out(out)
    {
    }

    // Every kind seen: nothing more to look for in this file.
    bool done() const { return m_found == kAllKinds; }
    // The text cues of a line (the line without its line end, after unwrapping pasted text).
    void lookText(std::string_view text, const LinePrefix& p, qint64 line);
    // The prefix cues of a line the full parse read.
    void lookPrefix(const LinePrefix& p, std::string_view text, qint64 line)
    {
        if ((m_found & kPrefixKinds) != kPrefixKinds)
            lookPrefixSlow(p, text, line);
    }

    // Cues of one kind as a test sees them: the kinds the line shows, one bit per LaunchKind.
    static unsigned kindsInText(std::string_view text, const LinePrefix& p);
    static unsigned kindsInPrefix(const LinePrefix& p, std::string_view text);

private:
    static constexpr unsigned kAllKinds = (1u << kLaunchKindCount) - 1;
    static constexpr unsigned kPrefixKinds = (1u << static_cast<unsigned>(LaunchKind::Torchrun))
        | (1u << static_cast<unsigned>(LaunchKind::Mpirun)) | (1u << static_cast<unsigned>(LaunchKind::Ray))
        | (1u << static_cast<unsigned>(LaunchKind::Kubernetes))
        | (1u << static_cast<unsigned>(LaunchKind::Vllm));

    void lookPrefixSlow(const LinePrefix& p, std::string_view text, qint64 line);
    void record(unsigned kinds, std::string_view text, qint64 line);

    std::vector<LaunchHit>& m_out;
    unsigned m_found = 0;
};

} // namespace rankscope
