// The generalisation of Shaebani et al.'s (2009) method named in its concluding remarks: "the method can be generalized
// to apply other type of constraints to the stress tensor and, consequently, to allow more general strain
// deformations where shape as well as size of the simulation cell can be varied" (after Parrinello and
// Rahman). With `pressure.cell_shape = free` the cell's edges H follow dH/dt = Lambda H, and the symmetric
// strain rate obeys the tensor form of eq. 19, M_lambda dLambda/dt = sym(sigma) - P_ext 1; inside the
// Gauss-Seidel sweep the expected stress sigma* (eq. 20, 27) and Lambda* (eq. 28) are updated by increments,
// and the shock law sees v_rel_free + Lambda* l (eq. 29-31).
//
// - The reference system (built-in `periodic2d`, 100 disks) relaxes with every stress component at P_ext:
//   |sigma_ab - P_ext delta_ab| < 1e-6 P_ext for each packing (the issue asks for 2%; with the paper's
//   square cell a single 100-disk packing is 5-20% anisotropic, see tst_periodic_relaxation).
// - The stress the sweep builds by increments equals eq. 20 summed afresh over the final forces, in 3D.
// - The trace obeys the paper's scalar law: lambda = trace(Lambda)/D follows eq. 28.
#include "PeriodicRuns.h"
#include "model/World.h"
#include "periodic/StressTensor.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

using namespace granular;

namespace {

Scenario freeShape(Scenario scenario)
{
    scenario.set("pressure.cell_shape", std::string("free"));
    return scenario;
}

/// max_ab |m_ab| over the D x D block.
double largestComponent(const Mat3& m, int dimension)
{
    return m.topLeftCorner(dimension, dimension).cwiseAbs().maxCoeff();
}

}  // namespace

class PeriodicFreeShapeTest : public QObject {
    Q_OBJECT

private slots:
    void referenceSystemRelaxesToIsotropicStress();
    void incrementalStressIsTheSumOfEq20();
};

void PeriodicFreeShapeTest::referenceSystemRelaxesToIsotropicStress()
{
    const double pExt = 1.0;  // periodic2d's pressure.external, Pa
    double largestShear = 0.0;
    for (std::int64_t seed = 1; seed <= 4; ++seed) {
        const auto run = periodic_test::relax(freeShape(periodic_test::referenceSystem(seed)));
        const World& world = run.simulation.world();
        const std::string name = "free cell, seed " + std::to_string(seed);
        QVERIFY2(run.relaxed,
                 (name + ": the stopping rule was not met in " + std::to_string(run.steps) + " steps").c_str());
        const Mat3 sigma = stressTensor(world);
        Mat3 deviation = sigma;
        deviation.diagonal().array() -= pExt;
        const Mat3& h = world.cell->edges;
        const double L = world.cell->length();
        largestShear = std::max(largestShear, std::fabs(h(0, 1)) / L);
        std::printf("%s: %lld steps, %.2f s CPU, phi = %.4f, sigma = [%.9f %.2e; %.2e %.9f] Pa, "
                    "H = [%.4f %.4f; %.4f %.4f] m\n",
                    name.c_str(), static_cast<long long>(run.steps), run.cpuSeconds, analysis::volumeFraction(world),
                    sigma(0, 0), sigma(0, 1), sigma(1, 0), sigma(1, 1), h(0, 0), h(0, 1), h(1, 0), h(1, 1));
        QVERIFY2(std::fabs(world.cell->innerPressure - pExt) < 1e-6,
                 (name + ": eq. 27 P_in* = " + std::to_string(world.cell->innerPressure) + " Pa").c_str());
        QVERIFY2(largestComponent(deviation, 2) < 1e-6 * pExt,
                 (name + ": eq. 20: sigma - P_ext 1 has a component of " +
                  std::to_string(largestComponent(deviation, 2)) + " Pa (every one must relax)")
                     .c_str());
        const double phi = analysis::volumeFraction(world);
        QVERIFY2(
            phi > 0.75 && phi < 0.85,
            (name + ": volume fraction " + std::to_string(phi) + " is not a random close packing of disks").c_str());
    }
    // The freedom was used: a square cell would have kept H_xy = 0.
    QVERIFY2(largestShear > 1e-3, "no packing sheared its cell: the shape's degrees of freedom were not driven");
}

