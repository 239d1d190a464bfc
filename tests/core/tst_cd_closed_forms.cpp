// Contact dynamics against closed forms: a resting sphere carries m g; rolling without slip
// accelerates at a = g sin(theta) / (1 + I/(m r^2)) (5/7 g sin(theta) sphere, 2/3 disk); slipping at
// a = g (sin(theta) - mu cos(theta)) below the threshold mu = 2/7 tan(theta) (sphere); and the
// shock law (Unger & Kertesz 2003, eq. 34) makes a head-on collision perfectly inelastic. A resting column carries
// at each contact the weight of the grains above it, with the random and with the coloured sweep. One Gauss-Seidel
// update of a single contact from rest is exact with the effective masses m_n, m_t of eq. 17-18: a spinning grain on
// the floor, two unequal disks, a grain and the piston.
#include "cd/ContactDynamicsStepper.h"
#include "model/World.h"
#include "settings/Choices.h"

#include <QTest>

#include <cmath>
#include <numbers>
#include <string>
#include <vector>

using namespace granular;

namespace {

constexpr double g = 9.81;

/// Settings of a converged CD step: local criterion at eps = 1e-12, at most 1000 iterations.
Settings converged(double mu, double dt, std::uint64_t seed)
{
    Settings s;
    s.seed = seed;
    s.solver.method = Method::ContactDynamics;
    s.solver.criterion = ConvergenceCriterion::Local;
    s.solver.maxIterations = 1000;
    s.solver.tolerance = 1e-12;
    s.solver.dt = dt;
    s.contact.friction = mu;
    return s;
}

/// One step of 1 ms of `world` under gravity (-y) with the sweep `sweep`, converged to 1e-12 (statics: grains at rest
/// stay).
void stepToRest(World& world, SweepOrder sweep)
{
    world.gravity = Vec3(0.0, -g, 0.0);
    world.bounds = Eigen::AlignedBox3d(Vec3(-1, -1, -1), Vec3(1, 1, 1));
    Settings settings = converged(0.3, 1e-3, 3);
    settings.solver.maxIterations = 100000;
    settings.solver.sweep = sweep;
    ContactDynamicsStepper stepper(settings);
    stepper.step(world);
}

/// One grain of radius 1 cm resting on the floor y = 0, gravity tilted by theta: the incline.
World grainOnIncline(int dimension, double theta)
{
    World world;
    world.dimension = dimension;
    world.particles.add(Vec3(0.0, 0.01, 0.0), 0.01, 2500.0, dimension);
    world.walls.push_back({"incline", Vec3::Zero(), Vec3::UnitY()});
    world.gravity = g * Vec3(std::sin(theta), -std::cos(theta), 0.0);
    world.bounds = Eigen::AlignedBox3d(Vec3(-1, -1, -1), Vec3(1, 1, 1));
    return world;
}

/// Acceleration along the incline measured over `steps` steps after the contact is established.
double accelerationAlongIncline(int dimension, double theta, double mu)
{
    World world = grainOnIncline(dimension, theta);
    const double dt = 1e-4;
    ContactDynamicsStepper stepper(converged(mu, dt, 7));
    stepper.step(world);
    const double v0 = world.particles.velocity[0].x();
    const int steps = 500;
    for (int n = 0; n < steps; ++n) {
        stepper.step(world);
    }
    return (world.particles.velocity[0].x() - v0) / (steps * dt);
}

/// Settings of a single Gauss-Seidel update per step (fixed criterion, N_I = 1): for one contact, from a cold start,
/// the update is exact only with the right effective masses m_n, m_t (eq. 17-18); a converged solve reaches the same
/// forces for any mass off by a factor below 2, and cannot tell.
Settings oneUpdate(double mu, double dt)
{
    Settings s = converged(mu, dt, 5);
    s.solver.criterion = ConvergenceCriterion::Fixed;
    s.solver.iterations = 1;
    return s;
}

/// The relative velocity at a grain pair's contact point (eq. 3): V = v1 + w1 x l1 - (v0 + w0 x l0), the levers to the
/// point midway between the surfaces along the normal n from grain 0 to grain 1.
Vec3 pairContactVelocity(const Particles& p, const Vec3& n)
{
    const Vec3 l0 = p.radius[0] * n;
    const Vec3 l1 = -p.radius[1] * n;
    return p.velocity[1] + p.angularVelocity[1].cross(l1) - (p.velocity[0] + p.angularVelocity[0].cross(l0));
}

bool relativelyClose(double actual, double expected, double tolerance)
{
    return std::fabs(actual - expected) <= tolerance * std::fabs(expected);
}

}  // namespace

