// Soft-particle DEM (docs/REFERENCES.md, the DEM note of MSCM 2024): the normal restitution of a head-on collision,
// measured from the normal relative velocity before and after the contact (which ends at delta = 0),
// equals the specified e within 1 % for e in {0.1, 0.5, 0.9}, for equal masses, masses 1:4, a fixed
// partner (infinite mass) and a wall:
//   linear law: c_n = 2 sqrt(k_n m_eff) / sqrt(1 + (pi / ln e)^2), m_eff = m1 m2 / (m1 + m2)
//               (the DEM note of MSCM 2024 damping; m_eff = m1 against a fixed grain or a wall);
//   Hertz law:  F = 4/3 E* sqrt(R*) delta^(3/2) + alpha(e) sqrt(m_eff k_h) delta^(1/4) d(delta)/dt
//               (damping proportional to delta^(1/4), whose restitution does not depend on the speed).
// The MD step is automatic: each at most t_c / 50.
#include "md/SoftParticleStepper.h"
#include "model/World.h"

#include <QTest>

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

using namespace granular;

namespace {

constexpr double kRadius = 1e-3;     // m
constexpr double kDensity = 2500.0;  // kg/m^3
constexpr double kSpeed = 0.1;       // m/s, normal approach speed
constexpr double kTolerance = 0.01;  // issue acceptance: within 1 %

enum class Partner { Equal, OneToFour, Fixed, Wall };

std::string partnerName(Partner partner)
{
    switch (partner) {
    case Partner::Equal:
        return "equal masses";
    case Partner::OneToFour:
        return "masses 1:4";
    case Partner::Fixed:
        return "fixed partner";
    case Partner::Wall:
        return "wall";
    }
    return {};
}

/// Body 0 (a grain or the wall x = 0) and grain 1 to its right, 0.05 mm apart, approaching at kSpeed.
World collision(Partner partner)
{
    World world;
    world.dimension = 3;
    world.bounds = Eigen::AlignedBox3d(Vec3(-0.01, -0.01, -0.01), Vec3(0.01, 0.01, 0.01));
    const double gap = 5e-5;
    if (partner == Partner::Wall) {
        world.walls.push_back({"wall", Vec3::Zero(), Vec3::UnitX()});
        world.particles.add(Vec3(kRadius + gap, 0.0, 0.0), kRadius, kDensity, 3);
        world.particles.velocity[0] = Vec3(-kSpeed, 0.0, 0.0);
        return world;
    }
    const double r1 = partner == Partner::OneToFour ? kRadius * std::cbrt(4.0) : kRadius;
    world.particles.add(Vec3::Zero(), kRadius, kDensity, 3);
    world.particles.add(Vec3(kRadius + r1 + gap, 0.0, 0.0), r1, kDensity, 3);
    if (partner == Partner::Fixed) {
        world.particles.mass[0] = std::numeric_limits<double>::infinity();
        world.particles.inertia[0] = std::numeric_limits<double>::infinity();
        world.particles.velocity[1] = Vec3(-kSpeed, 0.0, 0.0);
    } else {
        world.particles.velocity[0] = Vec3(0.5 * kSpeed, 0.0, 0.0);
        world.particles.velocity[1] = Vec3(-0.5 * kSpeed, 0.0, 0.0);
    }
    return world;
}

/// Normal velocity of grain `last` relative to body 0 (positive: separating).
double normalRelativeVelocity(const World& world)
{
    const auto& v = world.particles.velocity;
    return world.particles.size() == 1 ? v[0].x() : v[1].x() - v[0].x();
}

/// The measured restitution -u_after / u_before of one collision.
double measuredRestitution(const md::MaterialModel& material, Partner partner)
{
    World world = collision(partner);
    md::SoftParticleSettings settings;
    settings.dt = 1e-4;
    settings.substeps = 0;  // automatic: each MD step <= t_c / 50
    settings.material = material;
    SoftParticleStepper stepper(settings);
    const double before = normalRelativeVelocity(world);
    for (int n = 0; n < 40; ++n) {  // 4 ms: approach (0.5 ms), contact (< 0.1 ms), flight apart
        stepper.step(world);
    }
    return -normalRelativeVelocity(world) / before;
}

md::MaterialModel linearMaterial(double restitution)
{
    md::MaterialModel m;
    m.law = NormalLaw::Linear;
    m.grainStiffness = 1e5;  // N/m
    m.restitution = restitution;
    return m;
}

md::MaterialModel hertzMaterial(double restitution)
{
    md::MaterialModel m;
    m.law = NormalLaw::Hertz;
    m.youngModulus = 1e8;  // Pa
    m.poissonRatio = 0.3;
    m.restitution = restitution;
    return m;
}

void checkLaw(md::MaterialModel (*material)(double), const std::string& law)
{
    for (const Partner partner : {Partner::Equal, Partner::OneToFour, Partner::Fixed, Partner::Wall}) {
        for (const double e : {0.1, 0.5, 0.9}) {
            const double measured = measuredRestitution(material(e), partner);
            const std::string message = law + ", " + partnerName(partner) + ": specified e = " + std::to_string(e) +
                                        ", measured " + std::to_string(measured);
            std::printf("%s\n", message.c_str());
            QVERIFY2(std::fabs(measured / e - 1.0) < kTolerance, message.c_str());
        }
    }
}

}  // namespace

