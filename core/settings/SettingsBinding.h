#pragma once

#include "scenario/Value.h"
#include "settings/Settings.h"

#include <string>
#include <string_view>
#include <vector>

namespace granular {

class Scenario;

/// Reads every key of a validated scenario into typed settings: the one place where the scenario's
/// keys are read. Also checks the values that are individually valid but do not fit together (e.g.
/// cd_pressure without a periodic cell); throws ScenarioError with one line naming the key.
[[nodiscard]] Settings parseSettings(const Scenario& scenario);

/// Writes a typed edit into the scenario: every field that differs between `before` and `after` is set
/// through the schema, which validates it. Returns the keys that changed. Throws ScenarioError (the
/// scenario is then unchanged).
std::vector<std::string> writeChanges(Scenario& scenario, const Settings& before, const Settings& after);

/// Sets the one field bound to `key` (a value the schema has validated); throws std::logic_error for a
/// key that no field is bound to.
void assignSetting(Settings& settings, std::string_view key, const Value& value);

/// The keys bound to a field of Settings, in the order they are read. The schema test compares them
/// with the schema's keys: a key in one and not the other fails it.
[[nodiscard]] std::vector<std::string> boundKeys();

}  // namespace granular
