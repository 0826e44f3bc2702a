// SPDX-License-Identifier: MIT
#include "pasted_copy.h"

#include <QDir>
#include <QSaveFile>

namespace rankscope {

namespace {

constexpr int kMaxSameSecond = 1000; // pastes within one second get -1, -2, ...

} // namespace

SavedPaste savePastedText(const QString& text, const QString& root, const QDateTime& when)
{
    SavedPaste out;
    if (!QDir().mkpath(root)) {
        out.error = QStringLiteral("%1: cannot create the folder for pasted text").arg(root);
        return out;
    }
    const QString stem = QStringLiteral("pasted-") + when.toUTC().toString(QStringLiteral("yyyyMMdd-HHmmss"));
    QDir dir(root);
    QString folder;
    for (int n = 0; n < kMaxSameSecond && folder.isEmpty(); ++n) {
        const QString name = n == 0 ? stem : stem + QStringLiteral("-%1").arg(n);
        if (!dir.exists(name) && dir.mkdir(name))
            folder = dir.filePath(name);
    }
    if (folder.isEmpty()) {
        out.error = QStringLiteral("%1: cannot create a folder for %2").arg(root, stem);
        return out;
    }
    const QString path = folder + QStringLiteral("/pasted.log");
    QSaveFile file(path);
    const QByteArray bytes = text.toUtf8();
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        out.error = QStringLiteral("%1: cannot write: %2").arg(path, file.errorString());
        return out;
    }
    out.path = path;
    return out;
}

} // namespace rankscope