class SoftParticleRestitutionTest : public QObject {
    Q_OBJECT

private slots:
    void linearLawRestitutesTheSpecifiedE();
    void hertzLawRestitutesTheSpecifiedE();
    void elasticCollisionIsElastic();
    void collisionAcrossThePeriodicBoundary();
};

// MSCM 2024: c_n = 2 sqrt(k_n m_eff) / sqrt(1 + (pi / ln e)^2).
void SoftParticleRestitutionTest::linearLawRestitutesTheSpecifiedE()
{
    checkLaw(&linearMaterial, "linear spring-dashpot (the DEM note of MSCM 2024 c_n)");
}

// Hertz F = 4/3 E* sqrt(R*) delta^(3/2) with the delta^(1/4) dashpot calibrated to e.
void SoftParticleRestitutionTest::hertzLawRestitutesTheSpecifiedE()
{
    checkLaw(&hertzMaterial, "Hertz with delta^(1/4) damping");
}

// e = 1: no dashpot; the rebound speed equals the impact speed (energy conservation).
void SoftParticleRestitutionTest::elasticCollisionIsElastic()
{
    for (const Partner partner : {Partner::Equal, Partner::OneToFour, Partner::Fixed, Partner::Wall}) {
        const double linear = measuredRestitution(linearMaterial(1.0), partner);
        const double hertz = measuredRestitution(hertzMaterial(1.0), partner);
        QVERIFY2(std::fabs(linear - 1.0) < 1e-3, ("linear, e = 1: measured " + std::to_string(linear)).c_str());
        QVERIFY2(std::fabs(hertz - 1.0) < 1e-3, ("Hertz, e = 1: measured " + std::to_string(hertz)).c_str());
    }
}

// A periodic cell of fixed size (World::cell, Shaebani et al. 2009, eq. 21 minimum image): two grains meet across
// the boundary x = 0 = L and restitute e = 0.5 like anywhere else.
void SoftParticleRestitutionTest::collisionAcrossThePeriodicBoundary()
{
    World world;
    world.dimension = 3;
    const PeriodicCell cell = PeriodicCell::cube(3, 0.01);
    world.cell = cell;
    world.bounds = cell.box();
    world.particles.add(Vec3(1.0e-3, 5e-3, 5e-3), kRadius, kDensity, 3);
    world.particles.add(Vec3(cell.length() - 1.05e-3, 5e-3, 5e-3), kRadius, kDensity, 3);
    world.particles.velocity[0] = Vec3(-0.5 * kSpeed, 0.0, 0.0);
    world.particles.velocity[1] = Vec3(0.5 * kSpeed, 0.0, 0.0);
    md::SoftParticleSettings settings;
    settings.dt = 1e-4;
    settings.material = linearMaterial(0.5);
    SoftParticleStepper stepper(settings);
    for (int n = 0; n < 40; ++n) {
        stepper.step(world);
    }
    const double measured = (world.particles.velocity[0].x() - world.particles.velocity[1].x()) / kSpeed;
    QVERIFY2(std::fabs(measured / 0.5 - 1.0) < kTolerance,
             ("periodic cell, e = 0.5: measured " + std::to_string(measured)).c_str());
    for (const Vec3& x : world.particles.position) {
        QVERIFY(x.x() >= 0.0 && x.x() < cell.length());
    }
}

QTEST_APPLESS_MAIN(SoftParticleRestitutionTest)
#include "tst_md_restitution.moc"
