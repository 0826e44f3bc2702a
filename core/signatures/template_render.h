// SPDX-License-Identifier: MIT
// Fills the {placeholders} of a signature's fix text and command templates.
// Commands are shown to the user and copied, never executed; values inserted into them are shell-quoted.
#pragma once

#include "log_model.h"

#include <QHash>
#include <QString>
#include <QStringList>
#include <vector>

namespace rankscope {

// A variable the run already had (an EnvSetting of the incident), for the fix renderer.
struct RunSetting
{
    QString value;
    QString where; // "line 3 of run.log"
};

struct RenderContext
{
    QString host, rank, localRank, device, nic, logFolder, literal, peer;
    // What a search reads: the one plain log file given, else logFolder ({logs}; empty means logFolder).
    QString logs;
    std::vector<Capture> captures; // named groups of the match; fill a context field only when it is empty
    QHash<QString, QString> extra; // any further placeholder
    QHash<QString, RunSetting> runSettings; // variable name -> what the run had (fix_render.h)
};

// Looks a placeholder up: a non-empty context field, else a capture of that name, else `extra`.
// Returns false when nothing is known for it.
bool lookupPlaceholder(const RenderContext& context, const QString& name, QString* value);

// Replaces {name} (name = [A-Za-z_][A-Za-z0-9_]*). Unknown names stay visible as <name> so the user sees what
// to fill in. "{{" and "}}" produce literal braces; "${VAR}" (shell syntax) is left alone.
QString renderTemplate(const QString& tmpl, const RenderContext& context);

// Like renderTemplate, but every inserted value is shell-quoted when it contains anything outside
// [A-Za-z0-9_./:,@%+=-]. A placeholder written inside its own quotes ("{literal}" or '{literal}') has those
// quotes replaced by the value's safe quoting.
QString renderCommand(const QString& tmpl, const RenderContext& context);

// Prose for people: renderTemplate, sentence by sentence, where a sentence (or a parenthesis within it)
// that needs a value this incident lacks is left out, so no <name> ever reaches the reader. Empty when
// nothing of the template could be filled.
QString renderProse(const QString& tmpl, const RenderContext& context);

// Whether every placeholder of `tmpl` has a value in `context`.
bool canRender(const QString& tmpl, const RenderContext& context);

// The distinct placeholder names a template uses, in order of first appearance.
QStringList templatePlaceholders(const QString& tmpl);

// POSIX single-quote quoting when needed: it's -> 'it'\''s'; the empty string -> ''.
QString shellQuote(const QString& value);

} // namespace rankscope
