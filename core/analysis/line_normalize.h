// SPDX-License-Identifier: MIT
// Normalises the fields of a log line that change from run to run (stamps, pids, tids, addresses, ports,
// pointers, commIds, durations, measured values) so that a failing run can be compared line by line with
// a healthy one. Host names, ranks, devices, counts and versions are kept: they align the runs and they
// are often the difference that matters.
#pragma once

#include <QString>
#include <QStringView>

namespace rankscope {

// Placeholders: <TS> stamp, <PID>, <TID>, <IP>, <PORT>, 0x<HEX>, <N> measured number, <F> decimal value.
QString normalizeVolatile(QStringView line);

} // namespace rankscope
