#pragma once

#include <iosfwd>
#include <optional>
#include <string>

namespace granular::cli {

/// `granular fit CSV --column NAME [--from T0] [--to T1]`: fits x0 + A exp(-t/tau) sin(omega t + phase)
/// to column NAME against column `t` of a series CSV, over from <= t <= to, and prints the parameters
/// as JSON (keys x0, amplitude, tau, omega, phase, rmse, r2, then samples, from and to: the first and
/// last sample times used, converged, the standard errors x0_error, amplitude_at_from_error, tau_error and omega_error,
/// and resolved). Exit codes (Commands.h): Success, with a warning on stderr where the fit converged on no resolved
/// oscillation ("resolved": false: e.g. a window of noise); BadInput for an unreadable file, an unknown column, an
/// empty or too short window; RuntimeFailure when the fit does not converge (the JSON of the best attempt, with
/// "converged": false, is still printed).
int fitSeries(const std::string& csvPath, const std::string& column, std::optional<double> from,
              std::optional<double> to, std::ostream& out, std::ostream& err);

}  // namespace granular::cli
