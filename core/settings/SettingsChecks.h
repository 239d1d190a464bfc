#pragma once

namespace granular {

struct Settings;

/// Checks the settings that are each within the schema's range but do not fit together (a method
/// that needs another setup, radius_min above radius_max, ...). Throws ScenarioError with one line
/// that names the key and what is accepted.
void checkSettings(const Settings& settings);

}  // namespace granular
