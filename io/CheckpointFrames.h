#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace granular {

/// The frame files that a run's checkpoint goes on from, kept in DIR beside DIR/checkpoint.bin while the run writes.
/// A run's frames stay in its staging folder until the run commits, and the staging folder of a killed run is removed
/// by the next: without these, the checkpoint of a run killed before its end (or of one killed in a DIR that held an
/// earlier output) could not be resumed with its frames, or was resumed with the earlier output's. The frames are
/// hard links into the staging folder (copies where a link cannot be made), in DIR/checkpoint-frames-PID-NS/ (the
/// process and its start in ns: a folder per process, never that of an earlier process with the same PID): the
/// checkpoint names its folder, written after the folder is complete, and the folders of earlier checkpoints are
/// removed after it. A committed output does not hold them (the exchange drops DIR's old content).
class CheckpointFrames {
public:
    /// The folder of this process in `directory` (DIR).
    explicit CheckpointFrames(std::filesystem::path directory);

    /// "checkpoint-frames-PID-NS": the name a checkpoint keeps to find its frames.
    [[nodiscard]] const std::string& folder() const { return folder_; }

    /// Keeps `files` (paths relative to `staging`, e.g. frames/particles_000003.vtp), those not kept yet, in the
    /// folder. Throws std::runtime_error naming the file that could be neither linked nor copied.
    void keep(const std::filesystem::path& staging, const std::vector<std::string>& files);

    /// Removes the checkpoint-frames-* folders of `directory` but `kept` (none if empty): those of the checkpoints that
    /// the last one replaced.
    static void dropAllBut(const std::filesystem::path& directory, const std::string& kept);

    /// Where the frames of a checkpoint in `directory` that names `folder` are: that folder, while it exists (a run
    /// that did not commit), otherwise DIR itself (a committed output, which holds its frames).
    [[nodiscard]] static std::filesystem::path source(const std::filesystem::path& directory,
                                                      const std::string& folder);

    /// Whether `name`, an entry of DIR, is such a folder's name.
    [[nodiscard]] static bool isFolderName(const std::string& name);

private:
    std::filesystem::path directory_;
    std::string folder_;
    std::size_t kept_ = 0;  ///< files kept so far (keep() is given all files, in the order they were written)
};

}  // namespace granular
