#include "analysis/OscillationAnalysis.h"

#include "analysis/ChainOscillation.h"
#include "analysis/PistonOscillation.h"
#include "analysis/SeriesTable.h"
#include "settings/Settings.h"
#include "theory/ChainTheory.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace granular::analysis {

namespace {

/// Points drawn for each curve.
constexpr int kCurvePoints = 400;

std::vector<CurvePoint> sampleCurve(double from, double to, const auto& valueAt)
{
    std::vector<CurvePoint> curve;
    curve.reserve(kCurvePoints + 1);
    for (int k = 0; k <= kCurvePoints; ++k) {
        const double t = from + (to - from) * k / kCurvePoints;
        curve.push_back({t, valueAt(t - from)});
    }
    return curve;
}

}  // namespace

std::string oscillationColumn(const Settings& settings, const SeriesTable& series)
{
    if (settings.setup == Setup::Piston && series.has("piston_y")) {
        return "piston_y";
    }
    if (settings.setup == Setup::Chain && series.has("probe_x")) {
        return "probe_x";
    }
    return {};
}

std::optional<FitWindow> automaticFitWindow(const Settings& settings, const SeriesTable& series)
{
    if (series.time.empty()) {
        return std::nullopt;
    }
    const double last = series.time.back();
    if (settings.setup == Setup::Piston) {
        if (last <= settings.piston.loadStepTime) {
            return std::nullopt;
        }
        try {
            const double from = pistonFitStart(settings, series);
            if (from < last) {
                return FitWindow{from, std::numeric_limits<double>::infinity()};
            }
        } catch (const std::invalid_argument&) {
            // too few samples after the load step for a first fit yet
        }
        return std::nullopt;
    }
    if (settings.setup == Setup::Chain && series.has("contacts")) {
        return FitWindow{chainFitStart(settings, series), std::numeric_limits<double>::infinity()};
    }
    return std::nullopt;
}

OscillationAnalysis analyzeOscillation(const Settings& settings, const SeriesTable& series, const std::string& column,
                                       FitWindow window)
{
    OscillationAnalysis result;
    result.column = column;
    const auto inapplicable = settings.setup == Setup::Chain ? chainTheoryInapplicable(settings) : std::nullopt;
    if (inapplicable) {
        result.theoryNote = *inapplicable;
    } else if (settings.setup == Setup::Chain) {
        const auto chain = chainParametersFrom(settings);
        const double k = theory::slowestModeWaveNumber(chain);
        const double omega = theory::angularFrequency(chain, k);
        if (std::isfinite(omega)) {
            result.theoryOmega = omega;
            result.theoryTau = theory::dampingTime(chain, k);
        }
    }
    if (!series.has(column)) {
        result.error = "no column " + column;
        return result;
    }
    const auto values = series.column(column);
    std::vector<std::size_t> inside;
    for (std::size_t i = 0; i < series.time.size(); ++i) {
        if (series.time[i] >= window.from && series.time[i] <= window.to) {
            inside.push_back(i);
        }
    }
    if (inside.empty()) {
        result.error = "no samples in the window";
        return result;
    }
    const std::size_t first = inside.front();
    const std::size_t stride = (inside.size() + kMaximumFitSamples - 1) / kMaximumFitSamples;
    std::vector<double> t;
    std::vector<double> x;
    for (std::size_t k = 0; k < inside.size(); k += stride) {
        const std::size_t i = inside[k];
        t.push_back(series.time[i] - series.time[first]);
        x.push_back(values[i]);
    }
    const double start = series.time[first];
    result.window = {start, start + t.back()};
    try {
        result.fit = fitDampedOscillation(t, x);
    } catch (const std::invalid_argument& error) {
        result.error = error.what();
        return result;
    }
    const auto& fit = *result.fit;
    result.fitCurve = sampleCurve(result.window.from, result.window.to, [&fit](double s) { return fit.valueAt(s); });
    if (result.theoryOmega) {
        const double omega = *result.theoryOmega;
        const double tau = *result.theoryTau;
        result.theoryCurve = sampleCurve(result.window.from, result.window.to, [&fit, omega, tau](double s) {
            return fit.x0 + fit.amplitude * std::exp(-s / tau) * std::sin(omega * s + fit.phase);
        });
    }
    return result;
}

}  // namespace granular::analysis
