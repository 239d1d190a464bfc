#pragma once

#include <nlohmann/json.hpp>

namespace granular {
class Simulation;
struct SeriesTable;
}  // namespace granular

namespace granular::cli {

/// Adds the results particular to the scenario's experiment (e.g. the chain's fitted and theoretical
/// omega and tau, a packing's statistics) to a run's summary. Does nothing for plain scenarios.
void addScenarioResults(nlohmann::ordered_json& summary, const Simulation& simulation, const SeriesTable& series);

}  // namespace granular::cli
