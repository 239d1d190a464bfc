// The soft-particle method's Verlet list (md::CandidateList): the candidates are rebuilt once the pairs' approach
// bound + closure by the cell exceeds the skin (or |u|_max plus the piston's travel does: a grain and a wall close in
// by at most |u|_max, the largest displacement of a grain since the last rebuild). Two grains close in by at most
// |u_j - u_i|, which is at most 2 |u|_max and at most the diagonal of the box of every u (DisplacementBound). The
// rule must hold where the forces are evaluated, i.e. after each drift: at every MD step
// every pair of grains that overlaps is among the candidates and carries its force. Checked step by step (substeps = 1,
// so world.contacts is published after every MD step):
// - two grains that approach head on by 0.3 skin per step each from a gap of 1.1 skins touch after the second drift,
//   when 2 |u|_max = 1.2 skins: the step's forces must hold the pair (a rebuild before the drift alone would miss it
//   for that step);
// - a gas of grains in a box with random velocities whose fastest grain flies 0.9 skin per step: every overlapping
//   pair found by testing all pairs is a candidate with a repulsive normal force, at every step, while the gas stays
//   in its box at its speeds (the contacts resolved in a few steps, no dashpot, no friction);
// - the same gas without walls, ten times slower inside and carried at 2 m/s as a whole (1.8 skins per step): every
//   overlapping pair is a candidate at every step, with a rebuild every few steps where 2 |u|_max would rebuild at
//   every step;
// - that gas carried into a wall, under a moving piston and inside a drum: every grain overlapping the boundary is a
//   candidate at every step (the boundaries' rule alone keeps them: the pairs' bound stays small; without that rule
//   a grain overlapping the wall was first missing at step 91, the piston at 89, the drum at 82).
#include "contact/ContactGeometry.h"
#include "md/SoftParticleStepper.h"
#include "model/World.h"
#include "util/Random.h"
#include "util/StateArchive.h"

#include <QTest>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <set>
#include <string>
#include <tuple>
#include <utility>

using namespace granular;

namespace {

constexpr double kRadius = 1e-3;     // m
constexpr double kDensity = 2500.0;  // kg/m^3

/// Linear springs of `stiffness` without dashpot (e = 1), friction `friction`.
md::SoftParticleSettings settingsWith(double dt, double relativeSkin, double stiffness, double friction)
{
    md::SoftParticleSettings settings;
    settings.dt = dt;
    settings.substeps = 1;  // world.contacts after every MD step
    settings.relativeSkin = relativeSkin;
    settings.material.law = NormalLaw::Linear;
    settings.material.grainStiffness = stiffness;  // N/m
    settings.material.restitution = 1.0;           // no dashpot: the normal force of an overlap is the elastic, > 0
    settings.material.friction = friction;
    settings.material.wallFriction = friction;
    return settings;
}

/// The pairs of grains that overlap, body 0 the lower index (all pairs tested).
std::set<std::pair<std::int32_t, std::int32_t>> overlappingPairs(const World& world)
{
    const auto& p = world.particles;
    std::set<std::pair<std::int32_t, std::int32_t>> pairs;
    for (std::size_t j = 0; j < p.size(); ++j) {
        for (std::size_t i = 0; i < j; ++i) {
            if ((p.position[j] - p.position[i]).norm() - p.radius[i] - p.radius[j] < 0.0) {  // the method's gap
                pairs.emplace(static_cast<std::int32_t>(i), static_cast<std::int32_t>(j));
            }
        }
    }
    return pairs;
}

/// A value in scientific notation (gaps of micrometres read as 0 in std::to_string).
std::string scientific(double value)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.3e", value);
    return text;
}

/// The grains that overlap a wall, the piston or the drum, as (kind, wall index or 0, grain) (every grain tested).
std::set<std::tuple<ContactKind, std::int32_t, std::int32_t>> overlappingBoundaries(const World& world)
{
    std::set<std::tuple<ContactKind, std::int32_t, std::int32_t>> touching;
    const auto test = [&](ContactKind kind, std::int32_t index, std::int32_t grain) {
        if (separation(kind, index, grain, world).gap < 0.0) {
            touching.emplace(kind, index, grain);
        }
    };
    for (std::int32_t j = 0; j < static_cast<std::int32_t>(world.particles.size()); ++j) {
        for (std::int32_t w = 0; w < static_cast<std::int32_t>(world.walls.size()); ++w) {
            test(ContactKind::Wall, w, j);
        }
        if (world.piston) {
            test(ContactKind::Piston, 0, j);
        }
        if (world.drum) {
            test(ContactKind::Drum, 0, j);
        }
    }
    return touching;
}

