#pragma once

#include <filesystem>
#include <functional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace granular {

/// Bad --out: the directory is in the way or cannot be written (the command exits 2).
class OutputError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// An output directory written all-or-nothing. Files go into a staging folder next to DIR
/// (`.granular-staging-NAME-PID`), each closed as soon as it is written; commit() then exchanges the staging
/// folder with DIR in one step (renameat2 with RENAME_EXCHANGE), so DIR holds either the old output or the new,
/// never a mix, and removes the old. Without commit() the staging folder is removed. A DIR that already exists
/// must be empty or an earlier output of granular (only the files and folders granular writes, a result among them),
/// so that no other files are replaced.
class RunOutput {
public:
    /// Throws OutputError naming the path when DIR cannot be used (a trailing separator is dropped); removes stale
    /// staging folders of DIR whose process is gone (a run killed by SIGKILL).
    explicit RunOutput(const std::filesystem::path& directory);
    RunOutput(const RunOutput&) = delete;
    RunOutput& operator=(const RunOutput&) = delete;
    RunOutput(RunOutput&&) = delete;
    RunOutput& operator=(RunOutput&&) = delete;
    ~RunOutput();

    /// Writes DIR/relativePath (sub-folders allowed) through `content` and closes it; throws std::runtime_error
    /// naming the file when it cannot be written.
    void write(const std::string& relativePath, const std::function<void(std::ostream&)>& content);
    /// Keeps DIR/name in the new content: a file of this run written into DIR itself (its checkpoint.bin, which must
    /// survive a crash). Every other file of DIR is replaced.
    void carryOver(const std::string& name);
    /// Makes DIR hold what was written. Throws std::runtime_error (DIR is then as it was).
    void commit();

    [[nodiscard]] const std::filesystem::path& directory() const { return directory_; }
    /// The staging folder (where files are until commit()).
    [[nodiscard]] const std::filesystem::path& staging() const { return staging_; }

private:
    std::filesystem::path directory_;
    std::filesystem::path staging_;
    std::vector<std::string> carried_;
    bool committed_ = false;
};

/// Writes `path` atomically: into a temporary file beside it, then renamed over it.
void writeFileAtomically(const std::filesystem::path& path, const std::function<void(std::ostream&)>& content);

}  // namespace granular
