#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

namespace granular::analysis {

/// x(t) = x0 + A exp(-t/tau) sin(omega t + phase) fitted to samples (Unger & Kertesz 2003, eq. 64: the motion of
/// the free end of a chain, or of a piston, after a load step). Units follow the samples: [x] for
/// the signal, [t] for time.
struct DampedOscillationFit {
    double x0 = 0.0;         ///< offset, [x]
    double amplitude = 0.0;  ///< A > 0 at t = 0, [x]; +inf where A exp(-t/tau) at the samples is too small a part of
                             ///< it for a double (a window starting later than ~709 tau)
    double start = 0.0;      ///< [t], the first sample's time
    double amplitudeAtStart = 0.0;  ///< A exp(-start/tau) > 0: the amplitude at `start`, [x]
    double tau = 0.0;               ///< damping time, [t]; negative for a growing oscillation
    double omega = 0.0;             ///< angular frequency > 0, rad/[t]
    double phase = 0.0;             ///< rad, in [-pi, pi)
    double rmse = 0.0;              ///< root-mean-square residual, [x]
    double r2 = 0.0;                ///< coefficient of determination, 1 - SS_res / SS_tot
    int iterations = 0;             ///< Levenberg-Marquardt iterations of the retained start
    bool converged = false;         ///< whether Levenberg-Marquardt stopped on a tolerance, not on its budget
    /// Standard errors (one sigma) of x0, amplitudeAtStart, tau and omega, in their units: s^2 (J^T J)^-1 at the
    /// optimum with s^2 = SS_res / (n - 5), which assumes independent residuals of equal spread (samples of a
    /// simulation are often correlated: then they are too small). +inf where the data do not determine the parameters
    /// (null in JSON).
    double x0Error = 0.0;
    double amplitudeAtStartError = 0.0;
    double tauError = 0.0;
    double omegaError = 0.0;
    /// Whether the fit found an oscillation: converged, with amplitudeAtStart above kResolvedAmplitude standard errors
    /// and at least half a period in the window (omega (t_last - t_first) >= pi). A fit to noise converges too, on the
    /// noise's largest damped-sine component; it is not resolved.
    bool resolved = false;

    /// The fitted model at time t ([t]), [x].
    [[nodiscard]] double valueAt(double t) const;
};

/// Samples in time order: t_i ([t]) and x_i ([x]).
struct TimeSeries {
    std::vector<double> t;
    std::vector<double> x;
};

/// The samples with from <= t <= to (an absent bound does not limit). Throws std::invalid_argument
/// when from >= to or when t and x differ in length.
[[nodiscard]] TimeSeries selectWindow(std::span<const double> t, std::span<const double> x, std::optional<double> from,
                                      std::optional<double> to);

/// How many of its standard errors the amplitude has to be for a resolved oscillation. On pure noise the fit converges
/// on the noise's largest damped-sine component: over 300 draws of 400 Gaussian samples its amplitude came out at 1.8
/// standard errors (median), 2.8 (95th percentile) and 3.2 at most (3.4 at most in tst_damped_fit's 100 draws of 300).
/// The cut assumes independent samples; with n = 8 samples the residual variance has only 3 degrees of freedom.
inline constexpr double kResolvedAmplitude = 5.0;

/// Fewest samples the fit accepts: five parameters and a few degrees of freedom to judge them by.
inline constexpr std::size_t kMinimumFitSamples = 8;

/// Least-squares fit by Levenberg-Marquardt from automatic initial guesses (zero crossings,
/// peak envelope, a coarse damped periodogram), keeping the best of several starts.
/// Throws std::invalid_argument with one line for fewer than kMinimumFitSamples samples, lengths
/// that differ, non-finite values, times that do not increase strictly, or a constant signal.
[[nodiscard]] DampedOscillationFit fitDampedOscillation(std::span<const double> t, std::span<const double> x);

}  // namespace granular::analysis
