#include "analysis/SampleStatistics.h"

#include "analysis/StudentQuantile.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace granular::analysis {

SampleStatistics sampleStatistics(const std::vector<double>& values)
{
    if (values.empty()) {
        throw std::invalid_argument("sampleStatistics: no values");
    }
    SampleStatistics s;
    s.count = values.size();
    const auto n = static_cast<double>(s.count);
    const auto [low, high] = std::minmax_element(values.begin(), values.end());
    s.min = *low;
    s.max = *high;
    // Summed as departures from the first value: equal values give that value and no spread (their plain sum over n,
    // 3 x / 3, may differ from x in its last place: a mean above the maximum, a spread of 1e-46 for identical runs).
    // Kept within [min, max], where the exact mean lies, against what rounding is left.
    const double origin = values.front();
    double departures = 0.0;
    for (const double x : values) {
        departures += x - origin;
    }
    s.mean = std::clamp(origin + departures / n, s.min, s.max);
    double squares = 0.0;
    for (const double x : values) {
        squares += (x - s.mean) * (x - s.mean);
    }
    s.standardDeviation = s.count > 1 ? std::sqrt(squares / (n - 1.0)) : std::numeric_limits<double>::quiet_NaN();
    s.standardError = s.standardDeviation / std::sqrt(n);
    s.confidence95 = s.count > 1 ? studentQuantile975(static_cast<long>(s.count) - 1) * s.standardError
                                 : std::numeric_limits<double>::quiet_NaN();
    return s;
}

}  // namespace granular::analysis
