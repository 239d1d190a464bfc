#pragma once

#include "analysis/DampedOscillationFit.h"

#include <QPointF>
#include <QString>

#include <optional>
#include <string>
#include <vector>

namespace granular {
class Scenario;
struct SeriesTable;
}  // namespace granular

namespace granular::ui {

/// The time span the damped oscillation is fitted over, s. `to` may be +infinity: up to the
/// newest sample.
struct FitWindow {
    double from = 0.0;
    double to = 0.0;
};

/// The damped oscillation x(t) = x0 + A exp(-(t - t0)/tau) sin(omega (t - t0) + phase) (seed 000
/// eq. 64) fitted to one column over a window starting at t0, with the continuum theory's omega
/// and tau where the scenario has one (the chain: eq. 58 and 60 for the slowest mode).
struct OscillationAnalysis {
    std::string column;                                 ///< the signal, e.g. piston_y
    FitWindow window;                                   ///< s, the samples actually used (finite ends)
    std::optional<analysis::DampedOscillationFit> fit;  ///< time measured from window.from
    QString error;                                      ///< why there is no fit (too few samples, constant signal, ...)
    std::optional<double> theoryOmega;                  ///< rad/s
    std::optional<double> theoryTau;                    ///< s
    std::vector<QPointF> fitCurve;                      ///< (t in s, x) over the window
    /// The theory's omega and tau with the fit's x0, amplitude and phase at the window start.
    std::vector<QPointF> theoryCurve;
};

/// The column whose oscillation the studio fits: piston_y for a piston, probe_x for a chain;
/// empty for other setups.
[[nodiscard]] std::string oscillationColumn(const Scenario& scenario, const SeriesTable& series);

/// The window the studio fits over by itself: for a piston, from the end of the sliding transient
/// after the load step on (analysis::analyzePistonOscillation; none while the grains still slide);
/// for a chain, from the last contact opening on (the oscillation is linear there).
[[nodiscard]] std::optional<FitWindow> automaticFitWindow(const Scenario& scenario, const SeriesTable& series);

/// Samples the fit uses at most: longer windows are thinned evenly, so that a fit stays a few
/// milliseconds however long the run.
inline constexpr std::size_t kMaximumFitSamples = 3000;

/// Fits the column over the window (thinned to kMaximumFitSamples) and evaluates the theory.
[[nodiscard]] OscillationAnalysis analyzeOscillation(const Scenario& scenario, const SeriesTable& series,
                                                     const std::string& column, FitWindow window);

}  // namespace granular::ui
