// Soft-particle DEM (docs/REFERENCES.md) against closed forms:
// - energy: with e = 1 (no dashpot) velocity Verlet conserves the total energy E = sum 1/2 m v^2 +
//   1/2 I w^2 - m g.x over 1000 collisions within 1e-4 (relative);
// - Hertz: a head-on undamped collision lasts t_c = 2.87 (m*^2 / (R* E*^2 v))^(1/5) (Hertz theory,
//   F = 4/3 E* sqrt(R*) delta^(3/2)), within 1 %, between two spheres and of a sphere on a drum's concave rim;
// - tangential spring with Coulomb cap (Cundall-Strack): on an incline of angle theta a sphere that
//   cannot roll sticks for tan(theta) < mu and slides with a = g (sin(theta) - mu cos(theta)) above;
//   a sphere free to roll (mu > 2/7 tan(theta)) rolls at a = 5/7 g sin(theta);
// - Mindlin: a Hertz sphere resting on a floor, kicked sideways without slipping, rocks on its tangential spring at
//   omega^2 = k_t (1/m + L^2/I), k_t = 8 G* sqrt(R delta), G* = E / 2(1 + nu)(2 - nu), within 0.5 %.
#include "md/ContactLaw.h"
#include "md/SoftParticleStepper.h"
#include "model/World.h"

#include <QTest>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

using namespace granular;

