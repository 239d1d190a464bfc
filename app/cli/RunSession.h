#pragma once

#include "CheckpointFrames.h"
#include "analysis/CompressionLevels.h"
#include "analysis/SeriesTable.h"
#include "sim/Run.h"
#include "sim/Simulation.h"

#include <filesystem>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace granular {
class RunOutput;
}

namespace granular::cli {

/// How a run is carried out and where it writes.
struct SessionOptions {
    std::optional<std::filesystem::path> outDirectory;
    std::optional<double> checkpointEvery;  ///< s of simulated time between checkpoints (DIR/checkpoint.bin)
    int threads = 1;
    bool quiet = false;
};

/// One run of `granular run` or `granular resume`: the simulation and everything the run collects around it
/// (the series kept in memory and written at the end, the compression levels, the frame count). It can be
/// saved into a checkpoint between two steps and picked up from one, so that a resumed run writes the same
/// series.csv, byte for byte, as one that was never stopped.
class RunSession {
public:
    /// A new run of `simulation`.
    RunSession(std::unique_ptr<Simulation> simulation, SessionOptions options);
    /// A run that goes on from DIR/checkpoint.bin; `assignments` change live keys (e.g. run.time). Throws
    /// CheckpointError for a bad checkpoint, ScenarioError for a bad assignment.
    static RunSession resume(const std::filesystem::path& directory, const std::vector<std::string>& assignments,
                             SessionOptions options);

    /// Runs to the end and writes the output; returns the exit code: 0 done, 1 blow-up or failure, 128 + signal
    /// when SIGINT or SIGTERM stopped it (the output then holds the interrupted run).
    int run(std::ostream& out, std::ostream& err);

    [[nodiscard]] const Simulation& simulation() const { return *simulation_; }

private:
    /// DIR/checkpoint.bin, and the frames so far beside it (CheckpointFrames) where the run writes frames.
    void saveCheckpoint(const RunOutput& output);
#ifdef GRANULAR_WITH_VTK
    /// The ParaView files of frame `index` (vtkio), the collection of all frames so far (run.pvd), and the
    /// frames of the run being resumed, copied from its directory.
    void writeFrameFiles(RunOutput& output, std::int64_t index) const;
    void writeFrameCollection(RunOutput& output) const;
    void copyEarlierFrames(const std::filesystem::path& from, RunOutput& output) const;
#endif
    [[nodiscard]] std::string sessionState() const;

    std::unique_ptr<Simulation> simulation_;
    SessionOptions options_;
    SeriesTable table_;
    std::optional<analysis::CompressionRecorder> recorder_;
    std::vector<double> frameTimes_;  ///< s, of each VTK frame written so far (frame k's files: runFrameFiles(k))
    std::optional<CheckpointFrames> checkpointFrames_;  ///< this run's frames kept beside its checkpoints
    std::string checkpointFramesFolder_;                ///< where the checkpoint resumed from keeps its frames
    std::optional<std::filesystem::path> resumedFrom_;
};

/// Installs the handlers of SIGINT and SIGTERM that ask a running session to stop after its current step.
void installStopHandlers();
/// The signal that asked the runs to stop (SIGINT, SIGTERM), 0 while none did.
[[nodiscard]] int stopRequested();

}  // namespace granular::cli
