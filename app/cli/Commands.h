#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace granular::cli {

/// Exit codes of `granular`: scripts rely on them.
enum ExitCode : int { Success = 0, RuntimeFailure = 1, BadInput = 2 };

struct RunOptions {
    std::string scenario;
    std::vector<std::string> assignments;  ///< KEY=VALUE
    std::optional<std::string> outDirectory;
    std::optional<std::int64_t> seed;
    std::optional<double> checkpointEvery;  ///< s of simulated time between checkpoints
    int threads = 1;                        ///< solver threads (util/Parallel.h); results do not depend on them
    bool fixedThreads = false;              ///< every step on `threads` (no ThreadPace)
    bool quiet = false;
};

struct ResumeOptions {
    std::string directory;                 ///< holds checkpoint.bin; the resumed run's output replaces it
    std::vector<std::string> assignments;  ///< KEY=VALUE of live keys (e.g. run.time)
    std::optional<double> checkpointEvery;
    int threads = 1;            ///< solver threads (util/Parallel.h); results do not depend on them
    bool fixedThreads = false;  ///< every step on `threads` (no ThreadPace)
    bool quiet = false;
};

int listScenarios(std::ostream& out);
int showScenario(const std::string& scenario, const std::vector<std::string>& assignments, std::ostream& out,
                 std::ostream& err);
int runScenario(const RunOptions& options, std::ostream& out, std::ostream& err);
/// `granular resume DIR`: goes on from DIR/checkpoint.bin.
int resumeRun(const ResumeOptions& options, std::ostream& out, std::ostream& err);

}  // namespace granular::cli
