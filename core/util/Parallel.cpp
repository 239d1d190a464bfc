#include "util/Parallel.h"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cstdlib>
#include <limits>
#include <string>
#include <thread>

#if defined(__linux__)
#include <sched.h>
#endif

namespace granular {

namespace {

std::atomic<int>& threadSetting()
{
    static std::atomic<int> threads{1};
    return threads;
}

std::atomic<bool>& adaptiveSetting()
{
    static std::atomic<bool> adaptive{true};
    return adaptive;
}

int& threadCap()
{
    thread_local int cap = std::numeric_limits<int>::max();
    return cap;
}

}  // namespace

int solverThreads()
{
    return std::min(solverThreadSetting(), threadCap());
}

int solverThreadSetting()
{
    return parallelBuild() ? threadSetting().load(std::memory_order_relaxed) : 1;
}

void setSolverThreads(int threads)
{
    threadSetting().store(std::clamp(threads, 1, 1024), std::memory_order_relaxed);
}

bool adaptiveSolverThreads()
{
    return adaptiveSetting().load(std::memory_order_relaxed);
}

void setAdaptiveSolverThreads(bool adaptive)
{
    adaptiveSetting().store(adaptive, std::memory_order_relaxed);
}

void releaseSolverTeam()
{
#if defined(GRANULAR_OPENMP)
    omp_pause_resource(omp_pause_soft, omp_get_initial_device());
#endif
}

SolverThreadCap::SolverThreadCap(int cap) : before_(threadCap())
{
    threadCap() = std::max(cap, 1);
}

SolverThreadCap::~SolverThreadCap()
{
    threadCap() = before_;
}

int availableCores()
{
#if defined(__linux__)
    // The cores this process may run on (taskset, a container's cpuset, a batch system's allocation), not every core
    // of the machine: threads beyond them would only take turns.
    cpu_set_t allowed;
    CPU_ZERO(&allowed);
    if (sched_getaffinity(0, sizeof(allowed), &allowed) == 0) {
        return std::max(1, CPU_COUNT(&allowed));
    }
#endif
    return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

namespace {

constexpr int kMostSolverThreads = 256;

/// OMP_NUM_THREADS's thread count: "4" or "4,2" (nested levels) give 4; 0 where it is unset or its first entry is not
/// a whole number in [1, kMostSolverThreads].
int threadsSetInEnvironment()
{
    const char* setting = std::getenv("OMP_NUM_THREADS");
    if (setting == nullptr) {
        return 0;
    }
    const std::string text(setting);
    const std::string first = text.substr(0, text.find(','));
    int threads = 0;
    const auto [end, error] = std::from_chars(first.data(), first.data() + first.size(), threads);
    const bool whole = error == std::errc() && end == first.data() + first.size();
    return whole && threads >= 1 && threads <= kMostSolverThreads ? threads : 0;
}

}  // namespace

int defaultSolverThreads()
{
    if (!parallelBuild()) {
        return 1;
    }
    if (const int threads = threadsSetInEnvironment(); threads > 0) {
        return threads;
    }
    return std::min(availableCores(), kMostSolverThreads);
}

std::string solverThreadsSettingProblem()
{
    const char* setting = std::getenv("OMP_NUM_THREADS");
    if (!parallelBuild() || setting == nullptr || threadsSetInEnvironment() > 0) {
        return {};
    }
    return "OMP_NUM_THREADS = \"" + std::string(setting) + "\" is not a thread count (a whole number in [1, " +
           std::to_string(kMostSolverThreads) + "], or a list such as 4,2 whose first entry is): using " +
           std::to_string(defaultSolverThreads()) + " solver threads, one per core this process may run on";
}

bool parallelBuild()
{
#if defined(GRANULAR_OPENMP)
    return true;
#else
    return false;
#endif
}

}  // namespace granular
