#include "RunOutput.h"

#include <stdexcept>
#include <system_error>
#include <unistd.h>

namespace granular {

namespace fs = std::filesystem;

RunOutput::RunOutput(fs::path directory) : directory_(std::move(directory))
{
    std::error_code error;
    fs::create_directories(directory_, error);
    if (error || !fs::is_directory(directory_)) {
        throw std::runtime_error("--out: cannot create the directory " + directory_.string() +
                                 (error ? " (" + error.message() + ")" : std::string(" (a file is in the way)")));
    }
    staging_ = directory_ / (".partial-" + std::to_string(::getpid()));
    fs::create_directories(staging_, error);
    if (error) {
        throw std::runtime_error("--out: cannot write into " + directory_.string() + " (" + error.message() + ")");
    }
}

RunOutput::~RunOutput()
{
    files_.clear();
    std::error_code ignored;
    fs::remove_all(staging_, ignored);
}

std::ofstream& RunOutput::open(const std::string& relativePath)
{
    const fs::path path = staging_ / relativePath;
    fs::create_directories(path.parent_path());
    auto stream = std::make_unique<std::ofstream>(path, std::ios::binary);
    if (!*stream) {
        throw std::runtime_error("--out: cannot write " + (directory_ / relativePath).string());
    }
    stream->precision(9);
    files_.emplace_back(relativePath, std::move(stream));
    return *files_.back().second;
}

void RunOutput::commit()
{
    for (auto& [name, stream] : files_) {
        stream->close();
        if (!*stream) {
            throw std::runtime_error("--out: writing " + (directory_ / name).string() + " failed");
        }
    }
    for (const auto& [name, stream] : files_) {
        const fs::path target = directory_ / name;
        fs::create_directories(target.parent_path());
        fs::rename(staging_ / name, target);
    }
}

}  // namespace granular
