// SPDX-License-Identifier: MIT
#include "input_discovery.h"

#include "archive_reader.h"
#include "node_evidence.h"
#include "topology_loader.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string_view>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace fs = std::filesystem;

namespace rankscope {

namespace {

constexpr qint64 kTopologySniffBytes = 65536; // detectTopologyFormat() looks at this much

QString fromPath(const fs::path& p)
{
    return QString::fromStdString(p.string());
}

bool isProse(const fs::path& p)
{
    const QString name = fromPath(p.filename()).toLower();
    static const char* const kProse[] = { ".md", ".markdown", ".rst", ".html", ".htm", ".pdf", ".png", ".jpg",
        ".jpeg", ".gif", ".svg" };
    if (name.startsWith(QLatin1String("readme")) || name.startsWith(QLatin1String("license")))
        return true;
    for (const char* ext : kProse) {
        if (name.endsWith(QLatin1String(ext)))
            return true;
    }
    return false;
}

// A job folder holds configs and results next to its logs (ds_config.json, trainer_state.json,
// metrics.json): one JSON document is data, not a log, and its "timeout" keys are no failure. JSON lines
// (one object per line) is a structured log and does not parse as one document; torchrun's error.json is
// read by the scanner.
constexpr qint64 kMaxJsonDocumentBytes = 8 << 20;
bool isJsonDocument(const fs::path& p, qint64 size)
{
    const QString name = fromPath(p.filename()).toLower();
    if (!name.endsWith(QLatin1String(".json")) || name == QLatin1String("error.json") || size <= 0
        || size > kMaxJsonDocumentBytes)
        return false;
    QFile f(fromPath(p));
    if (!f.open(QIODevice::ReadOnly))
        return false; // the scanner reports what it cannot read
    const QByteArray bytes = f.readAll();
    return nlohmann::json::accept(bytes.constData(), bytes.constData() + bytes.size());
}

bool isTopologyHead(const QByteArray& head)
{
    if (head.startsWith("\x1f\x8b") || head.contains('\0'))
        return false; // gzip or binary: not a capture
    const std::string_view h(head.constData(), static_cast<size_t>(std::min<qsizetype>(head.size(), 4096)));
    const size_t first = h.find_first_not_of(" \t\r\n");
    const bool candidate = (first != std::string_view::npos && h[first] == '<')
        || h.find("GPU0") != std::string_view::npos
        || h.find("ROCm System Management") != std::string_view::npos
        || h.find("between two GPUs") != std::string_view::npos;
    return candidate && detectTopologyFormat(head) != TopologyFormat::Unknown;
}

QByteArray fileHead(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {}; // the scanner reports why it cannot read it
    return file.read(kTopologySniffBytes);
}

// An issue's paste often holds `nvidia-smi topo -m` or `ibv_devinfo` output above the job's own log. A
// capture whose head also carries a job's lines is read as a log as well: evidence that hides a log loses
// the failure ("no input files found"). The cues are ones no capture prints.
bool carriesJobLines(const QByteArray& head)
{
    static constexpr const char* kJobCues[] = { "NCCL WARN", "NCCL INFO", "Traceback (most recent call",
        "Error: ", "Error(", "error: ", "[rank", "[default", "torch.distributed", "ncclSystemError",
        "ncclInternalError", "ncclUnhandledCudaError", "ncclRemoteError" };
    const auto size = static_cast<size_t>(head.size());
    return std::any_of(std::begin(kJobCues), std::end(kJobCues),
        [&](const char* c) { return memmem(head.constData(), size, c, std::strlen(c)) != nullptr; });
}

QString errnoText(int err)
{
    return QString::fromLocal8Bit(std::strerror(err));
}

// The path below root, by plain prefix: fs::relative canonicalises (a readlink per component per file),
// which dominated the listing of folders with 100,000 files.
QString relativeTo(const fs::path& p, const fs::path& root)
{
    const std::string& full = p.native();
    std::string base = root.native();
    if (!base.empty() && base.back() != '/')
        base.push_back('/');
    if (full.compare(0, base.size(), base) == 0)
        return QString::fromStdString(full.substr(base.size()));
    return fromPath(p);
}

struct Walker
{
    Discovery& out;
    const CancelToken* cancel;
    std::set<std::pair<dev_t, ino_t>> visitedDirs; // breaks symlink loops

    void addFile(const fs::path& p, const QString& display, const QString& root, const struct stat& st)
    {
        if (::access(p.c_str(), R_OK) != 0) {
            out.skipped.push_back({ fromPath(p), QStringLiteral("not readable: %1").arg(errnoText(errno)) });
            return;
        }
        InputFile f;
        f.path = fromPath(p);
        f.displayPath = display;
        f.rootFolder = root;
        f.size = static_cast<qint64>(st.st_size);
        if (!root.isEmpty() && isProse(p)) {
            out.skipped.push_back({ f.path, QStringLiteral("not a log: %1").arg(display) });
            return;
        }
        if (!root.isEmpty() && isJsonDocument(p, f.size)) {
            out.skipped.push_back({ f.path, QStringLiteral("not a log: %1 (a JSON document)").arg(display) });
            return;
        }
        if (isArchiveName(fromPath(p.filename()))) {
            addArchive(f);
            return;
        }
        QByteArray head = fileHead(f.path); // before f is moved from
        addByContent(std::move(f), head);
    }

