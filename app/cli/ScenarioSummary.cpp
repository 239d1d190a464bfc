#include "cli/ScenarioSummary.h"

#include "analysis/ChainOscillation.h"
#include "sim/SeriesTable.h"
#include "sim/Simulation.h"

#include <stdexcept>

namespace granular::cli {

namespace {

/// Seed 000 Fig. 7: the chain's fitted omega and tau next to the theory's (eq. 58, 60).
void addChainResults(nlohmann::ordered_json& summary, const Simulation& simulation, const SeriesTable& series)
{
    auto& oscillation = summary["oscillation"];
    try {
        const auto result = analysis::analyzeChainOscillation(simulation.scenario(), series);
        oscillation["theory"] = {{"omega_rad_per_s", result.theoryOmega}, {"tau_s", result.theoryTau}};
        oscillation["fit"] = {{"omega_rad_per_s", result.fit.omega},
                              {"tau_s", result.fit.tau},
                              {"x0_m", result.fit.x0},
                              {"amplitude_m", result.fit.amplitude},
                              {"r2", result.fit.r2},
                              {"converged", result.fit.converged}};
        oscillation["window_s"] = {result.windowStart, result.windowEnd};
        oscillation["fit_over_theory"] = {{"omega", result.fit.omega / result.theoryOmega},
                                          {"tau", result.fit.tau / result.theoryTau}};
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
}

}  // namespace granular::cli
