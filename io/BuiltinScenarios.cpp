#include "BuiltinScenarios.h"

#include "BuiltinScenarioData.h"
#include "ScenarioJson.h"
#include "scenario/ScenarioError.h"
#include "settings/SettingsBinding.h"

#include <filesystem>
#include <system_error>

namespace granular {

std::vector<BuiltinScenario> builtinScenarios()
{
    std::vector<BuiltinScenario> list;
    for (const auto& builtin : builtinScenarioTexts()) {
        const Scenario scenario = scenarioFromJson(builtin.json, std::string(builtin.name));
        list.push_back({std::string(builtin.name), parseSettings(scenario).description});
    }
    return list;
}

Scenario resolveScenario(const std::string& nameOrPath)
{
    for (const auto& builtin : builtinScenarioTexts()) {
        if (builtin.name == nameOrPath) {
            return scenarioFromJson(builtin.json, nameOrPath);
        }
    }
    std::error_code error;  // a name too long, a loop of links, a folder we may not enter: not a file, no abort
    if (std::filesystem::exists(nameOrPath, error)) {
        return loadScenarioFile(nameOrPath);
    }
    throw ScenarioError("scenario '" + nameOrPath +
                        "' is neither a built-in (see `granular list`) nor a readable JSON file" +
                        (error ? " (" + error.message() + ")" : std::string()));
}

}  // namespace granular
