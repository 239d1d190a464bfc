#include "ScenarioArguments.h"

#include "BuiltinScenarios.h"
#include "scenario/ScenarioError.h"
#include "scenario/Schema.h"

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

Scenario scenarioWithLiveAssignments(Scenario saved, const std::vector<std::string>& assignments,
                                     const std::string& goingOn)
{
    for (const auto& assignment : assignments) {
        const auto equals = assignment.find('=');
        if (equals == std::string::npos || equals == 0) {
            throw ScenarioError("--set: '" + assignment + "' is not of the form KEY=VALUE (e.g. run.time=10)");
        }
        const std::string key = assignment.substr(0, equals);
        const Parameter* p = Schema::instance().find(key);
        if (p != nullptr && p->mutability != Mutability::Live) {
            std::string message = key + ": applies when a world is built, not to ";
            message += goingOn;
            message += "; accepted: a live key such as run.time";
            throw ScenarioError(message);
        }
        saved.setFromText(key, assignment.substr(equals + 1));
    }
    return saved;
}

}  // namespace granular
