#pragma once
// Shared by the tests of contact dynamics at constant pressure in a periodic cell (seed 003).

#include "BuiltinScenarios.h"
#include "analysis/PackingStatistics.h"
#include "scenario/Scenario.h"
#include "sim/Simulation.h"

#include <chrono>
#include <cstdint>
#include <ctime>

namespace granular::periodic_test {

/// The paper's reference system (seed 003 section 5): the built-in `periodic2d`.
inline Scenario referenceSystem(std::int64_t seed)
{
    Scenario scenario = resolveScenario("periodic2d");
    scenario.set("seed", seed);
    return scenario;
}

struct RelaxedPacking {
    Simulation simulation;
    bool relaxed = false;
    std::int64_t steps = 0;
    double cpuSeconds = 0.0;  ///< s of processor time to relax
};

/// Steps until the stopping rule holds (mean speed and acceleration below pressure.relax_threshold)
/// or `maxSteps` have been made.
inline RelaxedPacking relax(const Scenario& scenario, std::int64_t maxSteps = 40000)
{
    RelaxedPacking run{Simulation(scenario)};
    const std::clock_t start = std::clock();
    while (run.steps < maxSteps && !run.relaxed) {
        run.simulation.step();
        ++run.steps;
        run.relaxed = run.simulation.finished();
    }
    run.cpuSeconds = static_cast<double>(std::clock() - start) / static_cast<double>(CLOCKS_PER_SEC);
    return run;
}

}  // namespace granular::periodic_test
