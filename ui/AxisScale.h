#pragma once

#include <QString>

namespace granular::ui {

/// A power of ten, 10^(3k), that brings the values of [low, high] into a range Qt Charts labels well
/// (it cannot lay out an axis whose values are ~1e-10); 1 when they are there already. Values below 0.1 whose
/// ticks take three decimals or more are scaled too: beside a second vertical axis on a narrow plot, labels such
/// as "0.0016" and "-0.0004" were cut to "0.0..." (md_impact's millimetres in presentation mode); "1.6" fits.
[[nodiscard]] double displayScale(double low, double high);

/// `unit` with the SI prefix of `scale` (10^(3k)) in front: "mm/s" for 1e-3 and "m/s", "nJ" for 1e-9 and "J". Empty
/// where that would misread: no prefix for the scale, a unit whose first symbol takes none here ("1", "kg", "1/s")
/// or is raised to a power ("m^3": "mm^3" would be 1e-9 m^3).
[[nodiscard]] QString prefixedUnit(const QString& unit, double scale);

/// How an axis draws its values: (value - offset) / scale.
struct AxisDisplay {
    double offset = 0.0;  ///< in the series' unit; 0: none
    double scale = 1.0;   ///< a power of ten, 10^(3k)
};

/// The display of [low, high]: where the range is narrower than a thousandth of its values (piston2d's piston at
/// 65.0537 m moving by micrometres after its load step), an offset, a round number near the middle, and the scale of
/// what is left ("piston_y - 65.0537 m (um)" with ticks -5, 0, 5: the ticks read 65.053685 ... 65.053700 before, and
/// two-axis plots cut such labels to "65.05..."); otherwise displayScale alone.
[[nodiscard]] AxisDisplay axisDisplay(double low, double high);

/// "name (unit)", with the display scale as the unit's SI prefix ("y (mm)", "E_kin (nJ)") or, where the unit takes
/// none, as a factor in front of it: "Z (x10^-6)", "m (x10^-9 kg)", the power in superscript digits. A prefix keeps the
/// title short enough for a narrow plot's side: "y (0.001 m)" was cut to "y (0.00...".
[[nodiscard]] QString axisTitleText(const QString& name, const QString& unit, double scale);

/// axisTitleText for a display with an offset: "piston_y \u2212 65.0537 m (\u00b5m)", and "\u03b4 + 0.001 m (pm)" for a
/// negative offset.
[[nodiscard]] QString axisTitleText(const QString& name, const QString& unit, const AxisDisplay& display);

}  // namespace granular::ui
