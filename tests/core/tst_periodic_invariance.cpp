// Shaebani et al. 2009, section 4 (eq. 21): in a fully periodic cell every point is equivalent, and a contact across
// the cell boundary is the minimum image of the pair's separation, exactly like an interior one. So a packing
// translated by a random vector (positions wrapped back into [0, L)^2) must produce the same contact forces,
// velocities and dilation rate as the original, to round-off, although a different set of its contacts now
// crosses the boundary. Checked on the reference system (built-in `periodic2d`) and on `periodic3d`
// during the compaction, when the force network carries the pressure and the cell still moves; and, with
// `pressure.cell_shape = free`, in a cell that has sheared into a parallelogram (parallelepiped), where the
// minimum image is taken along the cell's edges.
#include "PeriodicRuns.h"
#include "model/World.h"
#include "util/Random.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

using namespace granular;

namespace {

/// Force-carrying contacts whose raw separation spans more than half the cell: they cross the boundary.
int crossingContacts(const World& world)
{
    int crossing = 0;
    const auto& p = world.particles;
    for (const Contact& c : world.contacts) {
        if (c.force.dot(c.normal) <= 0.0) {
            continue;
        }
        const Vec3 raw =
            p.position[static_cast<std::size_t>(c.particle)] - p.position[static_cast<std::size_t>(c.partner)];
        if ((world.cell->reduced(raw).array().abs() > 0.5).any()) {
            ++crossing;
        }
    }
    return crossing;
}

World translated(const World& world, const Vec3& shift)
{
    World moved = world;
    for (Vec3& x : moved.particles.position) {
        x = moved.cell->wrap(x + shift);
    }
    return moved;
}

void checkTranslation(const Scenario& scenario, int steps);

}  // namespace

class PeriodicInvarianceTest : public QObject {
    Q_OBJECT

private slots:
    void translatedPackingGivesTheSameForces();
    void translatedSpherePackingGivesTheSameForces();
    void translatedShearedPackingGivesTheSameForces();
    void translatedShearedSpherePackingGivesTheSameForces();
};

void PeriodicInvarianceTest::translatedPackingGivesTheSameForces()
{
    // 1500 steps: the network has formed (P_in ~ P_ext) but still rearranges.
    checkTranslation(periodic_test::referenceSystem(3), 1500);
}

void PeriodicInvarianceTest::translatedSpherePackingGivesTheSameForces()
{
    // The built-in `periodic3d` (100 spheres): the cell wraps along z too.
    Scenario scenario = resolveScenario("periodic3d");
    scenario.set("seed", std::int64_t{2});
    scenario.set("solver.iterations", std::int64_t{100});  // the built-in's 400 only cost time here
    checkTranslation(scenario, 1500);
}

void PeriodicInvarianceTest::translatedShearedPackingGivesTheSameForces()
{
    Scenario scenario = periodic_test::referenceSystem(3);
    scenario.set("pressure.cell_shape", std::string("free"));
    checkTranslation(scenario, 1500);
}

void PeriodicInvarianceTest::translatedShearedSpherePackingGivesTheSameForces()
{
    Scenario scenario = resolveScenario("periodic3d");
    scenario.set("seed", std::int64_t{2});
    scenario.set("solver.iterations", std::int64_t{100});
    scenario.set("pressure.cell_shape", std::string("free"));
    checkTranslation(scenario, 1500);
}

