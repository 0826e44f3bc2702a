// SPDX-License-Identifier: MIT
// Hosts of one job that NCCL set up differently: another NCCL build, a network plugin on some nodes only,
// InfiniBand on some and sockets on others. Each host says so only in INFO lines, and nothing fails where
// it says it: the job hangs or fails later, where the hosts meet.
#include "diagnosis_parts.h"
#include "template_render.h"

#include <map>

namespace rankscope::detail {

namespace {

constexpr qsizetype kNamedHosts = 4;

struct Group
{
    QString value;
    QStringList hosts;
    int file = -1;
    qint64 line = 0;
};

QString hostList(const QStringList& hosts)
{
    if (hosts.size() <= kNamedHosts)
        return hosts.join(QStringLiteral(", "));
    return QStringLiteral("%1 and %2 more")
        .arg(hosts.mid(0, kNamedHosts).join(QStringLiteral(", ")))
        .arg(hosts.size() - kNamedHosts);
}

} // namespace

QStringList setupDivergenceNotes(const Incident& inc, int* file, qint64* line)
{
    std::map<QString, std::map<QString, Group>> byKey; // key -> group -> hosts
    for (const SetupFact& f : inc.setupFacts) {
        Group& g = byKey[f.key][f.group];
        if (g.hosts.isEmpty()) {
            g.value = f.value;
            g.file = f.file;
            g.line = f.line;
        }
        g.hosts << f.host;
    }
    QStringList notes;
    qsizetype fewest = -1;
    for (const auto& [key, groups] : byKey) {
        if (groups.size() < 2)
            continue;
        QStringList parts;
        for (const auto& [group, g] : groups) {
            parts << QStringLiteral("%1 on %2").arg(g.value, hostList(g.hosts));
            // The line to show: the first of the host set that differs from the most (of equal sets, the
            // one written first).
            const bool earlier = file && line && (g.file < *file || (g.file == *file && g.line < *line));
            if (fewest < 0 || g.hosts.size() < fewest || (g.hosts.size() == fewest && earlier)) {
                fewest = g.hosts.size();
                if (file)
                    *file = g.file;
                if (line)
                    *line = g.line;
            }
        }
        notes << QStringLiteral("%1 differs between hosts: %2").arg(key, parts.join(QStringLiteral("; ")));
    }
    return notes;
}

bool diagnoseDivergence(const Incident& inc, const Catalog& cat, Diagnosis& d)
{
    int file = -1;
    qint64 line = 0;
    const QStringList notes = setupDivergenceNotes(inc, &file, &line);
    if (notes.isEmpty() || file < 0)
        return false;
    d.failureFound = true;
    d.headline =
        QStringLiteral("No error line, but the hosts were set up differently: %1.").arg(notes.first());
    d.confidence = QStringLiteral("low");
    d.confidenceReasons << QStringLiteral(
        "no line reports an error; NCCL's INFO lines show hosts of the job set "
        "up differently (%1:%2)")
                               .arg(inc.files[static_cast<size_t>(file)].displayPath)
                               .arg(line);
    d.notes << notes;
    d.evidence.file = file;
    d.evidence.fromLine = line;
    d.evidence.toLine = line;
    for (int s = 0; s < static_cast<int>(cat.signatures.size()); ++s) {
        if (cat.signatures[static_cast<size_t>(s)].stall != QLatin1String("host-divergence"))
            continue;
        d.signature = s;
        RenderContext ctx;
        ctx.logFolder = d.logFolder;
        ctx.logs = d.logs;
        ctx.runSettings = runSettingsOf(inc);
        renderSignatureTexts(cat.signatures[static_cast<size_t>(s)], ctx, d);
        break;
    }
    return true;
}

} // namespace rankscope::detail
