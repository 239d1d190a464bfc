// The periodic cell's own motion in contact dynamics at constant pressure (Shaebani et al. 2009), where grains never
// meet, against the exact recurrences of the paper's implicit scheme:
// - eq. 23-24 with P_in = 0 (grains at rest): lambda(t+dt) = lambda(t) - P_ext dt / M_lambda, so lambda_n = -n P_ext dt
// /
//   M_lambda, and L(t+dt) = L(t) (1 + lambda(t+dt) dt), the new lambda: L_100 / L_0 = prod_{k=1..100} (1 - k 1e-6) =
//   0.994963 (with lambda(t), an explicit step, the product from k = 0: 0.995062), checked step by step to 1e-12;
// - eq. 22/27 (full variant) with grains all moving at one velocity u: P_in = sum m u^2 / (D V), V the cell's volume
//   at the step's start, drives lambda up against P_ext.
// - eq. 22 during a compaction, grains moving and colliding: the solver's incremental P_in* is the sum afresh.
// Every periodic test before ended in a relaxed packing, where lambda = 0 and v = 0 hide these terms.
#include "PeriodicRuns.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

using namespace granular;

namespace {

constexpr double kExternal = 1.0;   // Pa (2D: N/m)
constexpr double kInertia = 100.0;  // kg/m (2D: kg), M_lambda
constexpr double kDt = 0.01;        // s
constexpr int kSteps = 100;

/// periodic2d with 20 disks at a volume fraction of 0.01 (no pair meets within kSteps) and the given velocity for
/// every disk; the recurrences' L and lambda after each step.
struct CellTrack {
    std::vector<double> length;  ///< m, L after each step
    std::vector<double> rate;    ///< 1/s, lambda after each step
    std::vector<double> expectedLength;
    std::vector<double> expectedRate;
};

CellTrack track(const Vec3& velocity)
{
    Scenario scenario = resolveScenario("periodic2d");
    scenario.set("particles.count", std::int64_t{20});
    scenario.set("cell.initial_fraction", 0.01);
    scenario.set("pressure.external", kExternal);
    scenario.set("pressure.inertia", kInertia);
    scenario.set("pressure.variant", std::string("full"));
    scenario.set("solver.dt", kDt);
    World state = Simulation(scenario).world();
    for (auto& v : state.particles.velocity) {
        v = velocity;
    }
    double kinetic2 = 0.0;  // sum m u^2
    for (std::size_t i = 0; i < state.particles.size(); ++i) {
        kinetic2 += state.particles.mass[i] * state.particles.velocity[i].squaredNorm();
    }
    Simulation simulation(scenario, state);
    CellTrack t;
    double length = simulation.world().cell->length();
    double rate = 0.0;
    for (int n = 0; n < kSteps; ++n) {
        const double inner = kinetic2 / (2.0 * length * length);  // eq. 22, D = 2, V = L^2 at the step's start
        rate += (inner - kExternal) * kDt / kInertia;             // eq. 23
        length *= 1.0 + rate * kDt;                               // eq. 24
        simulation.step();
        t.length.push_back(simulation.world().cell->length());
        t.rate.push_back(simulation.world().cell->dilationRate());
        t.expectedLength.push_back(length);
        t.expectedRate.push_back(rate);
    }
    return t;
}

}  // namespace

class PeriodicCellMotionTest : public QObject {
    Q_OBJECT

private slots:
    void aCellOfGrainsAtRestShrinksAtTheExternalPressure()
    {
        const CellTrack t = track(Vec3::Zero());
        for (int n = 0; n < kSteps; ++n) {
            // lambda_n = -n P_ext dt / M_lambda, exactly up to rounding.
            const double rate = -(n + 1) * kExternal * kDt / kInertia;
            QVERIFY2(
                std::fabs(t.rate[static_cast<std::size_t>(n)] - rate) <= 1e-12 * std::fabs(rate),
                ("step " + std::to_string(n + 1) + ": lambda = " + std::to_string(t.rate[static_cast<std::size_t>(n)]))
                    .c_str());
            QVERIFY2(
                std::fabs(t.length[static_cast<std::size_t>(n)] / t.expectedLength[static_cast<std::size_t>(n)] -
                          1.0) <= 1e-12,
                ("step " + std::to_string(n + 1) + ": L = " + std::to_string(t.length[static_cast<std::size_t>(n)]))
                    .c_str());
        }
        std::printf("at rest: lambda_100 = %.6e 1/s, L_100 / L_0 = %.9f (prod (1 - k 1e-6), k = 1..100: %.9f)\n",
                    t.rate.back(), t.length.back() / (t.length.front() / (1.0 - 1e-6)),
                    t.expectedLength.back() / (t.expectedLength.front() / (1.0 - 1e-6)));
    }

