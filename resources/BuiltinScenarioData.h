#pragma once

#include <span>
#include <string_view>

namespace granular {

struct BuiltinScenarioText {
    std::string_view name;  ///< file name without .json
    std::string_view json;
};

/// The JSON files of resources/scenarios/, sorted by name.
std::span<const BuiltinScenarioText> builtinScenarioTexts();

}  // namespace granular
