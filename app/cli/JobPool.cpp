#include "cli/JobPool.h"

#include "cli/LocalWorkers.h"
#include "util/Parallel.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <thread>

namespace granular::cli {

#ifdef GRANULAR_WITH_MPI
/// MpiJobPool.cpp: the MPI ranks of this job (initializes MPI; finalizes it when destroyed).
std::unique_ptr<JobPool> makeMpiJobPool();
#endif

namespace {

/// The threads of this process.
class ThreadJobPool : public JobPool {
public:
    explicit ThreadJobPool(int threads) : threads_(static_cast<std::size_t>(threads)) {}

    [[nodiscard]] bool isRoot() const override { return true; }
    [[nodiscard]] std::string description() const override
    {
        return std::to_string(threads_) + (threads_ == 1 ? " thread" : " threads");
    }
    bool allReady(bool ready) override { return ready; }

    void run(std::size_t count, const Job& job, const Finished& finished) override
    {
        std::atomic<std::size_t> next{0};
        LocalWorkers workers(std::min(threads_, count), job, next, count);
        for (std::size_t done = 0; done < count;) {
            for (auto& d : workers.collect(std::chrono::milliseconds(200))) {
                finished(d.index, std::move(d.result), d.worker);
                ++done;
            }
        }
    }

private:
    std::size_t threads_;
};

}  // namespace

bool startedByMpirun()
{
    constexpr std::array<const char*, 4> kLauncherVariables{"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK",
                                                            "MPI_LOCALNRANKS"};
    // Read before any thread of this process starts.
    return std::ranges::any_of(kLauncherVariables,
                               [](const char* variable) { return std::getenv(variable) != nullptr; });
}

std::unique_ptr<JobPool> makeJobPool(std::optional<int> jobs)
{
    if (startedByMpirun()) {
        if (jobs) {
            throw JobPoolError("--jobs: not under mpirun, where every rank runs one run at a time; accepted: start "
                               "one rank per core (mpirun -n N) and leave --jobs out");
        }
#ifdef GRANULAR_WITH_MPI
        return makeMpiJobPool();
#else
        throw JobPoolError("mpirun: this granular was built without MPI (CMake found none); accepted: run it "
                           "without mpirun, where --jobs N runs N runs at once on this machine");
#endif
    }
    const int cores = availableCores();
    const int threads = jobs.value_or(cores);
    if (threads < 1 || threads > 1024) {
        throw JobPoolError("--jobs: " + std::to_string(threads) + "; accepted: 1 to 1024 runs at once");
    }
    return std::make_unique<ThreadJobPool>(threads);
}

}  // namespace granular::cli
