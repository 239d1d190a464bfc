#include "RunOutput.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <stdexcept>
#include <sys/syscall.h>
#include <system_error>
#include <unistd.h>

namespace granular {

namespace fs = std::filesystem;

namespace {

/// The prefix of DIR's staging folders, which live next to it.
std::string stagingPrefix(const fs::path& directory)
{
    return ".granular-staging-" + directory.filename().string() + "-";
}

/// Removes staging folders of DIR left by processes that are gone.
void removeStaleStaging(const fs::path& directory)
{
    std::error_code error;
    const fs::path parent = directory.parent_path().empty() ? fs::path(".") : directory.parent_path();
    const std::string prefix = stagingPrefix(directory);
    for (fs::directory_iterator it(parent, error), end; !error && it != end; it.increment(error)) {
        const std::string name = it->path().filename().string();
        if (name.rfind(prefix, 0) != 0) {
            continue;
        }
        char* last = nullptr;
        const long pid = std::strtol(name.c_str() + prefix.size(), &last, 10);
        if (last == nullptr || *last != '\0' || pid <= 0) {
            continue;
        }
        if (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) {
            std::error_code ignored;
            fs::remove_all(it->path(), ignored);
        }
    }
}

/// Exchanges two paths in one step (Linux renameat2 with RENAME_EXCHANGE); false when the kernel or the
/// filesystem cannot.
bool exchange(const fs::path& a, const fs::path& b)
{
#ifdef SYS_renameat2
    constexpr unsigned kExchange = 2U;  // RENAME_EXCHANGE
    // glibc 2.36 has no renameat2 wrapper for RENAME_EXCHANGE in <cstdio>: the system call itself.
    // NOLINTNEXTLINE(cppcoreguidelines-pro-type-vararg)
    return ::syscall(SYS_renameat2, AT_FDCWD, a.c_str(), AT_FDCWD, b.c_str(), kExchange) == 0;
#else
    (void)a;
    (void)b;
    return false;
#endif
}

/// Whether `name`, an entry of DIR itself, is one that a run, an ensemble or a sweep writes.
bool isOutputEntry(const std::string& name)
{
    static const std::array<const char*, 13> kNames = {
        "series.csv",     "summary.json", "scenario.json",   "levels.csv",    "contact_forces.csv",
        "checkpoint.bin", "run.pvd",      "frames",          "ensemble.json", "ensemble.csv",
        "runs",           "sweep.csv",    "sweep_timing.csv"};
    // A checkpoint being written when its run was killed: writeFileAtomically's temporary.
    return std::any_of(kNames.begin(), kNames.end(), [&name](const char* known) { return name == known; }) ||
           name.rfind("checkpoint.bin.part-", 0) == 0;
}

/// Whether DIR holds an earlier output of granular and nothing else: every entry is one that granular writes, and a
/// result among them (scenario.json alone may be the user's own scenario file).
bool isEarlierOutput(const fs::path& directory, std::string& stranger)
{
    bool result = false;
    std::error_code error;
    for (fs::directory_iterator it(directory, error), end; !error && it != end; it.increment(error)) {
        const std::string name = it->path().filename().string();
        if (!isOutputEntry(name)) {
            stranger = name;
            return false;
        }
        result = result || name != "scenario.json";
    }
    return !error && result;
}

/// DIR as given, without a trailing separator ("out/" is "out"); refuses a path that names no directory of its own
/// ("", ".", "..", "/"): its output could not be exchanged in one step.
fs::path outputDirectory(const fs::path& given)
{
    fs::path directory = given.lexically_normal();
    if (!directory.has_filename() && directory.has_parent_path() && directory.parent_path() != directory.root_path()) {
        directory = directory.parent_path();
    }
    const std::string name = directory.filename().string();
    if (name.empty() || name == "." || name == "..") {
        throw OutputError("--out: '" + given.string() +
                          "' names no directory of its own; accepted: a path ending in a new or earlier output "
                          "directory's name (e.g. out/run1)");
    }
    return directory;
}

}  // namespace

RunOutput::RunOutput(fs::path directory) : directory_(outputDirectory(directory))
{
    std::error_code error;
    const auto status = fs::status(directory_, error);
    if (fs::exists(status)) {
        if (!fs::is_directory(status)) {
            throw OutputError("--out: " + directory_.string() +
                              " is a file; accepted: a new or empty directory, or "
                              "an earlier output of granular");
        }
        const bool empty = fs::is_empty(directory_, error);
        std::string stranger;
        if (!empty && !isEarlierOutput(directory_, stranger)) {
            throw OutputError(
                "--out: " + directory_.string() + " holds " +
                (stranger.empty() ? std::string("no output of granular")
                                  : "'" + stranger + "', not an output of granular") +
                "; accepted: a new or empty directory, or an earlier output of granular (its series.csv, summary.json, "
                "ensemble.json, sweep.csv, ... and nothing else), whose content is replaced");
        }
    }
    const fs::path parent = directory_.parent_path().empty() ? fs::path(".") : directory_.parent_path();
    fs::create_directories(parent, error);
    if (error) {
        throw OutputError("--out: cannot create " + parent.string() + " (" + error.message() + ")");
    }
    removeStaleStaging(directory_);
    staging_ = parent / (stagingPrefix(directory_) + std::to_string(::getpid()));
    fs::remove_all(staging_, error);
    fs::create_directories(staging_, error);
    if (error) {
        throw OutputError("--out: cannot write next to " + directory_.string() + " (" + error.message() + ")");
    }
}

RunOutput::~RunOutput()
{
    if (!committed_) {
        std::error_code ignored;
        fs::remove_all(staging_, ignored);
    }
}

void RunOutput::write(const std::string& relativePath, const std::function<void(std::ostream&)>& content)
{
    const fs::path path = staging_ / relativePath;
    std::error_code error;
    fs::create_directories(path.parent_path(), error);
    std::ofstream out(path, std::ios::binary);
    if (out) {
        out.precision(9);
        content(out);
        out.close();
    }
    if (!out) {
        throw std::runtime_error("--out: writing " + (directory_ / relativePath).string() + " failed");
    }
}

void RunOutput::carryOver(const std::string& name)
{
    if (std::find(carried_.begin(), carried_.end(), name) == carried_.end()) {
        carried_.push_back(name);
    }
}

void RunOutput::commit()
{
    std::error_code error;
    // Files of this run that live in DIR itself (its checkpoint) survive the exchange: linked into the new content.
    for (const auto& name : carried_) {
        const fs::path file = directory_ / name;
        if (fs::exists(file, error) && !fs::exists(staging_ / name, error)) {
            fs::create_hard_link(file, staging_ / name, error);
            if (error) {
                throw std::runtime_error("--out: cannot keep " + file.string() + " (" + error.message() +
                                         "); the earlier output is kept");
            }
        }
        error.clear();
    }
    if (!fs::exists(directory_, error)) {
        fs::rename(staging_, directory_, error);
        if (error) {
            throw std::runtime_error("--out: cannot move the output into " + directory_.string() + " (" +
                                     error.message() + ")");
        }
        committed_ = true;
        return;
    }
    if (!exchange(staging_, directory_)) {
        throw std::runtime_error("--out: cannot replace " + directory_.string() + " in one step (" +
                                 std::string(std::strerror(errno)) + "); the earlier output is kept");
    }
    committed_ = true;
    fs::remove_all(staging_, error);  // now the old content
}

void writeFileAtomically(const fs::path& path, const std::function<void(std::ostream&)>& content)
{
    const fs::path temporary = path.string() + ".part-" + std::to_string(::getpid());
    {
        std::ofstream out(temporary, std::ios::binary);
        if (out) {
            content(out);
            out.close();
        }
        if (!out) {
            std::error_code ignored;
            fs::remove(temporary, ignored);
            throw std::runtime_error("cannot write " + path.string());
        }
    }
    std::error_code error;
    fs::rename(temporary, path, error);
    if (error) {
        fs::remove(temporary, error);
        throw std::runtime_error("cannot write " + path.string() + " (" + error.message() + ")");
    }
}

}  // namespace granular
