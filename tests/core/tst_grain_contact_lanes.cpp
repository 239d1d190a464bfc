// GrainContactLanes: two grain-grain contacts that share no grain, updated side by side in the two lanes of an SSE2
// register, give bit for bit what the scalar update gives one after the other: the new force R (Unger & Kertesz
// 2003, eq. 23 and 34: contactForce), the change dR and the four grains' predicted motion (applyImpulseToGrains).
// The contacts are drawn so that every branch of eq. 34 occurs in both lanes: open (R = 0), sticking, and sliding
// (R_t scaled onto the Coulomb cone), and their values span several decades.
#include "cd/GaussSeidelSweep.h"
#include "cd/GrainContactLanes.h"
#include "cd/PredictedMotion.h"
#include "model/World.h"
#include "settings/Settings.h"
#include "util/Random.h"

#include <QtTest>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>

using namespace granular;

namespace {

Vec3 randomVector(Random& random, double scale)
{
    return scale * Vec3(random.uniform(-1.0, 1.0), random.uniform(-1.0, 1.0), random.uniform(-1.0, 1.0));
}

/// A contact between grains `partner` < `particle` with radii r0, r1 and random normal, force and masses.
Contact randomGrainContact(Random& random, std::int32_t partner, std::int32_t particle, double r0, double r1)
{
    Contact c;
    c.kind = ContactKind::Particle;
    c.partner = partner;
    c.particle = particle;
    c.normal = randomVector(random, 1.0).normalized();
    c.lever0 = r0 * c.normal;
    c.lever1 = -r1 * c.normal;
    c.normalMass = std::pow(10.0, random.uniform(-2.0, 2.0));
    c.tangentialMass = c.normalMass * random.uniform(0.2, 1.0);
    c.gap = random.uniform(-0.01, 0.004) * r0;
    c.force = random.uniform() < 0.2 ? Vec3::Zero() : randomVector(random, std::pow(10.0, random.uniform(-1.0, 3.0)));
    return c;
}

bool sameBits(const Vec3& a, const Vec3& b)
{
    return std::memcmp(a.data(), b.data(), sizeof(double) * 3) == 0;
}

bool sameMotion(PredictedMotion& a, PredictedMotion& b, std::size_t grain)
{
    return sameBits(a.body(grain).velocity, b.body(grain).velocity) &&
           sameBits(a.body(grain).angularVelocity, b.body(grain).angularVelocity);
}

}  // namespace

class GrainContactLanesTest : public QObject {
    Q_OBJECT

private slots:
    void twoContactsSideBySideAreBitForBitOneAfterTheOther()
    {
#if !defined(__SSE2__)
        QSKIP("this build has no SSE2: the sweeps update one contact at a time");
#else
        Random random(11);
        World world;
        const std::size_t grains = 40;
        for (std::size_t i = 0; i < grains; ++i) {
            world.particles.add(randomVector(random, 10.0), random.uniform(0.5, 1.5), random.uniform(0.5, 3.0), 3);
        }
        const double dt = 0.01;
        int open = 0;
        int sliding = 0;
        int sticking = 0;
        int mismatches = 0;
        for (int trial = 0; trial < 20000; ++trial) {
            for (std::size_t i = 0; i < grains; ++i) {
                world.particles.velocity[i] = randomVector(random, std::pow(10.0, random.uniform(-2.0, 1.0)));
                world.particles.angularVelocity[i] = randomVector(random, std::pow(10.0, random.uniform(-2.0, 1.0)));
            }
            PredictedMotion scalarMotion;
            scalarMotion.predict(world, dt);
            PredictedMotion laneMotion = scalarMotion;
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
            const auto radius = [&](std::int32_t i) { return world.particles.radius[static_cast<std::size_t>(i)]; };
            Contact first = randomGrainContact(random, std::min(g[0], g[1]), std::max(g[0], g[1]),
                                               radius(std::min(g[0], g[1])), radius(std::max(g[0], g[1])));
            Contact second = randomGrainContact(random, std::min(g[2], g[3]), std::max(g[2], g[3]),
                                                radius(std::min(g[2], g[3])), radius(std::max(g[2], g[3])));
            QVERIFY(first.partner != second.partner && first.partner != second.particle &&
                    first.particle != second.partner && first.particle != second.particle);
            const auto friction = [&] { return random.uniform() < 0.1 ? 0.0 : random.uniform(0.0, 2.0); };
            const ShockCoefficients kFirst(first.gap, first.normalMass, first.tangentialMass, friction(), dt);
            const ShockCoefficients kSecond(second.gap, second.normalMass, second.tangentialMass, friction(), dt);

            ContactSettings settings;
            const RigidBoundaryTerms terms{&settings};
            Contact scalarFirst = first;
            Contact scalarSecond = second;
            Vec3 scalarChange[2];
            int lane = 0;
            for (Contact* c : {&scalarFirst, &scalarSecond}) {
                const ShockCoefficients& k = lane == 0 ? kFirst : kSecond;
                const Vec3 R = contactForce(0, *c, k, scalarMotion, terms, dt);
                scalarChange[lane] = R - c->force;
                scalarMotion.applyImpulseToGrains(*c, scalarChange[lane], dt);
                c->force = R;
                const double Rn = R.dot(c->normal);
                if (R == Vec3::Zero()) {
                    ++open;
                } else if ((R - Rn * c->normal).norm() >= (1.0 - 1e-12) * k.friction * Rn) {
                    ++sliding;
                } else {
                    ++sticking;
                }
                ++lane;
            }

            Vec3 laneChange[2];
            updateGrainContacts(first, second, kFirst, kSecond, laneMotion, dt, laneChange[0], laneChange[1]);
            bool same = sameBits(first.force, scalarFirst.force) && sameBits(second.force, scalarSecond.force) &&
                        sameBits(laneChange[0], scalarChange[0]) && sameBits(laneChange[1], scalarChange[1]);
            for (const std::int32_t i : g) {
                same = same && sameMotion(laneMotion, scalarMotion, static_cast<std::size_t>(i));
            }
            if (!same && mismatches++ < 5) {
                std::printf("trial %d: lanes differ from one after the other\n", trial);
            }
        }
        std::printf("40,000 updates: %d open, %d sticking, %d sliding; %d pairs differ\n", open, sticking, sliding,
                    mismatches);
        QCOMPARE(mismatches, 0);
        QVERIFY(open > 1000);
        QVERIFY(sticking > 1000);
        QVERIFY(sliding > 1000);
#endif
    }
};

QTEST_APPLESS_MAIN(GrainContactLanesTest)
#include "tst_grain_contact_lanes.moc"
