// SPDX-License-Identifier: MIT
#include "cpuset.h"

#include <QStringList>
#include <bit>

namespace rankscope {

namespace {
constexpr int kMaxCpu = 1 << 16; // guards against "0-4000000000" allocating gigabytes

bool isHexGroup(QStringView g)
{
    for (QChar c : g)
        if (!c.isDigit() && !(c.toLower() >= u'a' && c.toLower() <= u'f'))
            return false;
    return true;
}
} // namespace

void CpuSet::add(int cpu)
{
    if (cpu < 0)
        return;
    const auto word = static_cast<size_t>(cpu / 64);
    if (m_words.size() <= word)
        m_words.resize(word + 1, 0);
    m_words[word] |= quint64(1) << (cpu % 64);
}

bool CpuSet::contains(int cpu) const
{
    if (cpu < 0)
        return false;
    const auto word = static_cast<size_t>(cpu / 64);
    return word < m_words.size() && (m_words[word] >> (cpu % 64)) & 1U;
}

bool CpuSet::isEmpty() const
{
    for (quint64 w : m_words)
        if (w)
            return false;
    return true;
}

int CpuSet::count() const
{
    int n = 0;
    for (quint64 w : m_words)
        n += std::popcount(w);
    return n;
}

bool CpuSet::intersects(const CpuSet& other) const
{
    const size_t n = std::min(m_words.size(), other.m_words.size());
    for (size_t i = 0; i < n; ++i)
        if (m_words[i] & other.m_words[i])
            return true;
    return false;
}

bool CpuSet::isSubsetOf(const CpuSet& other) const
{
    for (size_t i = 0; i < m_words.size(); ++i) {
        const quint64 theirs = i < other.m_words.size() ? other.m_words[i] : 0;
        if (m_words[i] & ~theirs)
            return false;
    }
    return true;
}

std::vector<int> CpuSet::cpus() const
{
    std::vector<int> out;
    for (size_t i = 0; i < m_words.size(); ++i)
        for (int b = 0; b < 64; ++b)
            if ((m_words[i] >> b) & 1U)
                out.push_back(static_cast<int>(i) * 64 + b);
    return out;
}

QString CpuSet::toRangeList() const
{
    const std::vector<int> list = cpus();
    QStringList parts;
    for (size_t i = 0; i < list.size();) {
        size_t j = i;
        while (j + 1 < list.size() && list[j + 1] == list[j] + 1)
            ++j;
        parts << (i == j ? QString::number(list[i])
                         : QString::number(list[i]) + QLatin1Char('-') + QString::number(list[j]));
        i = j + 1;
    }
    return parts.join(QLatin1Char(','));
}

CpuSetParse parseCpuRangeList(QStringView text)
{
    CpuSetParse out;
    const QStringView trimmed = text.trimmed();
    if (trimmed.isEmpty()) {
        out.error = QStringLiteral("empty CPU list");
        return out;
    }
    for (QStringView part : trimmed.split(u',')) {
        part = part.trimmed();
        const qsizetype dash = part.indexOf(u'-');
        bool ok1 = false, ok2 = true;
        const int lo = (dash < 0 ? part : part.left(dash)).toInt(&ok1);
        const int hi = dash < 0 ? lo : part.mid(dash + 1).toInt(&ok2);
        if (!ok1 || !ok2 || lo < 0 || hi < lo || hi >= kMaxCpu) {
            out.error =
                QStringLiteral("bad CPU range \"%1\" in \"%2\"").arg(part.toString(), trimmed.toString());
            return out;
        }
        for (int c = lo; c <= hi; ++c)
            out.set.add(c);
    }
    return out;
}

CpuSetParse parseCpuHexMask(QStringView text)
{
    CpuSetParse out;
    const QStringView trimmed = text.trimmed();
    const QList<QStringView> groups = trimmed.split(u',');
    if (trimmed.isEmpty() || groups.size() * 32 > kMaxCpu) {
        out.error = QStringLiteral("bad CPU mask \"%1\"").arg(trimmed.toString());
        return out;
    }
    // The last group holds CPUs 0-31; each group is one 32-bit word.
    const auto n = static_cast<int>(groups.size());
    for (int gi = 0; gi < n; ++gi) {
        QStringView g = groups[gi].trimmed();
        if (g.startsWith(u"0x") || g.startsWith(u"0X"))
            g = g.mid(2);
        if (g.isEmpty())
            continue; // hwloc writes a zero word as an empty group
        bool ok = false;
        const quint64 word = g.toULongLong(&ok, 16);
        if (!ok || !isHexGroup(g) || g.size() > 8) {
            out.error =
                QStringLiteral("bad CPU mask group \"%1\" in \"%2\"").arg(g.toString(), trimmed.toString());
            return out;
        }
        const int base = (n - 1 - gi) * 32;
        for (int b = 0; b < 32; ++b)
            if ((word >> b) & 1U)
                out.set.add(base + b);
    }
    return out;
}

CpuSetParse parseCpuSet(QStringView text)
{
    const QStringView t = text.trimmed();
    if (t.contains(u'-'))
        return parseCpuRangeList(t);
    bool mask = t.contains(u"0x") || t.contains(u"0X");
    const QList<QStringView> groups = t.split(u',');
    for (QStringView g : groups) {
        for (QChar c : g)
            if (c.toLower() >= u'a' && c.toLower() <= u'f')
                mask = true;
        if (g.size() == 8 && groups.size() > 1)
            mask = true;
    }
    return mask ? parseCpuHexMask(t) : parseCpuRangeList(t);
}

} // namespace rankscope