namespace {

constexpr double g = 9.81;
constexpr double kRadius = 1e-3;     // m
constexpr double kDensity = 2500.0;  // kg/m^3
constexpr double kInfinite = std::numeric_limits<double>::infinity();

double totalEnergy(const World& world)
{
    const auto& p = world.particles;
    double energy = 0.0;
    for (std::size_t i = 0; i < p.size(); ++i) {
        energy += 0.5 * p.mass[i] * p.velocity[i].squaredNorm() +
                  0.5 * p.inertia[i] * p.angularVelocity[i].squaredNorm() -
                  p.mass[i] * world.gravity.dot(p.position[i]);
    }
    return energy;
}

/// Which of the pairs (grain-grain, grain-wall) overlap now, as bits.
std::uint32_t touching(const World& world)
{
    const auto& p = world.particles;
    std::uint32_t bits = 0;
    std::uint32_t bit = 1;
    for (std::size_t i = 0; i < p.size(); ++i) {
        for (std::size_t j = i + 1; j < p.size(); ++j, bit <<= 1U) {
            if ((p.position[j] - p.position[i]).norm() < p.radius[i] + p.radius[j]) {
                bits |= bit;
            }
        }
        for (const PlaneWall& wall : world.walls) {
            if (wall.signedDistance(p.position[i]) < p.radius[i]) {
                bits |= bit;
            }
            bit <<= 1U;
        }
    }
    return bits;
}

md::SoftParticleSettings linearSettings(double restitution, double friction, double dt)
{
    md::SoftParticleSettings settings;
    settings.dt = dt;
    settings.substeps = 0;
    settings.material.law = NormalLaw::Linear;
    settings.material.grainStiffness = 1e5;  // N/m
    settings.material.restitution = restitution;
    settings.material.friction = friction;
    settings.material.wallFriction = friction;
    return settings;
}

/// A sphere resting on the floor y = 0 under gravity tilted by theta: the incline.
World sphereOnIncline(double theta, bool canRoll)
{
    World world;
    world.dimension = 3;
    world.particles.add(Vec3(0.0, kRadius, 0.0), kRadius, kDensity, 3);
    if (!canRoll) {
        world.particles.inertia[0] = kInfinite;
    }
    world.walls.push_back({"incline", Vec3::Zero(), Vec3::UnitY()});
    world.gravity = g * Vec3(std::sin(theta), -std::cos(theta), 0.0);
    world.bounds = Eigen::AlignedBox3d(Vec3(-0.01, -0.01, -0.01), Vec3(0.01, 0.01, 0.01));
    return world;
}

struct InclineMotion {
    double acceleration = 0.0;  ///< m/s^2 along the incline, between 0.02 s and 0.1 s
    double speed = 0.0;         ///< m/s at 0.1 s
};

InclineMotion inclineMotion(double thetaDegrees, double mu, bool canRoll)
{
    const double theta = thetaDegrees * std::numbers::pi / 180.0;
    World world = sphereOnIncline(theta, canRoll);
    SoftParticleStepper stepper(linearSettings(0.1, mu, 1e-4));
    for (int n = 0; n < 200; ++n) {
        stepper.step(world);
    }
    const double v0 = world.particles.velocity[0].x();
    const double t0 = world.time;
    for (int n = 0; n < 800; ++n) {
        stepper.step(world);
    }
    return {(world.particles.velocity[0].x() - v0) / (world.time - t0), world.particles.velocity[0].norm()};
}

/// Relative change of the total energy of two spheres in a closed box under gravity after 1000
/// collisions (with the walls and each other) with e = 1, one MD step per solver.dt of
/// resolution / stepsPerContact, so that every collision is counted.
double energyDriftOverThousandCollisions(md::SoftParticleSettings settings, double stepsPerContact, int& collisions)
{
    World world;
    world.dimension = 3;
    const Vec3 size(6e-3, 4e-3, 3.5e-3);
    world.bounds = Eigen::AlignedBox3d(Vec3::Zero(), size);
    world.walls = {{"floor", Vec3::Zero(), Vec3::UnitY()}, {"lid", Vec3(0, size.y(), 0), -Vec3::UnitY()},
                   {"left", Vec3::Zero(), Vec3::UnitX()},  {"right", Vec3(size.x(), 0, 0), -Vec3::UnitX()},
                   {"back", Vec3::Zero(), Vec3::UnitZ()},  {"front", Vec3(0, 0, size.z()), -Vec3::UnitZ()}};
    world.particles.add(Vec3(1.5e-3, 1.5e-3, 1.6e-3), kRadius, kDensity, 3);
    world.particles.add(Vec3(4.4e-3, 2.4e-3, 1.9e-3), 0.8 * kRadius, kDensity, 3);
    world.particles.velocity[0] = Vec3(0.9, 0.4, 0.25);
    world.particles.velocity[1] = Vec3(-0.6, 0.7, -0.35);
    world.gravity = Vec3(0.0, -g, 0.0);
    settings.dt = SoftParticleStepper(settings).timeScale(world).resolution / stepsPerContact;
    settings.substeps = 1;
    SoftParticleStepper stepper(settings);
    const double start = totalEnergy(world);
    collisions = 0;
    std::uint32_t previous = touching(world);
    for (int n = 0; n < 20000000 && (collisions < 1000 || previous != 0); ++n) {
        stepper.step(world);
        const std::uint32_t now = touching(world);
        collisions += std::popcount(now & ~previous);
        previous = now;
    }
    return std::fabs(totalEnergy(world) / start - 1.0);
}

bool relativelyClose(double actual, double expected, double tolerance)
{
    return std::fabs(actual - expected) <= tolerance * std::fabs(expected);
}

// A sphere (R = 10 mm, 2500 kg/m^3) rests on the floor at its static Hertz overlap delta0 = (m g / k_h)^(2/3), k_h =
// 4/3 E/(1 - nu^2) sqrt(R), and is kicked sideways at 1 mm/s, far below sliding (mu = 1). The contact point's slip u
// feels -k_t u on the centre and the torque L k_t u on the rotation, L = R - delta0 (the lever to the floor), so
// u'' = -k_t (1/m + L^2/I) u: the tangential force oscillates at that omega with the Mindlin stiffness k_t = 8 G*
// sqrt(R delta0), G* = G / (2 - nu) on a rigid floor, G = E / 2(1 + nu) (Mindlin 1949). No dashpot (e = 1).
void mindlinRocking(double nu)
{
    constexpr double radius = 0.01;       // m
    constexpr double youngModulus = 1e7;  // Pa
    md::SoftParticleSettings settings;
    settings.dt = 1e-6;
    settings.substeps = 1;
    settings.material.law = NormalLaw::Hertz;
    settings.material.youngModulus = youngModulus;
    settings.material.poissonRatio = nu;
    settings.material.restitution = 1.0;
    settings.material.friction = 1.0;
    settings.material.wallFriction = 1.0;
    World world;
    world.dimension = 3;
    world.particles.add(Vec3::Zero(), radius, kDensity, 3);
    const double mass = world.particles.mass[0];
    const double hertz = 4.0 / 3.0 * youngModulus / (1.0 - nu * nu) * std::sqrt(radius);
    const double rest = std::pow(mass * g / hertz, 2.0 / 3.0);
    world.particles.position[0] = Vec3(0.0, radius - rest, 0.0);
    world.particles.velocity[0] = Vec3(1e-3, 0.0, 0.0);
    world.walls.push_back({"floor", Vec3::Zero(), Vec3::UnitY()});
    world.gravity = Vec3(0.0, -g, 0.0);
    world.bounds = Eigen::AlignedBox3d(Vec3(-0.1, -0.1, -0.1), Vec3(0.1, 0.1, 0.1));
    SoftParticleStepper stepper(settings);

    const double shear = youngModulus / (2.0 * (1.0 + nu) * (2.0 - nu));
    const double mindlin = 8.0 * shear * std::sqrt(radius * rest);
    const double lever = radius - rest;
    const double omega = std::sqrt(mindlin * (1.0 / mass + lever * lever / world.particles.inertia[0]));
    const double period = 2.0 * std::numbers::pi / omega;

    // The times at which the tangential force changes sign, over ten periods.
    std::vector<double> crossings;
    double before = 0.0;
    double largest = 0.0;
    double normal = 0.0;
    while (world.time < 10.2 * period) {
        stepper.step(world);
        double tangential = 0.0;
        for (const Contact& c : world.contacts) {
            if (c.kind == ContactKind::Wall) {
                tangential = c.force.x();
                normal = c.force.y();
            }
        }
        if (before != 0.0 && (tangential < 0.0) != (before < 0.0)) {
            crossings.push_back(world.time - settings.dt * tangential / (tangential - before));
        }
        before = tangential;
        largest = std::max(largest, std::fabs(tangential));
    }
    QVERIFY(crossings.size() >= 18);
    const double measured = 2.0 * (crossings.back() - crossings.front()) / static_cast<double>(crossings.size() - 1);
    std::printf("  nu = %.2f: delta0 = %.4e m, k_t = %.4e N/m, period %.6e s measured, %.6e s Mindlin (%+.3f %%); "
                "|F_t| up to %.3e N against mu F_n = %.3e N\n",
                nu, rest, mindlin, measured, period, 100.0 * (measured / period - 1.0), largest, normal);
    QVERIFY(largest < 0.1 * normal);  // far from sliding: the spring alone acts
    QVERIFY2(relativelyClose(measured, period, 5e-3),
             ("period " + std::to_string(measured) + " s, Mindlin's " + std::to_string(period) + " s").c_str());
}

}  // namespace