class ContactDynamicsClosedFormTest : public QObject {
    Q_OBJECT

private slots:
    void restingSphereCarriesItsWeight();
    void droppedSphereComesToRestAndCarriesItsWeight();
    void sphereRollsAtFiveSeventhsGSinTheta();
    void diskRollsAtTwoThirdsGSinTheta();
    void sphereSlipsBelowFrictionThreshold();
    void rollingSlippingThresholdIsTwoSeventhsTanTheta();
    void headOnCollisionIsPerfectlyInelastic();
    void unequalMassesConserveMomentumAndStick();
    void columnCarriesTheWeightAboveEachContactWithEitherSweep();
    void lightPistonOnARowIsCarriedWithEitherSweep();
    void bodiesPushedFromRestMeetWhatTheyReachInTheirFirstStep();
    void oneUpdateOfASpinningGrainUsesItsTangentialMass();
    void oneUpdateOfUnequalDisksUsesTheirEffectiveMasses();
    void oneUpdateOfAGrainAndThePistonUsesBothMasses();
};

void ContactDynamicsClosedFormTest::columnCarriesTheWeightAboveEachContactWithEitherSweep()
{
    // Ten touching spheres stacked on the floor: contact k carries the weight of the grains above it, (10 - j) m g
    // for the contact below grain j (statics). The coloured sweep (two colours here) must reach it too.
    for (const SweepOrder sweep : {SweepOrder::Random, SweepOrder::Coloured, SweepOrder::Strips}) {
        World world;
        world.dimension = 3;
        const int count = 10;
        for (int k = 0; k < count; ++k) {
            world.particles.add(Vec3(0.0, 0.01 + 0.02 * k, 0.0), 0.01, 2500.0, 3);
        }
        world.walls.push_back({"floor", Vec3::Zero(), Vec3::UnitY()});
        stepToRest(world, sweep);
        QCOMPARE(world.contacts.size(), static_cast<std::size_t>(count));
        const double weight = world.particles.mass[0] * g;
        for (const Contact& c : world.contacts) {
            const double above = count - c.particle;
            QVERIFY2(relativelyClose(c.force.dot(c.normal), above * weight, 1e-9),
                     (std::string(choiceName(sweep)) + ": contact below grain " + std::to_string(c.particle) +
                      " carries " + std::to_string(c.force.dot(c.normal)) + " N")
                         .c_str());
        }
    }
}

void ContactDynamicsClosedFormTest::lightPistonOnARowIsCarriedWithEitherSweep()
{
    // Ten disks side by side on the floor under a piston a tenth of a disk's mass, pressed by F (statics): the piston
    // contacts carry M g + F together (how they share it is indeterminate for rigid bodies), each floor contact carries
    // m g and the grain's piston contact, and the piston rests. The coloured sweep updated the ten piston contacts
    // together from one piston velocity (a Jacobi step on the piston, overshooting ~10 m_n / M): it diverged.
    for (const SweepOrder sweep : {SweepOrder::Random, SweepOrder::Coloured, SweepOrder::Strips}) {
        World world;
        world.dimension = 2;
        const int count = 10;
        constexpr double kRadius = 0.01;
        for (int k = 0; k < count; ++k) {
            world.particles.add(Vec3(0.03 * k, kRadius, 0.0), kRadius, 2500.0, 2);
        }
        const double grainMass = world.particles.mass[0];
        world.walls.push_back({"floor", Vec3::Zero(), Vec3::UnitY()});
        Piston piston;
        piston.plane = {"piston", Vec3(0.0, 2.0 * kRadius, 0.0), -Vec3::UnitY()};
        piston.mass = 0.1 * grainMass;
        piston.force = 5.0 * grainMass * g;
        world.piston = piston;
        stepToRest(world, sweep);
        QCOMPARE(world.contacts.size(), static_cast<std::size_t>(2 * count));
        const std::string name(choiceName(sweep));
        std::vector<double> pressed(count, 0.0);  // N, by the piston on each grain
        double total = 0.0;
        for (const Contact& c : world.contacts) {
            if (c.kind == ContactKind::Piston) {
                pressed[static_cast<std::size_t>(c.particle)] = c.force.dot(c.normal);
                total += c.force.dot(c.normal);
            }
        }
        QVERIFY2(relativelyClose(total, piston.mass * g + piston.force, 1e-9),
                 (name + ": the piston contacts carry " + std::to_string(total) + " N").c_str());
        for (const Contact& c : world.contacts) {
            if (c.kind == ContactKind::Wall) {
                const double expected = grainMass * g + pressed[static_cast<std::size_t>(c.particle)];
                QVERIFY2(relativelyClose(c.force.dot(c.normal), expected, 1e-9),
                         (name + ": the floor contact of grain " + std::to_string(c.particle) + " carries " +
                          std::to_string(c.force.dot(c.normal)) + " N, not " + std::to_string(expected) + " N")
                             .c_str());
            }
        }
        QVERIFY2(std::fabs(world.piston->velocity) < 1e-9 * g * 1e-3,
                 (name + ": the piston moves at " + std::to_string(world.piston->velocity) + " m/s").c_str());
    }
}

