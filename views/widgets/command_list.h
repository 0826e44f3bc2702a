// SPDX-License-Identifier: MIT
// Commands shown to be copied, never run: one monospace, wrapping, selectable box per command with a Copy
// button that says "Copied" for a moment. The diagnosis pane and the Signature Hub show them alike.
#pragma once

#include <QStringList>

class QWidget;

namespace rankscope {

QWidget* makeCommandList(const QStringList& commands);

} // namespace rankscope