class SoftParticleClosedFormTest : public QObject {
    Q_OBJECT

private slots:
    void elasticCollisionsConserveEnergy();
    void hertzContactDurationMatchesTheory();
    void hertzContactInADrumHasTheBoresRadius();
    void sphereSticksBelowTheFrictionAngle();
    void sphereSlidesAboveTheFrictionAngle();
    void sphereRollsAtFiveSeventhsGSinTheta();
    void hertzTangentialStiffnessIsMindlins();
};

// e = 1 (no dashpot): 1000 collisions change E = sum 1/2 m v^2 + 1/2 I w^2 - m g.x by < 1e-4. The
// linear law at the automatic step (t_c / 50: measured 6.9e-5); the Hertz law, whose stiffness
// dF/d(delta) ~ sqrt(delta) is singular at first touch, at t_c / 200 (measured 1.1e-6; 1.2e-4 at
// t_c / 50 and 8.2e-5 at t_c / 100).
void SoftParticleClosedFormTest::elasticCollisionsConserveEnergy()
{
    md::SoftParticleSettings linear = linearSettings(1.0, 0.0, 1.0);
    md::SoftParticleSettings hertz = linear;
    hertz.material.law = NormalLaw::Hertz;
    hertz.material.youngModulus = 1e8;
    hertz.material.poissonRatio = 0.3;
    const struct {
        const char* law;
        md::SoftParticleSettings settings;
        double stepsPerContact;
    } cases[] = {{"linear", linear, 50.0}, {"Hertz", hertz, 200.0}};
    for (const auto& c : cases) {
        int collisions = 0;
        const double drift = energyDriftOverThousandCollisions(c.settings, c.stepsPerContact, collisions);
        char message[200];
        std::snprintf(message, sizeof message,
                      "energy conservation, %s law, e = 1, dt = t_c/%.0f: relative change %.3g after %d collisions",
                      c.law, c.stepsPerContact, drift, collisions);
        std::printf("%s\n", message);
        QVERIFY2(collisions >= 1000, message);
        QVERIFY2(drift < 1e-4, message);
    }
}

