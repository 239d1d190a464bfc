#include "CheckpointFrames.h"

#include <chrono>
#include <stdexcept>
#include <system_error>
#include <unistd.h>

namespace granular {

namespace fs = std::filesystem;

namespace {

constexpr const char* kPrefix = "checkpoint-frames-";

}  // namespace

CheckpointFrames::CheckpointFrames(fs::path directory)
    : directory_(std::move(directory)), folder_(kPrefix + std::to_string(::getpid()) + "-" +
                                                std::to_string(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                                                   std::chrono::system_clock::now().time_since_epoch())
                                                                   .count()))
{
}

void CheckpointFrames::keep(const fs::path& staging, const std::vector<std::string>& files)
{
    for (; kept_ < files.size(); ++kept_) {
        const fs::path from = staging / files[kept_];
        const fs::path to = directory_ / folder_ / files[kept_];
        std::error_code error;
        fs::create_directories(to.parent_path(), error);
        fs::remove(to, error);
        error.clear();
        fs::create_hard_link(from, to, error);
        if (error) {
            error.clear();
            fs::copy_file(from, to, fs::copy_options::overwrite_existing, error);
        }
        if (error) {
            throw std::runtime_error("--checkpoint-every: cannot keep " + from.string() + " in " + to.string() + " (" +
                                     error.message() + ")");
        }
    }
}

void CheckpointFrames::dropAllBut(const fs::path& directory, const std::string& kept)
{
    std::error_code error;
    for (fs::directory_iterator it(directory, error), end; !error && it != end; it.increment(error)) {
        const std::string name = it->path().filename().string();
        if (isFolderName(name) && name != kept) {
            std::error_code ignored;
            fs::remove_all(it->path(), ignored);
        }
    }
}

fs::path CheckpointFrames::source(const fs::path& directory, const std::string& folder)
{
    std::error_code error;
    if (isFolderName(folder) && fs::is_directory(directory / folder, error)) {
        return directory / folder;
    }
    return directory;
}

bool CheckpointFrames::isFolderName(const std::string& name)
{
    const std::string prefix(kPrefix);
    // PID-NS: digits, one '-', digits.
    if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) {
        return false;
    }
    const std::size_t dash = name.find('-', prefix.size());
    const auto digits = [&name](std::size_t from, std::size_t to) {
        return to > from && name.find_first_not_of("0123456789", from) >= to;
    };
    return dash != std::string::npos && digits(prefix.size(), dash) && digits(dash + 1, name.size());
}

}  // namespace granular
