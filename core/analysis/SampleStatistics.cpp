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
    double sum = 0.0;
    for (const double x : values) {
        sum += x;
    }
    s.mean = sum / n;
    double squares = 0.0;
    for (const double x : values) {
        squares += (x - s.mean) * (x - s.mean);
    }
    s.standardDeviation = s.count > 1 ? std::sqrt(squares / (n - 1.0)) : std::numeric_limits<double>::quiet_NaN();
    s.standardError = s.standardDeviation / std::sqrt(n);
    s.confidence95 = s.count > 1 ? studentQuantile975(static_cast<long>(s.count) - 1) * s.standardError
                                 : std::numeric_limits<double>::quiet_NaN();
    const auto [low, high] = std::minmax_element(values.begin(), values.end());
    s.min = *low;
    s.max = *high;
    return s;
}

}  // namespace granular::analysis
