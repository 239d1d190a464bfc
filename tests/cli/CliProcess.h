#pragma once
// Runs the built `granular` executable (GRANULAR_CLI_PATH) as a user would and captures what it
// says, for the CLI tests.
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace granular::clitest {

namespace fs = std::filesystem;

/// What one run of the CLI did.
struct Result {
    int exitCode = -1;
    std::string out;
    std::string err;
};

/// The whole file as text; empty when it cannot be read.
inline std::string slurp(const fs::path& path)
{
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

/// A fresh directory under the system's temporary one, removed with everything in it at the end
/// of its scope.
struct ScratchDirectory {
    fs::path path;
    ScratchDirectory() : path(fs::temp_directory_path() / uniqueName()) { fs::create_directories(path); }
    ScratchDirectory(const ScratchDirectory&) = delete;
    ScratchDirectory& operator=(const ScratchDirectory&) = delete;
    ScratchDirectory(ScratchDirectory&&) = delete;
    ScratchDirectory& operator=(ScratchDirectory&&) = delete;
    ~ScratchDirectory() { fs::remove_all(path); }

private:
    static std::string uniqueName()
    {
        static int count = 0;
        return "granular-cli-test-" + std::to_string(::getpid()) + "-" + std::to_string(++count);
    }
};

/// Runs `PREFIX; LAUNCHER granular ARGS` in a shell (LAUNCHER e.g. "mpirun -n 2", usually empty) (e.g. PREFIX = "ulimit
/// -n 64"; ARGS as the shell splits them) with stdin closed, and captures its exit code, stdout and stderr.
inline Result runGranularAfter(const std::string& prefix, const std::string& arguments,
                               const std::string& launcher = "")
{
    const ScratchDirectory capture;
    const fs::path out = capture.path / "out.txt";
    const fs::path err = capture.path / "err.txt";
    const std::string command = prefix + "; " + launcher + " '" + std::string(GRANULAR_CLI_PATH) + "' " + arguments +
                                " </dev/null >'" + out.string() + "' 2>'" + err.string() + "'";
    const int status = std::system(command.c_str());
    Result result;
    result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    result.out = slurp(out);
    result.err = slurp(err);
    return result;
}

/// Runs `granular ARGS` like runGranularAfter, with nothing before it.
inline Result runGranular(const std::string& arguments)
{
    return runGranularAfter(":", arguments);
}

/// `granular run SCENARIO --quiet --set run.time=TIME --checkpoint-every EVERY --out OUT` (times in s, as text).
inline Result runWithCheckpoints(const std::string& scenario, const std::string& time, const std::string& every,
                                 const fs::path& out)
{
    return runGranular("run " + scenario + " --quiet --set run.time=" + time + " --checkpoint-every " + every +
                       " --out '" + out.string() + "'");
}

/// Polls `condition` every 20 ms until it holds or `seconds` have passed; whether it held (QTest::qWaitFor without Qt:
/// the core-only build's tests use this header too).
template <class Condition> bool waitFor(Condition condition, int seconds)
{
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
    while (!condition()) {
        if (std::chrono::steady_clock::now() > deadline) {
            return false;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return true;
}

/// A `granular` process started in the background (its own process, not a shell's child), for signals.
class BackgroundRun {
public:
    /// Starts `granular ARGS`; stdout and stderr go to files in `capture`.
    BackgroundRun(const std::string& arguments, const fs::path& capture) : err_(capture / "err.txt")
    {
        const std::string command = "exec '" + std::string(GRANULAR_CLI_PATH) + "' " + arguments + " </dev/null >'" +
                                    (capture / "out.txt").string() + "' 2>'" + err_.string() + "'";
        pid_ = ::fork();
        if (pid_ == 0) {
            ::execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
            ::_exit(127);
        }
    }
    BackgroundRun(const BackgroundRun&) = delete;
    BackgroundRun& operator=(const BackgroundRun&) = delete;
    BackgroundRun(BackgroundRun&&) = delete;
    BackgroundRun& operator=(BackgroundRun&&) = delete;
    ~BackgroundRun()
    {
        if (pid_ > 0 && !finished_) {
            ::kill(pid_, SIGKILL);
            ::waitpid(pid_, nullptr, 0);
        }
    }

    void signal(int number) const { ::kill(pid_, number); }
    /// Waits for the end, `seconds` at most; the exit code, or 128 + the signal that killed it. A process still
    /// running then is killed (SIGKILL) and -1 returned: a test that waits on it fails instead of hanging.
    int wait(int seconds = 300)
    {
        int status = 0;
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
        while (::waitpid(pid_, &status, WNOHANG) == 0) {
            if (std::chrono::steady_clock::now() > deadline) {
                ::kill(pid_, SIGKILL);
                ::waitpid(pid_, nullptr, 0);
                finished_ = true;
                return -1;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        finished_ = true;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
    [[nodiscard]] std::string err() const { return slurp(err_); }

private:
    fs::path err_;
    pid_t pid_ = -1;
    bool finished_ = false;
};

/// Whether the text is exactly one line that contains `part` (the CLI's error contract).
inline bool isOneLineNaming(const std::string& text, const std::string& part)
{
    return !text.empty() && text.find('\n') == text.size() - 1 && text.find(part) != std::string::npos;
}

}  // namespace granular::clitest
