// SPDX-License-Identifier: MIT
// Puts every event on one clock and in one order across ranks: resolves stamps (the year of stamps
// that lack one comes from the rest of the incident), infers the time of unstamped lines from the
// nearest stamped lines of the same file, and finds the first WARN per rank and overall.
#pragma once

#include "log_model.h"
#include "scan_records.h"

#include <QDate>
#include <QStringList>
#include <vector>

namespace rankscope {

// The year for stamps that carry none: the most common year among the scans' stamps, else the year the
// log was written (`written`: a file's modification date, or today for a paste), or the year before when
// a yearless stamp's day lies after that date.
int incidentYear(const std::vector<FileScan>& scans, const QDate& written);

// Moves files and events from the scans into the incident, timed and ordered, in two steps. sortEvents()
// times every event and sorts them; of the scans it reads the stamps, files and events and writes only
// each event's `file` and `time`, so attribution (which writes an event's rank, host, pid and device) may
// run meanwhile. placeEvents() then moves the events, in that order, and the files into the incident, and
// finds each rank's span and first WARN.
struct EventOrder
{
    int year = 0;
    bool yearAssumed = false; // no clock said its year: `year` is the file's (see incidentYear())
    std::vector<LogEvent> earlier; // events the incident had before
    std::vector<LogEvent*> arrival; // every event, in the order they came in
    std::vector<std::size_t> sorted; // indexes into arrival, in time order
    QStringList untimedFiles;
};
EventOrder sortEvents(std::vector<FileScan>& scans, std::vector<LogEvent> earlier, int fileBase);
void placeEvents(std::vector<FileScan>& scans, Incident& incident, EventOrder order);

} // namespace rankscope
