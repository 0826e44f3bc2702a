// SPDX-License-Identifier: MIT
// The tests' way to analyse a log given as bytes: written to a file in a temporary folder (so that the
// scanner reads it as it reads a user's file, not as a paste) and analysed with the default request.
#pragma once

#include "analysis.h"

#include <QByteArray>
#include <QFile>
#include <QTemporaryDir>

namespace rankscope::test {

// An empty Analysis when the file cannot be written; the caller's QVERIFY on currentAttempt() fails then.
inline Analysis analyzeBytes(const QTemporaryDir& dir, const QString& name, const QByteArray& bytes)
{
    QFile f(dir.filePath(name));
    if (!f.open(QIODevice::WriteOnly))
        return Analysis();
    f.write(bytes);
    f.close();
    AnalysisRequest r;
    r.logPaths = { f.fileName() };
    return analyze(r);
}

} // namespace rankscope::test