const char* kindName(ContactKind kind)
{
    switch (kind) {
    case ContactKind::Particle:
        return "pair";
    case ContactKind::Wall:
        return "wall";
    case ContactKind::Piston:
        return "piston";
    case ContactKind::Drum:
        return "drum";
    }
    return "?";
}

/// Empty if every overlapping pair, and every grain overlapping a wall, the piston or the drum, is a candidate with its
/// overlap and a repulsive normal force; else what is not.
std::string uncoveredPairs(const World& world)
{
    auto pairs = overlappingPairs(world);
    auto boundaries = overlappingBoundaries(world);
    for (const Contact& c : world.contacts) {
        if (c.kind == ContactKind::Particle ? pairs.erase({c.partner, c.particle}) == 0
                                            : boundaries.erase({c.kind, c.partner, c.particle}) == 0) {
            continue;
        }
        if (!(c.gap < 0.0) || !(c.force.dot(c.normal) > 0.0)) {
            return std::string(kindName(c.kind)) + " " + std::to_string(c.partner) + "-" + std::to_string(c.particle) +
                   " overlaps but its candidate has gap " + scientific(c.gap) + " m and normal force " +
                   scientific(c.force.dot(c.normal)) + " N";
        }
    }
    if (!boundaries.empty()) {
        const auto& [kind, index, grain] = *boundaries.begin();
        return std::to_string(boundaries.size()) +
               " grain(s) overlapping a boundary missing from the candidates, e.g. " + kindName(kind) + " " +
               std::to_string(index) + " and grain " + std::to_string(grain);
    }
    if (pairs.empty()) {
        return {};
    }
    return std::to_string(pairs.size()) + " overlapping pair(s) missing from the candidates, e.g. " +
           std::to_string(pairs.begin()->first) + "-" + std::to_string(pairs.begin()->second);
}

constexpr int kGasSide = 6;                           // grains per edge of the gas's lattice
constexpr double kGasSpacing = 2.4 * kRadius;         // m
constexpr double kGasSkin = 0.05;                     // the skin in smallest radii
constexpr double kSmallestGasRadius = 0.9 * kRadius;  // m

/// 216 grains of radius 0.9-1 mm on a cubic lattice 2.4 radii apart in [0, 6 x 2.4 radii]^3 (no walls), each at a
/// random velocity of up to `speed` m/s (uniform per axis within speed / sqrt(3)) plus `carriage` m/s.
World gas(double speed, const Vec3& carriage)
{
    World world;
    world.dimension = 3;
    world.bounds = Eigen::AlignedBox3d(Vec3::Zero(), Vec3::Constant(kGasSide * kGasSpacing));
    Random random(20261128);
    for (int x = 0; x < kGasSide; ++x) {
        for (int y = 0; y < kGasSide; ++y) {
            for (int z = 0; z < kGasSide; ++z) {
                const Vec3 centre = kGasSpacing * (Vec3(x, y, z) + Vec3::Constant(0.5));
                world.particles.add(centre, kRadius * random.uniform(0.9, 1.0), kDensity, 3);
                world.particles.velocity.back() =
                    carriage +
                    speed * Vec3(random.uniform(-1.0, 1.0), random.uniform(-1.0, 1.0), random.uniform(-1.0, 1.0)) /
                        std::sqrt(3.0);
            }
        }
    }
    return world;
}

/// s, the MD step in which a grain at `fastest` m/s flies 0.9 of the gas's skin. With 1000 N/m a contact lasts about
/// 2.3e-4 s, some 5 steps of the 4.05e-5 s of 1 m/s.
double gasStep(double fastest)
{
    return 0.9 * kGasSkin * kSmallestGasRadius / fastest;
}

/// Steps `world` through MD steps first..last (numbered for the message), adding the overlapping pairs of each step
/// to `touching`: empty if every step's overlapping pairs were all covered, else the first step's failure.
std::string stepCovered(SoftParticleStepper& stepper, World& world, int first, int last, int& touching)
{
    for (int n = first; n <= last; ++n) {
        stepper.step(world);
        touching += static_cast<int>(overlappingPairs(world).size());
        const std::string uncovered = uncoveredPairs(world);
        if (!uncovered.empty()) {
            return "step " + std::to_string(n) + ": " + uncovered;
        }
    }
    return {};
}

}  // namespace

