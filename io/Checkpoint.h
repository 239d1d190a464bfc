#pragma once

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace granular {

/// A checkpoint file that cannot be used: missing, truncated, corrupted or of another version (exit 2).
class CheckpointError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// The format's version, which writeCheckpoint writes unless told. 2: the simulation's state ends with the scenario
/// values that its load steps replaced (what a reset goes back to).
inline constexpr std::uint32_t kCheckpointVersion = 2;
/// The oldest version read: a version 1 state has no record of load steps (its reset builds the saved scenario, as a
/// version 1 build did). A file of a version outside [kOldestCheckpointVersion, kCheckpointVersion] is refused.
inline constexpr std::uint32_t kOldestCheckpointVersion = 1;
/// The first version whose simulation state ends with the record of load steps (Simulation::LoadStepRecord::With).
inline constexpr std::uint32_t kLoadStepRecordVersion = 2;

/// What a checkpoint holds: the scenario as JSON, the simulation's saved state (Simulation::saveState) and the
/// state of the run around it (its series so far, ...), each as opaque bytes, and the format's version they are in.
struct Checkpoint {
    std::string scenarioJson;
    std::string simulation;
    std::string session;
    std::uint32_t version = kCheckpointVersion;  ///< as read; what writeCheckpoint writes (the sections must be in it)
};

/// Writes the checkpoint atomically (a temporary file renamed over `path`): a magic number, the version, the
/// three sections with their lengths and an FNV-1a checksum of everything before it.
void writeCheckpoint(const std::filesystem::path& path, const Checkpoint& checkpoint);

/// Reads a checkpoint; throws CheckpointError with one line naming the file and what is wrong.
[[nodiscard]] Checkpoint readCheckpoint(const std::filesystem::path& path);

}  // namespace granular
