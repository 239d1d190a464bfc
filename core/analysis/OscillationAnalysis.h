#pragma once

#include "analysis/DampedOscillationFit.h"

#include <optional>
#include <string>
#include <vector>

namespace granular {
struct Settings;
struct SeriesTable;
}  // namespace granular

namespace granular::analysis {

/// A point of a drawn curve: time (s) and value.
struct CurvePoint {
    double t = 0.0;
    double x = 0.0;
};

/// The time span the damped oscillation is fitted over, s. `to` may be +infinity: up to the
/// newest sample.
struct FitWindow {
    double from = 0.0;
    double to = 0.0;
};

/// The damped oscillation x(t) = x0 + A exp(-(t - t0)/tau) sin(omega (t - t0) + phase) (Unger & Kertesz 2003
/// eq. 64) fitted to one column over a window starting at t0, with the continuum theory's omega
/// and tau where the scenario has one (the chain: eq. 58 and 60 for the slowest mode).
struct OscillationAnalysis {
    std::string column;                       ///< the signal, e.g. piston_y
    FitWindow window;                         ///< s, the samples actually used (finite ends)
    std::optional<DampedOscillationFit> fit;  ///< time measured from window.from
    std::string error;                        ///< why there is no fit (too few samples, constant signal, ...)
    std::optional<double> theoryOmega;        ///< rad/s
    std::optional<double> theoryTau;          ///< s
    std::string theoryNote;                   ///< why a chain has no theory to compare with (chainTheoryInapplicable)
    std::vector<CurvePoint> fitCurve;         ///< over the window
    /// The theory's omega and tau with the fit's x0, amplitude and phase at the window start.
    std::vector<CurvePoint> theoryCurve;
};

/// The column whose oscillation a setup shows and fits: piston_y for a piston, probe_x for a chain;
/// empty for other setups.
[[nodiscard]] std::string oscillationColumn(const Settings& settings, const SeriesTable& series);

/// The window fitted by default: for a piston, from the end of the sliding transient after the load
/// step on (analyzePistonOscillation; none while the grains still slide); for a chain, from chainFitStart() on
/// (the contacts settled, the higher modes gone).
[[nodiscard]] std::optional<FitWindow> automaticFitWindow(const Settings& settings, const SeriesTable& series);

/// Samples the fit uses at most: longer windows are thinned evenly, so that a fit stays a few
/// milliseconds however long the run.
inline constexpr std::size_t kMaximumFitSamples = 3000;

/// Fits the column over the window (thinned to kMaximumFitSamples) and evaluates the theory.
[[nodiscard]] OscillationAnalysis analyzeOscillation(const Settings& settings, const SeriesTable& series,
                                                     const std::string& column, FitWindow window);

}  // namespace granular::analysis
