// SPDX-License-Identifier: MIT
// Verifies a fix by comparing the run before it with the run after it: for each signature, did it
// disappear, persist, move to other ranks, or appear; did the job get further. PASS iff the initiating
// signature of the run before is gone everywhere, no new cause-level signature appeared and (when both
// runs tell) the job got at least as far.
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

struct VerifyResult
{
    bool pass = false;
    QString verdict; // "PASS" or "FAIL"
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