namespace {

void checkTranslation(const Scenario& scenario, int steps)
{
    Simulation compaction(scenario);
    for (int n = 0; n < steps; ++n) {
        compaction.step();
    }
    const World& original = compaction.world();
    const PeriodicCell& cell = *original.cell;
    const double L = cell.length();
    if (scenario.text("pressure.cell_shape") == "free") {
        // The point of this case: the cell is no longer a square (cube), its edges have turned.
        double shear = 0.0;
        for (int a = 0; a < cell.dimension; ++a) {
            for (int b = 0; b < cell.dimension; ++b) {
                shear = a == b ? shear : std::max(shear, std::fabs(cell.edges(a, b)));
            }
        }
        std::printf("%dD cell edges after %d steps: shear component up to %.4f m (%.2f %% of L)\n", original.dimension,
                    steps, shear, 100.0 * shear / L);
        QVERIFY2(shear > 1e-3 * L, "the free cell has not sheared: the case checks nothing a square cell does not");
    }
    Random random(20260523);
    const Vec3 reducedShift(random.uniform(0.2, 0.8), random.uniform(0.2, 0.8),
                            original.dimension == 3 ? random.uniform(0.2, 0.8) : 0.0);
    const Vec3 shift = cell.edges * reducedShift;
    const World moved = translated(original, shift);
    const int crossingBefore = crossingContacts(original);
    const int crossingAfter = crossingContacts(moved);
    std::printf("%dD: shift (%.4f, %.4f, %.4f) m in a cell of %.4f m: %d -> %d contacts across the boundary\n",
                original.dimension, shift.x(), shift.y(), shift.z(), L, crossingBefore, crossingAfter);
    QVERIFY2(crossingBefore != crossingAfter && crossingAfter > 0,
             "the translation must move contacts across the cell boundary for the check to mean anything");

    Simulation a(scenario, original);
    Simulation b(scenario, moved);
    a.step();
    b.step();
    const World& wa = a.world();
    const World& wb = b.world();
    QCOMPARE(wa.contacts.size(), wb.contacts.size());
    double largestForce = 0.0;
    for (const Contact& c : wa.contacts) {
        largestForce = std::max(largestForce, c.force.norm());
    }
    QVERIFY2(largestForce > 0.0, "no contact carries a force: nothing to compare");
    double forceDifference = 0.0;
    for (std::size_t k = 0; k < wa.contacts.size(); ++k) {
        QVERIFY2(wa.contacts[k].key() == wb.contacts[k].key(), "the translated packing has other contact candidates");
        forceDifference = std::max(forceDifference, (wa.contacts[k].force - wb.contacts[k].force).norm());
    }
    double velocityDifference = 0.0;
    double largestSpeed = 0.0;
    for (std::size_t i = 0; i < wa.particles.size(); ++i) {
        velocityDifference = std::max(velocityDifference, (wa.particles.velocity[i] - wb.particles.velocity[i]).norm());
        largestSpeed = std::max(largestSpeed, wa.particles.velocity[i].norm());
    }
    const double rateDifference = (wa.cell->strainRate - wb.cell->strainRate).cwiseAbs().maxCoeff();
    std::printf("after one step: max |dF| = %.3e N of max |F| = %.3e N, max |dv| = %.3e m/s of %.3e m/s, "
                "max |d Lambda_ab| = %.3e 1/s of lambda %.3e 1/s\n",
                forceDifference, largestForce, velocityDifference, largestSpeed, rateDifference,
                std::fabs(wa.cell->dilationRate()));
    // Round-off: the gaps differ in the last bits of positions of size L ~ 10-20 m (~1e-14 m); the shock law turns a
    // gap error into a force error of m_n / dt^2 ~ 1e4 times it, and the iteration mixes them over all contacts.
    QVERIFY2(forceDifference <= 1e-8 * largestForce,
             ("eq. 21: translated packing: forces differ by " + std::to_string(forceDifference)).c_str());
    QVERIFY2(velocityDifference <= 1e-8 * std::max(largestSpeed, 1e-3),
             ("eq. 25: translated packing: velocities differ by " + std::to_string(velocityDifference)).c_str());
    QVERIFY2(rateDifference <= 1e-8 * std::max(std::fabs(wa.cell->dilationRate()), 1e-6),
             ("eq. 23: translated packing: strain rates differ by " + std::to_string(rateDifference)).c_str());
}

}  // namespace

QTEST_APPLESS_MAIN(PeriodicInvarianceTest)
#include "tst_periodic_invariance.moc"
