#pragma once

namespace granular {

struct Settings;

/// Checks the settings that are each within the schema's range but do not fit together (a method
/// that needs another setup, radius_min above radius_max, ...). Throws ScenarioError with one line
/// that names the key and what is accepted.
void checkSettings(const Settings& settings);

/// A command-line run is whole steps: run.time shorter than one solver.dt ran a whole one (0.001 s at dt = 1 s ran
/// 1 s). Throws ScenarioError naming run.time. (The studio plays on past run.time, so it edits solver.dt freely.)
void checkRunCoversAStep(const Settings& settings);

}  // namespace granular
