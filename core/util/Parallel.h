#pragma once

#include <cstddef>

namespace granular {

/// Threads the solvers' parallel loops use: 1 unless set; at most the cores when the build has OpenMP, always 1
/// without it. Results never depend on it: every parallel loop writes per-iteration data only, and sums are
/// taken in a fixed order afterwards (e.g. md::LoadAssembly), never with atomics.
[[nodiscard]] int solverThreads();
/// Sets the solver threads for the whole process (any thread may call it; clamped to [1, 1024]).
void setSolverThreads(int threads);
/// The cores of this machine (at least 1).
[[nodiscard]] int availableCores();
/// Whether this build runs parallel loops on several threads (OpenMP).
[[nodiscard]] bool parallelBuild();

/// Loops shorter than this run on the calling thread: waking the team costs more than they take.
inline constexpr std::ptrdiff_t kSmallestParallelLoop = 512;

/// Calls body(i) for every i in [0, n), on solverThreads() threads in contiguous chunks (OpenMP's static schedule);
/// each call must write only what belongs to its i, and must not throw.
template <class Body> void parallelFor(std::size_t n, const Body& body)
{
    const auto count = static_cast<std::ptrdiff_t>(n);
#if defined(GRANULAR_OPENMP)
    const int threads = solverThreads();
    if (threads > 1 && count >= kSmallestParallelLoop) {
#pragma omp parallel for schedule(static) num_threads(threads)
        for (std::ptrdiff_t i = 0; i < count; ++i) {
            body(static_cast<std::size_t>(i));
        }
        return;
    }
#endif
    for (std::ptrdiff_t i = 0; i < count; ++i) {
        body(static_cast<std::size_t>(i));
    }
}

}  // namespace granular
