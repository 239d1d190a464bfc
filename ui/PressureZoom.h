#pragma once

#include <QWidget>

#include <optional>

class QCheckBox;
class QLabel;

namespace granular::ui {

/// How far above the external pressure the inner pressure's axis reaches while it is zoomed onto P_ext.
inline constexpr double kPressureZoomReach = 2.0;

/// The top of the inner pressure's axis zoomed onto P_ext: kPressureZoomReach times `external` where the curves rise
/// above that (`highest`: their highest value), else nullopt (nothing to cut; also without a positive P_ext).
[[nodiscard]] std::optional<double> zoomedPressureTop(double highest, double external);

/// Under the inner pressure's chart: "Zoom onto P_ext", ticked at first. A compaction at constant pressure (periodic2d)
/// passes through a spike of P_in some 30 times P_ext when the packing jams; on an axis up to the spike the settling
/// onto P_ext that the run is about is a flat line. Zoomed, the axis stops at kPressureZoomReach P_ext and the label
/// says where the cut-off peak is.
class PressureZoom final : public QWidget {
    Q_OBJECT

public:
    explicit PressureZoom(QWidget* parent = nullptr);

    [[nodiscard]] bool zoomed() const;
    /// The peak that the zoomed axis leaves out, `peak` at `time` (s) in `unit`, or none (nullopt: the label is empty).
    void showCutPeak(std::optional<double> peak, double time, const QString& unit);

signals:
    /// The box was ticked or unticked: the chart is to be drawn again.
    void zoomToggled();

private:
    QCheckBox* zoomBox_;
    QLabel* peakLabel_;
};

}  // namespace granular::ui
