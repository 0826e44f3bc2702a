// SPDX-License-Identifier: MIT
// CPU sets as Linux and NCCL print them: range lists ("0-31,64-95") and comma-grouped hex masks
// ("ffffffff,00000000", hwloc's "0x0000ffff,0xffffffff,,0x1").
#pragma once

#include <QString>
#include <QStringView>
#include <QtGlobal>
#include <vector>

namespace rankscope {

class CpuSet
{
public:
    void add(int cpu);
    bool contains(int cpu) const;
    bool isEmpty() const;
    int count() const;
    bool intersects(const CpuSet& other) const;
    bool isSubsetOf(const CpuSet& other) const;
    std::vector<int> cpus() const;
    QString toRangeList() const; // "0-31,64-95"; "" when empty
    friend bool operator==(const CpuSet& a, const CpuSet& b) { return a.cpus() == b.cpus(); }

private:
    std::vector<quint64> m_words;
};

struct CpuSetParse
{
    CpuSet set;
    QString error; // empty on success
};

CpuSetParse parseCpuRangeList(QStringView text); // "0-31,64-95", "5", "0-3,8"
CpuSetParse parseCpuHexMask(QStringView text); // "ffffffff,00000000" or "0xff,,0x1" (empty group = 0)
// Picks the syntax: a '-', or groups that are all short decimals, mean a range list; "0x", hex letters
// or 8-digit groups mean a mask. A lone group of decimal digits reads as a range list.
CpuSetParse parseCpuSet(QStringView text);

} // namespace rankscope
