#pragma once

#include <QChartView>

#include <optional>

class QGraphicsRectItem;

namespace granular::ui {

/// A chart over simulated time in which the user chooses a time window by dragging across the
/// plot; the window is shaded. A double click asks for the automatic window again.
class TimeChartView final : public QChartView {
    Q_OBJECT

public:
    explicit TimeChartView(QChart* chart, QWidget* parent = nullptr);

    /// Whether dragging chooses a window (only the oscillation plot fits).
    void setSelectable(bool selectable);
    /// Shades [from, to] (s); nullopt: no shading. An infinite end is drawn to the plot's edge.
    void setBand(std::optional<std::pair<double, double>> band);
    /// Re-places the shading after the axes changed.
    void updateBand();

signals:
    /// The user dragged across [from, to] (s).
    void windowChosen(double from, double to);
    /// The user double-clicked: back to the automatic window.
    void windowCleared();

protected:
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    /// Simulated time at a point of the widget.
    [[nodiscard]] std::optional<double> timeAt(QPointF position) const;
    void placeBand(double from, double to);

    QGraphicsRectItem* bandItem_;
    std::optional<std::pair<double, double>> band_;
    bool selectable_ = false;
    std::optional<double> dragStart_;  ///< s
    QPointF pressPosition_;
};

}  // namespace granular::ui
