#pragma once

#include "sim/StepGrid.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace granular {

class Simulation;
struct Settings;

/// Why a run ended.
enum class RunEnd {
    RunTime,       ///< it reached run.time
    StoppingRule,  ///< the method's stopping rule held (a relaxed packing, the plate's program over)
    Interrupted,   ///< the caller asked it to stop (SIGINT, SIGTERM)
    BlowUp,        ///< the blow-up guard stopped it (BlowUp); the last row is the last good one
};

/// The name a summary gives the end: "run.time", "stopping rule", "interrupted", "blow-up".
[[nodiscard]] const char* runEndName(RunEnd end);

struct RunStatistics {
    /// Steps of the simulation so far (also those before a resumed run): after a blow-up those before the step that
    /// blew up, whose state is broken.
    std::int64_t steps = 0;
    std::int64_t contactUpdates = 0;  ///< of those steps
    double wallSeconds = 0.0;         ///< s of real time spent stepping in this call
    /// Steps of this call that ran on fewer threads than set (ThreadPace: more threads were slower then).
    std::int64_t stepsOnFewerThreads = 0;
    /// Steps of this call by the threads they ran on (Simulation::lastStepThreads).
    std::map<int, std::int64_t> stepsOnThreads;
    RunEnd end = RunEnd::RunTime;
    std::string message;  ///< for a blow-up: the guard's one line

    [[nodiscard]] bool finished() const { return end == RunEnd::StoppingRule; }
    /// Whether the run ended before its `runSteps` (stepsPerRun), whatever the reason (`end` says which): a stopping
    /// rule or an interrupt at the last step is no early end.
    [[nodiscard]] bool endedEarly(std::int64_t runSteps) const { return end != RunEnd::RunTime && steps < runSteps; }
};

/// Called with the simulated time (s) and the observables' values, at t = 0 and every output.interval.
using RowSink = std::function<void(double time, const std::vector<double>& values)>;
/// Called now and then with the completed fraction of the run, in [0, 1].
using ProgressSink = std::function<void(double fraction)>;
/// Called after every step (e.g. to record what only some steps show, or to write a checkpoint); it must not
/// change the simulation.
using StepSink = std::function<void(const Simulation& simulation)>;
/// Asked after every step: true stops the run (RunEnd::Interrupted).
using StopRequest = std::function<bool()>;

/// Steps the simulation up to `run.time`, sampling the observables every `output.interval`.
/// A run ends early when the method's stopping rule holds (Simulation::finished); the last state
/// is then sampled as a final row. It also ends when `stop` says so (the state reached is sampled), or when
/// the blow-up guard trips (the broken state is not sampled). A simulation that has already stepped (a
/// resumed checkpoint) goes on from where it is, without a row at its start; one that had ended (at run.time or by
/// its stopping rule) takes no step and only writes its last row again where that row is off the output grid.
/// `onStep` comes after a step's row on the grid and before a last row off it (see Run.cpp).
/// Step and row counts are integers derived once, so rows fall on the same steps on every machine.
RunStatistics runToEnd(Simulation& simulation, const RowSink& onRow, const ProgressSink& onProgress = {},
                       const StepSink& onStep = {}, const StopRequest& stop = {});

}  // namespace granular