    void movingGrainsPushTheCellOutByTheirKineticPressure()
    {
        // u = 10 m/s: sum m u^2 / (D V) = 20 pi 100 / (2 x 6283 m^2), about half of P_ext, growing as the cell shrinks.
        const CellTrack t = track(Vec3(6.0, 8.0, 0.0));
        const CellTrack still = track(Vec3::Zero());
        for (int n = 0; n < kSteps; ++n) {
            const auto k = static_cast<std::size_t>(n);
            QVERIFY2(std::fabs(t.rate[k] - t.expectedRate[k]) <= 1e-12 * std::fabs(t.expectedRate[k]),
                     ("step " + std::to_string(n + 1) + ": lambda = " + std::to_string(t.rate[k]) + ", eq. 23 " +
                      std::to_string(t.expectedRate[k]))
                         .c_str());
            QVERIFY(std::fabs(t.length[k] / t.expectedLength[k] - 1.0) <= 1e-12);
        }
        // The kinetic term is at work: the cell shrinks about half as fast as a cell of grains at rest.
        QVERIFY(t.rate.back() > 0.6 * still.rate.back());
        std::printf("moving: lambda_100 = %.6e 1/s (at rest %.6e), L_100 = %.9f m\n", t.rate.back(), still.rate.back(),
                    t.length.back());
    }

    void innerPressureIsEq22DuringCompaction()
    {
        // While the grains move and collide (steps 300-1200 of periodic2d's compaction), the solver's incremental P_in*
        // is eq. 22 summed afresh with the step's forces and branch vectors over V(t): sum F.l + sum m v^2, over D V,
        // with the new velocities for the fully implicit eq. 27 and the old ones for eq. 32 (the free cell's tensor
        // had this check; the fixed cell's scalar, where the kinetic term and F.l are summed apart, had none).
        for (const char* variant : {"full", "partial"}) {
            Scenario scenario = resolveScenario("periodic2d");
            scenario.set("pressure.variant", std::string(variant));
            Simulation simulation(scenario);
            double largest = 0.0;
            int compared = 0;
            for (int n = 0; n < 1200; ++n) {
                const double volumeBefore = simulation.world().cell->volume();
                const auto velocitiesBefore = simulation.world().particles.velocity;
                simulation.step();
                if (n < 300 || n % 100 != 99) {
                    continue;
                }
                const World& world = simulation.world();
                const auto& p = world.particles;
                double sum = 0.0;
                for (const Contact& c : world.contacts) {
                    const auto i = static_cast<std::size_t>(c.partner);
                    const auto j = static_cast<std::size_t>(c.particle);
                    sum += c.force.dot((p.radius[i] + p.radius[j] + c.gap) * c.normal);
                }
                const auto& v = std::string(variant) == "full" ? p.velocity : velocitiesBefore;
                for (std::size_t i = 0; i < p.size(); ++i) {
                    sum += p.mass[i] * v[i].squaredNorm();
                }
                const double fresh = sum / (2.0 * volumeBefore);
                largest = std::max(largest, std::fabs(fresh));
                QVERIFY2(std::fabs(fresh - world.cell->innerPressure) <= 1e-9 * std::max(std::fabs(fresh), 1e-3),
                         (std::string(variant) + ", step " + std::to_string(n + 1) + ": P_in* " +
                          std::to_string(world.cell->innerPressure) + " Pa, eq. 22 " + std::to_string(fresh) + " Pa")
                             .c_str());
                ++compared;
            }
            std::printf("%s: %d steps compared, P_in up to %.4g Pa\n", variant, compared, largest);
            QCOMPARE(compared, 9);
            QVERIFY2(largest > 0.1, "no pressure built up: nothing was compared");
        }
    }
};

QTEST_APPLESS_MAIN(PeriodicCellMotionTest)
#include "tst_periodic_cell_motion.moc"
