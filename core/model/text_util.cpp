// SPDX-License-Identifier: MIT
#include "text_util.h"

#include <QRegularExpression>
#include <QStringList>
#include <algorithm>

namespace rankscope {

std::string_view shortHostName(std::string_view host)
{
    bool allNumeric = true;
    for (char c : host) {
        if (!(c >= '0' && c <= '9') && c != '.') {
            allNumeric = false;
            break;
        }
    }
    if (allNumeric)
        return host;
    const size_t dot = host.find('.');
    return dot == std::string_view::npos ? host : host.substr(0, dot);
}

QString normaliseBusId(const QString& busId)
{
    const QString s = busId.trimmed().toLower();
    if (s.isEmpty())
        return {};
    if (!s.contains(u':')) {
        // NCCL's "busId %lx": the BDF with separators removed, read as hex.
        bool ok = false;
        const qulonglong id = s.startsWith(u"0x") ? s.mid(2).toULongLong(&ok, 16) : s.toULongLong(&ok, 16);
        if (!ok)
            return {};
        return QStringLiteral("%1:%2:%3.%4")
            .arg(id >> 20, 4, 16, QLatin1Char('0'))
            .arg((id & 0xff000) >> 12, 2, 16, QLatin1Char('0'))
            .arg((id & 0xff0) >> 4, 2, 16, QLatin1Char('0'))
            .arg(id & 0xf, 1, 16);
    }
    static const QRegularExpression re(
        QStringLiteral(R"(^(?:([0-9a-f]{1,8}):)?([0-9a-f]{1,2}):([0-9a-f]{1,2})(?:\.([0-7]))?$)"));
    const QRegularExpressionMatch m = re.match(s);
    if (!m.hasMatch())
        return {};
    bool ok = false;
    const uint domain = m.captured(1).isEmpty() ? 0 : m.captured(1).toUInt(&ok, 16);
    return QStringLiteral("%1:%2:%3.%4")
        .arg(domain, 4, 16, QLatin1Char('0'))
        .arg(m.captured(2).toUInt(&ok, 16), 2, 16, QLatin1Char('0'))
        .arg(m.captured(3).toUInt(&ok, 16), 2, 16, QLatin1Char('0'))
        .arg(m.captured(4).isEmpty() ? QStringLiteral("0") : m.captured(4));
}

QString shortHostName(const QString& host)
{
    const QString h = host.trimmed().toLower();
    const qsizetype dot = h.indexOf(u'.');
    return dot < 0 ? h : h.left(dot);
}

QString formatRankRanges(std::vector<int> ranks)
{
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    QStringList parts;
    for (size_t i = 0; i < ranks.size();) {
        size_t j = i;
        while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1)
            ++j;
        parts.push_back(
            i == j ? QString::number(ranks[i]) : QStringLiteral("%1-%2").arg(ranks[i]).arg(ranks[j]));
        i = j + 1;
    }
    return parts.join(QLatin1Char(','));
}

} // namespace rankscope
