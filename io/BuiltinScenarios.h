#pragma once

#include "scenario/Scenario.h"

#include <string>
#include <vector>

namespace granular {

struct BuiltinScenario {
    std::string name;
    std::string description;
};

/// The built-in scenarios (resources/scenarios/), sorted by name.
std::vector<BuiltinScenario> builtinScenarios();

/// A built-in name or a path to a JSON file. Throws ScenarioError naming what is wrong.
Scenario resolveScenario(const std::string& nameOrPath);

}  // namespace granular
