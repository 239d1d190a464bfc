#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace granular::cli {

/// What one run of an ensemble left behind, as it travels from the worker that ran it (a thread or an MPI rank)
/// to the process that writes the output: its exit code, its error message and its output files.
struct RunRecord {
    std::int64_t seed = 0;
    int exitCode = 0;     ///< as `granular run` would have exited: 0 done, 1 blow-up or failure
    std::string message;  ///< the failure's one line (empty when it finished)
    std::vector<std::pair<std::string, std::string>> files;  ///< relative path, content; sorted by path

    [[nodiscard]] bool failed() const { return exitCode != 0; }
    /// The content of `name`, or nullptr when the run did not write it.
    [[nodiscard]] const std::string* file(const std::string& name) const;

    [[nodiscard]] std::string toBytes() const;
    /// Throws std::runtime_error when `bytes` is not a record written by toBytes().
    [[nodiscard]] static RunRecord fromBytes(const std::string& bytes);
};

/// Every regular file under `directory`, with paths relative to it, sorted by path.
[[nodiscard]] std::vector<std::pair<std::string, std::string>> readFiles(const std::filesystem::path& directory);

}  // namespace granular::cli
