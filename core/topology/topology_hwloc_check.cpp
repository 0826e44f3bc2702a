// SPDX-License-Identifier: MIT
// Why this exists: hwloc 2.9 segfaults inside hwloc_topology_load (hwloc_bitmap_compare_first while
// ordering siblings, hwloc_bitmap_set in hwloc_insert_object_by_parent) when an <object> has a cpuset
// but no complete_cpuset, or a nodeset but no complete_nodeset, as hwloc's minimal XML reader sees it.
// That reader is stricter than XML: it stops at the first attribute not written name="value" with a
// lower-case name and silently drops the rest of the tag, so complete_cpuset='0x1', complete_cpuset =
// "0x1" or any odd attribute before it leaves complete_cpuset unset (found by fuzz_topology_hwloc).
// Also refused: a PU or NUMA node without a sane os_index, for which hwloc allocates 512 MB, and a
// distance matrix larger than the file could hold, which hwloc allocates before reading it.
// Every capture is therefore checked with QXmlStreamReader, and each tag is re-read the way hwloc
// reads it, before hwloc sees the buffer.
#include "topology_hwloc_check.h"

#include <QRegularExpression>
#include <QStringList>
#include <QStringView>
#include <QXmlStreamReader>
#include <cstdlib>
#include <utility>
#include <vector>

namespace rankscope {

namespace {

bool isHwlocAttributeNameChar(QChar c)
{
    return (c >= u'a' && c <= u'z') || c == u'_';
}

bool isHwlocTagNameChar(QChar c)
{
    return isHwlocAttributeNameChar(c) || (c >= u'0' && c <= u'9');
}

bool isHwlocSpace(QChar c)
{
    return c == u' ' || c == u'\t' || c == u'\n';
}

// The only character references hwloc decodes; any other '&' ends its reading of the tag.
bool hwlocDecodesEscapes(QStringView value)
{
    static const char* const known[] = { "&#10;", "&#13;", "&#9;", "&quot;", "&lt;", "&gt;", "&amp;" };
    for (qsizetype at = value.indexOf(u'&'); at >= 0; at = value.indexOf(u'&', at + 1)) {
        bool ok = false;
        for (const char* k : known)
            ok = ok || value.mid(at).startsWith(QLatin1String(k));
        if (!ok)
            return false;
    }
    return true;
}

struct HwlocTag
{
    std::vector<std::pair<QString, QString>> attributes; // as hwloc reads them, in order
    QString unread; // where hwloc stops reading (empty when it reads the whole tag)

