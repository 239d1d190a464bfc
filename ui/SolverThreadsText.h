#pragma once

#include <QString>

#include <cstdint>

namespace granular::ui {

/// The threads the solver's steps ran on over a stretch of steps: the count set (Simulation > Solver threads) and how
/// many of the stretch's steps the pace (core's sim/ThreadPace.h) ran on one thread, faster there while other programs
/// took the cores.
struct SolverThreadsShare {
    int set = 1;                  ///< threads set
    std::int64_t steps = 0;       ///< steps of the stretch
    std::int64_t stepsOnOne = 0;  ///< of those, run on one thread although more were set
};

/// The solver threads set, as the steps can have them: Simulation > Solver threads, 1 in a build without OpenMP.
[[nodiscard]] int solverThreadsSet();

/// The status bar's words for it: "2 threads", or "1 of 2 threads" where most of the stretch's steps ran on one.
[[nodiscard]] QString solverThreadsText(const SolverThreadsShare& share);
/// Its tooltip: the share in numbers and what makes it.
[[nodiscard]] QString solverThreadsTip(const SolverThreadsShare& share);

}  // namespace granular::ui
