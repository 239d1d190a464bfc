#pragma once

#include "scenario/Scenario.h"

#include <filesystem>
#include <string>
#include <string_view>

namespace granular {

/// Parses scenario JSON (nested objects whose leaves are schema keys, and an optional "lesson" array: see
/// LessonJson.h) on top of the defaults.
/// `origin` names the source in error messages. Throws ScenarioError with one line: the JSON
/// line/column for malformed text, else the dotted key and what it accepts.
Scenario scenarioFromJson(std::string_view json, const std::string& origin);

/// Reads a scenario file; a missing or unreadable file is a ScenarioError naming the path.
Scenario loadScenarioFile(const std::filesystem::path& path);

/// The resolved scenario as nested JSON, keys in schema order.
std::string scenarioToJson(const Scenario& scenario);

}  // namespace granular
