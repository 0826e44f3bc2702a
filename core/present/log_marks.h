// SPDX-License-Identifier: MIT
// The incident's events as marks on the lines of one log file: what the log view colours and badges, and
// which lines its WARN+ filter always keeps. Pure Core so the marks are computed off the UI thread.
#pragma once

#include "log_model.h"

#include <QStringList>
#include <vector>

namespace rankscope {

// A line of interest from the incident: an event and, when it matched one, its signature's title.
struct LogMark
{
    qint64 line = 0; // 1-based
    int lineCount = 1;
    Severity severity = Severity::Info;
    QString title;
};

// The events of `fileIndex`, sorted by line; `signatureTitles[i]` names catalog entry i (else "signature i").
std::vector<LogMark> marksForFile(
    const Incident& incident, int fileIndex, const QStringList& signatureTitles = {});

// The most severe mark covering 1-based `line` in line-sorted `marks`, or nullptr.
const LogMark* markCovering(const std::vector<LogMark>& marks, qint64 line);

} // namespace rankscope
