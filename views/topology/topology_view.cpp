// SPDX-License-Identifier: MIT
#include "topology_view.h"

#include <QBuffer>
#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QFile>
#include <QFontInfo>
#include <QHBoxLayout>
#include <QImage>
#include <QLabel>
#include <QPainter>
#include <QPlainTextEdit>
#include <QScrollArea>
#include <QSvgGenerator>
#include <QVBoxLayout>

namespace rankscope {

namespace {

// Paints the owning view's scene at its natural size; the scroll area scrolls it.
class TopologyCanvas : public QWidget
{
public:
    explicit TopologyCanvas(const TopologyView* view, QWidget* parent)
        : QWidget(parent)
        , m_view(view)
    {
    }
    QSize sizeHint() const override { return m_view->sceneSize(); }

protected:
    void paintEvent(QPaintEvent*) override
    {
        QPainter p(this);
        m_view->paint(p, QSizeF(size()));
    }

private:
    const TopologyView* m_view;
};

} // namespace

TopologyView::TopologyView(QWidget* parent)
    : QWidget(parent)
{
    m_hostLabel = new QLabel(tr("Host:"), this);
    m_hostCombo = new QComboBox(this);
    m_hostCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_allPaths = new QCheckBox(tr("all GPU\u2013NIC paths"), this);
    m_allPaths->setToolTip(tr("Draw every GPU\u2013NIC pair, not only the NICs the ranks used"));
    m_scroll = new QScrollArea(this);
    m_canvas = new TopologyCanvas(this, m_scroll);
    m_scroll->setWidget(m_canvas);
    m_scroll->setWidgetResizable(false);
    m_scroll->setAlignment(Qt::AlignCenter);
    m_scroll->setBackgroundRole(QPalette::Base); // the margins around the graph match its background
    m_findings = new QPlainTextEdit(this);
    m_findings->setReadOnly(true);
    m_findings->setMaximumHeight(fontMetrics().lineSpacing() * 6 + 8);

    auto* bar = new QHBoxLayout;
    bar->addWidget(m_hostLabel);
    bar->addWidget(m_hostCombo);
    bar->addWidget(m_allPaths);
    bar->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(m_scroll, 1);
    layout->addWidget(m_findings);
    setMinimumSize(360, 260);

    connect(m_hostCombo, &QComboBox::currentIndexChanged, this, [this](int i) { showHost(i); });
    connect(m_allPaths, &QCheckBox::toggled, this, &TopologyView::setShowAllNicPaths);
    rebuild();
}

void TopologyView::setTopology(const TopologySet* set, const PlacementResult* placement, int initiatingRank)
{
    m_set = set;
    m_placement = placement;
    m_initiatingRank = initiatingRank;
    int show = set && !set->hosts.empty() ? 0 : -1;
    if (placement)
        for (const RankPlacement& p : placement->ranks)
            if (p.rank == initiatingRank && p.hostIndex >= 0 && set
                && p.hostIndex < static_cast<int>(set->hosts.size()))
                show = p.hostIndex;
    {
        const QSignalBlocker block(m_hostCombo);
        m_hostCombo->clear();
        if (set)
            for (const HostTopology& h : set->hosts)
                m_hostCombo->addItem(h.host.isEmpty() ? tr("(host unknown)") : h.host);
        m_hostCombo->setCurrentIndex(show);
    }
    const bool several = set && set->hosts.size() > 1;
    m_hostCombo->setVisible(several);
    m_hostLabel->setVisible(several);
    m_hostIndex = -2; // force showHost to rebuild
    showHost(show);
}

QStringList TopologyView::hosts() const
{
    QStringList out;
    if (m_set)
        for (const HostTopology& h : m_set->hosts)
            out << h.host;
    return out;
}

QString TopologyView::currentHost() const
{
    return m_set && m_hostIndex >= 0 ? m_set->hosts[static_cast<size_t>(m_hostIndex)].host : QString();
}

void TopologyView::setCurrentHost(const QString& host)
{
    if (!m_set)
        return;
    const QString wanted = shortHostName(host);
    for (size_t i = 0; i < m_set->hosts.size(); ++i)
        if (m_set->hosts[i].host == wanted || m_set->hosts[i].host == host) {
            m_hostCombo->setCurrentIndex(static_cast<int>(i)); // emits, which calls showHost
            showHost(static_cast<int>(i));
            return;
        }
}

void TopologyView::showHost(int index)
{
    if (index == m_hostIndex)
        return;
    m_hostIndex = m_set && index >= 0 && index < static_cast<int>(m_set->hosts.size()) ? index : -1;
    rebuild();
    Q_EMIT currentHostChanged(currentHost());
}

void TopologyView::setShowAllNicPaths(bool all)
{
    if (all == m_allNicPaths)
        return;
    m_allNicPaths = all;
    const QSignalBlocker block(m_allPaths);
    m_allPaths->setChecked(all);
    rebuild();
}

QFont TopologyView::paintFont() const
{
    // Pixel-sized, so that the layout measured here holds on the SVG generator and on images too.
    QFont f = font();
    f.setPixelSize(std::max(8, QFontInfo(font()).pixelSize()));
    return f;
}

void TopologyView::rebuild()
{
    m_scene = TopologyScene();
    QStringList lines;
    if (m_set && m_hostIndex >= 0) {
        m_scene = buildTopologyScene(m_set->hosts[static_cast<size_t>(m_hostIndex)], m_hostIndex, m_placement,
            m_initiatingRank, m_allNicPaths);
        lines = m_scene.findings;
    } else {
        m_scene.title = m_set && !m_set->errors.isEmpty() ? tr("No topology could be read")
                                                          : tr("No topology capture loaded");
    }
    if (m_set)
        for (const QString& e : m_set->errors)
            lines << QStringLiteral("error: ") + e;
    layoutTopologyScene(m_scene, paintFont());
    m_findings->setPlainText(lines.isEmpty() ? tr("No topology findings for this host.") : lines.join(u'\n'));
    m_canvas->resize(sceneSize());
    m_canvas->update();
}

void TopologyView::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        rebuild();
    else if (event->type() == QEvent::PaletteChange)
        m_canvas->update();
}

