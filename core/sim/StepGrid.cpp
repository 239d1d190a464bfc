#include "sim/StepGrid.h"

#include "scenario/Value.h"
#include "settings/Settings.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace granular {

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

}  // namespace granular
