#include "CheckpointFrames.h"

#include <stdexcept>
#include <system_error>
#include <unistd.h>

namespace granular {

namespace fs = std::filesystem;

namespace {

constexpr const char* kPrefix = "checkpoint-frames-";

}  // namespace

CheckpointFrames::CheckpointFrames(fs::path directory)
    : directory_(std::move(directory)), folder_(kPrefix + std::to_string(::getpid()))
{
}

void CheckpointFrames::keep(const fs::path& staging, const std::vector<std::string>& files)
{
    if (kept_ == 0) {
        std::error_code ignored;
        fs::remove_all(directory_ / folder_, ignored);  // a folder of an earlier process of the same PID
    }
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

void CheckpointFrames::dropOthers() const
{
    std::error_code error;
    for (fs::directory_iterator it(directory_, error), end; !error && it != end; it.increment(error)) {
        const std::string name = it->path().filename().string();
        if (isFolderName(name) && name != folder_) {
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
    return name.size() > prefix.size() && name.compare(0, prefix.size(), prefix) == 0 &&
           name.find_first_not_of("0123456789", prefix.size()) == std::string::npos;
}

}  // namespace granular
