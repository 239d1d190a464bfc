#pragma once

#include "analysis/DampedOscillationFit.h"

#include <span>

namespace granular {
struct Settings;
struct SeriesTable;
}  // namespace granular

namespace granular::analysis {

/// Share of the active contacts allowed to slide inside the fit window of the piston experiment,
/// averaged over kSlidingAveragingPeriods oscillation periods. A few loose grains keep sliding in any
/// frictional packing, so the rule cannot ask for none. Measured on piston2d (~1750 active contacts
/// at mu = 0.05, ~1300 at mu = 0.5): right after the load step 17 % of them slide at mu = 0.05 and
/// 2-4 % at mu = 0.5; later 0-0.3 % at mu = 0.05 and 0.2-0.7 % at mu = 0.5 in single samples.
inline constexpr double kSlidingShareAfterTransient = 0.005;
/// Oscillation periods over which the sliding share is averaged (single samples scatter).
inline constexpr double kSlidingAveragingPeriods = 2.0;

/// The piston experiment of Unger & Kertesz 2003 (Fig. 5, 8): after the load step F -> F + dF the piston performs
/// a damped oscillation, eq. 64, whose omega and tau are fitted freely.
///
/// Right after the step many contacts slide (a loose packing of nearly frictionless grains compacts
/// a little further): the piston then oscillates slower, and friction damps it on top of CD's
/// artificial viscosity. Once the sliding has stopped, "only one standing wave mode survives"
/// (section 3.3.2), with the stiffness and viscosity of eq. 67-68 alone. The fit starts there.
struct PistonOscillation {
    double loadStepTime = 0.0;  ///< s
    double windowStart = 0.0;   ///< s, first sample of the fit (pistonFitStart)
    double windowEnd = 0.0;     ///< s, last sample of the fit
    DampedOscillationFit fit;   ///< piston_y against time since the load step (so A is the amplitude at the step)
};

/// The first time t >= from after which the share of sliding contacts, averaged over the samples of
/// the preceding `averagingTime`, never exceeds `share`; `from` when it never does. Inputs are the
/// series' time (s) and its `sliding` and `contacts` columns; only samples at t >= from count.
/// Throws std::invalid_argument when their lengths differ or averagingTime < 0.
[[nodiscard]] double slidingTransientEnd(std::span<const double> time, std::span<const double> sliding,
                                         std::span<const double> contacts, double from, double share,
                                         double averagingTime);

/// Where the piston experiment's fit starts: the end of the sliding transient after the load step,
/// averaged over kSlidingAveragingPeriods periods of a first fit from the load step on (not averaged where that fit
/// resolved no oscillation: DampedOscillationFit::resolved); the load step itself when the series has no `sliding`
/// column (e.g. soft grains). Throws std::invalid_argument when the run has
/// not passed the load step or the first fit fails.
[[nodiscard]] double pistonFitStart(const Settings& settings, const SeriesTable& series);

/// Fits `piston_y` from pistonFitStart() to the end of the series. Throws std::invalid_argument when
/// the run has not passed the load step or the window holds too few samples to fit (the run ended
/// before the sliding did).
[[nodiscard]] PistonOscillation analyzePistonOscillation(const Settings& settings, const SeriesTable& series);

}  // namespace granular::analysis
