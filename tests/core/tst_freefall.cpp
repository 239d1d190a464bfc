// Ballistic flight checked against the closed form x(t) = x0 + v0 t + g t^2/2 (vector g, so
// y(t) = y0 + v0 t - |g| t^2/2). The ballistic method integrates each step's flight exactly,
// x_{n+1} = x_n + v_n dt + g dt^2/2, v_{n+1} = v_n + g dt, so x_n is the parabola to round-off for any dt.
// (Before, it used the contact methods' implicit Euler scheme, Unger & Kertesz 2003, eq. 1-2, whose positions
// were off by g dt t_n/2: ~1e-4 m after 0.2 s at dt = 1e-4 s, while freefall3d was advertised as the reference.)
// A grain's applied force adds F_ext/m to g (appliedForceAddsItsAcceleration).
#include "BuiltinScenarios.h"
#include "scenario/Scenario.h"
#include "sim/Simulation.h"

#include <QTest>

#include <cmath>
#include <string>
#include <vector>

using namespace granular;

namespace {

Scenario cloud(int dimension, double dt)
{
    Scenario s;
    s.setFromText("world.dimension", std::to_string(dimension));
    s.set("solver.dt", dt);
    s.set("particles.count", std::int64_t{30});
    s.set("particles.jitter", 0.4);
    s.set("box.walls", std::string("none"));
    s.set("gravity.x", 0.5);
    s.set("gravity.y", -9.81);
    s.set("gravity.z", 0.25);
    s.set("particles.velocity.x", 0.3);
    s.set("particles.velocity.y", 1.7);
    s.set("particles.velocity.z", -0.2);
    return s;
}

/// Largest deviation over all particles of x_n from the exact parabola after `steps` steps.
double largestDeviation(int dimension, double dt, int steps)
{
    Simulation simulation(cloud(dimension, dt));
    const std::vector<Vec3> x0 = simulation.world().particles.position;
    const std::vector<Vec3> v0 = simulation.world().particles.velocity;
    for (int n = 0; n < steps; ++n) {
        simulation.step();
    }
    const World& world = simulation.world();
    const double t = steps * dt;
    double deviation = 0.0;
    for (std::size_t i = 0; i < x0.size(); ++i) {
        const Vec3 exact = x0[i] + v0[i] * t + 0.5 * world.gravity * t * t;
        deviation = std::max(deviation, (world.particles.position[i] - exact).norm());
    }
    return deviation;
}

}  // namespace

class FreeFallTest : public QObject {
    Q_OBJECT

private slots:
    void positionMatchesTheParabola3d();
    void positionMatchesTheParabola2d();
    void positionIsExactForAnyTimeStep();
    void velocityIsExactlyLinearInTime();
    void diskStaysInItsPlane();
    void runIsBitIdenticalForTheSameSeed();
    void appliedForceAddsItsAcceleration();
};

void FreeFallTest::positionMatchesTheParabola3d()
{
    // x_n = x0 + v0 t + g t^2/2 to round-off (|x| ~ 0.1 m, 2000 steps: ~1e-13 m); the old scheme's g dt t/2 was
    // ~1e-4 m here.
    QVERIFY(largestDeviation(3, 1e-4, 2000) < 1e-12);
}

void FreeFallTest::positionMatchesTheParabola2d()
{
    QVERIFY(largestDeviation(2, 1e-3, 500) < 1e-12);
}

void FreeFallTest::positionIsExactForAnyTimeStep()
{
    // The same 0.2 s in 2 steps or in 2000: no discretization error, only round-off.
    QVERIFY(largestDeviation(3, 0.1, 2) < 1e-13);
    QVERIFY(largestDeviation(3, 2e-4, 1000) < 1e-12);
}

void FreeFallTest::velocityIsExactlyLinearInTime()
{
    Simulation simulation(cloud(3, 1e-3));
    const Vec3 v0 = simulation.world().particles.velocity[0];
    for (int n = 0; n < 1000; ++n) {
        simulation.step();
    }
    const Vec3 expected = v0 + simulation.world().gravity * 1.0;
    QVERIFY((simulation.world().particles.velocity[0] - expected).norm() < 1e-12);
    QVERIFY(std::fabs(simulation.world().time - 1.0) < 1e-12);
    QCOMPARE(simulation.world().steps, std::int64_t{1000});
}

void FreeFallTest::diskStaysInItsPlane()
{
    Simulation simulation(cloud(2, 1e-3));
    for (int n = 0; n < 100; ++n) {
        simulation.step();
    }
    for (const auto& x : simulation.world().particles.position) {
        QCOMPARE(x.z(), 0.0);
    }
}

void FreeFallTest::runIsBitIdenticalForTheSameSeed()
{
    Simulation first(cloud(3, 1e-3));
    Simulation second(cloud(3, 1e-3));
    for (int n = 0; n < 300; ++n) {
        first.step();
        second.step();
    }
    QVERIFY(first.world().particles.position == second.world().particles.position);
    QVERIFY(first.sample() == second.sample());
}

void FreeFallTest::appliedForceAddsItsAcceleration()
{
    // In free flight each mobile grain follows x0 + v0 t + (g + F_ext/m) t^2/2 and a grain of infinite mass keeps its
    // velocity: chain1d, whose pushed disk carries chain.force (F_ext; the ballistic method ignored it before, and the
    // disk stayed at rest, 2.5 m off the closed form after 10 s), and md_impact, whose lower grain is fixed.
    for (const char* name : {"chain1d", "md_impact"}) {
        Scenario scenario = resolveScenario(name);
        scenario.setFromText("solver.method", "ballistic");
        scenario.setFromText("gravity.y", "-0.5");
        Simulation simulation(scenario);
        const Particles initial = simulation.world().particles;
        const double dt = simulation.settings().solver.dt;
        constexpr int kSteps = 10;
        for (int n = 0; n < kSteps; ++n) {
            simulation.step();
        }
        const World& world = simulation.world();
        const double t = kSteps * dt;
        int pushed = 0;
        int fixed = 0;
        for (std::size_t i = 0; i < initial.size(); ++i) {
            Vec3 acceleration = Vec3::Zero();
            if (std::isfinite(initial.mass[i])) {
                acceleration = world.gravity + initial.externalForce[i] / initial.mass[i];
            } else {
                ++fixed;
            }
            pushed += initial.externalForce[i].norm() > 0.0 ? 1 : 0;
            const Vec3 exact = initial.position[i] + initial.velocity[i] * t + 0.5 * acceleration * t * t;
            QVERIFY2((world.particles.position[i] - exact).norm() < 1e-9 * (1.0 + exact.norm()),
                     (std::string(name) + ": grain " + std::to_string(i)).c_str());
            QVERIFY2((world.particles.velocity[i] - (initial.velocity[i] + acceleration * t)).norm() < 1e-9,
                     (std::string(name) + ": grain " + std::to_string(i)).c_str());
        }
        QCOMPARE(pushed + fixed, 1);  // chain1d: one pushed disk; md_impact: one fixed grain
    }
}

QTEST_APPLESS_MAIN(FreeFallTest)
#include "tst_freefall.moc"
