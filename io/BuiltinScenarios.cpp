#include "BuiltinScenarios.h"

#include "BuiltinScenarioData.h"
#include "ScenarioJson.h"
#include "scenario/ScenarioError.h"
#include "settings/SettingsBinding.h"

#include <filesystem>

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
    if (std::filesystem::exists(nameOrPath)) {
        return loadScenarioFile(nameOrPath);
    }
    throw ScenarioError("scenario '" + nameOrPath +
                        "' is neither a built-in (see `granular list`) nor an existing JSON file");
}

}  // namespace granular
