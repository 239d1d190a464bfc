#pragma once

#include "scenario/Scenario.h"

#include <string>
#include <vector>

namespace granular {

/// A built-in name or JSON path with every `--set KEY=VALUE` applied in order, as both programs
/// take them on their command lines. Throws ScenarioError naming the bad argument or key.
Scenario scenarioFromArguments(const std::string& nameOrPath, const std::vector<std::string>& assignments);

}  // namespace granular