/// The Hertz law without a dashpot (e = 1) for grains of Young's modulus E (Pa) and Poisson ratio nu, one MD step
/// of dt (s) per step.
md::SoftParticleSettings elasticHertz(double E, double nu, double dt)
{
    md::SoftParticleSettings settings;
    settings.dt = dt;
    settings.substeps = 1;
    settings.material.law = NormalLaw::Hertz;
    settings.material.youngModulus = E;
    settings.material.poissonRatio = nu;
    settings.material.restitution = 1.0;
    return settings;
}

/// The times (s) at which the overlap `overlap()` rises above 0 and falls back to 0 (linearly between steps) as
/// `stepper` steps `world`; -1 where it did not.
template <class Overlap>
std::pair<double, double> contactSpan(SoftParticleStepper& stepper, World& world, double dt, const Overlap& overlap)
{
    double opened = -1.0;
    double closed = -1.0;
    double previous = overlap();
    for (int n = 0; n < 100000 && closed < 0.0; ++n) {
        const double t = world.time;
        stepper.step(world);
        const double now = overlap();
        const double crossing = t + dt * previous / (previous - now);  // delta = 0, linearly
        if (previous <= 0.0 && now > 0.0) {
            opened = crossing;
        } else if (previous > 0.0 && now <= 0.0) {
            closed = crossing;
        }
        previous = now;
    }
    return {opened, closed};
}

// Hertz theory: t_c = 2.87 (m*^2 / (R* E*^2 v))^(1/5) for a head-on collision at the speed v.
void SoftParticleClosedFormTest::hertzContactDurationMatchesTheory()
{
    const double E = 1e8;
    const double nu = 0.3;
    for (const double v : {0.05, 0.5}) {
        World world;
        world.dimension = 3;
        world.bounds = Eigen::AlignedBox3d(Vec3(-0.01, -0.01, -0.01), Vec3(0.01, 0.01, 0.01));
        world.particles.add(Vec3::Zero(), kRadius, kDensity, 3);
        world.particles.add(Vec3(2.0 * kRadius + 1e-6, 0.0, 0.0), kRadius, kDensity, 3);
        world.particles.velocity[0] = Vec3(0.5 * v, 0.0, 0.0);
        world.particles.velocity[1] = Vec3(-0.5 * v, 0.0, 0.0);
        const double mStar = 0.5 * world.particles.mass[0];
        const double rStar = 0.5 * kRadius;
        const double eStar = E / (2.0 * (1.0 - nu * nu));
        const double theory = 2.87 * std::pow(mStar * mStar / (rStar * eStar * eStar * v), 0.2);
        const md::SoftParticleSettings settings = elasticHertz(E, nu, theory / 400.0);
        SoftParticleStepper stepper(settings);
        const auto overlap = [&world] {
            return 2.0 * kRadius - (world.particles.position[1] - world.particles.position[0]).norm();
        };
        const auto [opened, closed] = contactSpan(stepper, world, settings.dt, overlap);
        QVERIFY2(opened >= 0.0 && closed > opened, "the collision did not happen");
        const double measured = closed - opened;
        const std::string message = "Hertz t_c = 2.87 (m*^2/(R* E*^2 v))^(1/5) at v = " + std::to_string(v) +
                                    " m/s: theory " + std::to_string(theory) + " s, measured " +
                                    std::to_string(measured);
        std::printf("%s (%+.3f %%)\n", message.c_str(), 100.0 * (measured / theory - 1.0));
        QVERIFY2(relativelyClose(measured, theory, 0.01), message.c_str());
    }
}

