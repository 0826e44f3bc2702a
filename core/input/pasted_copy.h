// SPDX-License-Identifier: MIT
// Text pasted or dropped on the window is kept as a file of its own before it is read: then the Log view,
// the evidence links and every rg command name a real path the user can open and search again, instead
// of "." or an in-memory "<pasted text>".
#pragma once

#include <QDateTime>
#include <QString>

namespace rankscope {

struct SavedPaste
{
    QString path; // the saved file; empty on error
    QString error; // names the folder or file that could not be written
};

// Writes `text` (UTF-8) to ROOT/pasted-YYYYMMDD-HHMMSS[-N]/pasted.log, one folder per paste so that a search
// of the log's folder finds this paste only. `when` names the folder.
SavedPaste savePastedText(const QString& text, const QString& root, const QDateTime& when);

} // namespace rankscope