void PeriodicFreeShapeTest::incrementalStressIsTheSumOfEq20()
{
    Scenario scenario = freeShape(resolveScenario("periodic3d"));
    scenario.set("seed", std::int64_t{4});
    scenario.set("solver.iterations", std::int64_t{100});
    for (const char* variant : {"full", "partial"}) {
        scenario.set("pressure.variant", std::string(variant));
        Simulation simulation(scenario);
        double largest = 0.0;
        for (int n = 0; n < 1200; ++n) {
            const double volumeBefore = simulation.world().cell->volume();
            const Mat3 strainRateBefore = simulation.world().cell->strainRate;
            const auto velocitiesBefore = simulation.world().particles.velocity;
            simulation.step();
            if (n % 300 != 299) {
                continue;
            }
            // Eq. 20 afresh with the step's forces, its branch vectors (the gaps at detection) and the velocities
            // the sweep used (new ones for the fully implicit eq. 27, old ones for eq. 32), over V(t).
            const World& world = simulation.world();
            const auto& p = world.particles;
            Mat3 sum = Mat3::Zero();
            for (const Contact& c : world.contacts) {
                const auto i = static_cast<std::size_t>(c.partner);
                const auto j = static_cast<std::size_t>(c.particle);
                sum += c.force * ((p.radius[i] + p.radius[j] + c.gap) * c.normal).transpose();
            }
            const auto& v = std::string(variant) == "full" ? p.velocity : velocitiesBefore;
            for (std::size_t i = 0; i < p.size(); ++i) {
                sum += p.mass[i] * v[i] * v[i].transpose();
            }
            const Mat3 fresh = 0.5 * (sum + sum.transpose()) / volumeBefore;
            const double difference = largestComponent(fresh - world.cell->innerStress, 3);
            largest = std::max(largest, largestComponent(fresh, 3));
            std::printf("%s, step %d: P_in = %.6f Pa, max |sigma_incremental - sigma_eq20| = %.3e Pa\n", variant, n + 1,
                        world.cell->innerPressure, difference);
            QVERIFY2(difference <= 1e-9 * largest,
                     (std::string(variant) + ": the incremental sigma* differs from eq. 20 by " +
                      std::to_string(difference) + " Pa")
                         .c_str());
            // The tensor form of eq. 23/28: M_lambda dLambda/dt = sigma* - P_ext 1, implicit: the step's change of the
            // strain rate is (sigma*(t+dt) - P_ext 1) dt / M_lambda with sigma* summed afresh above (it compared the
            // trace of sigma* with P_in*, which the solver defines as that trace: it could not fail).
            const Settings& settings = simulation.settings();
            const double response = settings.solver.dt / settings.pressure.inertia;
            const Mat3 expected =
                strainRateBefore + response * (fresh - settings.pressure.externalPressure * Mat3::Identity());
            const double rateDifference = largestComponent(world.cell->strainRate - expected, 3);
            QVERIFY2(rateDifference <= 1e-9 * response * largest,
                     (std::string(variant) + ": Lambda(t+dt) differs from eq. 28 by " + std::to_string(rateDifference) +
                      " 1/s")
                         .c_str());
            QVERIFY(largestComponent(world.cell->strainRate - strainRateBefore, 3) > 1e3 * rateDifference);
        }
        QVERIFY2(largest > 0.0, "no stress built up: nothing was compared");
    }
}

QTEST_APPLESS_MAIN(PeriodicFreeShapeTest)
#include "tst_periodic_free_shape.moc"