void ContactDynamicsClosedFormTest::bodiesPushedFromRestMeetWhatTheyReachInTheirFirstStep()
{
    // Without gravity, at rest, 5 mm from what they hit: a grain pushed by an external force, and a piston pushed by
    // its applied force, each reach it within one step of 10 ms (F dt^2 / m = 0.2 m). The candidates' margin counted
    // only the speed and gravity (2 x 0 + 0.1 r = 1 mm): the contact was not a candidate and the body went through.
    // With it a candidate, eq. 34 (g_pos / dt + V_n >= 0) lets the body close the gap and stop there.
    constexpr double kRadius = 0.01;
    constexpr double dt = 0.01;
    {
        World world;
        world.dimension = 3;
        world.particles.add(Vec3(0.0, kRadius + 0.005, 0.0), kRadius, 2500.0, 3);
        world.walls.push_back({"floor", Vec3::Zero(), Vec3::UnitY()});
        world.particles.externalForce[0] = Vec3(0.0, -0.2 * world.particles.mass[0] / (dt * dt), 0.0);
        world.bounds = Eigen::AlignedBox3d(Vec3(-1, -1, -1), Vec3(1, 1, 1));
        ContactDynamicsStepper stepper(converged(0.5, dt, 1));
        stepper.step(world);
        QVERIFY2(world.particles.position[0].y() >= kRadius - 1e-12,
                 ("the grain's centre is at " + std::to_string(world.particles.position[0].y()) + " m").c_str());
        QVERIFY(std::fabs(world.particles.position[0].y() - kRadius) < 1e-12);  // it closed the gap, touching
        stepper.step(world);
        QVERIFY(std::fabs(world.particles.velocity[0].y()) < 1e-12);  // and rests on the floor
    }
    {
        World world;
        world.dimension = 2;
        world.particles.add(Vec3(0.0, kRadius, 0.0), kRadius, 2500.0, 2);
        world.walls.push_back({"floor", Vec3::Zero(), Vec3::UnitY()});
        Piston piston;
        piston.plane = {"piston", Vec3(0.0, 2.0 * kRadius + 0.005, 0.0), -Vec3::UnitY()};
        piston.mass = world.particles.mass[0];
        piston.force = 0.2 * piston.mass / (dt * dt);
        world.piston = piston;
        world.bounds = Eigen::AlignedBox3d(Vec3(-1, -1, -1), Vec3(1, 1, 1));
        ContactDynamicsStepper stepper(converged(0.5, dt, 1));
        stepper.step(world);
        QVERIFY2(world.piston->plane.point.y() >= 2.0 * kRadius - 1e-12,
                 ("the piston is at " + std::to_string(world.piston->plane.point.y()) + " m").c_str());
        QVERIFY(std::fabs(world.piston->plane.point.y() - 2.0 * kRadius) < 1e-12);
        stepper.step(world);
        // At rest on the grain to the solver's tolerance (1e-12 of the 20 m/s that the force adds in a step).
        QVERIFY2(std::fabs(world.piston->velocity) < 1e-9,
                 ("the piston moves at " + std::to_string(world.piston->velocity) + " m/s").c_str());
    }
}

