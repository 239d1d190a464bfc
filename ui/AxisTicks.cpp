#include "AxisTicks.h"

#include <QFontMetricsF>
#include <QString>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace granular::ui {

int decimalPlacesOf(double interval)
{
    return -static_cast<int>(std::floor(std::log10(interval) + 1e-9));
}

AxisTicks roundTicks(double low, double high, int count)
{
    if (!(std::isfinite(low) && std::isfinite(high)) || !(high > low)) {
        const double centre = std::isfinite(low) ? low : 0.0;
        low = centre - 0.5;
        high = centre + 0.5;
    }
    const double rough = (high - low) / std::max(1, count - 1);
    const double power = std::pow(10.0, std::floor(std::log10(rough)));
    const double mantissa = rough / power;
    // The nearest of 1, 2, 5, 10 (times the power of ten), so that the range holds about `count` marks.
    const double step = mantissa < 1.5 ? 1.0 : mantissa < 3.0 ? 2.0 : mantissa < 7.0 ? 5.0 : 10.0;
    AxisTicks ticks;
    ticks.interval = step * power;
    ticks.anchor = std::ceil(low / ticks.interval) * ticks.interval;
    ticks.decimals = std::max(0, decimalPlacesOf(ticks.interval));
    return ticks;
}

double axisTextScale(double fontScale)
{
    return 1.0 + 0.5 * (fontScale - 1.0);
}

namespace {

/// Whether the labels of `ticks` over [low, high] fit `length` px of the axis with some room between them.
bool labelsFit(const QValueAxis& axis, const AxisTicks& ticks, double low, double high, double length)
{
    if (!(high > low)) {
        return true;
    }
    const QFontMetricsF metrics(axis.labelsFont());
    const bool horizontal = axis.orientation() == Qt::Horizontal;
    double widest = 0.0;
    const int decimals = std::max(0, ticks.decimals);
    for (int k = 0; k < 64; ++k) {
        const double tick = ticks.anchor + k * ticks.interval;
        if (tick > high + 1e-9 * ticks.interval) {
            break;
        }
        widest = std::max(widest, horizontal ? metrics.horizontalAdvance(QString::number(tick, 'f', decimals))
                                             : metrics.height());
    }
    const double spacing = ticks.interval / (high - low) * length;
    return 1.25 * widest <= spacing;
}

}  // namespace

void setRoundRange(QValueAxis& axis, double low, double high, double length)
{
    AxisTicks ticks = roundTicks(low, high, 5);
    for (int count = 4; count >= 2 && length > 0.0 && !labelsFit(axis, ticks, low, high, length); --count) {
        ticks = roundTicks(low, high, count);
    }
    // Each setter lays the axis out at once. With dynamic ticks, a new range under the old interval (or a new
    // interval over the old range) can ask for millions of ticks (a run that went from 1 s to 1000 s: gigabytes
    // of labels); with a fixed count of ticks in between, no layout has more than a handful.
    axis.setTickType(QValueAxis::TicksFixed);
    // The range reaches the anchor's shift (below) further up: a tick on its upper end stays on it.
    axis.setRange(low, high + 2e-12 * ticks.interval);
    // Qt Charts places the ticks by adding the interval to the first one: the tick at zero came out as -2.8e-17 and
    // read "-0.0". An anchor 1e-12 of the interval up keeps every tick's round-off (~1e-15 of it) on the positive side,
    // far below the labels' last digit.
    axis.setTickAnchor(ticks.anchor + 1e-12 * ticks.interval);
    axis.setTickInterval(ticks.interval);
    axis.setLabelFormat(QStringLiteral("%.") + QString::number(ticks.decimals) + QStringLiteral("f"));
    axis.setTickType(QValueAxis::TicksDynamic);
}

}  // namespace granular::ui
