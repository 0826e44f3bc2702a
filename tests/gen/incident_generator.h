// SPDX-License-Identifier: MIT
// Generates a faithful multi-rank incident folder (NCCL 2.27 INFO/WARN, PyTorch c10 and torch logs, torchrun
// summaries) of any size, with one injected fault, deterministically from a seed. For tests and benchmarks.
#pragma once

#include <QString>
#include <QtGlobal>

namespace rankscope::testgen {

enum class Fault
{
    None,
    IbRetryExceeded, // NET/IB status=12 on one rank
    ShmTooSmall, // /dev/shm segment creation fails while a node-local communicator initialises
    Hang, // one rank stops logging, no error; the others time out
};

enum class Layout
{
    // rank-0003.log: each process's stdout+stderr (srun --output=rank-%t.log)
    PerRankFiles,
    // nccl.<host>.<pid>.log (NCCL_DEBUG_FILE) + torchrun.<host>.console.log per node (--tee 3)
    NcclDebugFiles,
    // <run>/attempt_0/<local>/{stdout,stderr}.log, one <run> per node (--log-dir), +
    // torchrun.<host>.console.log
    TorchrunLogDir,
    // one console.log: [defaultN]:[rankM]: lines of every node interleaved
    Combined,
    // rank-0003.log whose bulk is Python `logging` lines, NCCL INFO lines between them
    PythonLogging,
    // one console.log of torchrun --tee 3: [defaultN]: prefixes, logging lines, tqdm bars ('\r'
    // between updates), warnings.warn pairs
    TorchrunConsole,
    // one console.log, glog-style PyTorch lines and NCCL lines behind [rankN]: prefixes
    GlogConsole,
    // one slurm.out of `srun -l`: every line behind its task label ("12: ")
    SrunLabelled,
};

struct GenOptions
{
    int ranks = 8;
    int gpusPerNode = 8;
    qint64 targetBytes = 0; // total uncompressed bytes; 0: small (a few training steps)
    Fault fault = Fault::IbRetryExceeded;
    int faultRank = 7;
    Layout layout = Layout::NcclDebugFiles;
    quint32 seed = 1;
    bool gzip = false; // every file written as <name>.gz
    QString hostPrefix = QStringLiteral("gpu-a");
};

struct GenResult
{
    QString error; // empty on success
    int files = 0;
    qint64 bytes = 0; // uncompressed bytes written, all files
    int faultRank = -1; // -1 for Fault::None
    QString faultHost; // short host name of the fault rank
    qint64 faultLine =
        0; // 1-based line in faultFile (decompressed): the WARN, or for Hang the rank's last line
    QString faultFile; // absolute path
};

GenResult generateIncident(const GenOptions& o, const QString& outDir);

// Parses "--fault"/"--layout" spellings (ib, shm, hang, none / per-rank, nccl, torchrun, combined,
// pylog, console, glog, srun).
bool parseFault(const QString& name, Fault& out);
bool parseLayout(const QString& name, Layout& out);
// "1G", "512M", "64k", "1000": bytes (binary multiples); -1 when malformed.
qint64 parseSize(const QString& text);

} // namespace rankscope::testgen