void ContactDynamicsClosedFormTest::restingSphereCarriesItsWeight()
{
    World world = grainOnIncline(3, 0.0);
    ContactDynamicsStepper stepper(converged(0.5, 1e-3, 1));
    for (int n = 0; n < 10; ++n) {
        stepper.step(world);
        QCOMPARE(world.contacts.size(), std::size_t{1});
        const double weight = world.particles.mass[0] * g;
        QVERIFY(relativelyClose(world.contacts[0].force.y(), weight, 1e-12));
        QVERIFY(world.particles.velocity[0].norm() < 1e-15);
    }
}

void ContactDynamicsClosedFormTest::droppedSphereComesToRestAndCarriesItsWeight()
{
    World world = grainOnIncline(3, 0.0);
    world.particles.position[0].y() = 0.0105;  // 0.5 mm above the floor
    ContactDynamicsStepper stepper(converged(0.5, 1e-3, 1));
    for (int n = 0; n < 40; ++n) {
        stepper.step(world);
    }
    QCOMPARE(world.contacts.size(), std::size_t{1});
    QVERIFY(relativelyClose(world.contacts[0].force.y(), world.particles.mass[0] * g, 1e-12));
    QVERIFY(std::fabs(world.particles.velocity[0].y()) < 1e-15);
    QVERIFY(world.particles.position[0].y() >= 0.01 - 1e-15);  // g_pos: no overlap is created
}

void ContactDynamicsClosedFormTest::sphereRollsAtFiveSeventhsGSinTheta()
{
    for (const double degrees : {5.0, 20.0, 35.0}) {
        const double theta = degrees * std::numbers::pi / 180.0;
        const double a = accelerationAlongIncline(3, theta, 1.0);
        QVERIFY2(relativelyClose(a, 5.0 / 7.0 * g * std::sin(theta), 1e-9), std::to_string(a).c_str());
    }
}

void ContactDynamicsClosedFormTest::diskRollsAtTwoThirdsGSinTheta()
{
    const double theta = 25.0 * std::numbers::pi / 180.0;
    const double a = accelerationAlongIncline(2, theta, 1.0);
    QVERIFY2(relativelyClose(a, 2.0 / 3.0 * g * std::sin(theta), 1e-9), std::to_string(a).c_str());
}

void ContactDynamicsClosedFormTest::sphereSlipsBelowFrictionThreshold()
{
    const double theta = 30.0 * std::numbers::pi / 180.0;
    for (const double mu : {0.0, 0.05, 0.12}) {
        const double a = accelerationAlongIncline(3, theta, mu);
        QVERIFY2(relativelyClose(a, g * (std::sin(theta) - mu * std::cos(theta)), 1e-9), std::to_string(a).c_str());
    }
}

void ContactDynamicsClosedFormTest::rollingSlippingThresholdIsTwoSeventhsTanTheta()
{
    const double theta = 30.0 * std::numbers::pi / 180.0;
    const double threshold = 2.0 / 7.0 * std::tan(theta);
    const double rolling = 5.0 / 7.0 * g * std::sin(theta);
    const double rolled = accelerationAlongIncline(3, theta, threshold * 1.01);
    QVERIFY(relativelyClose(rolled, rolling, 1e-9));
    const double mu = threshold * 0.99;
    const double slipping = g * (std::sin(theta) - mu * std::cos(theta));
    const double slipped = accelerationAlongIncline(3, theta, mu);
    QVERIFY(relativelyClose(slipped, slipping, 1e-9));
    QVERIFY(slipped > rolled);  // the measured accelerations (it compared the two closed forms)
}

void ContactDynamicsClosedFormTest::headOnCollisionIsPerfectlyInelastic()
{
    World world;
    world.dimension = 3;
    world.particles.add(Vec3(0.0, 0.0, 0.0), 0.01, 2500.0, 3);
    world.particles.add(Vec3(0.0205, 0.0, 0.0), 0.01, 2500.0, 3);
    world.particles.velocity[0] = Vec3(0.3, 0.0, 0.0);
    world.particles.velocity[1] = Vec3(-0.3, 0.0, 0.0);
    world.bounds = Eigen::AlignedBox3d(Vec3(-1, -1, -1), Vec3(1, 1, 1));
    ContactDynamicsStepper stepper(converged(0.3, 1e-3, 3));
    for (int n = 0; n < 10; ++n) {
        stepper.step(world);
    }
    const Vec3 relative = world.particles.velocity[1] - world.particles.velocity[0];
    QVERIFY2(std::fabs(relative.x()) < 1e-14, std::to_string(relative.x()).c_str());
    QVERIFY(world.particles.velocity[0].norm() < 1e-14);  // equal masses: both stop
    QVERIFY((world.particles.position[1] - world.particles.position[0]).norm() >= 0.02 - 1e-14);
}

