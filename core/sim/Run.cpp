#include "sim/Run.h"

#include "sim/Simulation.h"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace granular {

RunStatistics runToEnd(Simulation& simulation, const RowSink& onRow, const ProgressSink& onProgress,
                       const StepSink& onStep)
{
    const Settings& settings = simulation.settings();
    const double dt = settings.solver.dt;
    const auto totalSteps = std::max<std::int64_t>(1, std::llround(settings.run.time / dt));
    const auto stepsPerRow = std::max<std::int64_t>(1, std::llround(settings.run.outputInterval / dt));
    const auto progressEvery = std::max<std::int64_t>(1, totalSteps / 200);

    RunStatistics stats;
    const auto start = std::chrono::steady_clock::now();
    onRow(simulation.world().time, simulation.sample());
    std::int64_t n = 1;
    for (; n <= totalSteps; ++n) {
        simulation.step();
        if (onStep) {
            onStep(simulation);
        }
        stats.finished = simulation.finished();
        if (n % stepsPerRow == 0 || n == totalSteps || stats.finished) {
            onRow(simulation.world().time, simulation.sample());
        }
        if (stats.finished) {
            break;
        }
        if (onProgress && n % progressEvery == 0) {
            onProgress(static_cast<double>(n) / static_cast<double>(totalSteps));
        }
    }
    stats.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    stats.steps = std::min(n, totalSteps);
    stats.contactUpdates = simulation.contactUpdates();
    return stats;
}

}  // namespace granular
