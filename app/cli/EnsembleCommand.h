#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace granular::cli {

struct EnsembleOptions {
    std::string scenario;                  ///< built-in name or JSON path
    std::vector<std::string> assignments;  ///< KEY=VALUE applied to every run
    std::string seeds;                     ///< "A..B" (or one seed "A")
    std::string outDirectory;
    std::optional<int> jobs;  ///< runs at once on this machine (default: every core); not under mpirun
    bool quiet = false;
};

/// `granular ensemble SCENARIO --seeds A..B --out DIR [--set KEY=VALUE]... [--jobs N]`: one run per seed, each
/// as `granular run SCENARIO --seed S` would make it (its output in DIR/runs/S/), then the ensemble: DIR/ensemble.json
/// (statistics of every numeric summary value, the mean stress tensor, pooled histograms, the failed runs) and
/// DIR/ensemble.csv (one row per seed). Under mpirun the runs are spread over the ranks; the files are the same,
/// byte for byte, for any number of ranks or threads. A failed run is recorded with its message and the others go
/// on; the exit code is then 1 and the last line names the failed seeds. Bad input: one line, exit code 2, nothing
/// written. DIR is written all-or-nothing.
int ensembleScenario(const EnsembleOptions& options, std::ostream& out, std::ostream& err);

/// The seeds of "A..B" (A <= B) or "A"; throws std::invalid_argument naming --seeds and the accepted form.
std::vector<std::int64_t> parseSeeds(const std::string& text);

}  // namespace granular::cli