QStringList TopologyView::edgeLabels() const
{
    QStringList out;
    for (const TopologyEdge& e : m_scene.edges)
        out << e.label;
    return out;
}

int TopologyView::gpuBoxCount() const
{
    return static_cast<int>(std::count_if(
        m_scene.devices.begin(), m_scene.devices.end(), [](const TopologyDeviceBox& d) { return d.gpu; }));
}

QRectF TopologyView::gpuBoxRect(int gpuIndex) const
{
    for (const TopologyDeviceBox& d : m_scene.devices)
        if (d.gpu && m_set
            && m_set->hosts[static_cast<size_t>(m_hostIndex)].gpus[static_cast<size_t>(d.index)].index
                == gpuIndex)
            return d.rect;
    return {};
}

QString TopologyView::gpuBoxText(int gpuIndex) const
{
    for (const TopologyDeviceBox& d : m_scene.devices)
        if (d.gpu && m_set
            && m_set->hosts[static_cast<size_t>(m_hostIndex)].gpus[static_cast<size_t>(d.index)].index
                == gpuIndex)
            return d.title + u'\n' + d.subtitle;
    return {};
}

QString TopologyView::findingsText() const
{
    return m_findings->toPlainText();
}

QSize TopologyView::sceneSize() const
{
    return m_scene.size.toSize().expandedTo(QSize(1, 1));
}

void TopologyView::paint(QPainter& painter, const QSizeF& size) const
{
    painter.save();
    painter.fillRect(QRectF(QPointF(0, 0), size), palette().color(QPalette::Base));
    const QSizeF natural = m_scene.size;
    const qreal scale = std::min({ 1.0, size.width() / natural.width(), size.height() / natural.height() });
    painter.translate(std::max(0.0, (size.width() - natural.width() * scale) / 2), 0);
    painter.scale(scale, scale);
    paintTopologyScene(painter, m_scene, paintFont(), palette());
    painter.restore();
}

QByteArray TopologyView::renderSvg() const
{
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(sceneSize());
    svg.setViewBox(QRect(QPoint(0, 0), sceneSize()));
    svg.setTitle(QStringLiteral("Topology of %1").arg(currentHost()));
    svg.setDescription(QStringLiteral("GPU/NIC topology drawn by rankscope"));
    QPainter p(&svg);
    paint(p, QSizeF(sceneSize()));
    p.end();
    return buffer.data();
}

QImage TopologyView::renderImage(qreal devicePixelRatio) const
{
    const QSize px = (QSizeF(sceneSize()) * devicePixelRatio).toSize();
    QImage image(px, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(devicePixelRatio);
    image.fill(palette().color(QPalette::Base));
    QPainter p(&image);
    paint(p, QSizeF(sceneSize()));
    return image;
}

bool TopologyView::exportSvg(const QString& path, QString* error) const
{
    const QByteArray svg = renderSvg();
    QFile f(path);
    if (svg.isEmpty() || !f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(svg) != svg.size()) {
        if (error)
            *error = svg.isEmpty() ? QStringLiteral("%1: nothing to export").arg(path)
                                   : QStringLiteral("%1: %2").arg(path, f.errorString());
        return false;
    }
    return true;
}

bool TopologyView::exportPng(const QString& path, QString* error) const
{
    const QImage image = renderImage(2.0);
    if (!image.save(path, "PNG")) {
        if (error)
            *error = QStringLiteral("%1: could not write the PNG image").arg(path);
        return false;
    }
    return true;
}

} // namespace rankscope