class MdVerletSkinTest : public QObject {
    Q_OBJECT

private slots:
    void aPairThatTouchesAfterTheDriftIsEvaluatedAtThatStep()
    {
        const double relativeSkin = 0.1;
        const double skin = relativeSkin * kRadius;
        const double speed = 0.5;              // m/s, each grain towards the other
        const double dt = 0.3 * skin / speed;  // 0.3 skin per step and grain
        World world;
        world.dimension = 3;
        world.bounds = Eigen::AlignedBox3d(Vec3(-0.01, -0.01, -0.01), Vec3(0.01, 0.01, 0.01));
        world.particles.add(Vec3::Zero(), kRadius, kDensity, 3);
        world.particles.add(Vec3(2.0 * kRadius + 1.1 * skin, 0.0, 0.0), kRadius, kDensity, 3);
        world.particles.velocity[0] = Vec3(speed, 0.0, 0.0);
        world.particles.velocity[1] = Vec3(-speed, 0.0, 0.0);
        // 300 N/m: the contact lasts pi sqrt(m* / k) = 4.1e-4 s, about 7 steps of 6e-5 s.
        SoftParticleStepper stepper(settingsWith(dt, relativeSkin, 300.0, 0.3));
        stepper.step(world);
        QVERIFY2(overlappingPairs(world).empty(), "the grains touch after one step (1.1 - 0.6 skins apart)");
        stepper.step(world);
        QCOMPARE(overlappingPairs(world).size(), std::size_t{1});  // 1.1 - 1.2 skins: overlapping by 0.1 skin
        const std::string uncovered = uncoveredPairs(world);
        QVERIFY2(uncovered.empty(), ("after the second drift (2 |u|_max = 1.2 skins): " + uncovered).c_str());
        int touching = 1;
        const std::string later = stepCovered(stepper, world, 3, 40, touching);
        QVERIFY2(later.empty(), later.c_str());
        QVERIFY2(touching >= 5, "the collision did not last the steps it should");
        // Without dashpot the grains part at the speed they met (velocity Verlet, to a few per cent here).
        const double parting = world.particles.velocity[1].x() - world.particles.velocity[0].x();
        QVERIFY2(overlappingPairs(world).empty() && std::fabs(parting - 2.0 * speed) < 0.05 * 2.0 * speed,
                 ("parting speed " + std::to_string(parting) + " m/s, met at " + std::to_string(2.0 * speed)).c_str());
    }

    // A checkpoint whose method state counts other contacts than its world (a damaged file whose checksum was made to
    // match) is refused when loaded: before, the next drift wrote past the candidates' motion record (a crash).
    void aStateThatDoesNotFitItsWorldIsRefused()
    {
        World world;
        world.dimension = 3;
        world.bounds = Eigen::AlignedBox3d(Vec3(-0.01, -0.01, -0.01), Vec3(0.01, 0.01, 0.01));
        world.particles.add(Vec3::Zero(), kRadius, kDensity, 3);
        world.particles.add(Vec3(2.0 * kRadius, 0.0, 0.0), kRadius, kDensity, 3);
        SoftParticleStepper stepper(settingsWith(1e-5, 0.1, 300.0, 0.3));
        stepper.step(world);
        stepper.step(world);
        QVERIFY(!world.contacts.empty());
        stepper.checkState(world);  // the world it stepped: fits
        World damaged = world;
        damaged.contacts.pop_back();
        bool refused = false;
        try {
            stepper.checkState(damaged);
        } catch (const StateError& error) {
            refused = std::string(error.what()).find("candidate memories") != std::string::npos;
        }
        QVERIFY(refused);
    }

    void everyOverlappingPairOfAGasIsACandidateAtEveryStep()
    {
        // 216 grains on a lattice 2.4 radii apart in a walled box, random velocities of up to 1 m/s; a skin of 0.05
        // radii, of which the fastest grain flies 0.9 per step: rebuilds every step or two, and near misses (with the
        // check before the drift alone, an overlapping pair was first missing at step 71).
        const double size = kGasSide * kGasSpacing;
        World world = gas(1.0, Vec3::Zero());
        for (int axis = 0; axis < 3; ++axis) {
            const Vec3 normal = Vec3::Unit(axis);
            world.walls.push_back({"low", Vec3::Zero(), normal});
            world.walls.push_back({"high", Vec3::Constant(size), -normal});
        }
        const double fastest = 1.0;  // m/s, at most
        SoftParticleStepper stepper(settingsWith(gasStep(fastest), kGasSkin, 1e3, 0.0));
        int touching = 0;
        const std::string uncovered = stepCovered(stepper, world, 1, 1500, touching);
        QVERIFY2(uncovered.empty(), uncovered.c_str());
        // The check means something only where the gas stayed a gas: in its box, at its speeds (no blow-up).
        double speed = 0.0;
        for (std::size_t i = 0; i < world.particles.size(); ++i) {
            const Vec3& x = world.particles.position[i];
            QVERIFY2(x.allFinite() && (x.array() > 0.0).all() && (x.array() < size).all(), "a grain left the box");
            speed = std::max(speed, world.particles.velocity[i].norm());
        }
        std::printf("gas: %d pair-steps in contact over 1500 steps, all among the candidates; fastest grain %.3f m/s\n",
                    touching, speed);
        QVERIFY2(speed < 3.0 * fastest, "the gas heated up: the contacts are not resolved");
        QVERIFY2(touching > 10000, "too few collisions for the check to mean anything");
    }

