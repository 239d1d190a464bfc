#pragma once

namespace granular::ui {

/// The calling thread runs only where no other thread wants a core: Linux's SCHED_IDLE, which the scheduler also
/// counts as an idle core when it places a waking thread (the renderer's, the GUI's), so that they go there rather
/// than wait behind it or take the simulation's core. Nice 19 where SCHED_IDLE is refused. For the studio's
/// background work whose result may come late: writing a recording's frames, the oscillation fit while a run plays
/// (piston2d's long play: 26 fits of 0.4 s on average, 0.75 s at most, in 24 s; the GUI thread's event loop late by
/// at most 33-46 ms against 42-61 ms with the fit at the usual priority, bench_studio --steps 6000, 2026-11-27).
/// While every core is busy, such a thread waits.
void runOnIdleCoresOnly();

/// The niceness of the studio's simulation thread (runBehindTheGui).
inline constexpr int kSimulationNice = 10;

/// The calling thread, and the threads it starts from now on (OpenMP's solver threads), give way to the GUI and the
/// renderer where they want the same core: niceness kSimulationNice (or more, where it had more), under which Linux's
/// scheduler gives a thread of the usual niceness ~9x the time. The solver still takes every core nobody else wants.
/// For the studio's simulation thread: piston2d playing under Xvfb and llvmpipe on 2 cores, three rounds side by side
/// (bench_studio, 2026-11-27), showed 33.8-35.1 new frames/s against 31.8-33.0 at the usual niceness, the solver
/// 650-717 steps/s against 725-783, the GUI late by at most 14.9-17.6 ms against 17.4-24.5.
void runBehindTheGui();

}  // namespace granular::ui
