#pragma once

#include "analysis/CompressionLevels.h"

#include <nlohmann/json.hpp>

#include <vector>

namespace granular {
class Simulation;
struct SeriesTable;
}  // namespace granular

namespace granular::cli {

/// Adds the results particular to the scenario's experiment (e.g. the chain's fitted and theoretical
/// omega and tau, a packing's statistics) to a run's summary. Does nothing for plain scenarios.
void addScenarioResults(nlohmann::ordered_json& summary, const Simulation& simulation, const SeriesTable& series);

/// Brodu et al. 2015's measures of a compression run: per down-stroke that reached its turning point (level
/// `levelCount` of its levels 0 .. levelCount) the top force there, per level Z, Z_tau and <f>, and the scaling
/// law's fit of the top force against phi Z <f>.
void addCompressionResults(nlohmann::ordered_json& summary, const std::vector<analysis::CompressionLevel>& levels,
                           int levelCount);

}  // namespace granular::cli
