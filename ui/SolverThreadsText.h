#pragma once

#include <QString>

#include <cstdint>
#include <map>

namespace granular::ui {

/// The threads the solver's steps ran on over a stretch of steps: the count set (Simulation > Solver threads) and how
/// many of the stretch's steps the pace (core's sim/ThreadPace.h) ran on fewer threads, faster there while other
/// programs took the cores.
struct SolverThreadsShare {
    int set = 1;                    ///< threads set
    std::int64_t steps = 0;         ///< steps of the stretch
    std::int64_t stepsOnFewer = 0;  ///< of those, run on fewer threads than set
    int usual = 0;                  ///< the count more steps ran on than on any other (ties: the higher; 0: no step)
};

/// The share of a stretch whose steps ran on these threads: threads -> steps.
[[nodiscard]] SolverThreadsShare solverThreadsShare(int set, const std::map<int, std::int64_t>& stepsOnThreads);

/// The solver threads set, as the steps can have them: Simulation > Solver threads, 1 in a build without OpenMP.
[[nodiscard]] int solverThreadsSet();

/// The status bar's words for it: "16 threads", or "8 of 16 threads" where more of the stretch's steps ran on 8 than on
/// any other count.
[[nodiscard]] QString solverThreadsText(const SolverThreadsShare& share);
/// Its tooltip: the share in numbers and what makes it.
[[nodiscard]] QString solverThreadsTip(const SolverThreadsShare& share);

}  // namespace granular::ui
