#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace granular::cli {

struct SweepOptions {
    std::string scenario;                  ///< built-in name or JSON path
    std::vector<std::string> assignments;  ///< KEY=VALUE applied before the swept key
    std::string key;                       ///< the swept parameter
    std::string values;                    ///< comma-separated values of `key`
    std::string outDirectory;
    std::optional<int> jobs;  ///< runs at once on this machine (default: every core); not under mpirun
    bool quiet = false;
};

/// `granular sweep SCENARIO --key K --values a,b,c --out DIR [--set KEY=VALUE ...]`: runs the scenario
/// once per value of K (Shaebani et al. 2009 Figs. 5-8: CPU time, mean overlap and volume fraction versus P_ext, dt,
/// N_I, M_lambda) and writes DIR/sweep.csv with one row per value:
///     value, mean_overlap (m), volume_fraction (1), steps, relaxed (0/1), failure (the message of a failed run)
/// and DIR/sweep_timing.csv: value, cpu_time_s (processor time of the run's thread), wall_time_s.
/// The runs go to local threads (--jobs, default every core) or, under mpirun, to the MPI ranks; sweep.csv is the
/// same, byte for byte, for any number of either. A failed run (a blow-up) is recorded and the others go on; the
/// exit code is then RuntimeFailure and the last line names the failed values.
/// Every value is checked (scenario built) before the first run; a bad one gives one line naming the key and
/// the accepted range and exit code BadInput, and nothing is written. DIR is written all-or-nothing.
int sweepScenario(const SweepOptions& options, std::ostream& out, std::ostream& err);

/// The items of a comma-separated list, surrounding blanks removed; throws std::invalid_argument on an
/// empty list or an empty item.
std::vector<std::string> splitValues(const std::string& list);

}  // namespace granular::cli
