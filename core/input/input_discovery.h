// SPDX-License-Identifier: MIT
// Turns what the user gave (folders, files, "-", pasted text) into a flat list of inputs to scan,
// and lists everything it could not take with the reason.
#pragma once

#include "cancel_token.h"
#include "log_model.h"

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <vector>

namespace rankscope {

struct InputFile
{
    QString path; // absolute path; "<stdin>" or "<pasted text>" for in-memory inputs
    QString displayPath; // relative to the folder it was found in, or the path as given
    QString rootFolder; // the folder given by the user, empty for single files
    qint64 size = 0; // on-disk size
    QByteArray memory; // the bytes of in-memory inputs
    bool inMemory = false;
    QString archive; // a member of an archive: the archive on disk (path is archive!/member)
    int archiveOrdinal = -1; // and the member's place in it
};

// What discovery decided each input is; the scanner reads only logs.
struct Discovery
{
    std::vector<InputFile> files; // logs to scan
    std::vector<InputFile> topology; // topology captures, recognised by content
    // Node evidence (dmesg, journalctl -k, ibstat, ibv_devinfo, nvidia-smi -q, ip addr, ifconfig), by
    // content; a kernel log is in `files` too, since its lines are events of the incident as well.
    std::vector<InputFile> nodeEvidence;
    std::vector<SkippedInput> skipped; // everything else, with the reason ("not a log: README.md")
};

// Folders are walked; a folder's prose (README*, *.md, *.rst, *.html, *.pdf, pictures) is listed as
// skipped, a file named on its own is always read. Every plain file's head is read once to tell a
// topology capture (nvidia-smi, rocm-smi, NCCL or hwloc XML) from a log.
Discovery discoverInputs(const QStringList& paths, const QString& pastedText, const CancelToken* cancel);

} // namespace rankscope
