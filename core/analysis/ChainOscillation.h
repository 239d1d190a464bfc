#pragma once

#include "analysis/DampedOscillationFit.h"
#include "theory/ChainTheory.h"

#include <optional>
#include <string>

namespace granular {
struct Settings;
struct SeriesTable;
}  // namespace granular

namespace granular::analysis {

/// The chain experiment of Unger & Kertesz 2003 (Fig. 6-7): the free end of a chain pushed against a wall,
/// solved by CD with N_I iterations per step, oscillates like a visco-elastic rod. This compares
/// the fitted damped oscillation of `probe_x` with the continuum theory's slowest mode.
struct ChainOscillation {
    theory::ChainParameters chain;
    double theoryOmega = 0.0;  ///< rad/s, eq. 58 at k = 2 pi / (4 L)
    double theoryTau = 0.0;    ///< s, eq. 60 at the same k
    double windowStart = 0.0;  ///< s, first sample of the fit (chainFitStart)
    double windowEnd = 0.0;    ///< s, last sample of the fit
    DampedOscillationFit fit;  ///< probe_x over [windowStart, windowEnd]
};

/// Why the chain theory (eq. 58, 60, with the random sweep's q) does not describe a run with these settings, or
/// nullopt where it does: CD (or cd_pressure) with a fixed N_I and the random sweep, or md with the CD-equivalent
/// linear law (eq. 67-68), whose slowest mode oscillates (k = 2 pi / (4 L) below k_c of eq. 59). A coloured sweep, a
/// convergence criterion, md with its own stiffness or damping and mcdem are other systems, whose fit has nothing to be
/// compared with; an overdamped slowest mode relaxes without the omega and tau of eq. 58 and 60.
[[nodiscard]] std::optional<std::string> chainTheoryInapplicable(const Settings& settings);

/// The chain of a `setup = chain` scenario as the theory sees it (n, m, d, dt, N_I, q).
[[nodiscard]] theory::ChainParameters chainParametersFrom(const Settings& settings);

/// The first time from which the number of active contacts never changes again: every contact that will carry
/// force carries it, and the chain's oscillation is linear from there on. Reads the `contacts` column.
[[nodiscard]] double contactsSettled(const SeriesTable& series);

/// Periods of the slowest mode (2 pi / omega of eq. 58) that the fit waits after the contacts settled: the last
/// closings excite the higher modes, which need about that long to die out. Measured over chains of 20-100 disks,
/// N_I = 20-80 and seeds 1-5: fits from the settling itself are off the theory by up to +5 % (omega) and +23 %
/// (tau); three periods later by at most 1.3 % and 2.1 %.
inline constexpr double kChainSettlingPeriods = 3.0;

/// The start of the chain's fit window: contactsSettled() plus kChainSettlingPeriods periods of the theory's
/// slowest mode, but no later than kChainSettlingPeriods periods before the end (a short run keeps a window).
[[nodiscard]] double chainFitStart(const Settings& settings, const SeriesTable& series);

/// Fits probe_x from chainFitStart() to the end and evaluates the theory.
/// Throws std::invalid_argument when the window holds too few samples to fit.
[[nodiscard]] ChainOscillation analyzeChainOscillation(const Settings& settings, const SeriesTable& series);

}  // namespace granular::analysis
