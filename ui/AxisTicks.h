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

/// Sets the axis' range to [low, high] with about five round ticks (roundTicks) and labels that differ.
void setRoundRange(QValueAxis& axis, double low, double high);

}  // namespace granular::ui
