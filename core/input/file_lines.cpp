// SPDX-License-Identifier: MIT
#include "file_lines.h"

#include <algorithm>
#include <cstring>

namespace rankscope {

FileLinesResult FileLines::openSource(const FileInfo& info, qint64 cacheBytes)
{
    FileLinesResult result;
    QString error;
    std::unique_ptr<BlockSource> source = !info.content.isEmpty()
        ? BlockSource::fromBytes(info.content)
        : BlockSource::open(info.path, info.compressed, error);
    if (!source) {
        result.error = error;
        return result;
    }
    std::shared_ptr<FileLines> lines(new FileLines());
    lines->m_path = info.path;
    lines->m_content = info.content;
    lines->m_compressed = info.compressed;
    lines->m_source = std::move(source);
    // QCache counts cost in int; blocks are costed in KiB to stay far from its limit.
    lines->m_cache.setMaxCost(static_cast<qsizetype>(qMax<qint64>(cacheBytes / 1024, 1024)));
    if (!info.lineOffsets.empty()) {
        lines->m_offsets = info.lineOffsets;
        lines->m_indexDone = true;
    } else {
        lines->m_marks = info.lineMarks;
    }
    result.lines = std::move(lines);
    return result;
}

FileLinesResult FileLines::open(const FileInfo& info, qint64 cacheBytes)
{
    FileLinesResult result = openSource(info, cacheBytes);
    if (result.lines && !result.lines->indexThrough(std::numeric_limits<qint64>::max())) {
        result.error = result.lines->m_lastError;
        result.lines.reset();
    }
    return result;
}

FileLinesResult FileLines::openLazily(const FileInfo& info, qint64 cacheBytes)
{
    return openSource(info, cacheBytes);
}

FileLinesResult FileLines::reopen(qint64 cacheBytes) const
{
    FileLinesResult result;
    QString error;
    std::unique_ptr<BlockSource> source = !m_content.isEmpty()
        ? BlockSource::fromBytes(m_content)
        : BlockSource::open(m_path, m_compressed, error);
    if (!source) {
        result.error = error;
        return result;
    }
    std::shared_ptr<FileLines> lines(new FileLines());
    lines->m_content = m_content;
    lines->m_path = m_path;
    lines->m_compressed = m_compressed;
    lines->m_source = std::move(source);
    lines->m_cache.setMaxCost(static_cast<qsizetype>(qMax<qint64>(cacheBytes / 1024, 1024)));
    lines->m_marks = m_marks;
    lines->m_offsets = m_offsets;
    lines->m_baseLine = m_baseLine;
    lines->m_indexPos = m_indexPos;
    lines->m_indexDone = m_indexDone;
    lines->m_nextStartsLine = m_nextStartsLine;
    result.lines = std::move(lines);
    return result;
}

QString FileLines::lastError() const
{
    if (!m_lastError.isEmpty())
        return m_lastError;
    return m_source ? m_source->note() : QString();
}

bool FileLines::indexThrough(qint64 lines) const
{
    // Same rule as ingest: a line starts at 0 and after every '\n' that is not the last byte.
    const qint64 bs = m_source->blockSize();
    while (!m_indexDone && m_baseLine + static_cast<qint64>(m_offsets.size()) < lines) {
        const qint64 blockIndex = m_indexPos / bs;
        const QByteArray* data = block(blockIndex);
        if (!data)
            return false; // m_lastError says why
        const qint64 base = blockIndex * bs;
        const char* const begin = data->constData() + std::min<qint64>(m_indexPos - base, data->size());
        const char* const end = data->constData() + data->size();
        if (m_nextStartsLine && begin != end)
            m_offsets.push_back(base + (begin - data->constData()));
        for (const char* p = begin; p != end;) {
            const auto* nl =
                static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
            if (!nl)
                break;
            p = nl + 1;
            if (p != end)
                m_offsets.push_back(base + (p - data->constData()));
        }
        if (begin != end)
            m_nextStartsLine = end[-1] == '\n';
        m_indexPos = base + bs;
        m_indexDone = data->size() < bs;
    }
    return true;
}

void FileLines::jumpToward(qint64 index) const
{
    if (m_marks.empty())
        return;
    const auto after = std::upper_bound(
        m_marks.begin(), m_marks.end(), index, [](qint64 i, const LineMark& m) { return i < m.line; });
    const LineMark mark = after == m_marks.begin() ? LineMark {} : *std::prev(after);
    const qint64 known = m_baseLine + static_cast<qint64>(m_offsets.size());
    if (index >= m_baseLine && mark.line <= known)
        return; // the index reaches the line from where it is, without skipping anything
    m_offsets.assign(1, mark.offset);
    m_baseLine = mark.line;
    m_indexPos = mark.offset;
    m_nextStartsLine = false; // the mark's line start is in m_offsets already
    m_indexDone = false;
}

const QByteArray* FileLines::block(qint64 index) const
{
    if (const QByteArray* cached = m_cache.object(index))
        return cached;
    auto* data = new QByteArray;
    QString error;
    if (!m_source->readBlock(index, *data, error)) {
        delete data;
        m_lastError = error;
        return nullptr;
    }
    const qsizetype cost = qMax<qsizetype>(1, data->size() / 1024);
    if (!m_cache.insert(index, data, cost))
        return nullptr; // larger than the whole cache; cannot happen with the 1 MiB floor
    return m_cache.object(index);
}

QByteArray FileLines::readLineBytes(qint64 offset, qint64 limit) const
{
    QByteArray out;
    const qint64 bs = m_source->blockSize();
    while (out.size() < limit) {
        const QByteArray* data = block(offset / bs);
        if (!data)
            break;
        const qint64 from = offset % bs;
        if (from >= data->size())
            break; // past the end of the stream
        const qint64 take = qMin<qint64>(data->size() - from, limit - out.size());
        const qsizetype nl = data->indexOf('\n', static_cast<qsizetype>(from));
        if (nl >= 0 && nl < from + take) {
            out.append(data->constData() + from, static_cast<qsizetype>(nl - from + 1));
            break;
        }
        out.append(data->constData() + from, static_cast<qsizetype>(take));
        offset += take;
        if (data->size() < bs)
            break;
    }
    return out;
}

qint64 FileLines::offsetOf(qint64 index) const
{
    if (index < 0 || index == std::numeric_limits<qint64>::max())
        return -1;
    jumpToward(index);
    indexThrough(index + 1);
    const qint64 at = index - m_baseLine;
    return at < static_cast<qint64>(m_offsets.size()) ? m_offsets[static_cast<size_t>(at)] : -1;
}

QByteArray FileLines::rawLine(qint64 index) const
{
    const qint64 offset = offsetOf(index);
    if (offset < 0)
        return {};
    const qint64 next = offsetOf(index + 1);
    const qint64 limit = next >= 0 ? qMin(next - offset, kMaxLineBytes) : kMaxLineBytes;
    QByteArray bytes = readLineBytes(offset, limit);
    if (bytes.isEmpty() && (next < 0 || next > offset) && m_lastError.isEmpty())
        m_lastError =
            QStringLiteral("%1: line %2 lies past the end of the file; it changed since it was read")
                .arg(m_path)
                .arg(index + 1);
    if (bytes.endsWith('\n'))
        bytes.chop(1);
    if (bytes.endsWith('\r'))
        bytes.chop(1);
    return bytes;
}

QString FileLines::line(qint64 index) const
{
    const QByteArray bytes = rawLine(index);
    QString text = QString::fromUtf8(bytes);
    const qint64 offset = std::max<qint64>(offsetOf(index), 0);
    const qint64 next = offsetOf(index + 1);
    if (bytes.size() >= kMaxLineBytes && (next < 0 || next - offset > kMaxLineBytes))
        text += QStringLiteral(" … [line cut at 1 MiB]");
    return text;
}

} // namespace rankscope
