#include "PlotDecimation.h"

#include <algorithm>
#include <cmath>

namespace granular::ui {

QList<QPointF> decimate(std::span<const double> t, std::span<const double> y, qsizetype maxPoints)
{
    const auto n = static_cast<qsizetype>(std::min(t.size(), y.size()));
    QList<QPointF> points;
    const auto finite = [&](qsizetype i) {
        return std::isfinite(t[static_cast<std::size_t>(i)]) && std::isfinite(y[static_cast<std::size_t>(i)]);
    };
    const auto at = [&](qsizetype i) {
        return QPointF(t[static_cast<std::size_t>(i)], y[static_cast<std::size_t>(i)]);
    };
    if (n <= std::max<qsizetype>(maxPoints, 4)) {
        points.reserve(n);
        for (qsizetype i = 0; i < n; ++i) {
            if (finite(i)) {
                points.append(at(i));
            }
        }
        return points;
    }
    const qsizetype runs = std::max<qsizetype>((maxPoints - 2) / 2, 1);
    points.reserve(2 * runs + 2);
    // The first and the newest sample are kept besides the runs' extremes: the curve spans the whole time axis (it
    // ended up to a run's length short of it).
    qsizetype first = 0;
    while (first < n && !finite(first)) {
        ++first;
    }
    qsizetype newest = n - 1;
    while (newest >= 0 && !finite(newest)) {
        --newest;
    }
    qsizetype appended = -1;  // index of the last point appended
    const auto append = [&](qsizetype i) {
        if (i > appended) {
            points.append(at(i));
            appended = i;
        }
    };
    if (first < n) {
        append(first);
    }
    for (qsizetype r = 0; r < runs; ++r) {
        const qsizetype begin = n * r / runs;
        const qsizetype end = n * (r + 1) / runs;
        qsizetype low = -1;
        qsizetype high = -1;
        for (qsizetype i = begin; i < end; ++i) {
            if (!finite(i)) {
                continue;
            }
            const double v = y[static_cast<std::size_t>(i)];
            if (low < 0 || v < y[static_cast<std::size_t>(low)]) {
                low = i;
            }
            if (high < 0 || v > y[static_cast<std::size_t>(high)]) {
                high = i;
            }
        }
        if (low < 0) {
            continue;
        }
        append(std::min(low, high));
        append(std::max(low, high));
    }
    if (newest >= 0) {
        append(newest);
    }
    return points;
}

std::pair<std::size_t, std::size_t> samplesWithin(std::span<const double> t, double from, double to)
{
    const auto first = std::lower_bound(t.begin(), t.end(), from);
    const auto last = std::upper_bound(first, t.end(), to);
    return {static_cast<std::size_t>(first - t.begin()), static_cast<std::size_t>(last - t.begin())};
}

}  // namespace granular::ui
