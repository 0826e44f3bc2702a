// SPDX-License-Identifier: MIT
// What two loads of the same input must agree on, field by field: the scanner's shortcuts are checked by
// loading with and without them (tst_scan_shortcuts, fuzz_scan_shortcuts). Returns the first difference
// found, as text, or an empty string.
#pragma once

#include "ingest.h"

#include <QString>
#include <QStringList>

namespace rankscope::testing {

inline QString describe(const LogEvent& e)
{
    QStringList captures;
    for (const Capture& c : e.captures)
        captures << c.first + QLatin1Char('=') + c.second;
    return QStringLiteral(
        "%1:%2 +%3 sev %4 t %5/%6/%7 rank %8 local %9 host %10 pid %11 dev %12 sig %13 [%14] %15 | %16 | %17 "
        "x%18 until %19")
        .arg(e.file)
        .arg(e.line)
        .arg(e.lineCount)
        .arg(static_cast<int>(e.severity))
        .arg(e.time.ms)
        .arg(e.time.valid)
        .arg(e.time.inferred)
        .arg(e.rank)
        .arg(e.localRank)
        .arg(e.host)
        .arg(e.pid)
        .arg(e.device)
        .arg(e.signature)
        .arg(captures.join(QLatin1Char(',')), e.text, e.message, e.continuation.join(QLatin1Char('\n')))
        .arg(e.repeats)
        .arg(e.lastRepeatLine);
}

inline QString describe(const RankInfo& r)
{
    return QStringLiteral(
        "rank %1 host %2 pid %3 local %4 step %5 first %6 last %7 known %8 counts %9/%10/%11/%12 "
        "warn %13 files %14")
        .arg(r.rank)
        .arg(r.host)
        .arg(r.pid)
        .arg(r.localRank)
        .arg(r.lastStep)
        .arg(r.firstTime.ms)
        .arg(r.lastTime.ms)
        .arg(r.timesKnown)
        .arg(r.severityCounts[0])
        .arg(r.severityCounts[1])
        .arg(r.severityCounts[2])
        .arg(r.severityCounts[3])
        .arg(r.firstWarn)
        .arg(static_cast<int>(r.files.size()));
}

inline QString describe(const LaunchInfo& info)
{
    QStringList out;
    std::vector<LaunchItem> items = info.launchers;
    items.push_back(info.framework);
    for (const LaunchItem& item : items) {
        QStringList lines;
        for (const LaunchEvidence& e : item.evidence)
            lines << QStringLiteral("%1:%2 %3").arg(e.file).arg(e.line).arg(e.text);
        out << item.id + QLatin1Char('[') + lines.join(QLatin1Char('|')) + QLatin1Char(']');
    }
    return out.join(QLatin1Char(' '));
}

template <typename T> QString differ(const char* what, const T& a, const T& b)
{
    return a == b ? QString()
                  : QStringLiteral("%1: %2 against %3").arg(QLatin1String(what), QString(a), QString(b));
}

inline QString incidentDifference(const Incident& a, const Incident& b)
{
    const auto num = [](auto n) { return QString::number(n); };
    QString d = differ("label", a.label, b.label);
    if (d.isEmpty())
        d = differ("files", num(a.files.size()), num(b.files.size()));
    for (size_t i = 0; d.isEmpty() && i < a.files.size(); ++i) {
        const FileInfo& x = a.files[i];
        const FileInfo& y = b.files[i];
        d = differ("file lines", num(x.lines), num(y.lines));
        if (d.isEmpty())
            d = differ("unattributed lines", num(x.unattributedLines), num(y.unattributedLines));
        if (d.isEmpty())
            d = differ("has timestamps", num(x.hasTimestamps), num(y.hasTimestamps));
        if (d.isEmpty() && x.lineOffsets != y.lineOffsets)
            d = QStringLiteral("line offsets of %1").arg(x.displayPath);
        if (d.isEmpty())
            d = differ("file bytes", num(x.bytes), num(y.bytes));
        if (d.isEmpty())
            d = differ("file notes", x.notes.join(QLatin1Char('\n')), y.notes.join(QLatin1Char('\n')));
    }
    if (d.isEmpty())
        d = differ("events", num(a.events.size()), num(b.events.size()));
    for (size_t i = 0; d.isEmpty() && i < a.events.size(); ++i)
        d = differ("event", describe(a.events[i]), describe(b.events[i]));
    if (d.isEmpty())
        d = differ("ranks", num(a.ranks.size()), num(b.ranks.size()));
    for (size_t i = 0; d.isEmpty() && i < a.ranks.size(); ++i)
        d = differ("rank", describe(a.ranks[i]), describe(b.ranks[i]));
    if (d.isEmpty())
        d = differ("first warn", num(a.firstWarn), num(b.firstWarn));
    if (d.isEmpty())
        d = differ("launch", describe(a.launch), describe(b.launch));
    if (d.isEmpty())
        d = differ("warnings", a.warnings.join(QLatin1Char('\n')), b.warnings.join(QLatin1Char('\n')));
    return d;
}

inline QString loadDifference(const LoadResult& a, const LoadResult& b)
{
    QString d = differ("error", a.error, b.error);
    if (d.isEmpty())
        d = differ("incidents", QString::number(a.incidents.size()), QString::number(b.incidents.size()));
    for (size_t k = 0; d.isEmpty() && k < a.incidents.size(); ++k)
        d = incidentDifference(a.incidents[k], b.incidents[k]);
    return d;
}

} // namespace rankscope::testing
