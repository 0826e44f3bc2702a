// SPDX-License-Identifier: MIT
// Buffered line sink for the generator: writes a plain or gzip file, or only counts (sizing dry runs).
#pragma once

#include <QString>
#include <memory>
#include <string>
#include <string_view>

namespace rankscope::testgen {

class LineWriter
{
public:
    LineWriter(); // counting only until open(): nothing is written
    ~LineWriter();
    LineWriter(const LineWriter&) = delete;
    LineWriter& operator=(const LineWriter&) = delete;

    bool open(const QString& path, bool gzip); // false with error() set
    // Appends prefix + line + '\n'.
    void put(std::string_view prefix, std::string_view line);
    bool close(); // flushes; false with error() set

    qint64 lines() const { return lines_; }
    qint64 bytes() const { return bytes_; }
    const QString& path() const { return path_; }
    const QString& error() const { return error_; }

private:
    void flush();

    struct Sink;
    std::unique_ptr<Sink> sink_;
    std::string buffer_;
    QString path_;
    QString error_;
    qint64 lines_ = 0;
    qint64 bytes_ = 0;
};

} // namespace rankscope::testgen
