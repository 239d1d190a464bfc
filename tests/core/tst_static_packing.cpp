// A static packing under a piston, solved with the local criterion (Unger & Kertesz 2003, eq. 35): in equilibrium
// the forces of base and side walls (normal and friction) balance the piston force (no gravity, the
// packing at rest), and the mean overlap, the accuracy measure of CD, falls as eps is tightened.
#include "model/Contact.h"
#include "scenario/Scenario.h"
#include "sim/Simulation.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

using namespace granular;

namespace {

Scenario smallPiston(double tolerance)
{
    Scenario s;
    s.setFromText("setup", "piston");
    s.setFromText("world.dimension", "2");
    s.setFromText("solver.method", "cd");
    s.setFromText("solver.criterion", "local");
    s.set("solver.tolerance", tolerance);
    s.setFromText("solver.force_cutoff", "1e-9");
    s.setFromText("solver.max_iterations", "20000");
    s.setFromText("solver.dt", "0.02");
    s.setFromText("gravity.y", "0");
    s.setFromText("contact.friction", "0.3");
    s.setFromText("particles.count", "48");
    s.setFromText("particles.radius_min", "1");
    s.setFromText("particles.radius_max", "2");
    s.setFromText("particles.density", "1");
    s.setFromText("particles.gap", "0.05");
    s.setFromText("particles.jitter", "0.5");
    s.setFromText("box.width", "26");
    s.setFromText("box.height", "34");
    s.setFromText("piston.mass", "50");
    s.setFromText("piston.force", "100");
    return s;
}

/// Total contact forces (N, vectors including friction) that the walls and the piston exert on the packing.
struct BoundaryForces {
    Vec3 walls = Vec3::Zero();
    Vec3 piston = Vec3::Zero();
};

BoundaryForces boundaryForces(const World& world)
{
    BoundaryForces forces;
    for (const Contact& c : world.contacts) {
        if (c.kind == ContactKind::Piston) {
            forces.piston += c.force;
        } else if (c.kind == ContactKind::Wall) {
            forces.walls += c.force;
        }
    }
    return forces;
}

/// m/s, the fastest translation of the piston and of the grains that are pressed by a contact (rattlers, free in
/// their cages, may keep moving).
double fastestPressedTranslation(const World& world)
{
    std::vector<bool> pressed(world.particles.size(), false);
    for (const Contact& c : world.contacts) {
        if (c.force.dot(c.normal) > 0.0) {
            pressed[static_cast<std::size_t>(c.particle)] = true;
            if (c.kind == ContactKind::Particle) {
                pressed[static_cast<std::size_t>(c.partner)] = true;
            }
        }
    }
    double fastest = std::fabs(world.piston->velocity);
    for (std::size_t i = 0; i < world.particles.size(); ++i) {
        if (pressed[i]) {
            fastest = std::max(fastest, world.particles.velocity[i].norm());
        }
    }
    return fastest;
}

/// Compresses for 1500 steps, and with `untilAtRest` on until the piston and every pressed grain are at rest (below
/// 1e-9 m/s, which a tight tolerance reaches; free rattlers may keep moving): when that happens depends on the
/// packing's history, which any change of rounding changes (after 1500 steps one history still had a grain sliding
/// under the piston). `atRest` tells whether that happened within 20,000 steps.
Simulation settle(double tolerance, bool untilAtRest, bool& atRest)
{
    Simulation simulation(smallPiston(tolerance));
    int steps = 0;
    atRest = true;
    while (steps < 1500 || (untilAtRest && fastestPressedTranslation(simulation.world()) > 1e-9)) {
        simulation.step();
        if (++steps > 20000) {
            atRest = false;
            break;
        }
    }
    return simulation;
}

}  // namespace

class StaticPackingTest : public QObject {
    Q_OBJECT

private slots:
    void wallsBalanceThePistonForce();
    void meanOverlapFallsAsToleranceTightens();
};

void StaticPackingTest::wallsBalanceThePistonForce()
{
    bool atRest = false;
    const Simulation simulation = settle(1e-10, true, atRest);
    QVERIFY2(atRest, "the packing does not come to rest within 20,000 steps");
    const BoundaryForces forces = boundaryForces(simulation.world());
    const double F = 100.0;  // piston.force
    const Vec3 imbalance = forces.walls + forces.piston;
    const auto message = "walls (" + std::to_string(forces.walls.x()) + ", " + std::to_string(forces.walls.y()) +
                         ") piston (" + std::to_string(forces.piston.x()) + ", " + std::to_string(forces.piston.y()) +
                         ")";
    QVERIFY2(std::fabs(-forces.piston.y() - F) <= 1e-6 * F, message.c_str());  // the piston is at rest
    QVERIFY2(imbalance.norm() <= 1e-6 * F, message.c_str());                   // base + sides carry it
    QVERIFY2(forces.walls.y() > 0.5 * F, message.c_str());
}

void StaticPackingTest::meanOverlapFallsAsToleranceTightens()
{
    double previous = HUGE_VAL;
    for (const double tolerance : {1e-2, 1e-4, 1e-6}) {
        bool atRest = false;
        const Simulation simulation = settle(tolerance, false, atRest);
        const double overlap = simulation.lastStep().meanOverlap;
        QVERIFY2(overlap < previous, (std::to_string(tolerance) + ": " + std::to_string(overlap)).c_str());
        previous = overlap;
    }
}

QTEST_APPLESS_MAIN(StaticPackingTest)
#include "tst_static_packing.moc"
