// md::driftLanes and md::kickLanes: velocity-Verlet's two half steps (SoftParticleStepper's drift and kick: v' = v +
// dt/2 (F + D + F_ext)/m + dt/2 g, x += dt v'; v += dt/2m (F + F') + J'/m + dt (g + F_ext/m), w += dt/2I (T + T'))
// for eight grains at a time in the lanes of an AVX-512 register give bit for bit what the scalar code gives grain
// after grain. Checked on whole runs of the soft-particle stepper, lanes on and off (md::setPairLanes, the switch of
// both lanes; on a processor with AVX2 only, where the drift and the kick are the scalar code's, the runs check the
// grain pairs' four lanes): every grain's position, velocity and angular velocity after every MD step, on one solver
// thread (the kick fused with the dashpots, grain by grain) and on two (the kick by blocks of grains). The world has
// what every branch needs: a grain count that is not a multiple of eight (the scalar code takes the rest), grains that
// never move (infinite mass and inertia: their velocities stay, bit for bit), grains under an external force, spins,
// gravity, friction, dashpots, a floor, and the linear and the Hertz law. And driftLanes directly: whole groups of
// eight from where the range starts, nothing outside them touched, and the displacement bound of the scalar
// DisplacementBound.
#include "md/PairLanes.h"
#include "md/SoftParticleStepper.h"
#include "md/VerletLanes.h"
#include "model/World.h"
#include "util/Parallel.h"
#include "util/Random.h"

#include <QTest>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

using namespace granular;

namespace {

constexpr double kRadius = 1e-3;            // m
constexpr double kDensity = 2500.0;         // kg/m^3
constexpr int kSide = 11;                   // grains along x and z
constexpr int kLayers = 9;                  // along y: 1089 grains, 136 groups of eight and one grain left
constexpr double kSpacing = 1.9 * kRadius;  // m: every grain overlaps its lattice neighbours at first

bool sameBits(const Vec3& a, const Vec3& b)
{
    for (int c = 0; c < 3; ++c) {
        if (std::bit_cast<std::uint64_t>(a[c]) != std::bit_cast<std::uint64_t>(b[c])) {
            return false;
        }
    }
    return true;
}

/// A compressed lattice of grains of radius 0.9-1 mm above a floor, with random velocities and spins; grains 3, 10
/// and 500 do not move, grains 7, 64 and 1000 are pushed sideways.
World lattice()
{
    World world;
    world.dimension = 3;
    world.gravity = Vec3(0.0, -9.81, 0.0);
    world.bounds = Eigen::AlignedBox3d(Vec3::Zero(), Vec3(kSide, kLayers + 2, kSide) * kSpacing);
    PlaneWall floor;
    floor.name = "floor";
    floor.point = Vec3::Zero();
    floor.normal = Vec3::UnitY();
    world.walls.push_back(floor);
    Random random(20261130U);
    for (int y = 0; y < kLayers; ++y) {
        for (int z = 0; z < kSide; ++z) {
            for (int x = 0; x < kSide; ++x) {
                world.particles.add(kSpacing * (Vec3(x, y, z) + Vec3::Constant(0.5)),
                                    kRadius * random.uniform(0.9, 1.0), kDensity, 3);
                world.particles.velocity.back() =
                    0.05 * Vec3(random.uniform(-1.0, 1.0), random.uniform(-1.0, 1.0), random.uniform(-1.0, 1.0));
                world.particles.angularVelocity.back() =
                    50.0 * Vec3(random.uniform(-1.0, 1.0), random.uniform(-1.0, 1.0), random.uniform(-1.0, 1.0));
            }
        }
    }
    for (const std::size_t fixed : {3, 10, 500}) {
        world.particles.mass[fixed] = std::numeric_limits<double>::infinity();
        world.particles.inertia[fixed] = std::numeric_limits<double>::infinity();
    }
    for (const std::size_t pushed : {7, 64, 1000}) {
        world.particles.externalForce[pushed] = Vec3(2e-4, 1e-4, -3e-4);  // N, about 2 to 6 times the grain's weight
    }
    return world;
}

md::SoftParticleSettings settingsFor(NormalLaw law)
{
    md::SoftParticleSettings settings;
    settings.dt = 2e-6;  // s: ~1/20 of the contact's duration with 1000 N/m or E = 1e7 Pa
    settings.substeps = 1;
    settings.relativeSkin = 0.1;
    settings.material.law = law;
    settings.material.grainStiffness = 1000.0;  // N/m (linear)
    settings.material.youngModulus = 1e7;       // Pa (Hertz)
    settings.material.restitution = 0.5;
    settings.material.friction = 0.4;
    settings.material.wallFriction = 0.4;
    return settings;
}

/// Runs the lattice `steps` MD steps with the lanes on and off; returns the first difference, empty if none.
std::string differenceBetweenLanesAndScalar(NormalLaw law, int threads, int steps)
{
    setSolverThreads(threads);
    World lanes = lattice();
    World scalar = lattice();
    SoftParticleStepper onLanes(settingsFor(law));
    SoftParticleStepper onScalar(settingsFor(law));
    std::string difference;
    for (int n = 1; n <= steps && difference.empty(); ++n) {
        md::setPairLanes(true);
        onLanes.step(lanes);
        md::setPairLanes(false);
        onScalar.step(scalar);
        md::setPairLanes(true);
        for (std::size_t i = 0; i < lanes.particles.size(); ++i) {
            const Particles& a = lanes.particles;
            const Particles& b = scalar.particles;
            if (!sameBits(a.position[i], b.position[i]) || !sameBits(a.velocity[i], b.velocity[i]) ||
                !sameBits(a.angularVelocity[i], b.angularVelocity[i])) {
                difference = "step " + std::to_string(n) + ", grain " + std::to_string(i);
                break;
            }
        }
    }
    std::printf("%s law, %d thread(s): %zu contacts after %d steps%s%s\n", law == NormalLaw::Hertz ? "Hertz" : "linear",
                threads, lanes.contacts.size(), steps, difference.empty() ? "" : ", differs at ", difference.c_str());
    setSolverThreads(1);
    return difference;
}

}  // namespace

