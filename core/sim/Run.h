#pragma once

#include <cstdint>
#include <functional>
#include <vector>

namespace granular {

class Simulation;

struct RunStatistics {
    std::int64_t steps = 0;
    std::int64_t contactUpdates = 0;
    double wallSeconds = 0.0;  ///< s of real time spent stepping
    bool finished = false;     ///< the method's stopping rule ended the run before run.time
};

/// Called with the simulated time (s) and the observables' values, at t = 0 and every output.interval.
using RowSink = std::function<void(double time, const std::vector<double>& values)>;
/// Called now and then with the completed fraction of the run, in [0, 1].
using ProgressSink = std::function<void(double fraction)>;
/// Called after every step (e.g. to record what only some steps show); it must not change the simulation.
using StepSink = std::function<void(const Simulation& simulation)>;

/// Steps the simulation over `run.time`, sampling the observables every `output.interval`.
/// A run ends early when the method's stopping rule holds (Simulation::finished); the last state
/// is then sampled as a final row.
/// Step and row counts are integers derived once, so rows fall on the same steps on every machine.
RunStatistics runToEnd(Simulation& simulation, const RowSink& onRow, const ProgressSink& onProgress = {},
                       const StepSink& onStep = {});

}  // namespace granular