    void aGasCarriedAsAWholeIsCoveredWithFewRebuilds()
    {
        // The gas without walls, its grains at up to 0.1 m/s among themselves and all carried at 2 m/s along x; the
        // step of the gas above (1 m/s: 0.9 skin per step), so the carriage alone takes a grain 1.8 skins per step
        // and 2 |u|_max passes the skin at every step. The pairs close in by at most 0.2 m/s: the box of the
        // displacements allows a rebuild every ~5 steps.
        World world = gas(0.1, Vec3(2.0, 0.0, 0.0));
        SoftParticleStepper stepper(settingsWith(gasStep(1.0), kGasSkin, 1e3, 0.0));
        int touching = 0;
        constexpr int kSteps = 1500;
        const std::string uncovered = stepCovered(stepper, world, 1, kSteps, touching);
        QVERIFY2(uncovered.empty(), uncovered.c_str());
        const std::int64_t rebuilds = stepper.candidateRebuilds();
        std::printf("carried gas: %d pair-steps in contact over %d steps, all among the candidates; %lld rebuilds\n",
                    touching, kSteps, static_cast<long long>(rebuilds));
        QVERIFY2(touching > 1000, "too few collisions for the check to mean anything");
        QVERIFY2(rebuilds < kSteps / 3, "the list is rebuilt as if every grain moved apart from the others");
        QVERIFY(rebuilds > 1);  // the grains do move among themselves
    }

    void aGasCarriedIntoAWallIsCoveredAtEveryStep() { carriedIntoABoundary(Boundary::Wall); }
    void aGasUnderAMovingPistonIsCoveredAtEveryStep() { carriedIntoABoundary(Boundary::Piston); }
    void aGasCarriedInsideADrumIsCoveredAtEveryStep() { carriedIntoABoundary(Boundary::Drum); }

private:
    enum class Boundary { Wall, Piston, Drum };

    /// The carried gas runs into a wall, under a piston and inside a drum: the pairs' bound stays small, so only the
    /// boundaries' own rule (the largest displacement, plus the piston's travel) keeps the grains that reach them among
    /// the candidates. Every grain overlapping the boundary must be a candidate at every step.
    static void carriedIntoABoundary(Boundary boundary)
    {
        const double size = kGasSide * kGasSpacing;
        const Vec3 middle = Vec3::Constant(0.5 * size);
        World world = gas(0.1, boundary == Boundary::Piston ? Vec3::Zero() : Vec3(2.0, 0.0, 0.0));
        if (boundary == Boundary::Wall) {
            world.walls.push_back({"ahead", Vec3(size + 3.0 * kGasSpacing, 0.0, 0.0), -Vec3::UnitX()});
        } else if (boundary == Boundary::Piston) {
            // A heavy piston coming down on the gas at 2 m/s along its normal (-y).
            Piston piston;
            piston.plane = {"piston", Vec3(0.0, size + 3.0 * kGasSpacing, 0.0), -Vec3::UnitY()};
            piston.mass = 1e3;  // kg, against ~1e-5 kg grains: it keeps its speed
            piston.velocity = 2.0;
            world.piston = piston;
        } else {
            Drum drum;
            drum.centre = middle;
            drum.radius = 0.5 * std::sqrt(2.0) * size + 2.0 * kGasSpacing;  // around the lattice's corners
            world.drum = drum;
        }
        SoftParticleStepper stepper(settingsWith(gasStep(1.0), kGasSkin, 1e3, 0.0));
        int touching = 0;
        int touchingBoundary = 0;
        for (int n = 1; n <= 600; ++n) {
            stepper.step(world);
            touching += static_cast<int>(overlappingPairs(world).size());
            touchingBoundary += static_cast<int>(overlappingBoundaries(world).size());
            const std::string uncovered = uncoveredPairs(world);
            QVERIFY2(uncovered.empty(), ("step " + std::to_string(n) + ": " + uncovered).c_str());
        }
        const char* name = boundary == Boundary::Wall ? "wall" : boundary == Boundary::Piston ? "piston" : "drum";
        std::printf("%s: %d grain-steps against it, %d pair-steps in contact over 600 steps, %lld rebuilds\n", name,
                    touchingBoundary, touching, static_cast<long long>(stepper.candidateRebuilds()));
        QVERIFY2(touchingBoundary > 500, "too few grains reached the boundary for the check to mean anything");
    }
};

QTEST_APPLESS_MAIN(MdVerletSkinTest)
#include "tst_md_verlet_skin.moc"