    bool has(const char* name) const
    {
        for (const auto& a : attributes)
            if (a.first == QLatin1String(name))
                return true;
        return false;
    }
    QString value(const char* name) const
    {
        for (const auto& a : attributes)
            if (a.first == QLatin1String(name))
                return a.second;
        return {};
    }
};

// `tag` is the text after '<' up to hwloc's end of tag (the first '>'), as in topology-xml-nolibxml.c.
HwlocTag readLikeHwloc(QStringView tag)
{
    HwlocTag out;
    if (tag.endsWith(u'/'))
        tag.chop(1);
    qsizetype i = 0;
    const qsizetype n = tag.size();
    while (i < n && isHwlocTagNameChar(tag[i]))
        ++i;
    if (i < n && tag[i] != u' ') {
        out.unread = tag.mid(i).toString();
        return out;
    }
    ++i;
    while (true) {
        while (i < n && isHwlocSpace(tag[i]))
            ++i;
        if (i >= n)
            return out;
        const qsizetype start = i;
        while (i < n && isHwlocAttributeNameChar(tag[i]))
            ++i;
        const qsizetype close = i + 2 <= n ? tag.indexOf(u'"', i + 2) : -1;
        if (i == start || i + 1 >= n || tag[i] != u'=' || tag[i + 1] != u'"' || close < 0
            || !hwlocDecodesEscapes(tag.mid(i + 2, close - i - 2))) {
            out.unread = tag.mid(start).toString();
            return out;
        }
        out.attributes.emplace_back(
            tag.mid(start, i - start).toString(), tag.mid(i + 2, close - i - 2).toString());
        i = close + 1;
    }
}

// hwloc sizes a CPU (NUMA) bitmap by a PU's (NUMA node's) os_index, and one without os_index gets
// 2^32-1: a 20 KB capture then costs 512 MB and seconds (found by fuzz_topology_hwloc). Linux numbers
// at most 8192 CPUs, so a bound far above that refuses only such inputs.
constexpr unsigned long long maxHwlocOsIndex = 1U << 20;

// hwloc reads os_index with strtoul: the leading decimal digits.
bool osIndexInRange(const QString& value)
{
    qsizetype digits = 0;
    while (digits < value.size() && value[digits].isDigit())
        ++digits;
    bool ok = false;
    const unsigned long long v = value.left(digits).toULongLong(&ok);
    return digits == 0 || (ok && v < maxHwlocOsIndex);
}

// hwloc_bitmap_sscanf's form: comma-separated 0x words (hwloc writes a zero word as nothing: ",,"),
// optionally led by the infinite "0xf...f".
bool isHwlocBitmap(const QString& value, bool& empty)
{
    static const QRegularExpression word(QStringLiteral(R"(^0x[0-9a-fA-F]{1,16}$)"));
    const QStringList words = value.split(QLatin1Char(','));
    empty = true;
    bool any = false;
    for (qsizetype i = 0; i < words.size(); ++i) {
        const QString& w = words[i];
        if (w.isEmpty())
            continue;
        if (i == 0 && w == QLatin1String("0xf...f")) {
            any = true;
            empty = false;
            continue;
        }
        if (!word.match(w).hasMatch())
            return false;
        any = true;
        for (const QChar c : QStringView(w).mid(2))
            empty = empty && c == u'0';
    }
    return any;
}

// hwloc_bitmap_sscanf counts the commas of a set from its second character, then asserts that it read
// no more words than it counted: a value that starts with a comma and goes on (",0x1") aborts the
// process (found by fuzz_topology_hwloc). Any element's set attribute (an object's, a cpukind's, a
// memattr initiator's) goes through it.
QString leadingCommaError(const HwlocTag& tag, QStringView element)
{
    for (const auto& [name, value] : tag.attributes) {
        if ((name.endsWith(QLatin1String("cpuset")) || name.endsWith(QLatin1String("nodeset")))
            && value.startsWith(u',') && value.size() > 1)
            return QStringLiteral("<%1> has %2=\"%3\", a set that starts with a comma (hwloc 2.9 aborts "
                                  "the process on it)")
                .arg(element.toString(), name, value.left(40));
    }
    return {};
}

// With every CPU or every NUMA node disallowed hwloc aborts the process ("Topology became empty"),
// so the sets must be readable, and the root's allowed sets not empty (found by fuzz_topology_hwloc).
QString setError(const HwlocTag& tag)
{
    static const char* const sets[] = { "cpuset", "complete_cpuset", "allowed_cpuset", "nodeset",
        "complete_nodeset", "allowed_nodeset" };
    const bool root = tag.value("type") == QLatin1String("Machine");
    for (const char* name : sets) {
        if (!tag.has(name))
            continue;
        bool empty = false;
        const QString value = tag.value(name);
        if (!isHwlocBitmap(value, empty))
            return QStringLiteral("<object type=\"%1\"> has %2=\"%3\", not a bitmap hwloc can read "
                                  "(0x words separated by commas)")
                .arg(tag.value("type"), QLatin1String(name), value.left(40));
        if (root && empty && QByteArrayView(name).startsWith("allowed_"))
            return QStringLiteral("<object type=\"Machine\"> has an empty %1: nothing would be left to "
                                  "load (hwloc aborts the process on it)")
                .arg(QLatin1String(name));
    }
    return {};
}

QString objectError(const HwlocTag& tag)
{
    if (tag.unread.isEmpty()) {
        QString sets = setError(tag);
        if (!sets.isEmpty())
            return sets;
    }
    if (!tag.unread.isEmpty()) {
        QString shown = tag.unread.simplified();
        if (shown.size() > 40)
            shown = shown.left(40) + QStringLiteral("...");
        return QStringLiteral("<object> attribute text \"%1\" is not name=\"value\" with a lower-case "
                              "name, double quotes and no space around '=', the only form hwloc reads "
                              "(it would ignore it and every attribute after it)")
            .arg(shown);
    }
    const char* missing = nullptr;
    const char* present = nullptr;
    if (tag.has("cpuset") && !tag.has("complete_cpuset")) {
        present = "cpuset";
        missing = "complete_cpuset";
    } else if (tag.has("nodeset") && !tag.has("complete_nodeset")) {
        present = "nodeset";
        missing = "complete_nodeset";
    }
    if (!missing) {
        const QString type = tag.value("type");
        if (type != QLatin1String("PU") && type != QLatin1String("NUMANode"))
            return {};
        if (!tag.has("os_index"))
            return QStringLiteral("<object type=\"%1\"> has no os_index (hwloc would size a bitmap for "
                                  "index 4294967295)")
                .arg(type);
        if (!osIndexInRange(tag.value("os_index")))
            return QStringLiteral("<object type=\"%1\"> has os_index %2, over %3 (hwloc would size a "
                                  "bitmap for it)")
                .arg(type, tag.value("os_index").left(20))
                .arg(maxHwlocOsIndex - 1);
        return {};
    }
    return QStringLiteral("<object type=\"%1\"> has a %2 but no %3 (hwloc 2.9 cannot load such an object)")
        .arg(tag.value("type"), QLatin1String(present), QLatin1String(missing));
}

// hwloc allocates a distance matrix of nbobjs x nbobjs values as soon as it reads the attribute, before
// it reads a single value: nbobjs="2000000000" in a 1 KB capture asks malloc for exabytes (the fuzzer
// dies on it). Each value takes at least a digit and a separator, so a matrix of more values than the
// file has bytes cannot be in it.
QString distancesError(const QString& element, const HwlocTag& tag, qsizetype fileBytes)
{
    if (!tag.has("nbobjs"))
        return {};
    // hwloc reads nbobjs with strtoul (leading spaces, a sign); distances2 keeps 32 bits of it.
    const QByteArray text = tag.value("nbobjs").toUtf8();
    unsigned long long n = std::strtoull(text.constData(), nullptr, 10);
    if (element != QLatin1String("distances"))
        n = static_cast<unsigned>(n);
    const unsigned long long limit = static_cast<unsigned long long>(fileBytes);
    if (n == 0 || (n <= limit && n * n <= limit))
        return {};
    return QStringLiteral("<%1> has nbobjs=\"%2\": a matrix of %3 x %3 values, more than this "
                          "%4-byte file can hold (hwloc would allocate memory for all of them)")
        .arg(element, tag.value("nbobjs").left(20))
        .arg(n)
        .arg(fileBytes);
}

bool isDistancesElement(QStringView name)
{
    return name == QLatin1String("distances") || name == QLatin1String("distances2")
        || name == QLatin1String("distances2hetero");
}

} // namespace

QString hwlocXmlPrecheckError(const QByteArray& xml)
{
    const QString text = QString::fromUtf8(xml);
    QXmlStreamReader r(text);
    qsizetype counted = 0; // line numbers of tag starts, counted incrementally
    qsizetype line = 1;
    while (!r.atEnd()) {
        if (r.readNext() != QXmlStreamReader::StartElement)
            continue;
        const bool object = r.name() == QLatin1String("object");
        // No '<' can occur inside a well-formed tag, so the last one before the reader's position opens it.
        const qsizetype open = text.lastIndexOf(u'<', static_cast<qsizetype>(r.characterOffset()) - 1);
        const qsizetype end = open < 0 ? -1 : text.indexOf(u'>', open);
        if (end < 0)
            continue; // cannot happen after a StartElement; hwloc fails cleanly on such input anyway
        line += QStringView(text).mid(counted, open - counted).count(u'\n');
        counted = open;
        const HwlocTag tag = readLikeHwloc(QStringView(text).mid(open + 1, end - open - 1));
        QString error = leadingCommaError(tag, r.name());
        if (error.isEmpty() && object)
            error = objectError(tag);
        else if (error.isEmpty() && isDistancesElement(r.name()))
            error = distancesError(r.name().toString(), tag, xml.size());
        if (!error.isEmpty())
            return QStringLiteral("line %1: %2").arg(line).arg(error);
    }
    if (r.hasError())
        return QStringLiteral("line %1: %2").arg(r.lineNumber()).arg(r.errorString());
    return {};
}

} // namespace rankscope