// A sphere of radius r that hits the rim of a drum of radius R = 4 r head-on at v: Hertz's t_c = 2.87 (m^2 /
// (R_e E*^2 v))^(1/5) with the rigid rim's E* = E / (1 - nu^2) and the bore's equivalent radius R_e = sqrt(R' R''),
// 1/R' = 1/r - 1/R across the axis, R'' = r along it (Johnson, Contact Mechanics, 1985, sec. 4.2): R_e = 1.155 r,
// a contact 2.8 % shorter than on a flat wall. Within 1 %.
void SoftParticleClosedFormTest::hertzContactInADrumHasTheBoresRadius()
{
    const double E = 1e8;
    const double nu = 0.3;
    const double v = 0.2;
    const double drumRadius = 4.0 * kRadius;
    World world;
    world.dimension = 3;
    world.bounds = Eigen::AlignedBox3d(Vec3(-0.01, -0.01, -0.01), Vec3(0.01, 0.01, 0.01));
    world.drum = Drum{};
    world.drum->radius = drumRadius;
    world.particles.add(Vec3(drumRadius - kRadius - 1e-6, 0.0, 0.0), kRadius, kDensity, 3);
    world.particles.velocity[0] = Vec3(v, 0.0, 0.0);
    const double mass = world.particles.mass[0];
    const double eStar = E / (1.0 - nu * nu);
    const double bore = kRadius * std::sqrt(drumRadius / (drumRadius - kRadius));
    QVERIFY(relativelyClose(md::hertzEffectiveRadius(ContactKind::Drum, drumRadius, kRadius), bore, 1e-15));
    const double theory = 2.87 * std::pow(mass * mass / (bore * eStar * eStar * v), 0.2);
    const md::SoftParticleSettings settings = elasticHertz(E, nu, theory / 400.0);
    SoftParticleStepper stepper(settings);
    const auto overlap = [&world, drumRadius] {
        return world.particles.position[0].head<2>().norm() + kRadius - drumRadius;
    };
    const auto [opened, closed] = contactSpan(stepper, world, settings.dt, overlap);
    QVERIFY2(opened >= 0.0 && closed > opened, "the sphere did not reach the rim and come back");
    const double measured = closed - opened;
    const std::string message = "Hertz t_c in a drum with R_e = sqrt(R' R''): theory " + std::to_string(theory) +
                                " s, measured " + std::to_string(measured) + " s";
    std::printf("%s (%+.3f %%)\n", message.c_str(), 100.0 * (measured / theory - 1.0));
    QVERIFY2(relativelyClose(measured, theory, 0.01), message.c_str());
}

// Coulomb: tan(theta) = 0.36 < mu = 0.5, rolling suppressed: the tangential spring holds the sphere.
void SoftParticleClosedFormTest::sphereSticksBelowTheFrictionAngle()
{
    const InclineMotion motion = inclineMotion(20.0, 0.5, false);
    const double sliding = g * (std::sin(20.0 * std::numbers::pi / 180.0));
    const std::string message = "stick below the friction angle: a = " + std::to_string(motion.acceleration) +
                                " m/s^2, v = " + std::to_string(motion.speed) + " m/s";
    std::printf("%s (a = %.3g m/s^2, v = %.3g m/s)\n", message.c_str(), motion.acceleration, motion.speed);
    QVERIFY2(std::fabs(motion.acceleration) < 1e-6 * sliding && motion.speed < 1e-7, message.c_str());
}

// Coulomb: a = g (sin(theta) - mu cos(theta)) for tan(theta) = 0.58 > mu = 0.2, rolling suppressed.
void SoftParticleClosedFormTest::sphereSlidesAboveTheFrictionAngle()
{
    const double theta = 30.0 * std::numbers::pi / 180.0;
    for (const double mu : {0.0, 0.2, 0.5}) {
        const InclineMotion motion = inclineMotion(30.0, mu, false);
        const double expected = g * (std::sin(theta) - mu * std::cos(theta));
        const std::string message = "slide, a = g (sin - mu cos) = " + std::to_string(expected) +
                                    " m/s^2 at mu = " + std::to_string(mu) + ": measured " +
                                    std::to_string(motion.acceleration);
        std::printf("%s\n", message.c_str());
        QVERIFY2(relativelyClose(motion.acceleration, expected, 0.01), message.c_str());
    }
}

// Rolling without slip (mu = 0.5 > 2/7 tan(theta) = 0.165): a = g sin(theta) / (1 + I/(m r^2)) = 5/7 g sin(theta).
void SoftParticleClosedFormTest::sphereRollsAtFiveSeventhsGSinTheta()
{
    const double theta = 30.0 * std::numbers::pi / 180.0;
    const InclineMotion motion = inclineMotion(30.0, 0.5, true);
    const double expected = 5.0 / 7.0 * g * std::sin(theta);
    const std::string message = "roll, a = 5/7 g sin(theta) = " + std::to_string(expected) + " m/s^2: measured " +
                                std::to_string(motion.acceleration);
    std::printf("%s\n", message.c_str());
    QVERIFY2(relativelyClose(motion.acceleration, expected, 0.01), message.c_str());
}

void SoftParticleClosedFormTest::hertzTangentialStiffnessIsMindlins()
{
    for (const double nu : {0.3, 0.45}) {
        mindlinRocking(nu);
    }
}

QTEST_APPLESS_MAIN(SoftParticleClosedFormTest)
#include "tst_md_closed_forms.moc"
