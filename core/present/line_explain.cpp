// SPDX-License-Identifier: MIT
#include "line_explain.h"

#include "line_prefix.h"
#include "signature_matcher.h"

#include <memory>
#include <re2/re2.h>
#include <string>

namespace rankscope {

namespace {

QString view(std::string_view s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

QStringList describePrefixes(const LinePrefix& p)
{
    QStringList out;
    if (p.wrapped)
        out << QStringLiteral("a wrapper's prefix (colours, a gutter or a tool's tag)");
    if (!p.pdshHost.empty())
        out << QStringLiteral("pdsh host %1").arg(view(p.pdshHost));
    if (p.launcherRank >= 0)
        out << QStringLiteral("launcher rank label: rank %1").arg(p.launcherRank);
    if (!p.rayIp.empty())
        out << QStringLiteral("Ray worker %1 at %2, pid %3")
                   .arg(view(p.sourceTag), view(p.rayIp), QString::number(p.rayPid));
    else if (!p.sourceTag.empty())
        out << QStringLiteral("writer tag: %1").arg(view(p.sourceTag));
    if (p.teeLocalRank >= 0)
        out << QStringLiteral("torchrun --tee label: local rank %1").arg(p.teeLocalRank);
    if (p.globalRank >= 0)
        out << QStringLiteral("PyTorch rank prefix: rank %1").arg(p.globalRank);
    if (p.stampBorrowed) {
        out << QStringLiteral("timestamp: none of its own; the wrapper's clock dates it");
    } else if (p.stamp.kind != StampKind::None) {
        const std::string_view rest = p.afterLauncher;
        const auto from = static_cast<std::size_t>(p.stamp.offset);
        const auto length = static_cast<std::size_t>(p.stamp.length);
        if (from + length <= rest.size())
            out << QStringLiteral("timestamp: %1").arg(view(rest.substr(from, length)).trimmed());
    }
    if (!p.ncclHost.empty()) {
        QString nccl = QStringLiteral("NCCL prefix: host %1").arg(view(p.ncclHost));
        if (p.pid >= 0)
            nccl += QStringLiteral(", pid %1").arg(p.pid);
        if (p.tid >= 0)
            nccl += QStringLiteral(", thread %1").arg(p.tid);
        if (p.ncclDev >= 0)
            nccl += QStringLiteral(", device %1").arg(p.ncclDev);
        out << nccl;
    }
    switch (p.nccl) {
    case NcclLevel::Info:
        out << QStringLiteral("NCCL level: INFO");
        break;
    case NcclLevel::Warn:
        out << QStringLiteral("NCCL level: WARN");
        break;
    case NcclLevel::Trace:
        out << QStringLiteral("NCCL level: TRACE");
        break;
    case NcclLevel::Call:
        out << QStringLiteral("NCCL level: CALL");
        break;
    case NcclLevel::None:
        break;
    }
    return out;
}

// The first pattern of `sig` that matches, with its span and named groups; false when none does.
bool explainPattern(const Signature& sig, const std::string& line, LineMatchExplanation* out)
{
    RE2::Options options;
    options.set_log_errors(false);
    for (int p = 0; p < sig.patterns.size(); ++p) {
        const auto known = static_cast<std::size_t>(p);
        std::shared_ptr<const RE2> re = known < sig.compiledPatterns.size() && sig.compiledPatterns[known]
            ? sig.compiledPatterns[known]
            : std::make_shared<const RE2>(sig.patterns[p].toStdString(), options);
        if (!re->ok())
            continue;
        const int groups = re->NumberOfCapturingGroups();
        std::vector<re2::StringPiece> sub(static_cast<std::size_t>(groups + 1));
        if (!re->Match(line, 0, line.size(), RE2::UNANCHORED, sub.data(), groups + 1))
            continue;
        out->pattern = p;
        out->patternText = sig.patterns[p];
        const auto byteStart = static_cast<qsizetype>(sub[0].data() - line.data());
        out->spanStart = QString::fromUtf8(line.data(), byteStart).size();
        out->matchedText = QString::fromUtf8(sub[0].data(), static_cast<qsizetype>(sub[0].size()));
        out->spanLength = out->matchedText.size();
        for (const auto& [name, index] : re->NamedCapturingGroups()) {
            const re2::StringPiece& piece = sub[static_cast<std::size_t>(index)];
            if (piece.data() != nullptr)
                out->captures.emplace_back(QString::fromStdString(name),
                    QString::fromUtf8(piece.data(), static_cast<qsizetype>(piece.size())));
        }
        std::sort(out->captures.begin(), out->captures.end());
        return true;
    }
    return false;
}

// Why `winner` outranks `other` by the matcher's rule (signature_matcher.h).
QString outranks(const Signature& winner, const Signature& other)
{
    if (!other.refines.isEmpty())
        return QStringLiteral("a variant of %1: the diagnosis chooses it from the rest of the incident, "
                              "never from one line")
            .arg(other.refines);
    if (roleRank(winner.role) < roleRank(other.role))
        return QStringLiteral("%1 beats %2")
            .arg(signatureRoleName(winner.role), signatureRoleName(other.role));
    if (other.fallback && !winner.fallback)
        return QStringLiteral("a catch-all (fallback): any other %1 that matches wins over it")
            .arg(signatureRoleName(other.role));
    return QStringLiteral("same role; %1 comes first in catalog order").arg(winner.id);
}

} // namespace

LineExplanation explainLine(const QString& text, const Catalog& catalog, const SignatureMatcher& matcher)
{
    LineExplanation out;
    out.line = text.section(QLatin1Char('\n'), 0, 0);
    if (out.line.endsWith(QLatin1Char('\r')))
        out.line.chop(1);
    const std::string utf8 = out.line.toStdString();
    const LinePrefix prefix = parseLinePrefix(utf8);
    out.prefixes = describePrefixes(prefix);
    out.message = view(prefix.message);

    const MatchResult best = matcher.match(utf8);
    for (const int s : matcher.matchAll(utf8)) {
        LineMatchExplanation m;
        m.signature = s;
        if (!explainPattern(catalog.signatures[static_cast<std::size_t>(s)], utf8, &m))
            continue;
        m.winner = s == best.signature;
        if (m.winner)
            out.winner = static_cast<int>(out.matches.size());
        out.matches.push_back(std::move(m));
    }
    if (out.winner < 0)
        return out;
    const Signature& win = catalog.signatures[static_cast<std::size_t>(best.signature)];
    QStringList beaten;
    for (LineMatchExplanation& m : out.matches) {
        if (m.winner)
            continue;
        const Signature& other = catalog.signatures[static_cast<std::size_t>(m.signature)];
        m.whyNotWinner = outranks(win, other);
        beaten << QStringLiteral("over %1 (%2)").arg(other.id, m.whyNotWinner);
    }
    out.winnerReason = beaten.isEmpty()
        ? QStringLiteral("the only entry that matches")
        : QStringLiteral("%1 (%2) wins ").arg(win.id, signatureRoleName(win.role))
            + beaten.join(QStringLiteral("; "));
    return out;
}

} // namespace rankscope
