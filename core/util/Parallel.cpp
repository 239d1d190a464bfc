#include "util/Parallel.h"

#include <algorithm>
#include <atomic>
#include <thread>

namespace granular {

namespace {

std::atomic<int>& threadSetting()
{
    static std::atomic<int> threads{1};
    return threads;
}

}  // namespace

int solverThreads()
{
    return parallelBuild() ? threadSetting().load(std::memory_order_relaxed) : 1;
}

void setSolverThreads(int threads)
{
    threadSetting().store(std::clamp(threads, 1, 1024), std::memory_order_relaxed);
}

int availableCores()
{
    return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
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
