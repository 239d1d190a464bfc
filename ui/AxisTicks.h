#pragma once

class QValueAxis;

namespace granular::ui {

/// Round tick marks for an axis: every `interval` (1, 2 or 5 times a power of ten) from `anchor`, labelled with
/// `decimals` digits after the point, so that neighbouring labels always differ (a piston at 0.15 m that moves
/// by micrometres gets 0.149998, 0.150000, ..., not five labels "0.15").
struct AxisTicks {
    double anchor = 0.0;
    double interval = 1.0;
    int decimals = 0;
};

/// The decimal places that an interval of 1, 2 or 5 times a power of ten takes: 2 for 0.05, 0 for 1, -3 for 5000
/// (negative: that many trailing zeros).
[[nodiscard]] int decimalPlacesOf(double interval);

/// Ticks for the range [low, high] with about `count` marks (at least 2). A flat or inverted range gets the
/// ticks of a unit span around it.
[[nodiscard]] AxisTicks roundTicks(double low, double high, int count);

/// The size of axis titles and tick labels (times their usual size) on a chart whose other text is `fontScale` times
/// its usual size: half the enlargement (1.3 at presentation mode's 1.6). Qt Charts gives a chart's vertical axes at
/// most 40 % of its width and cuts their labels beyond that: at 1.6 a plot with two vertical axes on the studio's
/// plot dock (a 1280 x 800 window) showed "1.9..." and "-0.9...".
[[nodiscard]] double axisTextScale(double fontScale);

/// Sets the axis' range to [low, high] with round ticks (roundTicks) and labels that differ: about five, fewer where
/// their labels would not fit the axis' `length` (px) side by side (a horizontal axis) or one above another (a
/// vertical one); Qt Charts cuts a label wider than its ticks' spacing to "0.…". `length` 0 (a chart not laid out
/// yet): five.
void setRoundRange(QValueAxis& axis, double low, double high, double length = 0.0);

}  // namespace granular::ui
