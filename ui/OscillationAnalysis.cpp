#include "OscillationAnalysis.h"

#include "analysis/ChainOscillation.h"
#include "analysis/PistonOscillation.h"
#include "scenario/Scenario.h"
#include "sim/SeriesTable.h"
#include "theory/ChainTheory.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace granular::ui {

namespace {

/// Points drawn for each curve.
constexpr int kCurvePoints = 400;

std::vector<QPointF> sampleCurve(double from, double to, const auto& valueAt)
{
    std::vector<QPointF> curve;
    curve.reserve(kCurvePoints + 1);
    for (int k = 0; k <= kCurvePoints; ++k) {
        const double t = from + (to - from) * k / kCurvePoints;
        curve.emplace_back(t, valueAt(t - from));
    }
    return curve;
}

}  // namespace

std::string oscillationColumn(const Scenario& scenario, const SeriesTable& series)
{
    const std::string& setup = scenario.text("setup");
    if (setup == "piston" && series.has("piston_y")) {
        return "piston_y";
    }
    if (setup == "chain" && series.has("probe_x")) {
        return "probe_x";
    }
    return {};
}

std::optional<FitWindow> automaticFitWindow(const Scenario& scenario, const SeriesTable& series)
{
    if (series.time.empty()) {
        return std::nullopt;
    }
    const double last = series.time.back();
    const std::string& setup = scenario.text("setup");
    if (setup == "piston") {
        if (last <= scenario.real("piston.load_step_time")) {
            return std::nullopt;
        }
        try {
            const double from = analysis::pistonFitStart(scenario, series);
            if (from < last) {
                return FitWindow{from, std::numeric_limits<double>::infinity()};
            }
        } catch (const std::invalid_argument&) {
            // too few samples after the load step for a first fit yet
        }
        return std::nullopt;
    }
    if (setup == "chain" && series.has("contacts")) {
        return FitWindow{analysis::lastContactOpening(series), std::numeric_limits<double>::infinity()};
    }
    return std::nullopt;
}

OscillationAnalysis analyzeOscillation(const Scenario& scenario, const SeriesTable& series, const std::string& column,
                                       FitWindow window)
{
    OscillationAnalysis result;
    result.column = column;
    if (scenario.text("setup") == "chain") {
        const auto chain = analysis::chainParametersFrom(scenario);
        const double k = theory::slowestModeWaveNumber(chain);
        const double omega = theory::angularFrequency(chain, k);
        if (std::isfinite(omega)) {
            result.theoryOmega = omega;
            result.theoryTau = theory::dampingTime(chain, k);
        }
    }
    if (!series.has(column)) {
        result.error = QStringLiteral("no column %1").arg(QString::fromStdString(column));
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
        result.error = QStringLiteral("no samples in the window");
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
        result.fit = analysis::fitDampedOscillation(t, x);
    } catch (const std::invalid_argument& error) {
        result.error = QString::fromUtf8(error.what());
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

}  // namespace granular::ui
