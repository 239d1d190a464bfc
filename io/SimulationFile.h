#pragma once

#include "Checkpoint.h"

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace granular {

class Scenario;
class Simulation;

/// Saves the simulation's scenario and complete state in the checkpoint format, with no run session (the
/// studio's File > Save state). Written atomically; throws std::runtime_error naming the file when it cannot be.
void saveSimulationFile(const std::filesystem::path& path, const Simulation& simulation);

/// The simulation a checkpoint holds (a state saved by the studio or a run's checkpoint.bin, whose run session
/// is left aside), going on exactly as the saved one would have. Throws CheckpointError with one line naming the
/// file when it is missing, truncated, corrupted, of another version or does not fit its scenario.
[[nodiscard]] std::unique_ptr<Simulation> openSimulationFile(const std::filesystem::path& path);

/// As above, then the live keys of `assignments` (KEY=VALUE, see scenarioWithLiveAssignments) applied as the studio
/// applies a live edit. Throws ScenarioError naming the key when one is not live or its value is refused.
[[nodiscard]] std::unique_ptr<Simulation> openSimulationFile(const std::filesystem::path& path,
                                                             const std::vector<std::string>& assignments);

/// The simulation of a checkpoint already read from `file`, its scenario being `scenario` (the saved one, maybe with
/// live keys changed). Throws CheckpointError naming `file` when the state does not read back.
[[nodiscard]] std::unique_ptr<Simulation> restoreSimulation(const Checkpoint& checkpoint, Scenario scenario,
                                                            const std::filesystem::path& file);

}  // namespace granular
