// SPDX-License-Identifier: MIT
// The GPU/NIC topology graph of one host, lstopo style: NUMA boxes holding PCIe switch boxes holding
// GPUs and NICs, the ranks written on their GPUs, the NIC paths the ranks used labelled with their
// class (SYS red and dashed), the initiating rank's GPU and path highlighted, a legend and a GPU–GPU
// inset. A host selector when the set has several hosts; the host's findings listed underneath.
// Screen and SVG/PNG export share one paint function.
#pragma once

#include "topology_layout.h"

#include <QByteArray>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QPainter;
class QPlainTextEdit;
class QScrollArea;

namespace rankscope {

class TopologyView : public QWidget
{
    Q_OBJECT

public:
    explicit TopologyView(QWidget* parent = nullptr);

    // The view keeps the pointers: they must outlive the view or the next setTopology() (nullptr
    // placement is allowed). Shows the initiating rank's host, else the first host.
    void setTopology(const TopologySet* set, const PlacementResult* placement, int initiatingRank);

    QStringList hosts() const;
    QString currentHost() const;
    void setCurrentHost(const QString& host);
    bool showAllNicPaths() const { return m_allNicPaths; }
    void setShowAllNicPaths(bool all);

    // What is drawn, for tests and the report.
    const TopologyScene& scene() const { return m_scene; }
    const std::vector<TopologyEdge>& edges() const { return m_scene.edges; }
    QStringList edgeLabels() const;
    int gpuBoxCount() const;
    // The box of the GPU with nvidia-smi/rocm-smi index `gpuIndex`, in scene coordinates; null when absent.
    QRectF gpuBoxRect(int gpuIndex) const;
    QString gpuBoxText(int gpuIndex) const; // title and subtitle, '\n'-separated
    QString findingsText() const;

    // Paints the scene into `size` (scaled down to fit when smaller, centred when larger).
    void paint(QPainter& painter, const QSizeF& size) const;
    QSize sceneSize() const;
    QByteArray renderSvg() const;
    QImage renderImage(qreal devicePixelRatio = 2.0) const;
    bool exportSvg(const QString& path, QString* error) const;
    bool exportPng(const QString& path, QString* error) const;

Q_SIGNALS:
    void currentHostChanged(const QString& host);

protected:
    void changeEvent(QEvent* event) override;

private:
    void rebuild();
    void showHost(int index);
    QFont paintFont() const;

    const TopologySet* m_set = nullptr;
    const PlacementResult* m_placement = nullptr;
    int m_initiatingRank = -1;
    int m_hostIndex = -1;
    bool m_allNicPaths = false;
    TopologyScene m_scene;

    QComboBox* m_hostCombo = nullptr;
    QLabel* m_hostLabel = nullptr;
    QCheckBox* m_allPaths = nullptr;
    QScrollArea* m_scroll = nullptr;
    QWidget* m_canvas = nullptr;
    QPlainTextEdit* m_findings = nullptr;
};

// Paints `scene` at its own coordinates: the shared painter of the screen and the exports.
void paintTopologyScene(
    QPainter& painter, const TopologyScene& scene, const QFont& font, const QPalette& palette);

} // namespace rankscope
