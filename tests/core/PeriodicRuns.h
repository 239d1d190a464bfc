#pragma once
// Shared by the tests of contact dynamics at constant pressure in a periodic cell (Shaebani et al. 2009).

#include "BuiltinScenarios.h"
#include "analysis/PackingStatistics.h"
#include "scenario/Scenario.h"
#include "sim/Simulation.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <ctime>
#include <thread>
#include <vector>

namespace granular::periodic_test {

/// The paper's reference system (Shaebani et al. 2009, section 5): the built-in `periodic2d`.
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

/// Calls work(k) for k = 0 .. count - 1 on as many threads as the machine has cores. Each call must only
/// write its own result, so the outcome is the same for any thread count.
template <class Work> void forEachInParallel(int count, const Work& work)
{
    std::atomic<int> next{0};
    const auto worker = [&] {
        for (int k = next++; k < count; k = next++) {
            work(k);
        }
    };
    const unsigned threads = std::clamp(std::thread::hardware_concurrency(), 1U, static_cast<unsigned>(count));
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t) {
        pool.emplace_back(worker);
    }
    for (auto& thread : pool) {
        thread.join();
    }
}

}  // namespace granular::periodic_test
