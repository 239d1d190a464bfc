// md::driftLanes and md::kickLanes: velocity-Verlet's two half steps (SoftParticleStepper's drift and kick: v' = v +
// dt/2 (F + D + F_ext)/m + dt/2 g, x += dt v'; v += dt/2m (F + F') + J'/m + dt (g + F_ext/m), w += dt/2I (T + T'))
// for eight grains at a time in the lanes of AVX-512 registers, or four in those of AVX2 registers, give bit for bit
// what the scalar code gives grain after grain. Checked on whole runs of the soft-particle stepper, lanes on (at the
// widest width the processor has) and off (md::setPairLanes, the switch of both lanes): every grain's position,
// velocity and angular velocity after every MD step, on one solver thread (the kick fused with the dashpots, grain by
// grain) and on two (the kick by blocks of grains). The world has what every branch needs: a grain count that is not
// a multiple of eight (the scalar code takes the rest), grains that never move (infinite mass and inertia: their
// velocities stay, bit for bit), grains under an external force, spins, gravity, friction, dashpots, a floor, and the
// linear and the Hertz law. And driftLanes directly at every width the processor has: whole groups from where the
// range starts, nothing outside them touched, and the displacement bound of the scalar DisplacementBound.
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
        std::printf("lanes of %zu grain pairs and of %zu grains\n", md::pairLaneWidth(), md::pairLaneWidth());
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
            QSKIP("this processor has neither AVX-512F nor AVX2: every grain is advanced by the scalar code");
        }
        for (const std::size_t width : {std::size_t{8}, std::size_t{4}}) {
            md::setPairLaneWidth(width);
            if (md::pairLaneWidth() == width) {
                std::printf("drift, %zu grains at a time\n", width);
                checkDriftGroups(width);
            }
        }
        md::setPairLaneWidth(md::kPairLanes);
        // Switched off, nothing is taken.
        World world = lattice();
        DriftArrays arrays(world);
        DisplacementBound bound;
        md::setPairLanes(false);
        QCOMPARE(md::driftLanes(arrays.drift(world), 0, 64, bound), std::size_t{0});
        md::setPairLanes(true);
    }

private:
    /// What the drift reads and writes beside the world's grains, the grains' loads set to small constants.
    struct DriftArrays {
        std::vector<Vec3> force;
        std::vector<Vec3> damping;
        std::vector<Vec3> torque;
        std::vector<Vec3> halfVelocity;
        std::vector<Vec3> halfAngularVelocity;
        std::vector<Vec3> displacement;
        std::vector<Vec3> position;

        static Vec3 untouched() { return Vec3::Constant(-7.0); }

        explicit DriftArrays(const World& world)
            : force(world.particles.size(), Vec3(1e-5, -2e-5, 3e-6)),
              damping(world.particles.size(), Vec3(-1e-6, 0.0, 2e-6)),
              torque(world.particles.size(), Vec3(1e-9, 2e-9, -1e-9)),
              halfVelocity(world.particles.size(), untouched()),
              halfAngularVelocity(world.particles.size(), untouched()),
              displacement(world.particles.size(), Vec3::Zero()), position(world.particles.position)
        {
        }

        md::GrainDrift drift(const World& world)
        {
            const Particles& p = world.particles;
            return {p.velocity.data(),
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
        }
    };

    /// driftLanes at `width` grains a time: whole groups from where the range starts, nothing outside them touched,
    /// the scalar DisplacementBound's bounds, and infinite ones where a displacement is not finite.
    static void checkDriftGroups(std::size_t width)
    {
        const World world = lattice();
        const std::size_t n = world.particles.size();
        const Particles& p = world.particles;
        DriftArrays arrays(world);
        const md::GrainDrift drift = arrays.drift(world);
        DisplacementBound bound;
        QCOMPARE(md::driftLanes(drift, 5, 5 + width - 1, bound), std::size_t{0});  // less than a group
        QCOMPARE(md::driftLanes(drift, 5, 30, bound), std::size_t{24});            // 24 grains: 3 or 6 groups
        for (std::size_t i = 0; i < n; ++i) {
            const bool drifted = i >= 5 && i < 29;
            QCOMPARE(sameBits(arrays.halfVelocity[i], DriftArrays::untouched()), !drifted);
            QCOMPARE(sameBits(arrays.position[i], p.position[i]), !drifted);
        }
        // The grains' displacements taken in one after the other by the scalar bound give the same bounds.
        DisplacementBound expected;
        for (std::size_t i = 5; i < 29; ++i) {
            expected.add(arrays.displacement[i]);
        }
        QVERIFY(expected.largest() > 0.0);
        QCOMPARE(std::bit_cast<std::uint64_t>(bound.largest()), std::bit_cast<std::uint64_t>(expected.largest()));
        QCOMPARE(std::bit_cast<std::uint64_t>(bound.pairApproach()),
                 std::bit_cast<std::uint64_t>(expected.pairApproach()));
        // A displacement that is not finite makes both bounds infinite, as the scalar bound's.
        arrays.displacement[40] = Vec3(std::numeric_limits<double>::quiet_NaN(), 0.0, 0.0);
        DisplacementBound broken;
        QCOMPARE(md::driftLanes(drift, 40, 48, broken), std::size_t{8});
        QVERIFY(std::isinf(broken.largest()));
        QVERIFY(std::isinf(broken.pairApproach()));
    }
};

QTEST_APPLESS_MAIN(VerletLanesTest)
#include "tst_verlet_lanes.moc"
