// Shaebani et al. 2009, section 5 (Fig. 8): for rigid grains the external pressure sets no length scale, P_ext only
// rescales time (forces ~ P_ext, velocities ~ sqrt(P_ext), time ~ 1/sqrt(P_ext)), so the final packing does
// not depend on it. With the time step kept at dt = 0.01 the discretization does change, and the paper's
// Fig. 8 shows the volume fraction unchanged over P_ext; here the reference system (built-in `periodic2d`,
// same seed, same dilute start) compacted at P_ext = 0.1, 1 and 10 must reach volume fractions within 2%
// of each other, each run relaxed with |P_in - P_ext| < 1e-6 P_ext (eq. 22).
#include "PeriodicRuns.h"
#include "model/World.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

using namespace granular;

class PeriodicPressureScalingTest : public QObject {
    Q_OBJECT

private slots:
    void volumeFractionDoesNotDependOnThePressure();
};

void PeriodicPressureScalingTest::volumeFractionDoesNotDependOnThePressure()
{
    std::vector<double> fractions;
    for (const double pressure : {0.1, 1.0, 10.0}) {
        Scenario scenario = periodic_test::referenceSystem(1);
        scenario.set("pressure.external", pressure);
        const auto run = periodic_test::relax(scenario);
        const World& world = run.simulation.world();
        const double phi = analysis::volumeFraction(world);
        std::printf("P_ext = %g Pa: volume fraction %.5f, %lld steps, %.2f s CPU, mean overlap %.3e m\n", pressure, phi,
                    static_cast<long long>(run.steps), run.cpuSeconds, analysis::packingStatistics(world).meanOverlap);
        QVERIFY2(run.relaxed, ("P_ext = " + std::to_string(pressure) + ": not relaxed").c_str());
        QVERIFY2(
            std::fabs(world.cell->innerPressure - pressure) < 1e-6 * pressure,
            ("eq. 22: P_in = " + std::to_string(world.cell->innerPressure) + " at P_ext = " + std::to_string(pressure))
                .c_str());
        fractions.push_back(phi);
    }
    const auto [low, high] = std::minmax_element(fractions.begin(), fractions.end());
    QVERIFY2(*high / *low - 1.0 < 0.02, ("Fig. 8: volume fractions from " + std::to_string(*low) + " to " +
                                         std::to_string(*high) + " over P_ext = 0.1, 1, 10 differ by 2% or more")
                                            .c_str());
}

QTEST_APPLESS_MAIN(PeriodicPressureScalingTest)
#include "tst_periodic_pressure_scaling.moc"
