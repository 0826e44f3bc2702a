// SPDX-License-Identifier: MIT
// Verifies a fix by comparing the run before it with the run after it: for each signature, did it
// disappear, persist, move to other ranks, or appear; did the job get further. FAIL when the initiating
// signature of the run before is still there (on any rank), a new cause-level signature appeared, or the
// job stopped earlier. PASS only when the signature is gone AND the run after progressed past the step
// where the run before failed: a run after that printed no progress (it may have died at start-up, or been
// cut short) proves nothing, and is INCONCLUSIVE, with the reason.
#pragma once

#include "analysis.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <vector>

namespace rankscope {

struct SignatureOutcome
{
    enum Kind : quint8
    {
        Disappeared,
        Persisted,
        Moved, // present in both runs, on disjoint ranks
        Appeared
    };
    QString id;
    QString title;
    bool cause = false; // the catalog role is "cause"
    bool initiating = false; // the signature of the run before's initiating event
    Kind kind = Persisted;
    std::vector<int> ranksBefore, ranksAfter; // sorted; -1 for unattributed lines
};
QString outcomeName(SignatureOutcome::Kind kind); // "disappeared", "persisted", "moved", "appeared"
// "3, 7" or "3 and unattributed lines" or "none": never "-1"
QString verifyRanksText(const std::vector<int>& ranks);

struct VerifyResult
{
    bool pass = false;
    bool inconclusive = false; // neither PASS nor FAIL: `reason` says what is missing
    QString verdict; // "PASS", "FAIL" or "INCONCLUSIVE"
    QString reason; // one sentence: why the verdict (for INCONCLUSIVE, what would decide it)
    QStringList evidence; // one sentence per fact the verdict rests on
    std::vector<SignatureOutcome> outcomes; // initiating first, then by id
    QString lastStepBefore, lastStepAfter; // "step 20"; empty when unknown
    qint64 stepBefore = -1, stepAfter = -1;
    qint64 lastSeqBefore = -1, lastSeqAfter = -1; // the last SeqNum a watchdog line reported; -1 unknown
};

VerifyResult verifyFix(const Analysis& before, const Analysis& after);

QJsonObject verifyToJson(const VerifyResult& result);
QString verifyToText(const VerifyResult& result);

} // namespace rankscope
