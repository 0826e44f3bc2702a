// SPDX-License-Identifier: MIT
// Renders a signature's typed fix actions (fix_action.h) in the idiom of the job: the launcher decides how
// an environment variable or a container setting is written, the framework how the process-group
// timeout is raised. Pure: the adapters are data (fix_adapters.h), nothing is run.
#pragma once

#include "fix_action.h"
#include "fix_adapters.h"
#include "template_render.h"

#include <QString>
#include <optional>
#include <vector>

namespace rankscope {

// Ids as in signatures/adapters; empty or unknown = torchrun / plain shell and plain PyTorch.
struct FixIdiom
{
    QString launcher;
    QString framework;
};

struct RenderedFixAction
{
    FixActionKind kind = FixActionKind::Code;
    QString text; // the command, snippet or sentence; may span several lines
    QString reason;
    QString idiom; // "srun", "HF Trainer / TRL"; empty for actions that do not depend on the idiom
    bool isCommand = false; // text is a command or snippet (shown as code), not a sentence
    bool alreadyTried = false; // an env action whose value the run already had (the reason says where)
};

// One action in `idiom`. nullopt when it needs a value this incident lacks (its command would show a
// blank) or its text renders to nothing.
std::optional<RenderedFixAction> renderFixAction(const FixAction& action, const FixIdiom& idiom,
    const RenderContext& context, const FixAdapters& adapters = defaultFixAdapters());

// An env action whose variable the run already had with that value (RenderContext::runSettings) still
// renders, but says so first in its reason ("Already set in this run (line 3 of run.log) and it still
// failed.") and is marked alreadyTried; with another value, the reason names the one the run had.
// Every action of a list that renders, in order, the ones already tried last.
std::vector<RenderedFixAction> renderFixActions(const std::vector<FixAction>& actions, const FixIdiom& idiom,
    const RenderContext& context, const FixAdapters& adapters = defaultFixAdapters());

// The same action in every other idiom that writes it differently (other launchers for env and
// container actions, other frameworks for a timeout); empty for idiom-independent kinds.
std::vector<RenderedFixAction> renderFixAlternatives(const FixAction& action, const FixIdiom& idiom,
    const RenderContext& context, const FixAdapters& adapters = defaultFixAdapters());

// "env", "timeout", ... followed by the idiom when there is one: "env (srun)".
QString renderedActionHeading(const RenderedFixAction& action);

} // namespace rankscope