void ContactDynamicsClosedFormTest::unequalMassesConserveMomentumAndStick()
{
    World world;
    world.dimension = 2;
    world.particles.add(Vec3(0.0, 0.0, 0.0), 0.02, 1000.0, 2);
    world.particles.add(Vec3(0.031, 0.0, 0.0), 0.01, 1000.0, 2);
    world.particles.velocity[0] = Vec3(0.5, 0.0, 0.0);
    world.bounds = Eigen::AlignedBox3d(Vec3(-1, -1, 0), Vec3(1, 1, 0));
    const Vec3 momentum = world.particles.mass[0] * world.particles.velocity[0];
    ContactDynamicsStepper stepper(converged(0.3, 1e-3, 3));
    for (int n = 0; n < 10; ++n) {
        stepper.step(world);
    }
    const Vec3 after =
        world.particles.mass[0] * world.particles.velocity[0] + world.particles.mass[1] * world.particles.velocity[1];
    QVERIFY((after - momentum).norm() < 1e-14 * momentum.norm() + 1e-18);
    const Vec3 common = momentum / (world.particles.mass[0] + world.particles.mass[1]);
    QVERIFY((world.particles.velocity[0] - common).norm() < 1e-12);
    QVERIFY((world.particles.velocity[1] - common).norm() < 1e-12);
}

void ContactDynamicsClosedFormTest::oneUpdateOfASpinningGrainUsesItsTangentialMass()
{
    // A grain (r = 1 cm, 2500 kg/m^3) resting on the floor and spinning at w0 = 1 rad/s, one update of one step of
    // 1 ms (mu = 0.5: it sticks). The contact point stops: the floor's impulse P = m_t r w0, m_t = (1/m + r^2/I)^-1
    // (eq. 18), leaves v = m_t r w0 / m and w = w0 - r P / I: for a sphere (I = 2/5 m r^2) v = 2/7 r w0 and w = 2/7 w0,
    // for a disk (I = 1/2 m r^2) v = 1/3 r w0 and w = 1/3 w0. The floor carries m g (eq. 17 with the wall's infinite
    // mass).
    constexpr double kRadius = 0.01;
    constexpr double dt = 1e-3;
    for (const int dimension : {3, 2}) {
        World world;
        world.dimension = dimension;
        world.particles.add(Vec3(0.0, kRadius, 0.0), kRadius, 2500.0, dimension);
        world.particles.angularVelocity[0] = Vec3(0.0, 0.0, 1.0);
        world.walls.push_back({"floor", Vec3::Zero(), Vec3::UnitY()});
        world.gravity = Vec3(0.0, -g, 0.0);
        world.bounds = Eigen::AlignedBox3d(Vec3(-1, -1, -1), Vec3(1, 1, 1));
        ContactDynamicsStepper stepper(oneUpdate(0.5, dt));
        stepper.step(world);
        const double share = dimension == 3 ? 2.0 / 7.0 : 1.0 / 3.0;
        const Particles& p = world.particles;
        const std::string name = dimension == 3 ? "sphere" : "disk";
        QVERIFY2(relativelyClose(-p.velocity[0].x(), share * kRadius, 1e-12),
                 (name + ": v = " + std::to_string(p.velocity[0].x()) + " m/s").c_str());
        QVERIFY2(relativelyClose(p.angularVelocity[0].z(), share, 1e-12),
                 (name + ": w = " + std::to_string(p.angularVelocity[0].z()) + " rad/s").c_str());
        QVERIFY(std::fabs(p.velocity[0].y()) < 1e-15);
        QCOMPARE(world.contacts.size(), std::size_t{1});
        QVERIFY(relativelyClose(world.contacts[0].force.dot(world.contacts[0].normal), p.mass[0] * g, 1e-12));
    }
}

