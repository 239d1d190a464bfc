#pragma once

#include <cstddef>
#include <vector>

namespace granular::analysis {

/// What an ensemble says about one quantity: its runs' values summarized.
struct SampleStatistics {
    std::size_t count = 0;  ///< n, the values summarized
    double mean = 0.0;      ///< (1/n) sum x_i
    /// The sample's: sqrt(sum (x_i - mean)^2 / (n - 1)); NaN for n = 1 (one value says nothing of the spread).
    double standardDeviation = 0.0;
    double standardError = 0.0;  ///< of the mean: standardDeviation / sqrt(n); NaN for n = 1
    /// Half the width of the mean's 95 % confidence interval, t_{0.975, n-1} standardError (Student's t: the values
    /// taken as normal); NaN for n = 1.
    double confidence95 = 0.0;
    double min = 0.0;
    double max = 0.0;
};

/// The statistics of `values` (n >= 1), summed in the order given (two passes: the mean, then the squared
/// deviations), so that the same values in the same order give the same bits. Throws std::invalid_argument
/// when `values` is empty.
[[nodiscard]] SampleStatistics sampleStatistics(const std::vector<double>& values);

}  // namespace granular::analysis
