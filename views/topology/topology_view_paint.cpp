// SPDX-License-Identifier: MIT
// Painting the topology scene. One function serves the screen, the SVG and the PNG, so what an
// engineer exports is what they saw. Colours come from the palette and from the one colour table
// (severity_palette: path and device tones, SYS red, the initiating hue), each in its theme's variant.
#include "severity_palette.h"
#include "topology_view.h"

#include <QPainter>
#include <QPainterPath>

namespace rankscope {

namespace {

QColor mix(const QColor& a, const QColor& b, qreal t)
{
    auto blend = [t](float x, float y) {
        return static_cast<float>(static_cast<qreal>(x) * (1 - t) + static_cast<qreal>(y) * t);
    };
    return QColor::fromRgbF(
        blend(a.redF(), b.redF()), blend(a.greenF(), b.greenF()), blend(a.blueF(), b.blueF()));
}

QColor classColor(PathClass c, const QPalette& pal)
{
    switch (c) {
    case PathClass::NVLink:
    case PathClass::XGMI:
    case PathClass::PIX:
        return linkColor(LinkTone::Direct, pal);
    case PathClass::PXB:
        return linkColor(LinkTone::Switch, pal);
    case PathClass::PHB:
        return linkColor(LinkTone::HostBridge, pal);
    case PathClass::NODE:
        return linkColor(LinkTone::Node, pal);
    case PathClass::SYS:
        return linkColor(LinkTone::Sys, pal);
    case PathClass::Self:
    case PathClass::Unknown:
        break;
    }
    return mix(pal.color(QPalette::Base), pal.color(QPalette::Text), 0.55);
}

QPen classPen(PathClass c, const QPalette& pal, qreal width)
{
    QPen pen(classColor(c, pal), width, Qt::SolidLine, Qt::FlatCap, Qt::RoundJoin);
    if (c == PathClass::SYS)
        pen.setDashPattern({ 3.0, 2.0 });
    else if (c == PathClass::NODE)
        pen.setDashPattern({ 1.0, 1.6 });
    else if (c == PathClass::PHB)
        pen.setDashPattern({ 4.0, 1.6, 1.0, 1.6 });
    return pen;
}

void drawPill(QPainter& p, const QPointF& centre, const QString& text, const QColor& border,
    const QColor& fill, const QFont& font, qreal borderWidth)
{
    const QFontMetricsF fm(font);
    const QSizeF sz(fm.horizontalAdvance(text) + fm.height() * 0.7, fm.height() * 1.15);
    const QRectF r(centre - QPointF(sz.width() / 2, sz.height() / 2), sz);
    p.setPen(QPen(border, borderWidth));
    p.setBrush(fill);
    p.drawRoundedRect(r, sz.height() / 2, sz.height() / 2);
    p.setFont(font);
    p.setPen(border);
    p.drawText(r, Qt::AlignCenter, text);
}

void paintLegend(
    QPainter& p, const TopologyScene& s, const QFont& font, const QFont& bold, const QPalette& pal)
{
    const QColor bg = pal.color(QPalette::Base), fg = pal.color(QPalette::Text);
    const qreal line = QFontMetricsF(font).height(), pad = std::round(line * 0.6), row = line * 1.3;
    p.setPen(QPen(mix(bg, fg, 0.35), 1));
    p.setBrush(mix(bg, fg, 0.04));
    p.drawRoundedRect(s.legendRect, 4, 4);
    p.setFont(bold);
    p.setPen(fg);
    p.drawText(s.legendRect.adjusted(pad, pad / 2, 0, 0), Qt::AlignLeft | Qt::AlignTop,
        QStringLiteral("GPU\u2013NIC paths"));
    const qreal sample = 3 * line,
                nameW = QFontMetricsF(bold).horizontalAdvance(QStringLiteral("NODE")) + pad;
    qreal y = s.legendRect.top() + line + pad;
    auto textAt = [&](qreal x, const QString& t, const QFont& f, const QColor& c) {
        p.setFont(f);
        p.setPen(c);
        p.drawText(QRectF(x, y, s.legendRect.right() - x, row), Qt::AlignLeft | Qt::AlignVCenter, t);
    };
    const qreal x0 = s.legendRect.left() + pad;
    for (const auto& [cls, meaning] : topologyLegendRows()) {
        p.setPen(classPen(cls, pal, 2.2));
        p.drawLine(QPointF(x0, y + row / 2), QPointF(x0 + sample, y + row / 2));
        textAt(
            x0 + sample + pad, pathClassName(cls), bold, cls == PathClass::SYS ? classColor(cls, pal) : fg);
        textAt(x0 + sample + pad + nameW, meaning, font, fg);
        y += row;
    }
    if (!s.showsInitiating())
        return;
    const QString who = s.initiatingRank >= 0 ? QStringLiteral("rank %1").arg(s.initiatingRank)
                                              : QStringLiteral("initiating rank");
    p.setPen(QPen(fg, 4.5, Qt::SolidLine, Qt::FlatCap));
    p.drawLine(QPointF(x0, y + row / 2), QPointF(x0 + sample, y + row / 2));
    textAt(x0 + sample + pad, QStringLiteral("thick: the NIC path of %1 (initiating)").arg(who), font, fg);
    y += row;
    p.setPen(QPen(initiatingColor(pal), 2.5));
    p.setBrush(mix(bg, initiatingColor(pal), 0.2));
    p.drawRoundedRect(QRectF(x0 + 2, y + 3, sample - 4, row - 6), 3, 3);
    textAt(x0 + sample + pad, QStringLiteral("the GPU of %1 (initiating)").arg(who), font, fg);
}

void paintGpuMatrix(
    QPainter& p, const TopologyScene& s, const QFont& font, const QFont& bold, const QPalette& pal)
{
    if (s.matrixRect.isEmpty())
        return;
    const QColor bg = pal.color(QPalette::Base), fg = pal.color(QPalette::Text);
    const qreal line = QFontMetricsF(font).height(), pad = std::round(line * 0.6);
    p.setPen(QPen(mix(bg, fg, 0.35), 1));
    p.setBrush(mix(bg, fg, 0.04));
    p.drawRoundedRect(s.matrixRect, 4, 4);
    if (s.matrixGpus.empty()) {
        p.setFont(font);
        p.setPen(fg);
        p.drawText(s.matrixRect, Qt::AlignCenter, s.gpuGpuSummary);
        return;
    }
    p.setFont(bold);
    p.setPen(fg);
    p.drawText(s.matrixRect.adjusted(pad, pad / 2, 0, 0), Qt::AlignLeft | Qt::AlignTop,
        QStringLiteral("GPU\u2194GPU links"));
    const qreal n = static_cast<qreal>(s.matrixGpus.size()) + 1;
    const qreal cellW = (s.matrixRect.width() - 2 * pad) / n, cellH = line * 1.2;
    const QPointF o(s.matrixRect.left() + pad, s.matrixRect.top() + line + pad);
    const QColor muted = mix(bg, fg, 0.5);
    auto cell = [&](size_t row, size_t col, const QString& t, const QColor& c, bool strong) {
        p.setFont(strong ? bold : font);
        p.setPen(c);
        p.drawText(QRectF(o.x() + static_cast<qreal>(col) * cellW, o.y() + static_cast<qreal>(row) * cellH,
                       cellW, cellH),
            Qt::AlignCenter, t);
    };
    for (size_t i = 0; i < s.matrixGpus.size(); ++i) {
        const QString name = s.devices[static_cast<size_t>(s.matrixGpus[i])].name;
        cell(0, i + 1, name, muted, false);
        cell(i + 1, 0, name, muted, false);
        cell(i + 1, i + 1, QStringLiteral("X"), muted, false);
    }
    for (const TopologyEdge& e : s.edges) {
        if (e.kind != TopologyEdge::GpuGpu)
            continue;
        const auto a = std::find(s.matrixGpus.begin(), s.matrixGpus.end(), e.fromBox);
        const auto b = std::find(s.matrixGpus.begin(), s.matrixGpus.end(), e.toBox);
        if (a == s.matrixGpus.end() || b == s.matrixGpus.end())
            continue;
        const size_t ia = static_cast<size_t>(a - s.matrixGpus.begin()) + 1,
                     ib = static_cast<size_t>(b - s.matrixGpus.begin()) + 1;
        const QColor c = e.pathClass == PathClass::PXB || e.pathClass == PathClass::PIX
            ? fg
            : classColor(e.pathClass, pal);
        cell(ia, ib, e.label, c, e.isSys);
        cell(ib, ia, e.label, c, e.isSys);
    }
}

} // namespace

void paintTopologyScene(QPainter& p, const TopologyScene& s, const QFont& font, const QPalette& pal)
{
    p.save();
    p.setRenderHint(QPainter::Antialiasing);
    p.setRenderHint(QPainter::TextAntialiasing);
    const QColor bg = pal.color(QPalette::Base), fg = pal.color(QPalette::Text);
    const bool dark = isDarkPalette(pal);
    QFont bold = font;
    bold.setBold(true);
    QFont big = bold;
    big.setPixelSize(std::max(1, font.pixelSize() * 5 / 4));
    const qreal line = QFontMetricsF(font).height(), pad = std::round(line * 0.6);
    p.fillRect(QRectF(QPointF(0, 0), s.size), bg);

    p.setFont(big);
    p.setPen(fg);
    p.drawText(s.titleRect, Qt::AlignLeft | Qt::AlignVCenter, s.title);

    for (const TopologyNumaBox& b : s.numas) {
        QPen pen(mix(bg, fg, 0.45), 1.2, b.unplaced ? Qt::DashLine : Qt::SolidLine);
        p.setPen(pen);
        p.setBrush(mix(bg, fg, dark ? 0.07 : 0.05));
        p.drawRoundedRect(b.rect, 6, 6);
        p.setFont(bold);
        p.setPen(fg);
        p.drawText(b.rect.adjusted(pad, pad / 2, -pad, 0), Qt::AlignLeft | Qt::AlignTop, b.label);
    }
    for (const TopologyGroupBox& g : s.groups) {
        if (!g.framed)
            continue;
        p.setPen(QPen(mix(bg, fg, 0.35), 1));
        p.setBrush(mix(bg, fg, dark ? 0.13 : 0.1));
        p.drawRoundedRect(g.rect, 4, 4);
        p.setFont(font);
        p.setPen(mix(bg, fg, 0.75));
        p.drawText(g.rect.adjusted(pad, pad / 3, -pad, 0), Qt::AlignLeft | Qt::AlignTop, g.label);
    }

    const QColor gpuFill = mix(bg, deviceColor(DeviceTone::Gpu, pal), dark ? 0.16 : 0.12);
    const QColor nicFill = mix(bg, deviceColor(DeviceTone::Nic, pal), dark ? 0.18 : 0.1);
    for (const TopologyDeviceBox& d : s.devices) {
        const qreal w = d.initiating ? 3.0 : 1.0;
        p.setPen(QPen(d.initiating ? initiatingColor(pal) : mix(bg, fg, 0.55), w));
        p.setBrush(d.initiating ? mix(bg, initiatingColor(pal), dark ? 0.3 : 0.18)
                : d.gpu         ? gpuFill
                                : nicFill);
        p.drawRoundedRect(d.rect.adjusted(w / 2, w / 2, -w / 2, -w / 2), 3, 3);
        const QRectF text = d.rect.adjusted(pad, pad * 0.6, -pad, -pad * 0.6);
        p.setFont(bold);
        p.setPen(fg);
        p.drawText(text, Qt::AlignLeft | Qt::AlignTop, d.title);
        if (d.subtitle.isEmpty())
            continue;
        p.setFont(d.gpu && !d.ranks.empty() ? bold : font);
        p.setPen(d.warn ? severityColor(Severity::Warn, pal) : d.initiating ? initiatingColor(pal) : fg);
        p.drawText(text, Qt::AlignLeft | Qt::AlignBottom, d.subtitle);
    }

    // Edges over the boxes: quiet ones first, the initiating rank's path last. With every GPU–NIC pair
    // drawn, the unused ones are faint and, past a dozen, unlabelled (line styles carry the class).
    int unused = 0;
    for (const TopologyEdge& e : s.edges)
        unused += e.kind == TopologyEdge::GpuNic && !e.used ? 1 : 0;
    auto inPass = [](const TopologyEdge& e, int pass) {
        return e.kind == TopologyEdge::GpuNic && (pass == 0) == !e.used && (pass == 2) == e.highlighted;
    };
    for (int pass = 0; pass < 3; ++pass)
        for (const TopologyEdge& e : s.edges) {
            if (!inPass(e, pass))
                continue;
            QPen pen = classPen(e.pathClass, pal, e.highlighted ? 4.5 : e.used ? 2.4 : 1.2);
            if (!e.used) {
                QColor c = pen.color();
                c.setAlphaF(0.6f);
                pen.setColor(c);
            }
            p.setBrush(Qt::NoBrush);
            p.setPen(pen);
            p.drawPolyline(e.path);
        }
    for (int pass = unused > 12 ? 1 : 0; pass < 3; ++pass)
        for (const TopologyEdge& e : s.edges) {
            if (!inPass(e, pass))
                continue;
            const QColor c = classColor(e.pathClass, pal);
            drawPill(p, e.labelPos, e.text, c, e.highlighted ? mix(bg, c, 0.15) : bg, e.used ? bold : font,
                e.highlighted ? 2.0 : 1.0);
        }

    paintLegend(p, s, font, bold, pal);
    paintGpuMatrix(p, s, font, bold, pal);
    p.restore();
}

} // namespace rankscope
