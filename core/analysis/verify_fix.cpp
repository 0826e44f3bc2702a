// SPDX-License-Identifier: MIT
#include "verify_fix.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <algorithm>
#include <map>
#include <set>

namespace rankscope {

namespace {

struct SignatureHits
{
    QString title;
    bool cause = false;
    std::set<int> ranks;
};

// Signature id -> the ranks whose events matched it, in the current attempt.
std::map<QString, SignatureHits> hitsOf(const Analysis& a)
{
    std::map<QString, SignatureHits> hits;
    const AttemptAnalysis* at = a.currentAttempt();
    if (!at)
        return hits;
    const auto& sigs = a.catalog.catalog.signatures;
    for (const LogEvent& e : at->incident.events) {
        if (e.signature < 0 || e.signature >= static_cast<int>(sigs.size()))
            continue;
        const Signature& s = sigs[static_cast<size_t>(e.signature)];
        SignatureHits& h = hits[s.id];
        h.title = s.title;
        h.cause = s.role == SignatureRole::Cause;
        h.ranks.insert(e.rank);
    }
    return hits;
}

QString initiatingId(const Analysis& a)
{
    const AttemptAnalysis* at = a.currentAttempt();
    const auto& sigs = a.catalog.catalog.signatures;
    if (!at || !at->diagnosis.failureFound || at->diagnosis.signature < 0
        || at->diagnosis.signature >= static_cast<int>(sigs.size()))
        return {};
    return sigs[static_cast<size_t>(at->diagnosis.signature)].id;
}

// The furthest step any rank logged (RankInfo::lastStep holds the number, or a whole "step N" line).
qint64 lastStep(const Analysis& a, QString& text)
{
    static const QRegularExpression stepRe(
        QStringLiteral("^(?:.*\\bstep\\s*[:=]?\\s*)?(\\d+)"), QRegularExpression::CaseInsensitiveOption);
    qint64 best = -1;
    if (const AttemptAnalysis* at = a.currentAttempt())
        for (const RankInfo& r : at->incident.ranks) {
            const auto m = stepRe.match(r.lastStep);
            if (m.hasMatch() && m.captured(1).toLongLong() > best)
                best = m.captured(1).toLongLong();
        }
    text = best >= 0 ? QStringLiteral("step %1").arg(best) : QString();
    return best;
}

// The highest collective sequence number a watchdog line reported (SeqNum or "last completed work").
qint64 lastSeq(const Analysis& a)
{
    static const QRegularExpression completedRe(QStringLiteral("last completed work: (\\d+)"));
    qint64 best = -1;
    const AttemptAnalysis* at = a.currentAttempt();
    if (!at)
        return best;
    for (const LogEvent& e : at->incident.events) {
        for (const Capture& c : e.captures)
            if (c.first == QLatin1String("seq") || c.first == QLatin1String("last_completed"))
                best = std::max(best, c.second.toLongLong());
        const auto m = completedRe.match(e.text);
        if (m.hasMatch())
            best = std::max(best, m.captured(1).toLongLong());
    }
    return best;
}

QString ranksText(const std::vector<int>& ranks)
{
    return verifyRanksText(ranks);
}

// The first sentence that made it FAIL: the evidence that is not good news.
QString failReason(const QStringList& evidence)
{
    for (const QString& e : evidence)
        if (!e.contains(QLatin1String("no longer appears")) && !e.contains(QLatin1String("past step")))
            return e;
    return evidence.front();
}

} // namespace

QString verifyRanksText(const std::vector<int>& ranks)
{
    // -1 stands for lines no rank could be given to: named as such.
    std::vector<int> known;
    bool unattributed = false;
    for (int r : ranks) {
        if (r < 0)
            unattributed = true;
        else
            known.push_back(r);
    }
    if (known.empty())
        return unattributed ? QStringLiteral("unattributed lines only") : QStringLiteral("none");
    const QString list = formatRankRanges(known);
    return unattributed ? QStringLiteral("%1 and unattributed lines").arg(list) : list;
}

QString outcomeName(SignatureOutcome::Kind kind)
{
    switch (kind) {
    case SignatureOutcome::Disappeared:
        return QStringLiteral("disappeared");
    case SignatureOutcome::Persisted:
        return QStringLiteral("persisted");
    case SignatureOutcome::Moved:
        return QStringLiteral("moved");
    case SignatureOutcome::Appeared:
        return QStringLiteral("appeared");
    }
    return {};
}

VerifyResult verifyFix(const Analysis& before, const Analysis& after)
{
    VerifyResult r;
    const auto hb = hitsOf(before), ha = hitsOf(after);
    const QString initId = initiatingId(before);
    std::set<QString> ids;
    for (const auto& [id, h] : hb)
        ids.insert(id);
    for (const auto& [id, h] : ha)
        ids.insert(id);
    for (const QString& id : ids) {
        SignatureOutcome o;
        o.id = id;
        const auto b = hb.find(id), a = ha.find(id);
        const SignatureHits& any = b != hb.end() ? b->second : a->second;
        o.title = any.title;
        o.cause = any.cause;
        o.initiating = id == initId;
        if (b != hb.end())
            o.ranksBefore.assign(b->second.ranks.begin(), b->second.ranks.end());
        if (a != ha.end())
            o.ranksAfter.assign(a->second.ranks.begin(), a->second.ranks.end());
        if (o.ranksAfter.empty())
            o.kind = SignatureOutcome::Disappeared;
        else if (o.ranksBefore.empty())
            o.kind = SignatureOutcome::Appeared;
        else {
            std::vector<int> common;
            std::set_intersection(o.ranksBefore.begin(), o.ranksBefore.end(), o.ranksAfter.begin(),
                o.ranksAfter.end(), std::back_inserter(common));
            o.kind = common.empty() ? SignatureOutcome::Moved : SignatureOutcome::Persisted;
        }
        r.outcomes.push_back(std::move(o));
    }
    std::stable_partition(
        r.outcomes.begin(), r.outcomes.end(), [](const SignatureOutcome& o) { return o.initiating; });

    bool pass = true;
    // Without a known failure before, there is nothing the fix can be checked against: neither PASS nor
    // FAIL (it was FAIL, exit 1, as if the fix had not worked).
    const QString noBaseline = initId.isEmpty()
        ? QStringLiteral("the run before the fix shows no failure with a known signature: nothing to verify")
        : QString();
    if (!noBaseline.isEmpty())
        r.evidence << noBaseline;
    for (const SignatureOutcome& o : r.outcomes) {
        if (o.initiating) {
            if (o.kind == SignatureOutcome::Disappeared)
                r.evidence << QStringLiteral(
                    "the initiating signature %1 (ranks %2 before) no longer appears")
                                  .arg(o.id, ranksText(o.ranksBefore));
            else {
                pass = false;
                r.evidence << QStringLiteral(
                    "the initiating signature %1 %2: ranks %3 before, ranks %4 after")
                                  .arg(o.id, outcomeName(o.kind), ranksText(o.ranksBefore),
                                      ranksText(o.ranksAfter));
            }
        } else if (o.kind == SignatureOutcome::Appeared && o.cause) {
            pass = false;
            r.evidence << QStringLiteral("a new cause appeared after the fix: %1 on ranks %2")
                              .arg(o.id, ranksText(o.ranksAfter));
        }
    }
    r.stepBefore = lastStep(before, r.lastStepBefore);
    r.stepAfter = lastStep(after, r.lastStepAfter);
    r.lastSeqBefore = lastSeq(before);
    r.lastSeqAfter = lastSeq(after);
    // Progress past the failure: a later step (a run before that failed ahead of its first step counts as
    // step -1), or, where neither run logs steps, a later collective SeqNum.
    bool progressed = false;
    QString progressWhy;
    if (r.stepAfter >= 0 && r.stepAfter > r.stepBefore) {
        progressed = true;
        r.evidence << (r.stepBefore >= 0
                ? QStringLiteral("the job reached step %1 after the fix, past step %2 "
                                 "where it failed before")
                      .arg(r.stepAfter)
                      .arg(r.stepBefore)
                : QStringLiteral("the job reached step %1 after the fix; before, it "
                                 "failed ahead of any step")
                      .arg(r.stepAfter));
    } else if (r.stepAfter >= 0 && r.stepAfter < r.stepBefore) {
        pass = false;
        r.evidence << QStringLiteral(
            "the job reached step %1 after the fix, step %2 before: it stopped earlier")
                          .arg(r.stepAfter)
                          .arg(r.stepBefore);
    } else if (r.stepAfter >= 0) {
        progressWhy =
            QStringLiteral("the run after the fix stopped at step %1, the step where the run before "
                           "failed: run it longer")
                .arg(r.stepAfter);
    } else if (r.stepBefore >= 0) {
        progressWhy = QStringLiteral("the run after the fix logged no training step (the run before reached "
                                     "step %1): it may not have got as far as the failure")
                          .arg(r.stepBefore);
    } else if (r.lastSeqAfter >= 0 && r.lastSeqBefore >= 0) {
        progressed = r.lastSeqAfter > r.lastSeqBefore;
        if (r.lastSeqAfter < r.lastSeqBefore)
            pass = false;
        r.evidence << QStringLiteral("last collective SeqNum %1 after the fix, %2 before%3")
                          .arg(r.lastSeqAfter)
                          .arg(r.lastSeqBefore)
                          .arg(r.lastSeqAfter < r.lastSeqBefore ? QStringLiteral(": it stopped earlier")
                                                                : QString());
        if (!progressed && pass)
            progressWhy =
                QStringLiteral("the run after the fix got no further than the run before (SeqNum %1)")
                    .arg(r.lastSeqAfter);
    } else {
        progressWhy =
            QStringLiteral("neither run logged a training step or a collective SeqNum: nothing shows "
                           "that the run after the fix got past the failure");
    }
    if (const AttemptAnalysis* at = after.currentAttempt(); at && at->diagnosis.failureFound) {
        // Failing again (any failure: a watchdog timeout too) without getting beyond where the run before
        // failed is a failed fix, not an open question.
        // A stall read from logs that only stop (no failing line) is not that: the run may have been cut.
        if (!progressed && pass && noBaseline.isEmpty() && at->diagnosis.initiatingEvent >= 0) {
            pass = false;
            r.evidence << (r.stepBefore >= 0
                    ? QStringLiteral(
                        "the run after the fix failed again before getting beyond step %1, where "
                        "the run before failed")
                          .arg(r.stepBefore)
                    : QStringLiteral(
                        "the run after the fix failed again and got no further than the run before"));
        }
        r.evidence << QStringLiteral("the run after the fix still reports: %1").arg(at->diagnosis.headline);
    }
    if (!noBaseline.isEmpty()) {
        r.pass = false;
        r.inconclusive = true;
        progressWhy = noBaseline;
    } else {
        r.pass = pass && progressed;
        r.inconclusive = pass && !progressed;
        if (r.inconclusive)
            r.evidence << progressWhy;
    }
    r.verdict = r.pass   ? QStringLiteral("PASS")
        : r.inconclusive ? QStringLiteral("INCONCLUSIVE")
                         : QStringLiteral("FAIL");
    r.reason = r.inconclusive  ? progressWhy
        : r.evidence.isEmpty() ? QString()
                               : (r.pass ? r.evidence.front() : failReason(r.evidence));
    return r;
}

QJsonObject verifyToJson(const VerifyResult& result)
{
    const auto ranks = [](const std::vector<int>& v) {
        QJsonArray a;
        for (int x : v)
            a.append(x);
        return a;
    };
    QJsonArray outcomes;
    for (const SignatureOutcome& o : result.outcomes)
        outcomes.append(QJsonObject { { QStringLiteral("id"), o.id }, { QStringLiteral("title"), o.title },
            { QStringLiteral("cause"), o.cause }, { QStringLiteral("initiating"), o.initiating },
            { QStringLiteral("outcome"), outcomeName(o.kind) },
            { QStringLiteral("ranksBefore"), ranks(o.ranksBefore) },
            { QStringLiteral("ranksAfter"), ranks(o.ranksAfter) } });
    const auto orNull = [](qint64 v) { return v >= 0 ? QJsonValue(v) : QJsonValue(); };
    const auto strOrNull = [](const QString& s) { return s.isEmpty() ? QJsonValue() : QJsonValue(s); };
    return QJsonObject { { QStringLiteral("verdict"), result.verdict },
        { QStringLiteral("pass"), result.pass }, { QStringLiteral("inconclusive"), result.inconclusive },
        { QStringLiteral("reason"), result.reason },
        { QStringLiteral("evidence"), QJsonArray::fromStringList(result.evidence) },
        { QStringLiteral("outcomes"), outcomes },
        { QStringLiteral("lastStepBefore"), strOrNull(result.lastStepBefore) },
        { QStringLiteral("lastStepAfter"), strOrNull(result.lastStepAfter) },
        { QStringLiteral("lastSeqBefore"), orNull(result.lastSeqBefore) },
        { QStringLiteral("lastSeqAfter"), orNull(result.lastSeqAfter) } };
}

QString verifyToText(const VerifyResult& result)
{
    QString out = QStringLiteral("Verdict: %1\n").arg(result.verdict);
    if (!result.reason.isEmpty())
        out += QStringLiteral("Why: %1\n").arg(result.reason);
    for (const QString& e : result.evidence)
        out += QStringLiteral("  - %1\n").arg(e);
    if (!result.outcomes.empty())
        out += QStringLiteral("Signatures:\n");
    for (const SignatureOutcome& o : result.outcomes)
        out += QStringLiteral("  %1 %2%3: ranks %4 before, %5 after\n")
                   .arg(outcomeName(o.kind).leftJustified(11), o.id,
                       o.initiating ? QStringLiteral(" (initiating)") : QString(), ranksText(o.ranksBefore),
                       ranksText(o.ranksAfter));
    const auto orUnknown = [](const QString& s) { return s.isEmpty() ? QStringLiteral("unknown") : s; };
    out += QStringLiteral("Last step: %1 before, %2 after\n")
               .arg(orUnknown(result.lastStepBefore), orUnknown(result.lastStepAfter));
    const auto seq = [](qint64 v) { return v >= 0 ? QString::number(v) : QStringLiteral("unknown"); };
    out += QStringLiteral("Last SeqNum: %1 before, %2 after\n")
               .arg(seq(result.lastSeqBefore), seq(result.lastSeqAfter));
    return out;
}

} // namespace rankscope
