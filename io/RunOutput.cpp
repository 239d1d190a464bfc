#include "RunOutput.h"

#include "CheckpointFrames.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <stdexcept>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <system_error>
#include <unistd.h>

namespace granular {

namespace fs = std::filesystem;

namespace {

/// " (the system's message for errno `cause`)", or nothing where the system gave no reason.
std::string systemReason(int cause)
{
    return cause != 0 ? " (" + std::generic_category().message(cause) + ")" : std::string();
}

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

/// Whether `name`, an entry of DIR itself, is a file that a run, an ensemble or a sweep writes besides its result.
bool isOutputFile(const std::string& name)
{
    static const std::array<const char*, 7> kNames = {"series.csv",         "scenario.json", "levels.csv",
                                                      "contact_forces.csv", "run.pvd",       "ensemble.csv",
                                                      "sweep_timing.csv"};
    return std::any_of(kNames.begin(), kNames.end(), [&name](const char* known) { return name == known; });
}

/// Whether `name` is a result that only granular writes: a run's summary, an ensemble's or a sweep's table, a
/// checkpoint (or one being written when its run was killed: writeFileAtomically's temporary).
bool isResult(const std::string& name)
{
    return name == "summary.json" || name == "ensemble.json" || name == "sweep.csv" || name == "checkpoint.bin" ||
           name.rfind("checkpoint.bin.part-", 0) == 0;
}

/// Whether every entry of `frames` is a frame file of a run: particles_, contacts_ or boundaries_NNNNNN.vtp (six digits
/// or more: frame 1,000,000 has seven).
bool holdsOnlyFrames(const fs::path& frames)
{
    std::error_code error;
    for (fs::directory_iterator it(frames, error), end; !error && it != end; it.increment(error)) {
        const std::string name = it->path().filename().string();
        bool frame = false;
        for (const char* prefix : {"particles_", "contacts_", "boundaries_"}) {
            const std::size_t length = std::char_traits<char>::length(prefix);
            frame = frame || (name.size() >= length + 10 && name.compare(0, length, prefix) == 0 &&
                              name.compare(name.size() - 4, 4, ".vtp") == 0 &&
                              std::all_of(name.begin() + static_cast<std::ptrdiff_t>(length), name.end() - 4,
                                          [](char c) { return c >= '0' && c <= '9'; }));
        }
        if (!frame || !it->is_regular_file(error)) {
            return false;
        }
    }
    return !error;
}

/// Whether `folder` (a checkpoint's frames, CheckpointFrames) holds nothing but a frames/ of frame files.
bool holdsOnlyFrameFolder(const fs::path& folder)
{
    std::error_code error;
    for (fs::directory_iterator it(folder, error), end; !error && it != end; it.increment(error)) {
        if (it->path().filename() != "frames" || !it->is_directory(error) || !holdsOnlyFrames(it->path())) {
            return false;
        }
    }
    return !error;
}

/// Whether DIR holds an earlier output of granular and nothing else: only what a run, an ensemble or a sweep writes,
/// with a result among it (series.csv or scenario.json alone may be the user's own); frames/ holds only frame files,
/// runs/ only the outputs of an ensemble's seeds, a checkpoint-frames-PID/ (CheckpointFrames) only a frames/.
/// `stranger` names the first entry that is not granular's.
bool isEarlierOutput(const fs::path& directory, std::string& stranger, int depth = 0)
{
    bool result = false;
    std::error_code error;
    for (fs::directory_iterator it(directory, error), end; !error && it != end; it.increment(error)) {
        const std::string name = it->path().filename().string();
        bool ours = false;
        if (it->is_directory(error)) {
            if (name == "frames") {
                ours = holdsOnlyFrames(it->path());
            } else if (CheckpointFrames::isFolderName(name) && depth == 0) {
                // A run killed while it wrote its first checkpoint leaves DIR this folder alone: its DIR still.
                ours = holdsOnlyFrameFolder(it->path());
                result = result || ours;
            } else if (name == "runs" && depth == 0) {
                ours = true;  // each seed's folder: a run's output
                for (fs::directory_iterator seed(it->path(), error); !error && seed != end; seed.increment(error)) {
                    const std::string number = seed->path().filename().string();
                    std::string inner;
                    ours = ours && !number.empty() && number.find_first_not_of("0123456789") == std::string::npos &&
                           isEarlierOutput(seed->path(), inner, depth + 1);
                }
            }
        } else {
            ours = isOutputFile(name) || isResult(name);
            result = result || isResult(name);
        }
        if (!ours) {
            stranger = depth == 0 ? name : directory.filename().string() + "/" + name;
            return false;
        }
    }
    return !error && result;
}

/// Whether `directory`, an existing directory, is the root of a mounted filesystem (a volume, a bind mount, a tmpfs):
/// a rename can neither exchange it nor put anything in its place (EBUSY, EXDEV).
bool isMountPoint(const fs::path& directory)
{
#if defined(STATX_ATTR_MOUNT_ROOT)
    struct statx attributes {};
    if (::statx(AT_FDCWD, directory.c_str(), AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS, &attributes) == 0 &&
        (attributes.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT) != 0) {
        return (attributes.stx_attributes & STATX_ATTR_MOUNT_ROOT) != 0;
    }
#endif
    // Older kernels: another device than its parent's (a bind mount within one filesystem goes unseen).
    struct stat self {};
    struct stat parent {};
    return ::stat(directory.c_str(), &self) == 0 && ::stat((directory / "..").c_str(), &parent) == 0 &&
           self.st_dev != parent.st_dev;
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

RunOutput::RunOutput(const fs::path& directory) : directory_(outputDirectory(directory))
{
    std::error_code error;
    if (fs::is_symlink(fs::symlink_status(directory_, error))) {
        // The output is exchanged by renaming a directory onto DIR: a link there would be replaced by a directory,
        // its target left as it was (and a dangling link refused only at the end of the run).
        const fs::path target = fs::read_symlink(directory_, error);
        throw OutputError("--out: " + directory_.string() + " is a symbolic link" +
                          (error ? std::string() : " to " + target.string()) +
                          "; accepted: a new or empty directory, or an earlier output of granular, named by its own "
                          "path (give the directory the link points to)");
    }
    const auto status = fs::status(directory_, error);
    if (fs::exists(status)) {
        if (!fs::is_directory(status)) {
            throw OutputError("--out: " + directory_.string() +
                              " is a file; accepted: a new or empty directory, or "
                              "an earlier output of granular");
        }
        if (isMountPoint(directory_)) {
            // Found before the run, not after it: the exchange at the end would fail and the run's output be lost.
            throw OutputError("--out: " + directory_.string() +
                              " is a mount point: the output replaces its directory in one step, which a mounted "
                              "filesystem's root cannot take; accepted: a directory inside it (e.g. " +
                              (directory_ / "run1").string() + ")");
        }
        const bool empty = fs::is_empty(directory_, error);
        std::string stranger;
        if (!empty && !isEarlierOutput(directory_, stranger)) {
            throw OutputError(
                "--out: " + directory_.string() + " holds " +
                (stranger.empty() ? std::string("no output of granular")
                                  : "'" + stranger + "', not an output of granular") +
                "; accepted: a new or empty directory, or an earlier output of granular (a run's summary.json, an "
                "ensemble.json or a sweep.csv with the files granular writes beside them, and nothing else), whose "
                "content is replaced");
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
    errno = 0;
    std::ofstream out(path, std::ios::binary);
    int cause = out ? 0 : errno;
    if (out) {
        out.precision(9);
        content(out);
        out.close();
        cause = out ? 0 : errno;
    }
    if (!out) {
        // The system's reason where it gave one (a full disk, ...): "failed" alone left the user guessing.
        throw std::runtime_error("--out: writing " + (directory_ / relativePath).string() + " failed" +
                                 systemReason(cause) + "; the earlier output is kept");
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
        errno = 0;
        std::ofstream out(temporary, std::ios::binary);
        int cause = out ? 0 : errno;
        if (out) {
            content(out);
            out.close();
            cause = out ? 0 : errno;
        }
        if (!out) {
            std::error_code ignored;
            fs::remove(temporary, ignored);
            // The system's reason where it gave one (a folder without write permission, a full disk, ...).
            throw std::runtime_error("cannot write " + path.string() + systemReason(cause));
        }
    }
    std::error_code error;
    fs::rename(temporary, path, error);
    if (error) {
        std::error_code ignored;
        fs::remove(temporary, ignored);
        throw std::runtime_error("cannot write " + path.string() + " (" + error.message() + ")");
    }
}

}  // namespace granular
