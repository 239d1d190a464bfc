#include "analysis/PistonOscillation.h"

#include "analysis/SeriesTable.h"
#include "settings/Settings.h"

#include <numbers>
#include <stdexcept>
#include <string>

namespace granular::analysis {

double slidingTransientEnd(std::span<const double> time, std::span<const double> sliding,
                           std::span<const double> contacts, double from, double share, double averagingTime)
{
    if (sliding.size() != time.size() || contacts.size() != time.size()) {
        throw std::invalid_argument("sliding transient: time, sliding and contacts differ in length");
    }
    if (!(averagingTime >= 0.0)) {
        throw std::invalid_argument("sliding transient: the averaging time must be >= 0 s");
    }
    const auto shareAt = [&](std::size_t k) { return contacts[k] > 0.0 ? sliding[k] / contacts[k] : 0.0; };
    double end = from;
    std::size_t first = 0;  // oldest sample in (time[i] - averagingTime, time[i]]
    while (first < time.size() && time[first] < from) {
        ++first;
    }
    for (std::size_t i = first; i < time.size(); ++i) {
        while (first < i && time[first] <= time[i] - averagingTime) {
            ++first;
        }
        double sum = 0.0;  // summed afresh: a running sum would drift by round-off across the threshold
        for (std::size_t k = first; k <= i; ++k) {
            sum += shareAt(k);
        }
        if (sum > share * static_cast<double>(i + 1 - first)) {
            end = i + 1 < time.size() ? time[i + 1] : time[i];
        }
    }
    return end;
}

namespace {

void requireLoadStep(const SeriesTable& series, double loadStepTime)
{
    if (series.time.empty() || series.time.back() <= loadStepTime) {
        throw std::invalid_argument("the run ends before the load step at t = " + std::to_string(loadStepTime) + " s");
    }
}

/// Most samples the first fit of pistonFitStart() uses (piston2d has 1001 after the load step).
constexpr std::size_t kPeriodEstimateSamples = 2000;

/// piston_y from `from` on, against time since the load step.
TimeSeries pistonHeightSince(const SeriesTable& series, double from, double loadStepTime)
{
    const auto height = series.column("piston_y");
    TimeSeries samples;
    for (std::size_t i = 0; i < series.time.size(); ++i) {
        if (series.time[i] >= from) {
            samples.t.push_back(series.time[i] - loadStepTime);
            samples.x.push_back(height[i]);
        }
    }
    return samples;
}

}  // namespace

double pistonFitStart(const Settings& settings, const SeriesTable& series)
{
    const double loadStepTime = settings.piston.loadStepTime;
    requireLoadStep(series, loadStepTime);
    if (!series.has("sliding")) {
        return loadStepTime;
    }
    // The first fit only estimates the period; every k-th sample is plenty, and keeps the studio's
    // automatic fit of a long run off the GUI thread's back (1.3 s for 100,000 samples).
    const TimeSeries afterStep = pistonHeightSince(series, loadStepTime, loadStepTime);
    const std::size_t stride = (afterStep.t.size() + kPeriodEstimateSamples - 1) / kPeriodEstimateSamples;
    TimeSeries sparse;
    for (std::size_t i = 0; i < afterStep.t.size(); i += stride) {
        sparse.t.push_back(afterStep.t[i]);
        sparse.x.push_back(afterStep.x[i]);
    }
    // A first fit that resolved no oscillation (e.g. a piston at rest in noise) has no period to average over: the
    // period of the noise's largest damped sine would move the window's start by chance.
    const DampedOscillationFit first = fitDampedOscillation(sparse.t, sparse.x);
    const double averaging = first.resolved ? kSlidingAveragingPeriods * 2.0 * std::numbers::pi / first.omega : 0.0;
    return slidingTransientEnd(series.time, series.column("sliding"), series.column("contacts"), loadStepTime,
                               kSlidingShareAfterTransient, averaging);
}

PistonOscillation analyzePistonOscillation(const Settings& settings, const SeriesTable& series)
{
    PistonOscillation result;
    result.loadStepTime = settings.piston.loadStepTime;
    requireLoadStep(series, result.loadStepTime);
    result.windowStart = pistonFitStart(settings, series);
    result.windowEnd = series.time.back();
    const TimeSeries window = pistonHeightSince(series, result.windowStart, result.loadStepTime);
    if (window.t.size() < kMinimumFitSamples) {
        throw std::invalid_argument("only " + std::to_string(window.t.size()) +
                                    " samples after the sliding transient ends at t = " +
                                    std::to_string(result.windowStart) + " s; run longer (run.time)");
    }
    result.fit = fitDampedOscillation(window.t, window.x);
    return result;
}

}  // namespace granular::analysis
