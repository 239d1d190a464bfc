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

}  // namespace granular::ui
