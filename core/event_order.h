// Puts every event on one clock and in one order across ranks: resolves stamps (the year of stamps
// that lack one comes from the rest of the incident), infers the time of unstamped lines from the
// nearest stamped lines of the same file, and finds the first WARN per rank and overall.
#pragma once

#include "file_scanner.h"
#include "log_model.h"

#include <vector>

namespace rankscope {

// The year for stamps that carry none: the most common year among the scans' stamps, else fallback.
int incidentYear(const std::vector<FileScan>& scans, int fallbackYear);

// Moves files and events from the scans into the incident, timed and ordered.
void orderEvents(std::vector<FileScan>& scans, Incident& incident);

} // namespace rankscope
