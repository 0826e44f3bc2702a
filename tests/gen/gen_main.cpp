// SPDX-License-Identifier: MIT
// rankscope-gen: writes a synthetic multi-rank incident folder for tests and benchmarks.
#include "incident_generator.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTextStream>

using namespace rankscope::testgen;

namespace {

int fail(const QString& message)
{
    QTextStream(stderr) << "rankscope-gen: " << message << '\n';
    return 2;
}

bool toInt(const QString& text, int& out)
{
    bool ok = false;
    out = text.toInt(&ok);
    return ok;
}

} // namespace

int main(int argc, char* argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("rankscope-gen"));
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Generate a faithful NCCL/PyTorch/torchrun incident folder."));
    parser.addHelpOption();
    const QCommandLineOption ranksOpt(QStringLiteral("ranks"), QStringLiteral("World size (default 8)."),
        QStringLiteral("N"), QStringLiteral("8"));
    const QCommandLineOption gpusOpt(QStringLiteral("gpus-per-node"),
        QStringLiteral("GPUs per node (default 8)."), QStringLiteral("N"), QStringLiteral("8"));
    const QCommandLineOption sizeOpt(QStringLiteral("size"),
        QStringLiteral("Total uncompressed size, e.g. 1G, 200M (default: small)."), QStringLiteral("SIZE"),
        QStringLiteral("0"));
    const QCommandLineOption faultOpt(QStringLiteral("fault"),
        QStringLiteral("ib|shm|hang|none (default ib)."), QStringLiteral("KIND"), QStringLiteral("ib"));
    const QCommandLineOption faultRankOpt(QStringLiteral("fault-rank"),
        QStringLiteral("Rank that fails (default min(7, ranks-1))."), QStringLiteral("R"));
    const QCommandLineOption layoutOpt(QStringLiteral("layout"),
        QStringLiteral("per-rank|nccl|torchrun|combined|pylog|console|glog|srun (default nccl)."),
        QStringLiteral("LAYOUT"), QStringLiteral("nccl"));
    const QCommandLineOption gzipOpt(
        QStringLiteral("gzip"), QStringLiteral("Write every file gzip-compressed."));
    const QCommandLineOption seedOpt(QStringLiteral("seed"), QStringLiteral("Seed (default 1)."),
        QStringLiteral("S"), QStringLiteral("1"));
    const QCommandLineOption hostOpt(QStringLiteral("host-prefix"),
        QStringLiteral("Host name prefix (gpu-a)."), QStringLiteral("PREFIX"), QStringLiteral("gpu-a"));
    const QCommandLineOption outOpt({ QStringLiteral("o"), QStringLiteral("output") },
        QStringLiteral("Output folder (created)."), QStringLiteral("DIR"));
    parser.addOptions(
        { ranksOpt, gpusOpt, sizeOpt, faultOpt, faultRankOpt, layoutOpt, gzipOpt, seedOpt, hostOpt, outOpt });
    parser.process(app);

    GenOptions o;
    if (!toInt(parser.value(ranksOpt), o.ranks))
        return fail(QStringLiteral("--ranks: not a number: %1").arg(parser.value(ranksOpt)));
    if (!toInt(parser.value(gpusOpt), o.gpusPerNode))
        return fail(QStringLiteral("--gpus-per-node: not a number: %1").arg(parser.value(gpusOpt)));
    o.targetBytes = parseSize(parser.value(sizeOpt));
    if (o.targetBytes < 0)
        return fail(
            QStringLiteral("--size: expected a size like 1G or 200M, got %1").arg(parser.value(sizeOpt)));
    if (!parseFault(parser.value(faultOpt), o.fault))
        return fail(
            QStringLiteral("--fault: expected ib, shm, hang or none, got %1").arg(parser.value(faultOpt)));
    o.faultRank = std::min(7, o.ranks - 1);
    if (parser.isSet(faultRankOpt) && !toInt(parser.value(faultRankOpt), o.faultRank))
        return fail(QStringLiteral("--fault-rank: not a number: %1").arg(parser.value(faultRankOpt)));
    if (!parseLayout(parser.value(layoutOpt), o.layout))
        return fail(QStringLiteral(
            "--layout: expected per-rank, nccl, torchrun, combined, pylog, console, glog or srun, got %1")
                        .arg(parser.value(layoutOpt)));
    bool seedOk = false;
    o.seed = parser.value(seedOpt).toUInt(&seedOk);
    if (!seedOk)
        return fail(QStringLiteral("--seed: not a number: %1").arg(parser.value(seedOpt)));
    o.gzip = parser.isSet(gzipOpt);
    o.hostPrefix = parser.value(hostOpt);
    if (!parser.isSet(outOpt))
        return fail(QStringLiteral("-o DIR is required"));

    QElapsedTimer timer;
    timer.start();
    const GenResult r = generateIncident(o, parser.value(outOpt));
    if (!r.error.isEmpty())
        return fail(r.error);
    QTextStream out(stdout);
    out << "generated " << r.files << " files, " << r.bytes << " bytes in " << timer.elapsed() << " ms into "
        << parser.value(outOpt);
    if (r.faultRank >= 0)
        out << "; fault " << parser.value(faultOpt) << " on rank " << r.faultRank << " (" << r.faultHost
            << ") at " << r.faultFile << ':' << r.faultLine;
    else
        out << "; no fault";
    out << '\n';
    return 0;
}
