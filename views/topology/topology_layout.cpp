// SPDX-License-Identifier: MIT
// Geometry of the topology scene: device boxes share one width so the graph reads as a grid; switch
// boxes are columns inside their NUMA box; NUMA boxes flow left to right and wrap; the legend and the
// GPU–GPU inset sit underneath. All sizes derive from the font's line height, so they follow HiDPI
// and the user's font size.
#include "topology_layout.h"

#include <QFontMetricsF>
#include <algorithm>
#include <map>

namespace rankscope {

namespace {

constexpr qreal kWrapWidth = 1100; // NUMA boxes and switch columns wrap past this many pixels

struct Sizes
{
    qreal line = 0; // font line height
    qreal pad = 0; // inside a box
    qreal gap = 0; // between sibling boxes
    qreal header = 0; // a box's label row
};

// Places `items` left to right, wrapping at `width`; returns their top-left corners and the total size.
std::vector<QPointF> flow(const std::vector<QSizeF>& items, qreal width, qreal gap, QSizeF* total)
{
    std::vector<QPointF> at;
    qreal x = 0, y = 0, rowH = 0, maxW = 0;
    for (const QSizeF& s : items) {
        if (x > 0 && x + s.width() > width) {
            y += rowH + gap;
            x = 0;
            rowH = 0;
        }
        at.emplace_back(x, y);
        x += s.width() + gap;
        rowH = std::max(rowH, s.height());
        maxW = std::max(maxW, x - gap);
    }
    *total = QSizeF(maxW, items.empty() ? 0 : y + rowH);
    return at;
}

// Straight edges leave a box from the side facing the other box; edges sharing a side fan out.
enum Side
{
    Left,
    Right,
    Top,
    Bottom
};

Side facingSide(const QRectF& a, const QRectF& b)
{
    if (a.right() < b.left())
        return Right;
    if (b.right() < a.left())
        return Left;
    return a.center().y() < b.center().y() ? Bottom : Top;
}

Side opposite(Side s)
{
    return s == Left ? Right : s == Right ? Left : s == Top ? Bottom : Top;
}

QPointF anchor(const QRectF& r, Side side, int slot, int slots)
{
    const qreal spread = slots > 1 ? (slot - (slots - 1) / 2.0) : 0;
    switch (side) {
    case Left:
        return { r.left(), r.center().y() + spread * std::min(7.0, r.height() / (slots + 1)) };
    case Right:
        return { r.right(), r.center().y() + spread * std::min(7.0, r.height() / (slots + 1)) };
    case Top:
        return { r.center().x() + spread * 12, r.top() };
    case Bottom:
        return { r.center().x() + spread * 12, r.bottom() };
    }
    return r.center();
}

bool overlapX(const QRectF& a, const QRectF& b)
{
    return a.left() < b.right() && b.left() < a.right();
}

// Devices stacked in one column (same switch, or NUMA boxes above each other) are joined by a bracket
// in the lanes to the column's right, so the line never crosses the boxes in between. Others get a
// straight line between the sides that face each other.
void layoutEdges(TopologyScene& s, const Sizes& z, qreal pillHalf)
{
    std::map<int, int> laneOfColumn; // rounded column right edge -> next free lane
    std::map<std::pair<int, int>, std::vector<size_t>> sideUsers; // (device, side) -> edges
    std::vector<Side> sides(s.edges.size(), Left);
    for (size_t i = 0; i < s.edges.size(); ++i) {
        TopologyEdge& e = s.edges[i];
        if (e.kind != TopologyEdge::GpuNic)
            continue;
        const QRectF a = s.devices[static_cast<size_t>(e.fromBox)].rect;
        const QRectF b = s.devices[static_cast<size_t>(e.toBox)].rect;
        if (overlapX(a, b)) {
            const qreal right = std::max(a.right(), b.right());
            const int lane = laneOfColumn[qRound(right)]++;
            const qreal x = right + pillHalf + z.pad / 2 + lane * z.pad;
            const bool down = a.center().y() < b.center().y();
            const qreal ya = a.center().y() + (down ? 1 : -1) * z.line * 0.3;
            const qreal yb = b.center().y() + (down ? -1 : 1) * z.line * 0.3;
            e.path =
                QPolygonF({ QPointF(a.right(), ya), QPointF(x, ya), QPointF(x, yb), QPointF(b.right(), yb) });
            e.labelPos = QPointF(x, (ya + yb) / 2);
            continue;
        }
        sides[i] = facingSide(a, b);
        sideUsers[{ e.fromBox, sides[i] }].push_back(i);
        sideUsers[{ e.toBox, opposite(sides[i]) }].push_back(i);
    }
    auto slotOf = [&](int box, Side side, size_t edge, int* count) {
        const std::vector<size_t>& users = sideUsers[{ box, side }];
        *count = static_cast<int>(users.size());
        return static_cast<int>(std::find(users.begin(), users.end(), edge) - users.begin());
    };
    for (size_t i = 0; i < s.edges.size(); ++i) {
        TopologyEdge& e = s.edges[i];
        if (e.kind != TopologyEdge::GpuNic || !e.path.isEmpty())
            continue;
        int na = 0, nb = 0;
        const int sa = slotOf(e.fromBox, sides[i], i, &na);
        const int sb = slotOf(e.toBox, opposite(sides[i]), i, &nb);
        const QPointF pa = anchor(s.devices[static_cast<size_t>(e.fromBox)].rect, sides[i], sa, na);
        const QPointF pb = anchor(s.devices[static_cast<size_t>(e.toBox)].rect, opposite(sides[i]), sb, nb);
        e.path = QPolygonF({ pa, pb });
        // Off-centre, so that the labels of two lines crossing midway do not cover each other.
        e.labelPos = pa + (pb - pa) * 0.4;
    }
}

// The most bracket edges any one column needs; every switch box reserves that many lanes so that
// columns stay aligned from one NUMA row to the next.
int lanesNeeded(const TopologyScene& s)
{
    std::map<int, int> perColumn;
    int most = 0;
    for (const TopologyEdge& e : s.edges) {
        if (e.kind != TopologyEdge::GpuNic)
            continue;
        const QRectF a = s.devices[static_cast<size_t>(e.fromBox)].rect;
        const QRectF b = s.devices[static_cast<size_t>(e.toBox)].rect;
        if (overlapX(a, b))
            most = std::max(most, ++perColumn[qRound(std::max(a.right(), b.right()))]);
    }
    return most;
}

// Sizes and places the NUMA, switch and device boxes from `origin`, reserving `lanes` bracket lanes to
// the right of every device column; returns the boxes' total size.
QSizeF placeBoxes(TopologyScene& s, const QFontMetricsF& fm, const QFontMetricsF& bm, const Sizes& z,
    QPointF origin, int lanes, qreal pillHalf)
{
    qreal devW = 0;
    for (const TopologyDeviceBox& d : s.devices)
        devW =
            std::max({ devW, bm.horizontalAdvance(d.title), (d.gpu ? bm : fm).horizontalAdvance(d.subtitle),
                bm.horizontalAdvance(QStringLiteral("ranks 00, 00, 00")) });
    devW = std::ceil(devW + 2 * z.pad);
    const qreal devH = 2 * z.line + z.pad * 1.5;
    const qreal laneW = lanes > 0 ? 2 * pillHalf + z.pad + (lanes - 1) * z.pad : 0;

    // Group sizes: a column of devices, framed with a label row when it is a switch.
    std::vector<QSizeF> groupSize;
    for (TopologyGroupBox& g : s.groups) {
        g.lanes = lanes;
        const qreal n = static_cast<qreal>(g.devices.size());
        const qreal inner = n * devH + (n - 1) * z.pad;
        groupSize.emplace_back(g.framed
                ? std::max(devW + 2 * z.pad + laneW, fm.horizontalAdvance(g.label) + 2 * z.pad)
                : devW + laneW,
            g.framed ? inner + z.header + z.pad : inner);
    }

    // NUMA boxes: their groups flow inside, wrapping at the wrap width.
    std::vector<QSizeF> numaSize;
    std::vector<std::vector<QPointF>> groupAt;
    for (const TopologyNumaBox& b : s.numas) {
        std::vector<QSizeF> items;
        for (int g : b.groups)
            items.push_back(groupSize[static_cast<size_t>(g)]);
        QSizeF inner;
        groupAt.push_back(flow(items, kWrapWidth, z.gap, &inner));
        numaSize.emplace_back(std::max(inner.width(), bm.horizontalAdvance(b.label)) + 2 * z.pad,
            inner.height() + z.header + z.pad);
    }
    // Wide gaps between NUMA boxes: the lines that cross sockets (the SYS ones) get room for their labels.
    const bool nicEdges = std::any_of(
        s.edges.begin(), s.edges.end(), [](const TopologyEdge& e) { return e.kind == TopologyEdge::GpuNic; });
    const qreal numaGap = s.numas.size() > 1 && nicEdges ? std::max(z.gap, 2 * pillHalf + 3 * z.pad) : z.gap;
    QSizeF total;
    std::vector<QPointF> numaAt = flow(numaSize, kWrapWidth, numaGap, &total);
    // The unplaced row starts a row of its own.
    for (size_t i = 0; i < s.numas.size(); ++i)
        if (s.numas[i].unplaced && i > 0 && numaAt[i].x() > 0) {
            qreal bottom = 0;
            for (size_t j = 0; j < i; ++j)
                bottom = std::max(bottom, numaAt[j].y() + numaSize[j].height());
            numaAt[i] = QPointF(0, bottom + z.gap);
            total.setHeight(numaAt[i].y() + numaSize[i].height());
        }

    for (size_t i = 0; i < s.numas.size(); ++i) {
        TopologyNumaBox& b = s.numas[i];
        b.rect = QRectF(origin + numaAt[i], numaSize[i]);
        for (size_t k = 0; k < b.groups.size(); ++k) {
            TopologyGroupBox& g = s.groups[static_cast<size_t>(b.groups[k])];
            g.rect = QRectF(b.rect.topLeft() + QPointF(z.pad, z.header) + groupAt[i][k],
                groupSize[static_cast<size_t>(b.groups[k])]);
            QPointF at = g.rect.topLeft() + (g.framed ? QPointF(z.pad, z.header) : QPointF());
            for (int d : g.devices) {
                s.devices[static_cast<size_t>(d)].rect = QRectF(at, QSizeF(devW, devH));
                at.ry() += devH + z.pad;
            }
        }
    }
    return total;
}

} // namespace

std::vector<std::pair<PathClass, QString>> topologyLegendRows()
{
    return { { PathClass::PIX, QStringLiteral("one PCIe switch: best for GPUDirect RDMA") },
        { PathClass::PXB, QStringLiteral("several PCIe switches, no CPU") },
        { PathClass::PHB, QStringLiteral("through the CPU's PCIe host bridge") },
        { PathClass::NODE, QStringLiteral("across host bridges, same NUMA node") },
        { PathClass::SYS, QStringLiteral("across sockets: slow, no GPUDirect RDMA") } };
}

void layoutTopologyScene(TopologyScene& s, const QFont& font)
{
    QFont bold = font;
    bold.setBold(true);
    const QFontMetricsF fm(font), bm(bold);
    Sizes z;
    z.line = std::ceil(fm.height());
    z.pad = std::round(z.line * 0.6);
    z.gap = std::round(z.line * 0.9);
    z.header = z.line + z.pad;

    const qreal margin = z.gap;
    s.titleRect = QRectF(margin, margin, bm.horizontalAdvance(s.title) * 1.25, z.line * 1.4);
    const QPointF origin(margin, s.titleRect.bottom() + z.pad);
    // Pass one finds the columns that need bracket lanes; pass two reserves them.
    const qreal pillHalf = (bm.horizontalAdvance(QStringLiteral("NODE")) + fm.height() * 0.7) / 2;
    placeBoxes(s, fm, bm, z, origin, 0, pillHalf);
    const QSizeF boxes = placeBoxes(s, fm, bm, z, origin, lanesNeeded(s), pillHalf);
    layoutEdges(s, z, pillHalf);

    // Footer: the legend, then the GPU–GPU matrix (or its one-line summary).
    const qreal footerY = origin.y() + boxes.height() + z.gap;
    qreal legendText = bm.horizontalAdvance(QStringLiteral("GPU\u2013NIC paths"));
    for (const auto& [cls, meaning] : topologyLegendRows())
        legendText = std::max(
            legendText, bm.horizontalAdvance(QStringLiteral("NODE")) + z.pad + fm.horizontalAdvance(meaning));
    legendText = std::max(
        legendText, fm.horizontalAdvance(QStringLiteral("rank 0000 (initiating): its GPU and NIC path")));
    const qreal sample = 3 * z.line;
    const int legendRows = static_cast<int>(topologyLegendRows().size()) + (s.showsInitiating() ? 2 : 0);
    s.legendRect = QRectF(
        margin, footerY, sample + legendText + 3 * z.pad, z.header + legendRows * z.line * 1.3 + z.pad);

    const qreal matrixX = s.legendRect.right() + z.gap;
    if (!s.matrixGpus.empty()) {
        qreal cell = fm.horizontalAdvance(QStringLiteral("GPU00"));
        for (const TopologyEdge& e : s.edges)
            if (e.kind == TopologyEdge::GpuGpu)
                cell = std::max(cell, fm.horizontalAdvance(e.label));
        cell = std::ceil(cell + z.pad);
        const qreal n = static_cast<qreal>(s.matrixGpus.size()) + 1;
        s.matrixRect = QRectF(matrixX, footerY,
            std::max(n * cell, bm.horizontalAdvance(QStringLiteral("GPU\u2194GPU links"))) + 2 * z.pad,
            z.header + n * z.line * 1.2 + z.pad);
    } else if (!s.gpuGpuSummary.isEmpty()) {
        s.matrixRect =
            QRectF(matrixX, footerY, fm.horizontalAdvance(s.gpuGpuSummary) + 2 * z.pad, z.line + 2 * z.pad);
    } else {
        s.matrixRect = QRectF(matrixX, footerY, 0, 0);
    }

    qreal right = std::max(
        { s.titleRect.right(), s.legendRect.right(), s.matrixRect.right(), origin.x() + boxes.width() });
    for (const TopologyEdge& e : s.edges)
        if (e.kind == TopologyEdge::GpuNic)
            right = std::max(right, e.path.boundingRect().right() + z.line * 2);
    const qreal bottom = std::max(s.legendRect.bottom(), s.matrixRect.bottom());
    s.size = QSizeF(std::ceil(right + margin), std::ceil(bottom + margin));
}

} // namespace rankscope
