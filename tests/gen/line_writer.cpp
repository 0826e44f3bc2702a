// SPDX-License-Identifier: MIT
#include "line_writer.h"

#include <QFile>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <zlib.h>

namespace rankscope::testgen {

namespace {
constexpr std::size_t kFlushBytes = 4u << 20; // large writes keep 1 GB well under a minute
}

// Exactly one of the two handles is set; each closes through its own RAII deleter.
struct LineWriter::Sink
{
    struct FileClose
    {
        void operator()(FILE* f) const { std::fclose(f); }
    };
    struct GzClose
    {
        void operator()(gzFile g) const { gzclose(g); }
    };
    std::unique_ptr<FILE, FileClose> file;
    std::unique_ptr<gzFile_s, GzClose> gz;
};

LineWriter::LineWriter() = default;

LineWriter::~LineWriter()
{
    close();
}

bool LineWriter::open(const QString& path, bool gzip)
{
    close();
    path_ = path;
    error_.clear();
    lines_ = bytes_ = 0;
    const QByteArray native = QFile::encodeName(path);
    auto sink = std::make_unique<Sink>();
    if (gzip) {
        sink->gz.reset(gzopen(native.constData(), "wb1")); // level 1: speed matters more than ratio here
        if (sink->gz)
            gzbuffer(sink->gz.get(), 1u << 20);
    } else {
        sink->file.reset(std::fopen(native.constData(), "wb"));
    }
    if (!sink->gz && !sink->file) {
        error_ =
            QStringLiteral("cannot create %1: %2").arg(path, QString::fromLocal8Bit(std::strerror(errno)));
        return false;
    }
    sink_ = std::move(sink);
    buffer_.reserve(kFlushBytes + 4096);
    return true;
}

void LineWriter::put(std::string_view prefix, std::string_view line)
{
    ++lines_;
    bytes_ += static_cast<qint64>(prefix.size() + line.size() + 1);
    if (!sink_)
        return;
    buffer_.append(prefix);
    buffer_.append(line);
    buffer_.push_back('\n');
    if (buffer_.size() >= kFlushBytes)
        flush();
}

void LineWriter::flush()
{
    if (!sink_ || buffer_.empty())
        return;
    bool ok = true;
    if (sink_->gz) {
        ok = gzwrite(sink_->gz.get(), buffer_.data(), static_cast<unsigned>(buffer_.size()))
            == static_cast<int>(buffer_.size());
    } else {
        ok = std::fwrite(buffer_.data(), 1, buffer_.size(), sink_->file.get()) == buffer_.size();
    }
    if (!ok && error_.isEmpty())
        error_ =
            QStringLiteral("write failed on %1: %2").arg(path_, QString::fromLocal8Bit(std::strerror(errno)));
    buffer_.clear();
}

bool LineWriter::close()
{
    if (!sink_)
        return error_.isEmpty();
    flush();
    bool ok = true;
    if (sink_->gz)
        ok = gzclose(sink_->gz.release()) == Z_OK;
    else
        ok = std::fclose(sink_->file.release()) == 0;
    if (!ok && error_.isEmpty())
        error_ = QStringLiteral("cannot finish %1").arg(path_);
    sink_.reset();
    return error_.isEmpty();
}

} // namespace rankscope::testgen
