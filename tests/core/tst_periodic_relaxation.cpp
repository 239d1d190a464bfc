// Built-in `periodic3d` (Shaebani et al. 2009 with spheres: 100 spheres at constant pressure in a fully periodic
// cube, N_I = 400) says it runs until relaxed: the stopping rule (mean speed and mean acceleration below 1e-10) holds
// within its run.time, so a plain `granular run periodic3d` ends relaxed. ~130-200 CPU-seconds for one packing:
// label `extended`, which CI does not run (scripts/test.sh; `ctest -L extended` runs it). The reference system's
// relaxation to P_ext (eq. 22, 27, 20, 33) and its contact normals (Fig. 9) are checked over 40 packings by
// tst_periodic_contact_normals, which CI runs.
#include "PeriodicRuns.h"

#include <QTest>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <variant>

using namespace granular;

class PeriodicRelaxationTest : public QObject {
    Q_OBJECT

private slots:
    void builtinPeriodic3dRelaxesWithinItsRunTime();
};

/// Its run.time (1500 s) leaves room: its seed 1 relaxes at 146.5 s (14,646 steps, measured 2026-11-30), seed 3 took
/// 1065 s; the cell's acceleration is the last to fall below 1e-10.
void PeriodicRelaxationTest::builtinPeriodic3dRelaxesWithinItsRunTime()
{
    const Scenario scenario = resolveScenario("periodic3d");
    const double runTime = std::get<double>(scenario.get("run.time"));
    const double dt = std::get<double>(scenario.get("solver.dt"));
    const auto run = periodic_test::relax(scenario, static_cast<std::int64_t>(std::llround(runTime / dt)));
    std::printf("periodic3d: relaxed %s after %lld steps (%.1f s of %.0f s), %.1f s CPU\n", run.relaxed ? "yes" : "no",
                static_cast<long long>(run.steps), static_cast<double>(run.steps) * dt, runTime, run.cpuSeconds);
    QVERIFY2(run.relaxed, "periodic3d did not relax within its run.time");
}

QTEST_APPLESS_MAIN(PeriodicRelaxationTest)
#include "tst_periodic_relaxation.moc"
