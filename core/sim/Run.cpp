#include "sim/Run.h"

#include "settings/Settings.h"
#include "sim/BlowUpGuard.h"
#include "sim/Simulation.h"
#include "util/Parallel.h"

#include <algorithm>
#include <chrono>

namespace granular {

const char* runEndName(RunEnd end)
{
    switch (end) {
    case RunEnd::RunTime:
        return "run.time";
    case RunEnd::StoppingRule:
        return "stopping rule";
    case RunEnd::Interrupted:
        return "interrupted";
    case RunEnd::BlowUp:
        return "blow-up";
    }
    return "";
}

RunStatistics runToEnd(Simulation& simulation, const RowSink& onRow, const ProgressSink& onProgress,
                       const StepSink& onStep, const StopRequest& stop)
{
    const Settings& settings = simulation.settings();
    const std::int64_t totalSteps = stepsPerRun(settings);
    // The rows of the output grid; a run's last row may be off it (run.time, its stopping rule, an interrupt).
    const std::int64_t gridEvery = stepsPerOutputInterval(settings);
    const auto progressEvery = std::max<std::int64_t>(1, totalSteps / 200);

    RunStatistics stats;
    const auto start = std::chrono::steady_clock::now();
    std::int64_t n = simulation.world().steps;
    if (n == 0) {
        onRow(simulation.world().time, simulation.sample());
    } else if (n >= totalSteps || simulation.finished()) {
        // A resumed run that had ended already (a checkpoint of its last step; RunSession refuses a run.time before
        // it): nothing to step, and its last row, off the output grid, which no checkpoint holds, is written again.
        if (n % gridEvery != 0) {
            onRow(simulation.world().time, simulation.sample());
        }
        stats.end = simulation.finished() ? RunEnd::StoppingRule : RunEnd::RunTime;
        n = totalSteps;
    }
    while (n < totalSteps) {
        try {
            simulation.step();
        } catch (const BlowUp& blowUp) {
            stats.end = RunEnd::BlowUp;
            stats.message = blowUp.what();
            break;
        }
        n = simulation.world().steps;
        if (simulation.lastStepThreads() < solverThreadSetting()) {
            ++stats.stepsOnFewerThreads;
        }
        ++stats.stepsOnThreads[simulation.lastStepThreads()];
        const bool finished = simulation.finished();
        const bool interrupted = !finished && stop && stop();
        const bool onGrid = n % gridEvery == 0;
        if (onGrid) {
            onRow(simulation.world().time, simulation.sample());
        }
        if (onStep) {
            // After a row of the output grid and before a last row off it: a checkpoint written here holds the rows
            // of the grid only, so that a run resumed from it (to this run.time or a later one) writes the rows of a
            // run never stopped.
            onStep(simulation);
        }
        if (!onGrid && (n == totalSteps || finished || interrupted)) {
            onRow(simulation.world().time, simulation.sample());
        }
        if (finished || interrupted) {
            stats.end = finished ? RunEnd::StoppingRule : RunEnd::Interrupted;
            break;
        }
        if (onProgress && n % progressEvery == 0) {
            onProgress(static_cast<double>(n) / static_cast<double>(totalSteps));
        }
    }
    stats.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    // The step that blew up counted in world.steps and the updates before the guard looked at its state.
    const bool blewUp = stats.end == RunEnd::BlowUp;
    stats.steps = simulation.world().steps - (blewUp ? 1 : 0);
    stats.contactUpdates = simulation.contactUpdates() - (blewUp ? simulation.lastStep().contactUpdates : 0);
    return stats;
}

}  // namespace granular
