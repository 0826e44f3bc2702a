// SPDX-License-Identifier: MIT
#include "line_normalize.h"

#include <QRegularExpression>
#include <vector>

namespace rankscope {

namespace {

struct Rule
{
    QRegularExpression re;
    QString replacement;
};

// Order matters: stamps go first (their digits and colons would look like addresses and decimals),
// the NCCL "host:pid:tid" prefix before IPv6 (both are colon-separated), ports before IPv4.
std::vector<Rule> buildRules()
{
    const auto rx = [](const char* pattern) {
        QRegularExpression re(QString::fromLatin1(pattern));
        re.optimize();
        return re;
    };
    std::vector<Rule> r;
    // ISO dates with time: NCCL "[2026-03-14 02:17:44]", Python logging ",123", torchrun
    // "2026-03-14_02:27:45".
    r.push_back({ rx(R"(\d{4}-\d{2}-\d{2}[T _]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2}(?!\d))?)"),
        QStringLiteral("<TS>") });
    // glog "I0314 02:17:03.431000 251778 file.py:212]" (with its thread/process id) and c10 "[E314
    // 02:17:44.63".
    r.push_back({ rx(R"((?<![\w])([IWEFVC])\d{3,4} \d{2}:\d{2}:\d{2}(?:\.\d+)?(?: +\d+(?= +\S+:\d+\]))?)"),
        QStringLiteral("\\1<TS>") });
    // syslog "Mar 14 02:17:44"
    r.push_back(
        { rx(R"(\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) +\d{1,2} \d{2}:\d{2}:\d{2}(?:\.\d+)?)"),
            QStringLiteral("<TS>") });
    // any remaining clock time
    r.push_back({ rx(R"((?<![\w:.])\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?![\w:]))"), QStringLiteral("<TS>") });
    // dmesg "[ 1234.567890]" and epoch seconds at the start of a line
    r.push_back({ rx(R"(^\[\s*\d+\.\d+\])"), QStringLiteral("[<TS>]") });
    r.push_back({ rx(R"(^\d{10}(?:\.\d+)?(?!\d))"), QStringLiteral("<TS>") });
    // NCCL prefix "gpu-a02:1402363:1402453 [3]": keep the host and the device
    r.push_back({ rx(R"(([A-Za-z][\w.-]*):\d+:\d+(?= \[\d+\]))"), QStringLiteral("\\1:<PID>:<TID>") });
    // pointers, commIds, opaque hex
    r.push_back({ rx(R"(\b0x[0-9a-fA-F]+\b)"), QStringLiteral("0x<HEX>") });
    // IPv6 (needs a "::" or eight groups), optional zone
    r.push_back(
        { rx(R"((?<![\w.])(?=[0-9a-fA-F:]*\d)(?=[0-9a-fA-F:]*::|(?:[0-9a-fA-F]{1,4}:){7}[0-9a-fA-F]{1,4})(?:[0-9a-fA-F]{0,4}:){2,7}[0-9a-fA-F]{0,4}(?:%[\w.]+)?(?![\w:.]))"),
            QStringLiteral("<IP>") });
    // IPv4, then the NCCL "<port>" and ":port" after an address
    r.push_back({ rx(R"((?<![\w.])\d{1,3}(?:\.\d{1,3}){3}(?![\w.]))"), QStringLiteral("<IP>") });
    r.push_back({ rx(R"(<\d+>)"), QStringLiteral("<PORT>") });
    r.push_back({ rx(R"(<IP>:\d+\b)"), QStringLiteral("<IP>:<PORT>") });
    // "pid 1234", "pid: 1234", "pid=1234", "tid 99", "(PID 5)"
    r.push_back({ rx(R"(\b(pid|PID|Pid|tid|TID)(\s*[:=]?\s*)\d+)"), QStringLiteral("\\1\\2<PID>") });
    // measured durations: "ran for 600071 milliseconds", "took 12 ms", "after 30s"
    r.push_back(
        { rx(R"(\b\d+(?:\.\d+)?(\s*(?:milliseconds|millisecond|seconds|second|secs|sec|ms|us|ns|s)\b))"),
            QStringLiteral("<N>\\1") });
    // decimal values: losses, "total 1.58", "1.93 s/it" (dotted versions like 2.27.7 or cuda12.9 stay)
    r.push_back({ rx(R"((?<![\w.])\d+\.\d+(?:[eE][-+]?\d+)?(?![\w.]))"), QStringLiteral("<F>") });
    return r;
}

// "Init timings ... total 1.65 (kernels 0.21, ...)", "time=12": every number after '=' or in timing lines
const QRegularExpression& timingLine()
{
    static const QRegularExpression re(QStringLiteral("\\btimings\\b|\\btiming\\s*[:=]|\\belapsed\\b"),
        QRegularExpression::CaseInsensitiveOption);
    return re;
}

} // namespace

QString normalizeVolatile(QStringView line)
{
    static const std::vector<Rule> rules = buildRules();
    static const QRegularExpression assigned(QStringLiteral("=\\s*\\d+(?:\\.\\d+)?"));
    QString out = line.toString();
    for (const Rule& rule : rules)
        out.replace(rule.re, rule.replacement);
    if (timingLine().match(out).hasMatch())
        out.replace(assigned, QStringLiteral("=<N>"));
    return out;
}

} // namespace rankscope
