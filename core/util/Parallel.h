#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#if defined(GRANULAR_OPENMP)
#include <omp.h>
#endif

namespace granular {

/// Threads the solvers' parallel loops use on the calling thread: the process's setting (solverThreadSetting), at
/// most the calling thread's cap (SolverThreadCap); always 1 in a build without OpenMP. Results never depend on it:
/// every parallel loop writes per-iteration data only, and sums are taken in a fixed order afterwards (e.g.
/// md::LoadAssembly), never with atomics; so it may change from one solver step to the next.
[[nodiscard]] int solverThreads();
/// The solver threads set for the whole process: 1 unless set.
[[nodiscard]] int solverThreadSetting();
/// Sets the solver threads for the whole process (any thread may call it; clamped to [1, 1024]).
void setSolverThreads(int threads);
/// Whether Simulation::step may run a step on fewer solver threads than set, where that is faster (sim/ThreadPace.h:
/// other programs taking the cores); true unless set. For the whole process.
[[nodiscard]] bool adaptiveSolverThreads();
void setAdaptiveSolverThreads(bool adaptive);

/// Ends the calling thread's team of solver threads (OpenMP's thread pool) until its next parallel loop starts a new
/// one: OpenMP's idle threads spin a while before they sleep, on a core that a step on one thread, or another
/// program, could use. Not inside a parallel region.
void releaseSolverTeam();

/// Caps solverThreads() on the calling thread while it lives (the cap before is restored after).
class SolverThreadCap {
public:
    explicit SolverThreadCap(int cap);
    ~SolverThreadCap();
    SolverThreadCap(const SolverThreadCap&) = delete;
    SolverThreadCap& operator=(const SolverThreadCap&) = delete;
    SolverThreadCap(SolverThreadCap&&) = delete;
    SolverThreadCap& operator=(SolverThreadCap&&) = delete;

private:
    int before_;
};
/// The cores this process may run on (its CPU affinity: taskset, a cpuset; every core of the machine where the system
/// does not say), at least 1.
[[nodiscard]] int availableCores();
/// The solver threads a program starts with unless told: OMP_NUM_THREADS where it is set to a whole number in
/// [1, 256] (its first entry), every core otherwise (at most 256); 1 in a build without OpenMP.
[[nodiscard]] int defaultSolverThreads();
/// Where OMP_NUM_THREADS is set to something defaultSolverThreads() ignores ("0", "two", "300"): what it holds, what
/// it may hold and the count used instead, for a program to print (OpenMP's own warning at start-up names neither);
/// empty where it is unset or used, and in a build without OpenMP.
[[nodiscard]] std::string solverThreadsSettingProblem();
/// Whether this build runs parallel loops on several threads (OpenMP).
[[nodiscard]] bool parallelBuild();

/// Loops shorter than this run on the calling thread: waking the team, and its spinning while the calling thread
/// goes on alone, cost more than they take (a 1000-disk cd step, piston2d's, then stays on one thread: in the studio
/// its 1000-item loops on two threads made 23 % fewer steps/s, the team's spinning taking the core that draws).
inline constexpr std::ptrdiff_t kSmallestParallelLoop = 1024;

/// Calls body(i) for every i in [0, n), on solverThreads() threads in contiguous chunks (OpenMP's static schedule);
/// each call must write only what belongs to its i, and must not throw. Loops shorter than `smallest` stay on the
/// calling thread.
template <class Body>
void parallelFor(std::size_t n, const Body& body, [[maybe_unused]] std::ptrdiff_t smallest = kSmallestParallelLoop)
{
    const auto count = static_cast<std::ptrdiff_t>(n);
#if defined(GRANULAR_OPENMP)
    const int threads = solverThreads();
    if (threads > 1 && count >= smallest) {
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

/// The largest of value(i) over i in [0, n) and `least`, on the solver threads like parallelFor (a maximum does not
/// depend on the order it is taken in).
template <class Value> double parallelMaximum(std::size_t n, double least, const Value& value)
{
    const auto count = static_cast<std::ptrdiff_t>(n);
    double largest = least;
#if defined(GRANULAR_OPENMP)
    const int threads = solverThreads();
    if (threads > 1 && count >= kSmallestParallelLoop) {
#pragma omp parallel for schedule(static) num_threads(threads) reduction(max : largest)
        for (std::ptrdiff_t i = 0; i < count; ++i) {
            const double v = value(static_cast<std::size_t>(i));
            largest = v > largest ? v : largest;
        }
        return largest;
    }
#endif
    for (std::ptrdiff_t i = 0; i < count; ++i) {
        const double v = value(static_cast<std::size_t>(i));
        largest = v > largest ? v : largest;
    }
    return largest;
}

/// Calls first(b) for every block b in [0, blocks), then, once every one of these calls has returned, second(b) for
/// every block: one solver thread per block where there are enough (one parallel region with a barrier between the
/// phases), on the calling thread in block order otherwise. Block b's two calls run on the same thread.
template <class First, class Second> void parallelPhases(std::size_t blocks, const First& first, const Second& second)
{
#if defined(GRANULAR_OPENMP)
    if (blocks > 1) {
#pragma omp parallel num_threads(static_cast <int>(blocks))
        {
            const auto team = static_cast<std::size_t>(omp_get_num_threads());
            const auto self = static_cast<std::size_t>(omp_get_thread_num());
            for (std::size_t b = self; b < blocks; b += team) {
                first(b);
            }
#pragma omp barrier
            for (std::size_t b = self; b < blocks; b += team) {
                second(b);
            }
        }
        return;
    }
#endif
    for (std::size_t b = 0; b < blocks; ++b) {
        first(b);
    }
    for (std::size_t b = 0; b < blocks; ++b) {
        second(b);
    }
}

/// Calls first() and second(), two tasks that share nothing they write, at once on two solver threads where there
/// are two or more, one after the other on the calling thread otherwise.
template <class First, class Second> void parallelTogether(const First& first, const Second& second)
{
#if defined(GRANULAR_OPENMP)
    if (solverThreads() > 1) {
        parallelPhases(
            2,
            [&](std::size_t task) {
                if (task == 0) {
                    first();
                } else {
                    second();
                }
            },
            [](std::size_t /*task*/) {});
        return;
    }
#endif
    first();
    second();
}

/// Calls body(first, last) for non-empty contiguous ranges that together cover [0, n), in order on one thread or a
/// few ranges per solver thread where n reaches kSmallestParallelLoop (for loops that carry something from one i to
/// the next, e.g. a merge, and start each range afresh).
template <class Body> void parallelRanges(std::size_t n, const Body& body)
{
    const auto threads = static_cast<std::size_t>(solverThreads());
    const std::size_t ranges = threads > 1 && static_cast<std::ptrdiff_t>(n) >= kSmallestParallelLoop ? 4 * threads : 1;
    parallelFor(
        ranges,
        [&](std::size_t r) {
            if (n * r / ranges < n * (r + 1) / ranges) {
                body(n * r / ranges, n * (r + 1) / ranges);
            }
        },
        1);
}

/// What body(first, last) returns for contiguous ranges that together cover [0, n), the ranges as parallelRanges makes
/// them, folded into `initial` by merge(T& into, const T& from) in the order of the ranges (one call of body over
/// [0, n) on one thread; `initial` should change nothing merged into itself, as a maximum's least). The result is the
/// same for any thread count only where merge is exact and ignores order, as a minimum or maximum is (a floating-point
/// sum is not). For loops whose
/// body is worth compiling as one loop (no call per item).
template <class T, class Body, class Merge>
T parallelRangeReduce(std::size_t n, T initial, const Body& body, const Merge& merge)
{
    const auto threads = static_cast<std::size_t>(solverThreads());
    const std::size_t ranges = threads > 1 && static_cast<std::ptrdiff_t>(n) >= kSmallestParallelLoop ? 4 * threads : 1;
    if (ranges == 1) {
        if (n > 0) {
            merge(initial, body(std::size_t{0}, n));
        }
        return initial;
    }
    std::vector<T> partial(ranges, initial);
    parallelFor(
        ranges,
        [&](std::size_t r) {
            if (n * r / ranges < n * (r + 1) / ranges) {
                partial[r] = body(n * r / ranges, n * (r + 1) / ranges);
            }
        },
        1);
    for (const T& value : partial) {
        merge(initial, value);
    }
    return initial;
}

/// The largest of what body(first, last) returns for contiguous ranges that together cover [0, n) and `least`
/// (parallelRangeReduce; a maximum does not depend on the order it is taken in).
template <class Body> double parallelRangeMaximum(std::size_t n, double least, const Body& body)
{
    return parallelRangeReduce(n, least, body, [](double& into, double from) { into = std::max(into, from); });
}

/// Appends to `out`, in the order of i, what fill(i, sink) appends to its sink (a std::vector<T>) for every i in
/// [0, n). On several solver threads each fills a contiguous range of i into a buffer of its own (`buffers`, kept
/// for reuse), and the buffers are appended in order: the result never depends on the thread count.
template <class T, class Fill>
void appendInOrder(std::size_t n, std::vector<T>& out, std::vector<std::vector<T>>& buffers, const Fill& fill)
{
    const auto threads = static_cast<std::size_t>(solverThreads());
    if (threads == 1 || static_cast<std::ptrdiff_t>(n) < kSmallestParallelLoop) {
        for (std::size_t i = 0; i < n; ++i) {
            fill(i, out);
        }
        return;
    }
    const std::size_t blocks = 4 * threads;  // a few per thread: ranges differ in work
    buffers.resize(blocks);
    parallelFor(
        blocks,
        [&](std::size_t b) {
            std::vector<T>& sink = buffers[b];
            sink.clear();
            for (std::size_t i = n * b / blocks; i < n * (b + 1) / blocks; ++i) {
                fill(i, sink);
            }
        },
        1);
    for (const std::vector<T>& sink : buffers) {
        out.insert(out.end(), sink.begin(), sink.end());
    }
}

}  // namespace granular
