#include "sim/Run.h"

#include "scenario/Value.h"
#include "settings/Settings.h"
#include "sim/BlowUpGuard.h"
#include "sim/Simulation.h"
#include "util/Parallel.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

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

std::int64_t stepsPerRun(const Settings& settings)
{
    return std::max<std::int64_t>(1, std::llround(settings.run.time / settings.solver.dt));
}

std::int64_t stepsEvery(double seconds, double dt)
{
    // An interval of more steps than a 64-bit count holds is never reached: the largest count stands for it.
    const double steps = seconds / dt;
    return steps < 9.0e18 ? std::max<std::int64_t>(1, std::llround(steps)) : std::numeric_limits<std::int64_t>::max();
}

std::int64_t stepsPerOutputInterval(const Settings& settings)
{
    // The output interval may be longer than any run: no step is on the grid then but the first.
    return stepsEvery(settings.run.outputInterval, settings.solver.dt);
}

std::int64_t stepsPerRow(const Settings& settings)
{
    return std::min(stepsPerOutputInterval(settings), stepsPerRun(settings));  // a run shorter: one row at the end
}

namespace {

/// Whether `seconds` is `steps` steps of `dt` up to round-off.
bool wholeSteps(double seconds, double dt, std::int64_t steps)
{
    return std::fabs(seconds / dt - static_cast<double>(steps)) <= 1e-9 * std::max(1.0, seconds / dt);
}

}  // namespace

std::vector<std::string> stepGridAdvisories(const Settings& settings)
{
    std::vector<std::string> advice;
    const double dt = settings.solver.dt;
    const std::int64_t runSteps = stepsPerRun(settings);
    const std::string step = " is no whole number of steps of solver.dt = " + formatShort(dt) + " s: ";
    if (!wholeSteps(settings.run.time, dt, runSteps)) {
        advice.push_back("run.time = " + formatShort(settings.run.time) + " s" + step + "the run ends after " +
                         std::to_string(runSteps) +
                         " steps, at t = " + formatShort(static_cast<double>(runSteps) * dt) + " s");
    }
    const std::int64_t rowSteps = stepsPerOutputInterval(settings);
    if (rowSteps < runSteps && !wholeSteps(settings.run.outputInterval, dt, rowSteps)) {
        advice.push_back("output.interval = " + formatShort(settings.run.outputInterval) + " s" + step +
                         "the rows come every " + std::to_string(rowSteps) + " steps, " +
                         formatShort(static_cast<double>(rowSteps) * dt) + " s");
    }
    return advice;
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
