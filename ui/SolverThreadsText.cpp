#include "SolverThreadsText.h"

#include "util/Parallel.h"

#include <QCoreApplication>

namespace granular::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("SolverThreadsText", text);
}

/// Whether most of the stretch's steps ran on one thread.
bool mostlyOnOne(const SolverThreadsShare& share)
{
    return share.set > 1 && 2 * share.stepsOnOne > share.steps;
}

}  // namespace

int solverThreadsSet()
{
    return parallelBuild() ? solverThreadSetting() : 1;
}

QString solverThreadsText(const SolverThreadsShare& share)
{
    if (share.set == 1) {
        return tr("1 thread");
    }
    if (mostlyOnOne(share)) {
        return tr("1 of %1 threads").arg(share.set);
    }
    return tr("%1 threads").arg(share.set);
}

QString solverThreadsTip(const SolverThreadsShare& share)
{
    QString tip = tr("Solver threads set: %1 (Simulation > Solver threads).").arg(share.set);
    if (share.set > 1 && share.steps > 0 && share.stepsOnOne == 0) {
        tip += QLatin1Char(' ') + tr("The last %1 steps all ran on them.").arg(share.steps);
    } else if (share.set > 1 && share.steps > 0) {
        tip += QLatin1Char(' ') + tr("%1 of the last %2 steps ran on one thread, which got more done per second than "
                                     "the team: the team waits for its slowest thread at every barrier, and a thread "
                                     "slows down where another program, or the studio's drawing, takes its core. The "
                                     "results are the same on any count. Simulation > Solver threads > Adapt to busy "
                                     "cores turns this off.")
                                      .arg(share.stepsOnOne)
                                      .arg(share.steps);
    }
    return tip;
}

}  // namespace granular::ui