void ContactDynamicsClosedFormTest::oneUpdateOfUnequalDisksUsesTheirEffectiveMasses()
{
    // Two touching disks (r0 = 2 cm, r1 = 1 cm, 1000 kg/m^3, per unit thickness: m0 = 1.25664 kg, m1 = 0.314159 kg)
    // closing in at 0.3 m/s and sliding past each other at 0.2 m/s, spinning, without gravity; mu = 10: they stick.
    // One update stops their contact point exactly only with m_n = (1/m0 + 1/m1)^-1 = 0.251327 kg and m_t = (1/m_n +
    // r0^2/I0 + r1^2/I1)^-1 = m_n / 3 = 0.0837758 kg (eq. 17-18; r^2/I = 2/m for a disk); the momentum is kept.
    World world;
    world.dimension = 2;
    world.particles.add(Vec3(0.0, 0.0, 0.0), 0.02, 1000.0, 2);
    world.particles.add(Vec3(0.03, 0.0, 0.0), 0.01, 1000.0, 2);
    Particles& p = world.particles;
    QVERIFY(relativelyClose(p.mass[0], 0.4 * std::numbers::pi, 1e-12));
    p.velocity[0] = Vec3(0.2, 0.15, 0.0);
    p.velocity[1] = Vec3(-0.1, -0.05, 0.0);
    p.angularVelocity[0] = Vec3(0.0, 0.0, 3.0);
    p.angularVelocity[1] = Vec3(0.0, 0.0, -2.0);
    world.gravity = Vec3::Zero();
    world.bounds = Eigen::AlignedBox3d(Vec3(-1, -1, -1), Vec3(1, 1, 1));
    const Vec3 momentum = p.mass[0] * p.velocity[0] + p.mass[1] * p.velocity[1];
    const Vec3 before = pairContactVelocity(p, Vec3::UnitX());
    QVERIFY(before.x() < -0.29 && std::fabs(before.y()) > 0.1);  // closing and sliding
    ContactDynamicsStepper stepper(oneUpdate(10.0, 1e-3));
    stepper.step(world);
    const Vec3 after = pairContactVelocity(p, Vec3::UnitX());
    QVERIFY2(after.norm() < 1e-12 * before.norm(),
             ("the contact point moves at " + std::to_string(after.x()) + ", " + std::to_string(after.y()) + " m/s")
                 .c_str());
    QVERIFY(((p.mass[0] * p.velocity[0] + p.mass[1] * p.velocity[1]) - momentum).norm() < 1e-15);
    QCOMPARE(world.contacts.size(), std::size_t{1});
    const Contact& c = world.contacts[0];
    QVERIFY2(relativelyClose(c.normalMass, 0.08 * std::numbers::pi, 1e-12), std::to_string(c.normalMass).c_str());
    QVERIFY2(relativelyClose(c.tangentialMass, 0.08 * std::numbers::pi / 3.0, 1e-12),
             std::to_string(c.tangentialMass).c_str());
}

void ContactDynamicsClosedFormTest::oneUpdateOfAGrainAndThePistonUsesBothMasses()
{
    // A free disk at rest, touched by a piston of a third of its mass coming down at 0.4 m/s, without gravity or
    // applied force. One update stops their approach only with m_n = (1/m + 1/M)^-1 (eq. 17): both then move at the
    // common velocity M u / (m + M), the momentum kept.
    constexpr double kRadius = 0.01;
    World world;
    world.dimension = 2;
    world.particles.add(Vec3(0.0, 0.0, 0.0), kRadius, 2500.0, 2);
    const double m = world.particles.mass[0];
    Piston piston;
    piston.plane = {"piston", Vec3(0.0, kRadius, 0.0), -Vec3::UnitY()};
    piston.mass = m / 3.0;
    piston.force = 0.0;
    piston.velocity = 0.4;  // m/s along its normal, -y: down
    world.piston = piston;
    world.gravity = Vec3::Zero();
    world.bounds = Eigen::AlignedBox3d(Vec3(-1, -1, -1), Vec3(1, 1, 1));
    ContactDynamicsStepper stepper(oneUpdate(0.5, 1e-3));
    stepper.step(world);
    const double common = piston.mass * 0.4 / (m + piston.mass);  // m/s, down
    QVERIFY2(relativelyClose(-world.particles.velocity[0].y(), common, 1e-12),
             ("the disk moves at " + std::to_string(world.particles.velocity[0].y()) + " m/s").c_str());
    QVERIFY2(relativelyClose(world.piston->velocity, common, 1e-12),
             ("the piston moves at " + std::to_string(world.piston->velocity) + " m/s").c_str());
}

QTEST_APPLESS_MAIN(ContactDynamicsClosedFormTest)
#include "tst_cd_closed_forms.moc"
