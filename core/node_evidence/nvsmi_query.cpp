// SPDX-License-Identifier: MIT
// nvidia-smi -q (text, indented sections) and nvidia-smi -q -x (XML): per GPU the persistence mode,
// the fabric state, volatile uncorrectable ECC errors and retired pages.
#include "node_evidence_parts.h"
#include "text_util.h"

#include <QXmlStreamReader>
#include <utility>

namespace rankscope::detail {

namespace {

qint64 count(const QString& value)
{
    bool ok = false;
    const qint64 n = value.trimmed().toLongLong(&ok);
    return ok ? n : -1;
}

void addTo(qint64& total, qint64 n)
{
    if (n >= 0)
        total = (total < 0 ? 0 : total) + n;
}

} // namespace

void parseNvidiaSmiQuery(const QStringList& lines, NodeCapture& out)
{
    static const QRegularExpression gpuHeader =
        rx(R"(^GPU ([0-9a-fA-F]{4,8}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7])\s*$)");
    static const QRegularExpression keyValue = rx(R"(^(\s*)(\S[^:]*?)\s*:\s*(.*?)\s*$)");
    std::vector<std::pair<int, QString>> sections; // indentation, name
    GpuQuery* gpu = nullptr;
    auto inSection = [&](const char* name) {
        for (const auto& s : sections) {
            if (s.second == QLatin1String(name))
                return true;
        }
        return false;
    };
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QString& l = lines[i];
        if (l.trimmed().isEmpty())
            continue;
        QRegularExpressionMatch m = gpuHeader.match(l);
        if (m.hasMatch()) {
            out.gpus.push_back({});
            gpu = &out.gpus.back();
            gpu->index = static_cast<int>(out.gpus.size()) - 1;
            gpu->busId = normaliseBusId(m.captured(1));
            gpu->line = i + 1;
            sections.clear();
            continue;
        }
        if (!gpu)
            continue;
        const int lead = static_cast<int>(l.indexOf(l.trimmed())); // indentation nests the sections
        while (!sections.empty() && sections.back().first >= lead)
            sections.pop_back();
        m = keyValue.match(l);
        if (!m.hasMatch()) { // a section title: "    ECC Errors"
            sections.emplace_back(lead, l.trimmed());
            continue;
        }
        const QString key = m.captured(2), value = m.captured(3);
        const qint64 lineNo = i + 1;
        if (key == QLatin1String("Persistence Mode") && sections.empty()) {
            gpu->persistenceMode = value;
            gpu->persistenceLine = lineNo;
        } else if (key == QLatin1String("State") && inSection("Fabric")) {
            gpu->fabricState = value;
            gpu->fabricLine = lineNo;
        } else if (inSection("ECC Errors") && inSection("Volatile")
            && ((key == QLatin1String("Total") && inSection("Double Bit"))
                || (key.contains(QLatin1String("Uncorrectable"))
                    && sections.back().second == QLatin1String("Volatile")))) {
            addTo(gpu->volatileUncorrected, count(value));
            gpu->eccLine = gpu->eccLine ? gpu->eccLine : lineNo;
        } else if (inSection("Retired Pages")) {
            if (key == QLatin1String("Single Bit ECC"))
                gpu->retiredSingle = count(value);
            else if (key == QLatin1String("Double Bit ECC"))
                gpu->retiredDouble = count(value);
            else if (key.startsWith(QLatin1String("Pending")))
                gpu->retirementPending = value;
            gpu->retiredLine = gpu->retiredLine ? gpu->retiredLine : lineNo;
        }
    }
    if (out.gpus.empty())
        out.error = QStringLiteral("%1: nvidia-smi -q output without a \"GPU <bus id>\" section")
                        .arg(out.displayPath);
}

void parseNvidiaSmiQueryXml(const QByteArray& xml, NodeCapture& out)
{
    QXmlStreamReader r(xml);
    QStringList path; // element names from the root
    GpuQuery* gpu = nullptr;
    auto under = [&](const char* name) { return path.contains(QLatin1String(name)); };
    while (!r.atEnd()) {
        const QXmlStreamReader::TokenType t = r.readNext();
        if (t == QXmlStreamReader::StartElement) {
            path << r.name().toString();
            if (r.name() == QLatin1String("gpu") && path.size() == 2) {
                out.gpus.push_back({});
                gpu = &out.gpus.back();
                gpu->index = static_cast<int>(out.gpus.size()) - 1;
                gpu->busId = normaliseBusId(r.attributes().value(QLatin1String("id")).toString());
                gpu->line = r.lineNumber();
            }
        } else if (t == QXmlStreamReader::EndElement) {
            if (!path.isEmpty())
                path.removeLast();
        } else if (t == QXmlStreamReader::Characters && gpu && !r.isWhitespace() && !path.isEmpty()) {
            const QString leaf = path.back(), value = r.text().toString().trimmed();
            const qint64 line = r.lineNumber();
            if (leaf == QLatin1String("persistence_mode") && path.size() == 3) {
                gpu->persistenceMode = value;
                gpu->persistenceLine = line;
            } else if (leaf == QLatin1String("state") && under("fabric")) {
                gpu->fabricState = value;
                gpu->fabricLine = line;
            } else if (under("ecc_errors") && under("volatile")
                && ((leaf == QLatin1String("total") && under("double_bit"))
                    // dram_uncorrectable, and on newer drivers SRAM split in _parity and _secded
                    || leaf.contains(QLatin1String("_uncorrectable")))) {
                addTo(gpu->volatileUncorrected, count(value));
                gpu->eccLine = gpu->eccLine ? gpu->eccLine : line;
            } else if (under("retired_pages")) {
                if (leaf == QLatin1String("retired_count") && under("multiple_single_bit_retirement"))
                    gpu->retiredSingle = count(value);
                else if (leaf == QLatin1String("retired_count") && under("double_bit_retirement"))
                    gpu->retiredDouble = count(value);
                else if (leaf.startsWith(QLatin1String("pending")))
                    gpu->retirementPending = value;
                gpu->retiredLine = gpu->retiredLine ? gpu->retiredLine : line;
            }
        }
    }
    if (r.hasError() && r.error() != QXmlStreamReader::PrematureEndOfDocumentError)
        out.error = QStringLiteral("%1:%2: not well-formed XML: %3")
                        .arg(out.displayPath)
                        .arg(r.lineNumber())
                        .arg(r.errorString());
    else if (out.gpus.empty())
        out.error =
            QStringLiteral("%1: nvidia-smi -q -x output without a <gpu> element").arg(out.displayPath);
}

} // namespace rankscope::detail
