#pragma once

#include "util/Parallel.h"

#include <cstddef>

namespace granular {

/// The solver threads inside one parallel region (an OpenMP team): loops whose iterations are shared out, and
/// steps that one thread takes, each ending with every thread waiting for the others. A region opened once for
/// many short loops spares each loop the start of a team. Every thread must meet the same calls in the same order.
/// On one thread (or without OpenMP) each call runs at once on the calling thread.
class ThreadTeam {
public:
    explicit ThreadTeam(bool parallel) : parallel_(parallel) {}

    /// Calls body(i) for every i in [0, n), shared out in contiguous chunks (static schedule), then waits for the
    /// whole team. Loops shorter than `smallest` run on one thread. Each call may write only what belongs to its i.
    template <class Body>
    void forEach(std::size_t n, const Body& body,
                 [[maybe_unused]] std::ptrdiff_t smallest = kSmallestParallelLoop) const
    {
        const auto count = static_cast<std::ptrdiff_t>(n);
#if defined(GRANULAR_OPENMP)
        if (parallel_) {
            if (count < smallest) {
                single([&] {
                    for (std::ptrdiff_t i = 0; i < count; ++i) {
                        body(static_cast<std::size_t>(i));
                    }
                });
                return;
            }
#pragma omp for schedule(static)
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

    /// Calls step() on one thread of the team; the others wait until it has returned and then see what it wrote.
    template <class Step> void single(const Step& step) const
    {
#if defined(GRANULAR_OPENMP)
        if (parallel_) {
#pragma omp single
            step();
            return;
        }
#endif
        step();
    }

    /// This thread's number in the team, 0 ... size() - 1.
    [[nodiscard]] std::size_t thread() const
    {
#if defined(GRANULAR_OPENMP)
        if (parallel_) {
            return static_cast<std::size_t>(omp_get_thread_num());
        }
#endif
        return 0;
    }
    /// The team's threads.
    [[nodiscard]] std::size_t size() const
    {
#if defined(GRANULAR_OPENMP)
        if (parallel_) {
            return static_cast<std::size_t>(omp_get_num_threads());
        }
#endif
        return 1;
    }
    /// Waits until every thread of the team has come here; then each sees what the others wrote before.
    void barrier() const
    {
#if defined(GRANULAR_OPENMP)
        if (parallel_) {
#pragma omp barrier
        }
#endif
    }

private:
    [[maybe_unused]] bool parallel_ = false;  // read only where OpenMP is built in
};

/// Calls body(team) on every solver thread of one parallel region (on the calling thread alone when there is one
/// solver thread or `work` is below kSmallestParallelLoop); what body's loops and single steps do is the same
/// for any thread count.
template <class Body> void inThreadTeam([[maybe_unused]] std::size_t work, const Body& body)
{
#if defined(GRANULAR_OPENMP)
    const int threads = solverThreads();
    if (threads > 1 && static_cast<std::ptrdiff_t>(work) >= kSmallestParallelLoop) {
#pragma omp parallel num_threads(threads)
        {
            const ThreadTeam team(true);
            body(team);
        }
        return;
    }
#endif
    const ThreadTeam team(false);
    body(team);
}

}  // namespace granular