class VerletLanesTest : public QObject {
    Q_OBJECT

private slots:
    void lanesGiveTheScalarSteps()
    {
        // With AVX2 only, the grain pairs' lanes (four) alone: the whole runs check them too.
        if (!md::pairLanesOn()) {
            QSKIP("this processor has neither AVX-512F nor AVX2: every grain is advanced by the scalar code");
        }
        std::printf("lanes of %zu pairs, %s\n", md::pairLaneWidth(),
                    md::verletLanesOn() ? "drift and kick eight grains at a time"
                                        : "drift and kick by the scalar code");
        for (const NormalLaw law : {NormalLaw::Linear, NormalLaw::Hertz}) {
            for (const int threads : {1, 2}) {
                QCOMPARE(differenceBetweenLanesAndScalar(law, threads, 60), std::string());
            }
        }
        // The run moves: the fixed grains kept their velocities (they start at random ones), the others did not.
        World world = lattice();
        const World start = lattice();
        SoftParticleStepper stepper(settingsFor(NormalLaw::Linear));
        for (int n = 0; n < 20; ++n) {
            stepper.step(world);
        }
        QVERIFY(sameBits(world.particles.velocity[3], start.particles.velocity[3]));
        QVERIFY(!sameBits(world.particles.velocity[4], start.particles.velocity[4]));
        QVERIFY(!sameBits(world.particles.angularVelocity[4], start.particles.angularVelocity[4]));
    }

    void driftTakesWholeGroupsAndTheScalarBound()
    {
        if (!md::verletLanesOn()) {
            QSKIP("this processor has no AVX-512F: every grain is advanced by the scalar code");
        }
        World world = lattice();
        const std::size_t n = world.particles.size();
        const Particles& p = world.particles;
        std::vector<Vec3> force(n, Vec3(1e-5, -2e-5, 3e-6));
        std::vector<Vec3> damping(n, Vec3(-1e-6, 0.0, 2e-6));
        std::vector<Vec3> torque(n, Vec3(1e-9, 2e-9, -1e-9));
        const Vec3 untouched = Vec3::Constant(-7.0);
        std::vector<Vec3> halfVelocity(n, untouched);
        std::vector<Vec3> halfAngularVelocity(n, untouched);
        std::vector<Vec3> displacement(n, Vec3::Zero());
        std::vector<Vec3> position = p.position;
        md::GrainDrift drift{p.velocity.data(),
                             p.angularVelocity.data(),
                             p.mass.data(),
                             p.inertia.data(),
                             p.externalForce.data(),
                             force.data(),
                             damping.data(),
                             torque.data(),
                             position.data(),
                             halfVelocity.data(),
                             halfAngularVelocity.data(),
                             displacement.data(),
                             world.gravity,
                             1e-3,
                             1.0};
        DisplacementBound bound;
        QCOMPARE(md::driftLanes(drift, 5, 12, bound), std::size_t{0});  // fewer than eight
        QCOMPARE(md::driftLanes(drift, 5, 30, bound), std::size_t{24});
        for (std::size_t i = 0; i < n; ++i) {
            const bool drifted = i >= 5 && i < 29;
            QCOMPARE(sameBits(halfVelocity[i], untouched), !drifted);
            QCOMPARE(sameBits(position[i], p.position[i]), !drifted);
        }
        // The grains' displacements taken in one after the other by the scalar bound give the same bounds.
        DisplacementBound expected;
        for (std::size_t i = 5; i < 29; ++i) {
            expected.add(displacement[i]);
        }
        QVERIFY(expected.largest() > 0.0);
        QCOMPARE(std::bit_cast<std::uint64_t>(bound.largest()), std::bit_cast<std::uint64_t>(expected.largest()));
        QCOMPARE(std::bit_cast<std::uint64_t>(bound.pairApproach()),
                 std::bit_cast<std::uint64_t>(expected.pairApproach()));
        // A displacement that is not finite makes both bounds infinite, as the scalar bound's.
        displacement[40] = Vec3(std::numeric_limits<double>::quiet_NaN(), 0.0, 0.0);
        DisplacementBound broken;
        QCOMPARE(md::driftLanes(drift, 40, 48, broken), std::size_t{8});
        QVERIFY(std::isinf(broken.largest()));
        QVERIFY(std::isinf(broken.pairApproach()));
        // Switched off, nothing is taken.
        md::setPairLanes(false);
        QCOMPARE(md::driftLanes(drift, 0, 64, bound), std::size_t{0});
        md::setPairLanes(true);
    }
};

QTEST_APPLESS_MAIN(VerletLanesTest)
#include "tst_verlet_lanes.moc"
