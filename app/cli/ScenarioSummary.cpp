#include "cli/ScenarioSummary.h"

#include "analysis/ChainOscillation.h"
#include "sim/SeriesTable.h"
#include "sim/Simulation.h"

#include <stdexcept>
#include <vector>

namespace granular::cli {

namespace {

/// Seed 000 Fig. 7: the chain's fitted omega and tau next to the theory's (eq. 58, 60).
void addChainResults(nlohmann::ordered_json& summary, const Simulation& simulation, const SeriesTable& series)
{
    auto& oscillation = summary["oscillation"];
    try {
        const auto result = analysis::analyzeChainOscillation(simulation.scenario(), series);
        oscillation["theory"] = {{"omega_rad_per_s", result.theoryOmega}, {"tau_s", result.theoryTau}};
        oscillation["fit"] = {
            {"omega_rad_per_s", result.fit.omega}, {"tau_s", result.fit.tau}, {"x0_m", result.fit.x0},
            {"amplitude_m", result.fit.amplitude}, {"r2", result.fit.r2},     {"converged", result.fit.converged}};
        oscillation["window_s"] = {result.windowStart, result.windowEnd};
        oscillation["fit_over_theory"] = {{"omega", result.fit.omega / result.theoryOmega},
                                          {"tau", result.fit.tau / result.theoryTau}};
    } catch (const std::invalid_argument& error) {
        oscillation["error"] = error.what();
    }
}

/// Seed 000 Fig. 8: the piston's damped oscillation after the load step, omega and tau fitted freely.
void addPistonResults(nlohmann::ordered_json& summary, const Simulation& simulation, const SeriesTable& series)
{
    const double loadStepTime = simulation.scenario().real("piston.load_step_time");
    if (series.time.empty() || series.time.back() <= loadStepTime) {
        return;  // no load step during this run
    }
    auto& oscillation = summary["oscillation"];
    try {
        // Time since the load step, so that the amplitude is the one at the step.
        std::vector<double> t;
        std::vector<double> y;
        const auto height = series.column("piston_y");
        for (std::size_t i = 0; i < series.time.size(); ++i) {
            if (series.time[i] >= loadStepTime) {
                t.push_back(series.time[i] - loadStepTime);
                y.push_back(height[i]);
            }
        }
        const auto fit = analysis::fitDampedOscillation(t, y);
        oscillation["fit"] = {{"omega_rad_per_s", fit.omega}, {"tau_s", fit.tau}, {"x0_m", fit.x0},
                              {"amplitude_m", fit.amplitude}, {"r2", fit.r2},     {"converged", fit.converged}};
        oscillation["window_s"] = {loadStepTime, series.time.back()};
    } catch (const std::invalid_argument& error) {
        oscillation["error"] = error.what();
    }
}

}  // namespace

void addScenarioResults(nlohmann::ordered_json& summary, const Simulation& simulation, const SeriesTable& series)
{
    const std::string& setup = simulation.scenario().text("setup");
    if (setup == "chain" && series.has("probe_x") && series.has("contacts")) {
        addChainResults(summary, simulation, series);
    }
    if (setup == "piston" && series.has("piston_y")) {
        addPistonResults(summary, simulation, series);
    }
}

}  // namespace granular::cli
