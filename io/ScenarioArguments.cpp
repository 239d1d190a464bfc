#include "ScenarioArguments.h"

#include "BuiltinScenarios.h"
#include "scenario/ScenarioError.h"

namespace granular {

Scenario scenarioFromArguments(const std::string& nameOrPath, const std::vector<std::string>& assignments)
{
    Scenario scenario = resolveScenario(nameOrPath);
    for (const auto& assignment : assignments) {
        const auto equals = assignment.find('=');
        if (equals == std::string::npos || equals == 0) {
            throw ScenarioError("--set: '" + assignment + "' is not of the form KEY=VALUE (e.g. solver.dt=0.001)");
        }
        scenario.setFromText(assignment.substr(0, equals), assignment.substr(equals + 1));
    }
    return scenario;
}

}  // namespace granular