    // A topology capture and node evidence are not scanned as logs, except a kernel log and a capture
    // that also carries a job's lines, which are both.
    void addByContent(InputFile f, const QByteArray& head)
    {
        if (isTopologyHead(captureTextAsUtf8(head))) { // UTF-16 with a BOM too
            if (carriesJobLines(head))
                out.files.push_back(f);
            out.topology.push_back(std::move(f));
            return;
        }
        const NodeCaptureKind kind = detectNodeCapture(head);
        if (kind != NodeCaptureKind::None)
            out.nodeEvidence.push_back(f);
        if (kind == NodeCaptureKind::None || kind == NodeCaptureKind::KernelLog || carriesJobLines(head))
            out.files.push_back(std::move(f));
    }

    // An archive is a folder: each member is told apart as a file of a folder is (archive_reader.h).
    void addArchive(const InputFile& archive)
    {
        ArchiveListing listing = listArchive(archive.path, archive.displayPath, cancel);
        for (SkippedInput& s : listing.skipped)
            out.skipped.push_back(std::move(s));
        for (ArchiveMember& m : listing.members) {
            InputFile f;
            f.path = joinArchivePath(archive.path, m.name);
            f.displayPath = joinArchivePath(archive.displayPath, m.name);
            f.rootFolder = archive.rootFolder.isEmpty() ? archive.path : archive.rootFolder;
            f.size = m.size;
            f.archive = archive.path;
            f.archiveOrdinal = m.ordinal;
            if (isProse(fs::path(m.name.toStdString())))
                out.skipped.push_back({ f.path, QStringLiteral("not a log: %1").arg(f.displayPath) });
            else
                addByContent(std::move(f), m.head.left(kTopologySniffBytes));
        }
    }

    void walk(const fs::path& dir, const fs::path& root)
    {
        struct stat st
        {
        };
        if (::stat(dir.c_str(), &st) != 0)
            return;
        if (!visitedDirs.insert({ st.st_dev, st.st_ino }).second) {
            out.skipped.push_back(
                { fromPath(dir), QStringLiteral("symbolic link loop: folder already visited") });
            return;
        }
        std::error_code ec;
        fs::directory_iterator it(dir, ec);
        if (ec) {
            out.skipped.push_back({ fromPath(dir),
                QStringLiteral("folder not readable: %1").arg(QString::fromStdString(ec.message())) });
            return;
        }
        std::vector<fs::path> entries;
        for (; it != fs::directory_iterator(); it.increment(ec)) {
            if (ec)
                break;
            entries.push_back(it->path());
        }
        std::sort(entries.begin(), entries.end());
        const QString rootText = fromPath(root);
        for (const fs::path& p : entries) {
            if (cancel && cancel->isCancelled())
                return;
            struct stat target
            {
            };
            if (::stat(p.c_str(), &target) != 0) {
                const int err = errno;
                struct stat link
                {
                };
                const bool isLink = ::lstat(p.c_str(), &link) == 0 && S_ISLNK(link.st_mode);
                QString reason = err == ELOOP ? QStringLiteral("symbolic link loop")
                    : isLink                  ? QStringLiteral("broken symbolic link")
                                              : QStringLiteral("cannot stat: %1").arg(errnoText(err));
                out.skipped.push_back({ fromPath(p), reason });
                continue;
            }
            if (S_ISDIR(target.st_mode)) {
                walk(p, root);
            } else if (S_ISREG(target.st_mode)) {
                addFile(p, relativeTo(p, root), rootText, target);
            } else {
                out.skipped.push_back({ fromPath(p), QStringLiteral("not a regular file") });
            }
        }
    }
};

} // namespace

Discovery discoverInputs(const QStringList& paths, const QString& pastedText, const CancelToken* cancel)
{
    Discovery out;
    Walker walker { out, cancel, {} };
    for (const QString& given : paths) {
        if (given == QLatin1String("-")) {
            InputFile f;
            f.path = QStringLiteral("<stdin>");
            f.displayPath = f.path;
            QByteArray bytes;
            char buffer[1 << 16];
            size_t n = 0;
            while ((n = std::fread(buffer, 1, sizeof buffer, stdin)) > 0)
                bytes.append(buffer, static_cast<qsizetype>(n));
            f.memory = bytes;
            f.size = bytes.size();
            f.inMemory = true;
            out.files.push_back(std::move(f));
            continue;
        }
        const fs::path p = fs::absolute(fs::path(given.toStdString()));
        struct stat st
        {
        };
        if (::stat(p.c_str(), &st) != 0) {
            const int err = errno;
            out.skipped.push_back({ given,
                err == ENOENT      ? QStringLiteral("no such file or folder")
                    : err == ELOOP ? QStringLiteral("symbolic link loop")
                                   : QStringLiteral("cannot open: %1").arg(errnoText(err)) });
            continue;
        }
        if (S_ISDIR(st.st_mode))
            walker.walk(p, p);
        else if (S_ISREG(st.st_mode))
            walker.addFile(p, given, QString(), st);
        else
            out.skipped.push_back({ given, QStringLiteral("not a regular file") });
    }
    if (!pastedText.isEmpty()) {
        InputFile f;
        f.path = QStringLiteral("<pasted text>");
        f.displayPath = f.path;
        f.memory = pastedText.toUtf8();
        f.size = f.memory.size();
        f.inMemory = true;
        if (detectNodeCapture(f.memory.left(kTopologySniffBytes)) != NodeCaptureKind::None)
            out.nodeEvidence.push_back(f); // a pasted dmesg or ibstat: evidence, and read as a log too
        out.files.push_back(std::move(f));
    }
    return out;
}

} // namespace rankscope
