#include "AxisScale.h"

#include "AxisTicks.h"

#include <QRegularExpression>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <utility>

namespace granular::ui {

/// A power of ten, 10^(3k), that brings the values of [low, high] into a range Qt Charts labels well
/// (it cannot lay out an axis whose values are ~1e-10); 1 when they are there already. Values below 1 whose
/// ticks take three decimals or more are scaled too: beside a second vertical axis on a narrow plot, labels such
/// as "0.0016" and "-0.0004" were cut to "0.0..." (md_impact's millimetres in presentation mode); "1.6" fits.
double displayScale(double low, double high)
{
    const double magnitude = std::max(std::abs(low), std::abs(high));
    if (!std::isfinite(magnitude) || magnitude == 0.0) {
        return 1.0;
    }
    const int exponent = static_cast<int>(std::floor(std::log10(magnitude)));
    // 0.0016 -> 1.6 is shorter; 0.3004 -> 300.4 is not (a volume fraction read as "300.4" beside its factor).
    const bool longLabels = exponent <= -2 && roundTicks(low, high, 5).decimals >= 3;
    if (exponent >= -3 && exponent <= 5 && !longLabels) {
        return 1.0;
    }
    return std::pow(10.0, 3 * static_cast<int>(std::floor(exponent / 3.0)));
}

AxisDisplay axisDisplay(double low, double high)
{
    const double span = high - low;
    const double magnitude = std::max(std::abs(low), std::abs(high));
    if (!std::isfinite(span) || !std::isfinite(magnitude) || !(span > 0.0) || !(span < 1e-3 * magnitude)) {
        return {0.0, displayScale(low, high)};
    }
    const double quantum = std::pow(10.0, std::ceil(std::log10(span)));
    const double offset = std::round(0.5 * (low + high) / quantum) * quantum;
    return {offset, displayScale(low - offset, high - offset)};
}

/// `unit` with the SI prefix of `scale` (10^(3k)) in front: "mm/s" for 1e-3 and "m/s", "nJ" for 1e-9 and "J". Empty
/// where that would misread: no prefix for the scale, a unit whose first symbol takes none here ("1", "kg", "1/s")
/// or is raised to a power ("m^3": "mm^3" would be 1e-9 m^3).
QString prefixedUnit(const QString& unit, double scale)
{
    static const std::pair<int, const char*> prefixes[] = {{-15, "f"}, {-12, "p"}, {-9, "n"}, {-6, "\u00b5"}, {-3, "m"},
                                                           {3, "k"},   {6, "M"},   {9, "G"},  {12, "T"}};
    const int exponent = static_cast<int>(std::lround(std::log10(scale)));
    const auto* const prefix = std::find_if(std::begin(prefixes), std::end(prefixes),
                                            [exponent](const auto& p) { return p.first == exponent; });
    const qsizetype end = unit.indexOf(QRegularExpression(QStringLiteral("[/^ *]")));
    const QString first = end < 0 ? unit : unit.left(end);
    const bool takesPrefix =
        QStringList{QStringLiteral("m"),  QStringLiteral("s"), QStringLiteral("J"),  QStringLiteral("N"),
                    QStringLiteral("Pa"), QStringLiteral("W"), QStringLiteral("rad")}
            .contains(first) &&
        !(end >= 0 && unit.at(end) == QLatin1Char('^'));
    if (prefix == std::end(prefixes) || !takesPrefix) {
        return {};
    }
    return QString::fromUtf8(prefix->second) + unit;
}

/// "name (unit)", with the display scale as the unit's SI prefix ("y (mm)", "E_kin (nJ)") or, where the unit takes
/// none, as a factor in front of it: "Z (x10^-6)", "m (x10^-9 kg)", the power in superscript digits. A prefix keeps the
/// title short enough for a narrow plot's side: "y (0.001 m)" was cut to "y (0.00...".
QString axisTitleText(const QString& name, const QString& unit, double scale)
{
    if (scale == 1.0) {
        return QStringLiteral("%1 (%2)").arg(name, unit);
    }
    if (const QString prefixed = prefixedUnit(unit, scale); !prefixed.isEmpty()) {
        return QStringLiteral("%1 (%2)").arg(name, prefixed);
    }
    // "x10^-3" in superscript digits: "(0.001)" beside a ratio's name read like a value or a unit.
    static const QString kSuperscripts =
        QString::fromUtf8("\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079");
    const QString exponent = QString::number(std::lround(std::log10(scale)));
    QString factor = QString::fromUtf8("\u00d710");
    for (const QChar c : exponent) {
        factor += c == QLatin1Char('-') ? QChar(0x207b) : kSuperscripts.at(c.digitValue());
    }
    return unit == QStringLiteral("1") ? QStringLiteral("%1 (%2)").arg(name, factor)
                                       : QStringLiteral("%1 (%2 %3)").arg(name, factor, unit);
}

QString axisTitleText(const QString& name, const QString& unit, const AxisDisplay& display)
{
    if (display.offset == 0.0) {
        return axisTitleText(name, unit, display.scale);
    }
    // A negative offset is added ("delta + 0.001 m"), not subtracted with a second minus.
    const QString offset = QString::number(std::abs(display.offset), 'g', 12);
    const QString sign = display.offset < 0.0 ? QStringLiteral("+") : QStringLiteral("\u2212");
    const QString shifted = unit == QStringLiteral("1") ? QStringLiteral("%1 %2 %3").arg(name, sign, offset)
                                                        : QStringLiteral("%1 %2 %3 %4").arg(name, sign, offset, unit);
    return axisTitleText(shifted, unit, display.scale);
}

}  // namespace granular::ui
