#include "ColourMaps.h"

#include <algorithm>
#include <cmath>

namespace granular::ui {

Rgb colourAt(std::span<const Rgb> stops, double s)
{
    if (stops.empty()) {
        return {0.0, 0.0, 0.0};
    }
    if (stops.size() == 1 || !(s > 0.0)) {
        return stops.front();
    }
    if (s >= 1.0) {
        return stops.back();
    }
    const double x = s * static_cast<double>(stops.size() - 1);
    const auto k = std::min(static_cast<std::size_t>(x), stops.size() - 2);
    const double f = x - static_cast<double>(k);
    const Rgb& a = stops[k];
    const Rgb& b = stops[k + 1];
    return {a[0] + f * (b[0] - a[0]), a[1] + f * (b[1] - a[1]), a[2] + f * (b[2] - a[2])};
}

}  // namespace granular::ui
