#include "SolverThreadsText.h"

#include "util/Parallel.h"

#include <QCoreApplication>

namespace granular::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("SolverThreadsText", text);
}

/// Whether the count that more of the stretch's steps ran on than on any other is fewer than the threads set.
bool mostlyOnFewer(const SolverThreadsShare& share)
{
    return share.set > 1 && share.usual > 0 && share.usual < share.set;
}

}  // namespace

SolverThreadsShare solverThreadsShare(int set, const std::map<int, std::int64_t>& stepsOnThreads)
{
    SolverThreadsShare share{set, 0, 0, 0};
    std::int64_t most = 0;
    for (const auto& [threads, steps] : stepsOnThreads) {
        share.steps += steps;
        share.stepsOnFewer += threads < set ? steps : 0;
        if (steps >= most) {  // ascending threads: of equal counts, the most threads
            most = steps;
            share.usual = threads;
        }
    }
    return share;
}

int solverThreadsSet()
{
    return parallelBuild() ? solverThreadSetting() : 1;
}

QString solverThreadsText(const SolverThreadsShare& share)
{
    if (share.set == 1) {
        return tr("1 thread");
    }
    if (mostlyOnFewer(share)) {
        return tr("%1 of %2 threads").arg(share.usual).arg(share.set);
    }
    return tr("%1 threads").arg(share.set);
}

QString solverThreadsTip(const SolverThreadsShare& share)
{
    QString tip = tr("Solver threads set: %1 (Simulation > Solver threads).").arg(share.set);
    if (share.set > 1 && share.steps > 0 && share.stepsOnFewer == 0) {
        tip += QLatin1Char(' ') + tr("The last %1 steps all ran on them.").arg(share.steps);
    } else if (share.set > 1 && share.steps > 0) {
        tip += QLatin1Char(' ') + tr("%1 of the last %2 steps ran on fewer threads, which got more done per second "
                                     "than the threads set: a team waits for its slowest thread at every barrier, and "
                                     "a thread slows down where another program, or the studio's drawing, takes its "
                                     "core. The results are the same on any count. Simulation > Solver threads > "
                                     "Adapt to busy cores turns this off.")
                                      .arg(share.stepsOnFewer)
                                      .arg(share.steps);
    }
    return tip;
}

}  // namespace granular::ui
