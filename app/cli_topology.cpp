// SPDX-License-Identifier: MIT
#include "cli_topology.h"

#include "ingest.h"
#include "topology_placement.h"
#include "topology_report.h"

#include <QFile>
#include <QJsonDocument>
#include <QTextStream>
#include <cstdio>

namespace rankscope {

namespace {

constexpr const char* kTopologyUsage =
    "usage: rankscope topology FILE... [--host NAME] [--logs PATH] [--format text|json]\n"
    "  FILE: nvidia-smi topo -m / -p2p r, rocm-smi --showtopo, NCCL topology XML or hwloc XML;\n"
    "        the host comes from --host, the capture (hwloc HostName) or the file name (kind.HOST.ext)\n"
    "  --logs PATH: place the ranks of the job logs in PATH on the topology\n";

constexpr const char* kCaptureUsage = "usage: rankscope capture-topology [-o FILE]\n";

} // namespace

int runTopologyCommand(const QStringList& args)
{
    QTextStream out(stdout);
    QTextStream err(stderr);
    QStringList files;
    QString host, logs, format = QStringLiteral("text");
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString& a = args.at(i);
        const bool hasValue = i + 1 < args.size();
        if (a == u"-h" || a == u"--help") {
            out << kTopologyUsage;
            return 0;
        }
        if ((a == u"--host" || a == u"--logs" || a == u"--format") && !hasValue) {
            err << "error: " << a << " needs a value\n" << kTopologyUsage;
            return 2;
        }
        if (a == u"--host")
            host = args.at(++i);
        else if (a == u"--logs")
            logs = args.at(++i);
        else if (a == u"--format")
            format = args.at(++i);
        else if (a.startsWith(u"--")) {
            err << "error: unknown option " << a << '\n' << kTopologyUsage;
            return 2;
        } else
            files << a;
    }
    if (files.isEmpty() || (format != u"text" && format != u"json")) {
        err << (files.isEmpty() ? "error: no topology file given\n"
                                : "error: --format must be text or json\n")
            << kTopologyUsage;
        return 2;
    }

    const TopologySet set = loadTopologyFiles(files, host);
    PlacementResult placement;
    bool placed = false;
    if (!logs.isEmpty()) {
        LoadOptions options;
        options.paths << logs;
        const LoadResult loaded = loadIncidents(options);
        if (!loaded.error.isEmpty() || loaded.current < 0) {
            err << "error: "
                << (loaded.error.isEmpty() ? QStringLiteral("no incident in ") + logs : loaded.error) << '\n';
            return 1;
        }
        placement = placeRanks(loaded.incidents[static_cast<size_t>(loaded.current)].ranks, set);
        placed = true;
    } else {
        for (const HostTopology& h : set.hosts) { // the NCCL_IB_HCA fix needs no logs
            const std::vector<HcaChoice> c = closestNicPerLocalRank(h, {});
            placement.hca.insert(placement.hca.end(), c.begin(), c.end());
            const QString script = hcaCaseScript(c);
            if (!script.isEmpty() && !placement.hcaScripts.contains(script))
                placement.hcaScripts << script;
        }
    }

    if (format == u"json") {
        out << QJsonDocument(topologyToJson(set, &placement)).toJson(QJsonDocument::Indented);
    } else {
        out << topologyText(set);
        if (placed)
            out << placementText(set, placement);
        else if (!placement.hca.empty()) {
            out << "Closest NIC per local rank (NCCL_IB_HCA)\n";
            for (const HcaChoice& c : placement.hca)
                out << "  " << c.host << ": " << c.text() << '\n';
            for (const QString& s : placement.hcaScripts)
                out << "  " << s << '\n';
        }
    }
    out.flush();
    for (const QString& e : set.errors)
        err << "error: " << e << '\n';
    return set.errors.isEmpty() ? 0 : 1;
}

int runCaptureTopologyCommand(const QStringList& args)
{
    QTextStream err(stderr);
    QString output;
    for (qsizetype i = 0; i < args.size(); ++i) {
        if (args.at(i) == u"-h" || args.at(i) == u"--help") {
            QTextStream(stdout) << kCaptureUsage;
            return 0;
        }
        if ((args.at(i) == u"-o" || args.at(i) == u"--output") && i + 1 < args.size()) {
            output = args.at(++i);
            continue;
        }
        err << "error: unexpected argument " << args.at(i) << '\n' << kCaptureUsage;
        return 2;
    }
    const HwlocExport e = exportLocalHwlocXml();
    if (!e.error.isEmpty()) {
        err << "error: " << e.error << '\n';
        return 1;
    }
    if (output.isEmpty() || output == u"-") {
        std::fwrite(e.xml.constData(), 1, static_cast<size_t>(e.xml.size()), stdout);
        std::fflush(stdout);
        return 0;
    }
    QFile f(output);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(e.xml) != e.xml.size()) {
        err << "error: " << output << ": cannot write: " << f.errorString() << '\n';
        return 1;
    }
    return 0;
}

} // namespace rankscope
