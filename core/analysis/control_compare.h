// SPDX-License-Identifier: MIT
// Compares a failing run with a healthy control run of the same job: aligns the initiating rank with its
// counterpart (by rank, else by host and local rank), normalises volatile fields, and finds the first line
// before the initiating event that differs from the control, plus the lines that exist only in the
// failing run. Streams the two files involved; nothing else is read.
#pragma once

#include "cancel_token.h"
#include "diagnosis.h"
#include "log_model.h"

#include <QJsonObject>
#include <QString>
#include <vector>

namespace rankscope {

struct DiffLine
{
    QString file; // display path
    qint64 line = 0; // 1-based
    QString text; // raw
};

// One row of the side-by-side view: a failing line, a control line, or both when they pair up.
struct DiffRow
{
    enum Kind : quint8
    {
        Same, // equal after normalisation
        Changed, // both sides present, different
        OnlyFailing,
        OnlyControl
    };
    Kind kind = Same;
    bool failingOnly = false; // the failing line's normalised text never occurs in the control
    qint64 failingLine = 0, controlLine = 0; // 1-based; 0 when the side is empty
    QString failingText, controlText;
};

struct Divergence
{
    int rank = -1; // the initiating rank in the failing run
    QString host;
    int controlRank = -1; // its counterpart in the control
    bool found = false; // a differing line exists before the initiating event
    qint64 failingLine = 0;
    QString failingFile;
    QString failingText;
    QString controlText; // empty when the failing line has no counterpart
    qint64 controlLine = 0;
    QString controlFile;
    std::vector<DiffLine> onlyInFailing; // first kMaxOnlyInFailing, in file order
    qint64 onlyInFailingTotal = 0;
    QString alignedBy; // "rank" or "host+local rank"; empty when no counterpart
    QString note; // why nothing was compared, or remarks (lines cut, shared file filtered)
    qint64 initiatingLine = 0; // 1-based line of the initiating event in failingFile
    std::vector<DiffRow> rows; // the aligned lines before the initiating event, for the side-by-side view
    int firstRow = -1; // index into rows of the first difference
    bool rowsCut = false; // rows stop at kMaxRows
};

constexpr int kMaxOnlyInFailing = 50;
constexpr int kMaxRows = 20000;

Divergence compareWithControl(const Incident& failing, const Diagnosis& d, const Incident& control,
    const CancelToken* cancel = nullptr);

QJsonObject divergenceToJson(const Divergence& div);
QString divergenceToText(const Divergence& div);

} // namespace rankscope
