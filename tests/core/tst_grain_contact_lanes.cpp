// GrainContactLanes: two grain-grain contacts that share no grain, updated side by side in the two lanes of an SSE2
// register, give bit for bit what the scalar update gives one after the other: the new force R (Unger & Kertesz
// 2003, eq. 23 and 34: sweepUpdate), the change dR and the four grains' predicted motion (applyToGrains), for spheres
// (3D) and for disks (2D, the update's plane form). The plane form gives the numbers of the 3D form with z = 0.
// The contacts are drawn so that every branch of eq. 34 occurs in both lanes: open (R = 0), sticking, and sliding
// (R_t scaled onto the Coulomb cone), and their values span several decades.
#include "cd/GaussSeidelSweep.h"
#include "cd/GrainContactLanes.h"
#include "cd/PredictedMotion.h"
#include "model/World.h"
#include "settings/Settings.h"
#include "util/Random.h"

#include <QTest>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>

using namespace granular;

namespace {

/// A random vector of the given scale; in the x-y plane for 2D.
Vec3 randomVector(Random& random, double scale, int dimension)
{
    const Vec3 v(random.uniform(-1.0, 1.0), random.uniform(-1.0, 1.0), random.uniform(-1.0, 1.0));
    return scale * (dimension == 2 ? Vec3(v.x(), v.y(), 0.0) : v);
}

/// An angular velocity: along z for 2D.
Vec3 randomSpin(Random& random, double scale, int dimension)
{
    const Vec3 w = randomVector(random, scale, 3);
    return dimension == 2 ? Vec3(0.0, 0.0, w.z()) : w;
}

/// A contact between grains `partner` < `particle` with random normal, force and masses, as the sweeps' record for
/// the step dt.
SweepContact randomGrainContact(Random& random, std::int32_t partner, std::int32_t particle, const Particles& p,
                                double friction, double dt, int dimension)
{
    Contact c;
    c.kind = ContactKind::Particle;
    c.partner = partner;
    c.particle = particle;
    c.normal = randomVector(random, 1.0, dimension).normalized();
    c.normalMass = std::pow(10.0, random.uniform(-2.0, 2.0));
    c.tangentialMass = c.normalMass * random.uniform(0.2, 1.0);
    c.gap = random.uniform(-0.01, 0.004) * p.radius[static_cast<std::size_t>(partner)];
    c.force = random.uniform() < 0.2 ? Vec3::Zero()
                                     : randomVector(random, std::pow(10.0, random.uniform(-1.0, 3.0)), dimension);
    return sweepContact(c, p, friction, dt, 0);
}

bool sameBits(double a, double b)
{
    return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

bool sameBits(const Vector3Of<double>& a, const Vector3Of<double>& b)
{
    return sameBits(a.x, b.x) && sameBits(a.y, b.y) && sameBits(a.z, b.z);
}

bool sameBits(const Vector2Of<double>& a, const Vector2Of<double>& b)
{
    return sameBits(a.x, b.x) && sameBits(a.y, b.y);
}

bool sameMotion(const PredictedMotion& a, const PredictedMotion& b, std::size_t grain)
{
    return sameBits(a.body(grain).velocity, b.body(grain).velocity) &&
           sameBits(a.body(grain).angularVelocity, b.body(grain).angularVelocity);
}

/// The same numbers, a zero's sign aside (the plane form does not add the 3D form's zero z terms).
bool sameValues(const Vector3Of<double>& a, const Vector3Of<double>& b)
{
    return a.x == b.x && a.y == b.y && a.z == b.z;
}

bool sameRecord(const SweepContact& a, const SweepContact& b)
{
    return sameBits(a.normalForce, b.normalForce) && sameBits(a.tangentialForce, b.tangentialForce);
}

template <class Vec> bool sameChange(const ForceChangeOf<Vec>& a, const ForceChangeOf<Vec>& b)
{
    return sameBits(a.normal, b.normal) && sameBits(a.tangential, b.tangential) && sameBits(a.vector, b.vector) &&
           sameBits(a.turn, b.turn);
}

struct Tally {
    int open = 0;
    int sliding = 0;
    int sticking = 0;
    int laneMismatches = 0;   ///< lanes against one after the other
    int planeMismatches = 0;  ///< 2D: the plane form against the 3D form
};

/// 20,000 trials of two contacts in the space Space (dimension 3 or 2).
template <template <class> class Space> Tally compareLanes(int dimension)
{
    using Vec = Space<double>;
    Tally tally;
    Random random(11);
    World world;
    world.dimension = dimension;
    const std::size_t grains = 40;
    for (std::size_t i = 0; i < grains; ++i) {
        world.particles.add(randomVector(random, 10.0, dimension), random.uniform(0.5, 1.5), random.uniform(0.5, 3.0),
                            dimension);
    }
    const double dt = 0.01;
    ContactSettings settings;
    const RigidBoundaryTerms terms{&settings};
    for (int trial = 0; trial < 20000; ++trial) {
        for (std::size_t i = 0; i < grains; ++i) {
            world.particles.velocity[i] = randomVector(random, std::pow(10.0, random.uniform(-2.0, 1.0)), dimension);
            world.particles.angularVelocity[i] =
                randomSpin(random, std::pow(10.0, random.uniform(-2.0, 1.0)), dimension);
        }
        PredictedMotion scalarMotion;
        scalarMotion.predict(world, dt);
        PredictedMotion laneMotion = scalarMotion;
        PredictedMotion spaceMotion = scalarMotion;  // the 3D form on the same (planar) data
        // Four different grains, in random roles.
        std::int32_t g[4];
        for (int k = 0; k < 4; ++k) {
            bool fresh = false;
            while (!fresh) {
                g[k] = static_cast<std::int32_t>(random.below(grains));
                fresh = true;
                for (int j = 0; j < k; ++j) {
                    fresh = fresh && g[j] != g[k];
                }
            }
        }
        const auto friction = [&] { return random.uniform() < 0.1 ? 0.0 : random.uniform(0.0, 2.0); };
        SweepContact first = randomGrainContact(random, std::min(g[0], g[1]), std::max(g[0], g[1]), world.particles,
                                                friction(), dt, dimension);
        SweepContact second = randomGrainContact(random, std::min(g[2], g[3]), std::max(g[2], g[3]), world.particles,
                                                 friction(), dt, dimension);

        SweepContact scalarFirst = first;
        SweepContact scalarSecond = second;
        SweepContact spaceFirst = first;
        SweepContact spaceSecond = second;
        ForceChangeOf<Vec> scalarChange[2];
        int lane = 0;
        for (SweepContact* s : {&scalarFirst, &scalarSecond}) {
            FrameForce<Vec> before{};
            scalarChange[lane] = sweepUpdate(0, *s, scalarMotion, nullptr, terms, before).change;
            scalarMotion.applyToGrains(*s, scalarChange[lane]);
            const double tangential = std::sqrt(dot(s->tangentialForce, s->tangentialForce));
            if (s->normalForce == 0.0 && tangential == 0.0) {
                ++tally.open;
            } else if (tangential >= (1.0 - 1e-12) * s->friction * s->normalForce) {
                ++tally.sliding;
            } else {
                ++tally.sticking;
            }
            ++lane;
        }
        if (dimension == 2) {
            for (SweepContact* s : {&spaceFirst, &spaceSecond}) {
                FrameForce<Vector3Of<double>> before{};
                spaceMotion.applyToGrains(*s, sweepUpdate(0, *s, spaceMotion, nullptr, terms, before).change);
            }
            bool same = spaceFirst.normalForce == scalarFirst.normalForce &&
                        spaceSecond.normalForce == scalarSecond.normalForce &&
                        sameValues(spaceFirst.tangentialForce, scalarFirst.tangentialForce) &&
                        sameValues(spaceSecond.tangentialForce, scalarSecond.tangentialForce);
            for (const std::int32_t i : g) {
                const auto& a = spaceMotion.body(static_cast<std::size_t>(i));
                const auto& b = scalarMotion.body(static_cast<std::size_t>(i));
                same = same && sameValues(a.velocity, b.velocity) && sameValues(a.angularVelocity, b.angularVelocity);
            }
            if (!same && tally.planeMismatches++ < 5) {
                std::printf("trial %d: the plane form differs from the 3D form\n", trial);
            }
        }

        ForceChangeOf<Vec> laneChange[2];
        updateGrainContacts<Space>(first, second, laneMotion, laneChange[0], laneChange[1]);
        bool same = sameRecord(first, scalarFirst) && sameRecord(second, scalarSecond) &&
                    sameChange(laneChange[0], scalarChange[0]) && sameChange(laneChange[1], scalarChange[1]);
        for (const std::int32_t i : g) {
            same = same && sameMotion(laneMotion, scalarMotion, static_cast<std::size_t>(i));
        }
        if (!same && tally.laneMismatches++ < 5) {
            std::printf("trial %d: lanes differ from one after the other\n", trial);
        }
    }
    std::printf("%dD, 40,000 updates: %d open, %d sticking, %d sliding; %d pairs differ in lanes, %d in the plane "
                "form\n",
                dimension, tally.open, tally.sticking, tally.sliding, tally.laneMismatches, tally.planeMismatches);
    return tally;
}

}  // namespace

class GrainContactLanesTest : public QObject {
    Q_OBJECT

private slots:
    void spheresSideBySideAreBitForBitOneAfterTheOther() { check(3); }
    void disksSideBySideAreBitForBitOneAfterTheOther() { check(2); }

private:
    static void check([[maybe_unused]] int dimension)
    {
#if !defined(__SSE2__)
        QSKIP("this build has no SSE2: the sweeps update one contact at a time");
#else
        const Tally tally = dimension == 2 ? compareLanes<Vector2Of>(2) : compareLanes<Vector3Of>(3);
        QCOMPARE(tally.laneMismatches, 0);
        QCOMPARE(tally.planeMismatches, 0);
        QVERIFY(tally.open > 1000);
        QVERIFY(tally.sticking > 1000);
        QVERIFY(tally.sliding > 1000);
#endif
    }
};

QTEST_APPLESS_MAIN(GrainContactLanesTest)
#include "tst_grain_contact_lanes.moc"
