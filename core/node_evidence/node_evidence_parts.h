// SPDX-License-Identifier: MIT
// Internal to node_evidence/: one parser per capture family, and the kernel log's line prefix.
#pragma once

#include "node_evidence.h"

#include <QRegularExpression>

namespace rankscope::detail {

// One line of a kernel log with its time stamp (and journal host column) taken off.
struct KernelLine
{
    bool stamped = false; // carried a dmesg, ISO or syslog prefix (or is a bare NVRM: line)
    bool kernel = false; // written by the kernel (a journal's "systemd[1]:" lines are not)
    QString host; // the journal's host column, "" for dmesg
    QString message;
};
KernelLine splitKernelLine(const QString& line);

void parseKernelLog(const QStringList& lines, NodeCapture& out);
void parseIbStat(const QStringList& lines, NodeCapture& out);
void parseIbvDevinfo(const QStringList& lines, NodeCapture& out);
void parseNvidiaSmiQuery(const QStringList& lines, NodeCapture& out);
void parseNvidiaSmiQueryXml(const QByteArray& xml, NodeCapture& out);
void parseIpAddr(const QStringList& lines, NodeCapture& out);
void parseIfconfig(const QStringList& lines, NodeCapture& out);

// "::ffff:10.7.159.71" or "0000:0000:0000:0000:0000:ffff:0a07:9f47" -> "10.7.159.71"; else "".
QString ipv4OfMappedGid(const QString& gid);

inline QRegularExpression rx(const char* pattern)
{
    return QRegularExpression(QString::fromLatin1(pattern));
}

} // namespace rankscope::detail
