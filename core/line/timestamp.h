// SPDX-License-Identifier: MIT
// Recognises the wall-clock stamp at the start of a log line (NCCL, c10, torch, glog, Python logging,
// syslog, dmesg, epoch seconds) without regexes: it runs on every line of multi-GB inputs.
#pragma once

#include <QtGlobal>
#include <optional>
#include <string_view>

namespace rankscope {

// Which forms map to which kind:
// - Iso8601: "2026-03-14T02:17:44Z", "2026-03-14 02:17:44.123", DeepSpeed and torch<=2.2
//   "[2025-12-18 20:27:22,783] ", NeMo "[NeMo I 2024-07-31 19:59:50 " (offset points at the date)
// - PythonLogging: "2026-03-14 02:17:44,123 - name - LEVEL - "
// - NcclBracket: "[2026-03-14 02:17:44] ", "[2026-03-14 02:17:44.123456] "
// - Glog: "E0314 02:17:44.123456 tid file.cc:12]" and c10 "[E314 02:17:44.791203518 file.cpp:593]"
// - TorchLogs: the glog shape whose file is a Python module path ("... torch/distributed/run.py:766]")
// - LevelWordHeader: vLLM's "ERROR 02-12 02:14:01 worker_base.py:574] " and "INFO 04-06 20:46:48 [x.py:238] "
//   (offset 0, length up to the end of the clock; the source follows)
// - Cann: Huawei CANN's "[ERROR] HCCL(pid,name):2023-10-16-08:41:56.291.748 " (cann_header.h; offset 0,
//   length up to the end of the clock), and the clock after an error code ("EJ0001: <clock>")
enum class StampKind
{
    None,
    Iso8601,
    PythonLogging,
    NcclBracket,
    Glog,
    TorchLogs,
    LevelWordHeader,
    Cann,
    Syslog,
    Dmesg,
    Epoch
};

struct ParsedStamp
{
    StampKind kind = StampKind::None;
    // Where the stamp sits in the text. length includes the surrounding [ ] when the brackets hold only the
    // stamp ("[2026-03-14 02:17:44] ", "[  12.5] "). For glog/c10/torch headers it covers the severity letter
    // (and a leading '[') up to the end of the time, not the thread id or file:line that follow.
    int offset = 0, length = 0;
    int year = 0; // 0 when the stamp carries no year
    int month = 0, day = 0; // 0 when no date (dmesg)
    int hour = 0, minute = 0, second = 0;
    int nanos = 0; // sub-second part
    bool subsecondOrdered = true; // false for c10 stamps: their fraction is CLOCK_MONOTONIC nanos
    bool hasFraction = false; // the clock printed a fraction of a second
    bool hasZone = false;
    int zoneOffsetSeconds = 0;
    double uptimeSeconds = 0; // dmesg [12345.678]
    qint64 epochMs = 0; // epoch seconds form
    char severity = 0; // the glog/c10/torch/NeMo letter (E W I F V C) when the stamp carries one
    // SGLang's writer tags inside the brackets ("DP1 TP3" in "[2025-01-12 10:11:12 DP1 TP3] "): where they
    // sit in the text, relative to the text's start; length 0 when there are none.
    int tagsOffset = 0, tagsLength = 0;
    bool found() const { return kind != StampKind::None; }
};

// Looks for a stamp at the START of text (position 0, or wrapped in '[' at position 0, or after a one-letter
// glog severity). Never scans the whole line: it is cheap enough to call on every line.
ParsedStamp findTimestamp(std::string_view text);

// A bracketed level word at the start of text ("[ERROR] ", "[WARNING] ", "[INFO] ", CANN's "[EVENT] "): its
// glog letter (E, F, W or I) and, in `close`, where its ']' is; 0 when text starts with none. Looks only at
// the first 11 bytes.
char bracketedLevel(std::string_view text, std::size_t& close);

// Milliseconds since the epoch, reading the fields as UTC unless the stamp has a zone (then converted to
// UTC). A stamp without a year takes defaultYear. Fractions with subsecondOrdered=false are dropped (whole
// seconds). std::nullopt for dmesg uptime (no wall clock) or invalid fields (month 13, Feb 30, hour 24...).
std::optional<qint64> stampToMs(const ParsedStamp& s, int defaultYear);

} // namespace rankscope
