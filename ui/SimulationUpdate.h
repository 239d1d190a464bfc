#pragma once

#include "SolverThreadsText.h"
#include "method/StepDiagnostics.h"
#include "scenario/Scenario.h"
#include "settings/Settings.h"
#include "sim/Frame.h"

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace granular::ui {

/// One row of the series: simulated time and the values of RunInfo::columns.
struct SeriesRow {
    double time = 0.0;  ///< s
    std::vector<double> values;
};

/// What a run is: the resolved scenario, its settings and the series columns. Sent when a scenario is
/// built (start, reset, scenario change) and when the method changes on the running state.
struct RunInfo {
    Scenario scenario;   ///< every key's value, as the parameter panel shows it (edits that wait for a reset too)
    Settings settings;   ///< the settings the simulation runs with
    std::string origin;  ///< built-in name or file path it was loaded from
    bool fromSavedState = false;       ///< origin is a saved state's file (File > Open state, --state), not a scenario
    std::vector<std::string> columns;  ///< observable names (time `t` is implied)
    std::vector<std::string> units;    ///< unit of each column
    std::int64_t particles = 0;
    /// True when the run goes on from the previous state (method switch): earlier rows stay valid.
    bool continued = false;
    /// The scenario keys whose edits wait for a reset (Simulation::waitingKeys).
    std::vector<std::string> waiting;
};

/// The state after the last step, for the toolbar and the status bar.
struct StepStatus {
    double time = 0.0;  ///< s
    std::int64_t steps = 0;
    double stepsPerSecond = 0.0;  ///< wall-clock rate over the last half second of running
    StepDiagnostics diagnostics;
    /// N, the force the piston was pushed with in the last step; NaN without a piston.
    double appliedPistonForce = std::numeric_limits<double>::quiet_NaN();
    std::vector<std::string> advisories;
    bool running = false;
    /// The solver threads over the last stretch of steps (the last half second of running, or the steps since the
    /// run started where it stopped sooner).
    SolverThreadsShare threads;
};

/// Everything the simulation thread published since the GUI last looked. Rows accumulate; the
/// frame and the status are only the newest (latest-wins).
struct SimulationUpdate {
    std::optional<RunInfo> run;  ///< set: a new run (rows before it belong to the old one)
    std::vector<SeriesRow> rows;
    std::shared_ptr<const Frame> frame;
    std::optional<StepStatus> status;
};

}  // namespace granular::ui
