#include "ScenarioArguments.h"

#include "BuiltinScenarios.h"
#include "scenario/ScenarioError.h"
#include "scenario/Schema.h"

#include <algorithm>
#include <map>
#include <utility>

namespace granular {

namespace {

/// KEY and VALUE of one `--set KEY=VALUE`; `example` shows the form in the message when it is not of it.
std::pair<std::string, std::string> keyAndValue(const std::string& assignment, const char* example)
{
    const auto equals = assignment.find('=');
    if (equals == std::string::npos || equals == 0) {
        throw ScenarioError("--set: '" + assignment + "' is not of the form KEY=VALUE (e.g. " + example + ")");
    }
    return {assignment.substr(0, equals), assignment.substr(equals + 1)};
}

/// Refuses a key that two `--set`s give: the last would win without a word (as a key twice in a scenario file).
void refuseRepeatedKeys(const std::vector<std::string>& assignments)
{
    std::map<std::string, std::string> seen;
    for (const auto& assignment : assignments) {
        const auto equals = assignment.find('=');
        if (equals == std::string::npos || equals == 0) {
            continue;  // keyAndValue says what is wrong with it
        }
        const std::string key = assignment.substr(0, equals);
        const auto [earlier, first] = seen.emplace(key, assignment);
        if (!first) {
            std::string message = "--set: " + key + " is given twice ('";
            message += earlier->second;
            message += "' and '";
            message += assignment;
            message += "'); accepted: each key once";
            throw ScenarioError(message);
        }
    }
}

}  // namespace

const std::string* assignmentOf(const std::vector<std::string>& assignments, const std::string& key)
{
    const auto found = std::find_if(assignments.begin(), assignments.end(), [&key](const std::string& assignment) {
        return assignment.size() > key.size() && assignment.compare(0, key.size(), key) == 0 &&
               assignment[key.size()] == '=';
    });
    return found != assignments.end() ? &*found : nullptr;
}

Scenario scenarioFromArguments(const std::string& nameOrPath, const std::vector<std::string>& assignments)
{
    refuseRepeatedKeys(assignments);
    Scenario scenario = resolveScenario(nameOrPath);
    for (const auto& assignment : assignments) {
        const auto [key, value] = keyAndValue(assignment, "solver.dt=0.001");
        scenario.setFromText(key, value);
    }
    return scenario;
}

Scenario scenarioWithLiveAssignments(Scenario saved, const std::vector<std::string>& assignments,
                                     const std::string& goingOn)
{
    refuseRepeatedKeys(assignments);
    for (const auto& assignment : assignments) {
        const auto [key, value] = keyAndValue(assignment, "run.time=10");
        const Parameter* p = Schema::instance().find(key);
        if (p != nullptr && p->mutability != Mutability::Live) {
            std::string message = key + ": applies when a world is built, not to ";
            message += goingOn;
            message += "; accepted: a live key such as run.time";
            throw ScenarioError(message);
        }
        saved.setFromText(key, value);
    }
    return saved;
}

}  // namespace granular
