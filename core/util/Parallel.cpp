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

int defaultSolverThreads()
{
    if (!parallelBuild()) {
        return 1;
    }
    if (const char* setting = std::getenv("OMP_NUM_THREADS"); setting != nullptr) {
        // "4" or "4,2" (nested levels): the first entry, if it is a whole number in range.
        const std::string text(setting);
        const std::string first = text.substr(0, text.find(','));
        int threads = 0;
        const auto [end, error] = std::from_chars(first.data(), first.data() + first.size(), threads);
        if (error == std::errc() && end == first.data() + first.size() && threads >= 1 && threads <= 256) {
            return threads;
        }
    }
    return std::min(availableCores(), 256);
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
