// SPDX-License-Identifier: MIT
// ibstat and ibv_devinfo [-v]: per port the state, physical state, link layer, rate and GID table.
#include "node_evidence_parts.h"

namespace rankscope::detail {

QString ipv4OfMappedGid(const QString& gid)
{
    static const QRegularExpression shortForm = rx(R"(^::ffff:(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$)");
    static const QRegularExpression longForm =
        rx(R"(^0000:0000:0000:0000:0000:ffff:([0-9a-fA-F]{4}):([0-9a-fA-F]{4})$)");
    const QString g = gid.trimmed();
    QRegularExpressionMatch m = shortForm.match(g);
    if (m.hasMatch())
        return m.captured(1);
    m = longForm.match(g);
    if (!m.hasMatch())
        return {};
    bool ok = false;
    const uint hi = m.captured(1).toUInt(&ok, 16), lo = m.captured(2).toUInt(&ok, 16);
    return QStringLiteral("%1.%2.%3.%4").arg(hi >> 8).arg(hi & 0xff).arg(lo >> 8).arg(lo & 0xff);
}

void parseIbStat(const QStringList& lines, NodeCapture& out)
{
    static const QRegularExpression ca = rx(R"(^CA '([^']+)'\s*$)");
    static const QRegularExpression port = rx(R"(^\s+Port (\d+):\s*$)");
    static const QRegularExpression field = rx(R"(^\s+([A-Za-z ]+):\s*(.*?)\s*$)");
    QString device;
    IbPort* current = nullptr;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QString& l = lines[i];
        QRegularExpressionMatch m;
        if ((m = ca.match(l)).hasMatch()) {
            device = m.captured(1);
            current = nullptr;
        } else if ((m = port.match(l)).hasMatch()) {
            out.ports.push_back({});
            current = &out.ports.back();
            current->device = device;
            current->port = m.captured(1).toInt();
            current->line = i + 1;
        } else if (current && (m = field.match(l)).hasMatch()) {
            const QString key = m.captured(1);
            if (key == QLatin1String("State")) {
                current->state = m.captured(2);
                current->stateLine = i + 1;
            } else if (key == QLatin1String("Physical state")) {
                current->physicalState = m.captured(2);
            } else if (key == QLatin1String("Rate")) {
                current->rate = m.captured(2);
            } else if (key == QLatin1String("Link layer")) {
                current->linkLayer = m.captured(2);
            }
        }
    }
    if (out.ports.empty())
        out.error = QStringLiteral("%1: ibstat output without a \"Port N:\" block").arg(out.displayPath);
}

void parseIbvDevinfo(const QStringList& lines, NodeCapture& out)
{
    static const QRegularExpression hca = rx(R"(^\s*hca_id:\s*(\S+))");
    static const QRegularExpression command = rx(R"(ibv_devinfo\b.*?\s-(?:d|-ib-dev=?)\s*([\w.-]*\w))");
    static const QRegularExpression port = rx(R"(^\s+port:\s+(\d+)\s*$)");
    static const QRegularExpression field =
        rx(R"(^\s+(state|phys_state|link_layer|active_width|active_speed):\s+(.*?)\s*$)");
    static const QRegularExpression gid = rx(R"(^\s*GID\[\s*(\d+)\]:\s+([0-9a-fA-F:.]+)(?:,\s*(.*?))?\s*$)");
    static const QRegularExpression code = rx(R"(\s*\(\d+\)$)"); // "PORT_ACTIVE (4)" -> "PORT_ACTIVE"
    QString device, width, speed;
    IbPort* current = nullptr;
    auto newPort = [&](int number, qint64 line) {
        out.ports.push_back({});
        current = &out.ports.back();
        current->device = device;
        current->port = number;
        current->line = line;
        width.clear();
        speed.clear();
    };
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QString& l = lines[i];
        QRegularExpressionMatch m;
        if ((m = hca.match(l)).hasMatch()) {
            device = m.captured(1);
            current = nullptr;
        } else if ((m = command.match(l)).hasMatch() && device.isEmpty()) {
            device = m.captured(1); // a paste that starts with the command line names the device there
        } else if ((m = port.match(l)).hasMatch()) {
            newPort(m.captured(1).toInt(), i + 1);
        } else if ((m = field.match(l)).hasMatch()) {
            if (!current) // a pasted fragment that starts inside a port block
                newPort(-1, i + 1);
            QString value = m.captured(2);
            value.remove(code);
            const QString key = m.captured(1);
            if (key == QLatin1String("state")) {
                current->stateLine = i + 1;
                static const QRegularExpression prefix = rx(R"(^PORT_)");
                QString s = value;
                s.remove(prefix);
                current->state = s == QLatin1String("ACTIVE") ? QStringLiteral("Active")
                    : s == QLatin1String("DOWN")              ? QStringLiteral("Down")
                    : s == QLatin1String("INIT")              ? QStringLiteral("Initializing")
                    : s == QLatin1String("ARMED")             ? QStringLiteral("Armed")
                                                              : s;
            } else if (key == QLatin1String("phys_state")) {
                current->physicalState = value;
            } else if (key == QLatin1String("link_layer")) {
                current->linkLayer = value;
            } else if (key == QLatin1String("active_width")) {
                width = value;
            } else if (key == QLatin1String("active_speed")) {
                speed = value;
            }
            if (!width.isEmpty() && !speed.isEmpty())
                current->rate = width + QLatin1Char(' ') + speed;
        } else if ((m = gid.match(l)).hasMatch()) {
            if (!current)
                newPort(-1, i + 1);
            GidEntry g;
            g.index = m.captured(1).toInt();
            g.gid = m.captured(2);
            g.type = m.captured(3);
            g.ipv4 = ipv4OfMappedGid(g.gid);
            g.line = i + 1;
            current->gids.push_back(std::move(g));
        }
    }
    if (out.ports.empty())
        out.error = QStringLiteral("%1: ibv_devinfo output without a port").arg(out.displayPath);
}

} // namespace rankscope::detail
