#pragma once

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

namespace granular {

/// An output directory written all-or-nothing: files are written into a hidden staging folder
/// inside it and moved into place by commit(); without commit() the staging folder is removed,
/// so a failed or interrupted run leaves the directory as it was.
class RunOutput {
public:
    /// Creates the directory if needed; throws std::runtime_error naming the path if it cannot.
    explicit RunOutput(std::filesystem::path directory);
    RunOutput(const RunOutput&) = delete;
    RunOutput& operator=(const RunOutput&) = delete;
    RunOutput(RunOutput&&) = delete;
    RunOutput& operator=(RunOutput&&) = delete;
    ~RunOutput();

    /// A stream for DIR/relativePath (sub-folders allowed); valid until commit().
    std::ofstream& open(const std::string& relativePath);
    void commit();

    [[nodiscard]] const std::filesystem::path& directory() const { return directory_; }

private:
    std::filesystem::path directory_;
    std::filesystem::path staging_;
    std::vector<std::pair<std::string, std::unique_ptr<std::ofstream>>> files_;
};

}  // namespace granular
