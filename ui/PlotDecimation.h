#pragma once

#include <QList>
#include <QPointF>

#include <cstddef>
#include <span>
#include <utility>

namespace granular::ui {

/// At most `maxPoints` points (>= 4) that keep the shape of a long series: the first and the newest sample, and
/// between them the samples cut into (maxPoints - 2) / 2 runs of equal length, each contributing its smallest and
/// largest value, in time order. Short series come back whole. Non-finite values are left out.
[[nodiscard]] QList<QPointF> decimate(std::span<const double> t, std::span<const double> y, qsizetype maxPoints);

/// The samples [first, last) of an ascending time column that lie in [from, to] (s).
[[nodiscard]] std::pair<std::size_t, std::size_t> samplesWithin(std::span<const double> t, double from, double to);

}  // namespace granular::ui
