// SPDX-License-Identifier: MIT
// Shared helpers of the libFuzzer targets: the input as lines, and a scratch file for the parsers
// that only read from disk. Each fuzzer process owns one scratch folder, removed at exit.
#pragma once

#include <QByteArray>
#include <QFile>
#include <QString>
#include <QTemporaryDir>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace rankscope::fuzz {

inline std::string_view asView(const std::uint8_t* data, std::size_t size)
{
    return { reinterpret_cast<const char*>(data), size };
}

// Calls fn on every '\n'-separated line (without the '\n'); the last line may lack one.
template <typename Fn> void forEachLine(std::string_view text, Fn&& fn)
{
    while (!text.empty()) {
        const std::size_t nl = text.find('\n');
        fn(text.substr(0, nl));
        if (nl == std::string_view::npos)
            break;
        text.remove_prefix(nl + 1);
    }
}

// Writes the input to <scratch>/<name> and returns its path (aborts when the disk refuses).
inline QString writeScratchFile(const QString& name, const std::uint8_t* data, std::size_t size)
{
    static QTemporaryDir dir;
    if (!dir.isValid()) {
        std::fprintf(stderr, "fuzz: cannot create a scratch folder\n");
        std::abort();
    }
    const QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)
        || file.write(reinterpret_cast<const char*>(data), static_cast<qint64>(size))
            != static_cast<qint64>(size)) {
        std::fprintf(stderr, "fuzz: cannot write %s\n", qPrintable(path));
        std::abort();
    }
    return path;
}

// A broken invariant is a finding: print it and abort so libFuzzer saves the input.
[[noreturn]] inline void fail(const char* what)
{
    std::fprintf(stderr, "fuzz invariant broken: %s\n", what);
    std::abort();
}

} // namespace rankscope::fuzz
