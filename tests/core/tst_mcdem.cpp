// Multi-contact DEM (Brodu et al. 2015; docs/REFERENCES.md, "Multi-contact DEM"):
// - the half-space displacement at the opposite pole is gamma (1+nu)(3-2nu) F / (4 pi E R), and the pairwise
//   form equals the general Boussinesq formula;
// - closed form: a sphere squeezed quasi-statically between two rigid plates has the effective overlap
//   D/2 + a F at each plate, a = gamma (1+nu)(3-2nu) / (4 pi E R), and F = 4/3 E/(1-nu^2) sqrt(R) (D/2 + a F)^(3/2);
// - closed form: two unequal spheres stacked between the floor and a plate, each bulging at one contact by the
//   other's load (grain-grain E*, R* and both grains' bulges);
// - gamma = 0 is the soft-particle method with the Hertz law, to the last bit;
// - an isolated cluster keeps its momentum (to round-off), and without dashpots its angular momentum (to 1e-7 of its
//   scale over 3000 steps; with dashpots the integrator's exact dashpot impulse moves it by ~1e-4, with or without
//   mcdem);
// - a contact that a neighbour's bulge closes starts at zero force;
// - the paper's qualitative result: the top force and Z grow with gamma.
#include "BuiltinScenarios.h"
#include "mcdem/HalfSpaceDeformation.h"
#include "mcdem/MultiContactDeformation.h"
#include "md/SoftParticleStepper.h"
#include "model/World.h"
#include "scenario/Scenario.h"
#include "settings/SettingsBinding.h"
#include "sim/Run.h"
#include "sim/Simulation.h"

#include <QTest>

#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

using namespace granular;

namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kE = 23.3e3;     // Pa, the hydrogel's
constexpr double kR = 0.01;       // m
constexpr double kGamma = 1.125;  // the paper's fit

Settings hydrogel(double nu, double gamma)
{
    Settings s;
    s.setup = Setup::Compression;
    s.solver.method = Method::MultiContact;
    s.solver.dt = 1e-5;
    s.solver.substeps = 1;
    s.material.law = NormalLaw::Hertz;
    s.material.youngModulus = kE;
    s.material.poissonRatio = nu;
    s.material.restitution = 0.3;
    s.contact.friction = 0.0;
    s.contact.margin = 0.1;
    s.gravity = Vec3::Zero();
    s.multiContact.gamma = gamma;
    return s;
}

std::unique_ptr<SoftParticleStepper> stepperFor(const Settings& s)
{
    std::unique_ptr<md::ContactDeformation> deformation;
    if (s.solver.method == Method::MultiContact) {
        deformation = std::make_unique<mcdem::MultiContactDeformation>(s);
    }
    return std::make_unique<SoftParticleStepper>(md::softParticleSettingsFrom(s), std::move(deformation));
}

/// One sphere of radius R on the floor y = 0 under a plate that comes down from touching it to a compression
/// D (its height 2R - D) at 1 mm/s and stays there.
World squeezedSphere(double compression)
{
    World world;
    world.dimension = 3;
    world.particles.add(Vec3(0.05, kR, 0.05), kR, 11.5, 3);
    world.walls.push_back({"floor", Vec3::Zero(), Vec3::UnitY()});
    PlateDrive drive;
    drive.approachFrom = 2.0 * kR;
    drive.top = 2.0 * kR - compression;
    drive.bottom = drive.top - 1e-3;
    drive.strokeTime = 1.0;  // 1 mm/s
    drive.strokes = 0;
    Piston plate;
    plate.plane = {"plate", Vec3(0.0, drive.approachFrom, 0.0), -Vec3::UnitY()};
    plate.mass = std::numeric_limits<double>::infinity();
    plate.area = 0.01;
    plate.drive = drive;
    world.piston = plate;
    world.bounds = Eigen::AlignedBox3d(Vec3::Zero(), Vec3(0.1, 2.0 * kR, 0.1));
    return world;
}

/// The plate force once the squeezed sphere has come to rest, N.
double restingForce(double nu, double gamma, double compression)
{
    const Settings s = hydrogel(nu, gamma);
    auto stepper = stepperFor(s);
    World world = squeezedSphere(compression);
    const double approach = compression / 1e-3;
    while (world.time < approach + 0.5) {
        stepper->step(world);
    }
    return world.piston->contactForce;
}

/// Solves F = k (D/2 + a F)^(3/2) by bisection (the right side minus F changes sign once).
double closedFormForce(double nu, double gamma, double compression, bool contactPointsInside)
{
    const double k = 4.0 / 3.0 * kE / (1.0 - nu * nu) * std::sqrt(kR);
    const double a = gamma * (1.0 + nu) * (3.0 - 2.0 * nu) / (4.0 * kPi * kE * kR);
    const auto residual = [&](double f) {
        double bulge = a * f;
        if (contactPointsInside) {
            // The contact points lie L = R - D/4 + b/2 from the centre, and the poles' distance is 2L, not 2R.
            for (int i = 0; i < 50; ++i) {
                bulge = a * f * kR / (kR - 0.25 * compression + 0.5 * bulge);
            }
        }
        return k * std::pow(0.5 * compression + bulge, 1.5) - f;
    };
    double low = 0.0;
    double high = 1.0;
    while (residual(high) > 0.0) {
        high *= 2.0;
    }
    for (int i = 0; i < 200; ++i) {
        const double mid = 0.5 * (low + high);
        (residual(mid) > 0.0 ? low : high) = mid;
    }
    return 0.5 * (low + high);
}

/// A small compression experiment: 60 grains of the hydrogel in a 10 cm square box, one down-stroke of 1 cm
/// (17 %) after the grains have settled under the plate.
Scenario smallCompression(double gamma)
{
    Scenario s = resolveScenario("mcdem_compress");
    s.setFromText("particles.count", "60");
    s.setFromText("box.width", "0.1");
    s.setFromText("box.depth", "0.1");
    s.setFromText("compression.top_start", "0.058");
    s.setFromText("compression.top_end", "0.048");
    s.setFromText("compression.stroke_time", "0.05");
    s.setFromText("compression.strokes", "1");
    s.setFromText("compression.settle_time", "0.1");
    s.setFromText("mcdem.gamma", std::to_string(gamma));
    return s;
}

struct Finale {
    double topForce = 0.0;          ///< N, at the end of the down-stroke
    double contactsPerGrain = 0.0;  ///< Z without a threshold, averaged over the down-stroke's rows
    std::vector<double> series;     ///< every value of every row
};

Finale runToTheEnd(Simulation& simulation)
{
    Finale finale;
    const auto column = [&](const char* name) {
        std::size_t i = 0;
        while (simulation.observables()[i].name != name) {
            ++i;
        }
        return i;
    };
    const std::size_t force = column("top_force");
    const std::size_t z = column("contacts_per_grain");
    const std::size_t stroke = column("stroke");
    double zSum = 0.0;
    int zRows = 0;
    runToEnd(simulation, [&](double t, const std::vector<double>& values) {
        finale.series.push_back(t);
        finale.series.insert(finale.series.end(), values.begin(), values.end());
        finale.topForce = values[force];
        if (values[stroke] == 1.0) {
            zSum += values[z];
            ++zRows;
        }
    });
    finale.contactsPerGrain = zRows > 0 ? zSum / zRows : 0.0;
    return finale;
}

Finale runToTheEnd(const Scenario& scenario)
{
    Simulation simulation(scenario);
    return runToTheEnd(simulation);
}

/// The cluster of isolatedClusterKeepsItsMomentum at restitution e.
void clusterKeepsItsMomentum(double restitution)
{
    // 27 overlapping grains with random velocities and spins, no walls, no gravity, gamma = 1.125. Every force
    // acts on both grains of a contact, equal and opposite: the momentum stays to round-off. Without dashpots
    // (e = 1) the angular momentum does too: the normal forces are central and the tangential force acts at one
    // contact point on both grains (levers that did not end at one point, e.g. with one grain's bulge left out of
    // the point, would turn the cluster); the dashpots' impulse, exact over a step, moves it by ~1e-4.
    Settings s = hydrogel(0.3, kGamma);
    s.material.restitution = restitution;
    s.contact.friction = 0.3;
    auto stepper = stepperFor(s);
    World world;
    world.dimension = 3;
    std::uint64_t state = 12345;
    const auto random = [&state] {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<double>(state >> 11U) * 0x1.0p-53 - 0.5;
    };
    for (int i = 0; i < 27; ++i) {
        const Vec3 x(0.018 * (i % 3), 0.018 * ((i / 3) % 3), 0.018 * (i / 9));
        world.particles.add(x, kR * (1.0 + 0.2 * random()), 11.5, 3);
        world.particles.velocity.back() = 0.05 * Vec3(random(), random(), random());
        world.particles.angularVelocity.back() = 5.0 * Vec3(random(), random(), random());
    }
    world.bounds = Eigen::AlignedBox3d(Vec3::Constant(-0.02), Vec3::Constant(0.06));
    const auto momentum = [&world] {
        Vec3 p = Vec3::Zero();
        Vec3 l = Vec3::Zero();
        const auto& g = world.particles;
        for (std::size_t i = 0; i < g.size(); ++i) {
            p += g.mass[i] * g.velocity[i];
            l += g.mass[i] * g.position[i].cross(g.velocity[i]) + g.inertia[i] * g.angularVelocity[i];
        }
        return std::make_pair(p, l);
    };
    const auto [p0, l0] = momentum();
    double scaleP = 0.0;  // kg m/s: the sum of the grains' momenta's magnitudes
    double scaleL = 0.0;  // kg m^2/s
    for (std::size_t i = 0; i < world.particles.size(); ++i) {
        const auto& g = world.particles;
        scaleP += g.mass[i] * g.velocity[i].norm();
        scaleL += g.mass[i] * g.position[i].cross(g.velocity[i]).norm() + g.inertia[i] * g.angularVelocity[i].norm();
    }
    std::size_t contacts = 0;
    std::size_t sliding = 0;
    for (int n = 0; n < 3000; ++n) {
        stepper->step(world);
        for (const Contact& c : world.contacts) {
            const double normal = c.force.dot(c.normal);
            contacts += normal > 0.0 ? 1 : 0;
            sliding += normal > 0.0 && (c.force - normal * c.normal).norm() >= (1.0 - 1e-9) * 0.3 * normal ? 1 : 0;
        }
    }
    const auto [p1, l1] = momentum();
    const double relativeL = (l1 - l0).norm() / scaleL;
    std::printf("  momentum change %.3e kg m/s, angular momentum change %.3e kg m^2/s after 3000 steps\n",
                (p1 - p0).norm(), (l1 - l0).norm());
    std::printf("  (relative: %.2e and %.2e; %zu contact-steps, %zu of them sliding)\n", (p1 - p0).norm() / scaleP,
                relativeL, contacts, sliding);
    QVERIFY(contacts > 1000);
    QVERIFY(sliding > 0);  // the tangential forces are at work, capped by Coulomb in some contacts
    QVERIFY((p1 - p0).norm() <= 1e-12 * scaleP);
    if (restitution == 1.0) {
        // Measured 8.6e-9 (velocity Verlet's error, not round-off); a lever ending a bulge away from the contact
        // point gives ~F b dt per contact-step, far above.
        QVERIFY2(relativeL <= 1e-7, ("|dL| / scale = " + std::to_string(relativeL)).c_str());
    }
}

}  // namespace

class MultiContactTest : public QObject {
    Q_OBJECT

private slots:
    void halfSpaceDisplacementAtTheOppositePole()
    {
        for (const double nu : {0.0, 0.3, 0.5}) {
            const mcdem::HalfSpaceDeformation shape(nu);
            const double c = shape.compliance(kGamma, kE);
            const double F = 0.7;
            const auto [atB, atA] = shape.mutualDisplacements(-1.0, kR, kR);
            const double expected = kGamma * (1.0 + nu) * (3.0 - 2.0 * nu) * F / (4.0 * kPi * kE * kR);
            QVERIFY(std::fabs(c * F * atB - expected) <= 1e-12 * expected);
            QVERIFY(std::fabs(c * F * atA - expected) <= 1e-12 * expected);
        }
    }

    void pairwiseFormEqualsTheBoussinesqFormula()
    {
        // The general formula with p_k, p_c as vectors, against the pairwise form, for nu != 1/2 where the two
        // directions differ.
        const double nu = 0.3;
        const mcdem::HalfSpaceDeformation shape(nu);
        const Vec3 nk = Vec3(0.2, 0.9, -0.3).normalized();
        const Vec3 nc = Vec3(-0.5, -0.4, 0.7).normalized();
        const double lk = 0.0093;
        const double lc = 0.0098;
        const auto general = [&](const Vec3& n1, double l1, const Vec3& n2, double l2) {
            const Vec3 pk = l1 * n1;  // load
            const Vec3 pc = l2 * n2;  // point
            const double d = (pc - pk).norm();
            const Vec3 u = (pk - pc) / d;
            const double bracket = n1.dot(u) * n2.dot(u) + (3.0 - 4.0 * nu) * n1.dot(n2) -
                                   (1.0 - 2.0 * nu) * (n1 + u).dot(n2) / (1.0 + n1.dot(u));
            return -bracket / d;
        };
        const auto [atC, atK] = shape.mutualDisplacements(nk.dot(nc), lk, lc);
        QVERIFY(std::fabs(atC - general(nk, lk, nc, lc)) <= 1e-12 * std::fabs(atC));
        QVERIFY(std::fabs(atK - general(nc, lc, nk, lk)) <= 1e-12 * std::fabs(atK));
    }

    void squeezedSphereMatchesTheClosedForm()
    {
        // The closed form with the poles at 2R (the contact points on the undeformed sphere): at compressions D of
        // 0.2 % to 1 % of R the real contact points lie within D/4 of the surface, and the two agree within 0.5 %.
        for (const double nu : {0.5, 0.3}) {
            for (int i = 1; i <= 5; ++i) {
                const double compression = 0.002 * i * kR;
                const double simulated = restingForce(nu, kGamma, compression);
                const double poles = closedFormForce(nu, kGamma, compression, false);
                std::printf("  nu = %.1f, D = %.2e m: F = %.6e N, closed form %.6e N (%+.4f %%)\n", nu, compression,
                            simulated, poles, 100.0 * (simulated / poles - 1.0));
                QVERIFY(std::fabs(simulated - poles) <= 5e-3 * poles);
            }
        }
    }

    void squeezedSphereMatchesTheClosedFormAtLargeCompressions()
    {
        // Where the bulge matters (D of 4 % to 20 % of R: the force is up to ~2x gamma = 0's), the closed form
        // with the real contact points, L = R - D/4 + b/2 from the centre, holds within 0.1 %.
        for (const double nu : {0.5, 0.3}) {
            for (int i = 1; i <= 5; ++i) {
                const double compression = 0.04 * i * kR;
                const double simulated = restingForce(nu, kGamma, compression);
                const double inside = closedFormForce(nu, kGamma, compression, true);
                const double poles = closedFormForce(nu, kGamma, compression, false);
                const double independent = closedFormForce(nu, 0.0, compression, false);
                std::printf("  nu = %.1f, D = %.2e m: F = %.6e N, closed form %.6e N (%+.4f %%); with d = 2R %.6e N; "
                            "gamma = 0: %.6e N\n",
                            nu, compression, simulated, inside, 100.0 * (simulated / inside - 1.0), poles, independent);
                QVERIFY(std::fabs(simulated - inside) <= 1e-3 * inside);
                QVERIFY(simulated > independent);
            }
        }
    }

    void unequalSpheresInAColumnMatchTheClosedForm()
    {
        // Grain-grain multi-contact (PHYSICS.md section 4): a sphere A (R_A = 10 mm) on the floor, a sphere B (R_B =
        // 7 mm) on it, the plate on B, squeezed by D. Each sphere carries F at its two contacts, so each bulges at one
        // contact by the other's load, b = gamma (1 + nu) (3 - 2 nu) F / (2 pi E (L_1 + L_2)), L the centre's distance
        // to a contact point midway between the deformed surfaces (L_1 + L_2 = 2 R + 2 b - (delta_1 + delta_2) / 2).
        // The effective overlaps delta (bulges included) give F by Hertz: at the floor and plate E* = E / (1 - nu^2),
        // R* = R; between the spheres E* = E / 2(1 - nu^2), R* = R_A R_B / (R_A + R_B). The spheres' own overlaps,
        // delta minus the bulges that reach into the contact, add up to D. Unequal radii give unequal bulges, so a
        // bulge put on the wrong side of the grain pair moves the force.
        constexpr double rA = 0.010;           // m
        constexpr double rB = 0.007;           // m
        constexpr double compression = 0.002;  // m
        for (const double nu : {0.5, 0.3}) {
            const Settings s = hydrogel(nu, kGamma);
            auto stepper = stepperFor(s);
            World world;
            world.dimension = 3;
            world.particles.add(Vec3(0.05, rA, 0.05), rA, 11.5, 3);
            world.particles.add(Vec3(0.05, 2.0 * rA + rB, 0.05), rB, 11.5, 3);
            world.walls.push_back({"floor", Vec3::Zero(), Vec3::UnitY()});
            const double height = 2.0 * rA + 2.0 * rB;
            PlateDrive drive;
            drive.approachFrom = height;
            drive.top = height - compression;
            drive.bottom = drive.top - 1e-3;
            drive.strokeTime = 1.0;  // 1 mm/s
            drive.strokes = 0;
            Piston plate;
            plate.plane = {"plate", Vec3(0.0, height, 0.0), -Vec3::UnitY()};
            plate.mass = std::numeric_limits<double>::infinity();
            plate.area = 0.01;
            plate.drive = drive;
            world.piston = plate;
            world.bounds = Eigen::AlignedBox3d(Vec3::Zero(), Vec3(0.1, height, 0.1));
            while (world.time < compression / 1e-3 + 0.6) {
                stepper->step(world);
            }
            const double simulated = world.piston->contactForce;

            const auto closedForm = [&](double gamma) {
                const double c = 4.0 / 3.0 * kE / (1.0 - nu * nu);
                const double kA = c * std::sqrt(rA);
                const double kB = c * std::sqrt(rB);
                const double kPair = 0.5 * c * std::sqrt(rA * rB / (rA + rB));
                const double coupling = gamma * (1.0 + nu) * (3.0 - 2.0 * nu) / (2.0 * kPi * kE);
                const auto overlapsMinusD = [&](double f) {
                    const double deltaA = std::pow(f / kA, 2.0 / 3.0);
                    const double deltaB = std::pow(f / kB, 2.0 / 3.0);
                    const double deltaPair = std::pow(f / kPair, 2.0 / 3.0);
                    double bA = 0.0;
                    double bB = 0.0;
                    for (int i = 0; i < 100; ++i) {
                        bA = coupling * f / (2.0 * rA + 2.0 * bA - 0.5 * (deltaA + deltaPair));
                        bB = coupling * f / (2.0 * rB + 2.0 * bB - 0.5 * (deltaB + deltaPair));
                    }
                    return (deltaA - bA) + (deltaPair - bA - bB) + (deltaB - bB) - compression;
                };
                double low = 0.0;
                double high = 1.0;
                while (overlapsMinusD(high) < 0.0) {
                    high *= 2.0;
                }
                for (int i = 0; i < 200; ++i) {
                    const double mid = 0.5 * (low + high);
                    (overlapsMinusD(mid) > 0.0 ? high : low) = mid;
                }
                return 0.5 * (low + high);
            };
            const double expected = closedForm(kGamma);
            const double independent = closedForm(0.0);
            std::printf("  nu = %.1f, D = %.1e m: F = %.6e N, closed form %.6e N (%+.5f %%); gamma = 0: %.6e N\n", nu,
                        compression, simulated, expected, 100.0 * (simulated / expected - 1.0), independent);
            QVERIFY(expected > 1.1 * independent);  // the bulges carry a tenth of the force at least
            QVERIFY2(
                std::fabs(simulated - expected) <= 1e-4 * expected,
                ("F = " + std::to_string(simulated) + " N, closed form " + std::to_string(expected) + " N").c_str());
        }
    }

    void gammaZeroIsSoftParticleHertzToTheLastBit()
    {
        Scenario mcdem = smallCompression(0.0);
        mcdem.setFromText("compression.settle_time", "0.02");
        Scenario md = mcdem;
        md.setFromText("solver.method", "md");
        const Finale a = runToTheEnd(mcdem);
        const Finale b = runToTheEnd(md);
        QCOMPARE(a.series.size(), b.series.size());
        QVERIFY(a.topForce > 0.0);
        for (std::size_t i = 0; i < a.series.size(); ++i) {
            const std::string where = "value " + std::to_string(i) + ": " + std::to_string(a.series[i]) + " vs " +
                                      std::to_string(b.series[i]);
            QVERIFY2(a.series[i] == b.series[i] || (std::isnan(a.series[i]) && std::isnan(b.series[i])), where.c_str());
        }
    }

    void isolatedClusterKeepsItsMomentum()
    {
        for (const double restitution : {0.3, 1.0}) {
            clusterKeepsItsMomentum(restitution);
        }
    }

    void contactClosedByABulgeStartsAtZeroForce()
    {
        // Grain B is squeezed between the floor and the plate and bulges sideways; grain C, fixed, waits beside it
        // at a gap smaller than the bulge at full compression. The B-C contact must appear with a force that
        // grows from zero, not with a jump. With gamma = 0 it never appears.
        const auto run = [](double gamma) {
            Settings s = hydrogel(0.5, gamma);
            s.contact.friction = 0.5;  // B is held in place by the plates, so C cannot push it away
            auto stepper = stepperFor(s);
            World world = squeezedSphere(0.1 * kR);
            // C is smaller, out of the plate's reach, level with B's centre once B is squeezed (B's centre comes
            // down by D/2 to meet that level, so without a bulge the pair only gets closer to `gap`).
            const double gap = 1e-5;  // m, between the undeformed surfaces at the end
            const double rC = 0.7 * kR;
            world.particles.add(Vec3(0.05 + kR + rC + gap, 0.95 * kR, 0.05), rC, 11.5, 3);
            world.particles.mass.back() = std::numeric_limits<double>::infinity();
            world.particles.inertia.back() = std::numeric_limits<double>::infinity();
            std::vector<double> forces;
            while (world.time < 0.1 * kR / 1e-3 + 0.05) {
                stepper->step(world);
                double f = 0.0;
                for (const Contact& c : world.contacts) {
                    if (c.kind == ContactKind::Particle) {
                        f = c.force.dot(c.normal);
                    }
                }
                forces.push_back(f);
            }
            return forces;
        };
        for (const double f : run(0.0)) {
            QCOMPARE(f, 0.0);
        }
        const auto forces = run(kGamma);
        std::size_t first = 0;
        while (first < forces.size() && forces[first] <= 0.0) {
            ++first;
        }
        QVERIFY2(first < forces.size(), "the bulge never closed the gap");
        double largest = 0.0;
        for (const double f : forces) {
            largest = std::max(largest, f);
        }
        std::printf("  the contact closes at step %zu with %.3e N; it reaches %.3e N\n", first, forces[first], largest);
        QVERIFY(forces[first] < 1e-3 * largest);
        QVERIFY(largest > 0.0);
    }

    void aPairThatABulgeClosesIsEvaluatedAtOnce()
    {
        // Three fixed grains in a row (nothing moves, so only the bulges' reach can renew the candidates): C overlaps A
        // by 0.2 R at the start, and B waits on A's far side at two skins. The A-C force bulges A's far pole by
        // gamma (1+nu)(3-2nu) F / (4 pi E R), about 0.15 mm (0.16 mm with the
        // bulges in the force), past B. The candidates must take in B for the first step's
        // evaluation, whose bulges come from the forces that the start gave A: a list checked against the reach of
        // the evaluation before (none pressed yet) would leave B out for that step.
        Settings s = hydrogel(0.5, kGamma);
        s.contact.margin = 0.005;             // the skin: 0.05 mm
        const double gap = 2.0 * 0.005 * kR;  // m, between B's and A's spheres
        auto stepper = stepperFor(s);
        World world;
        world.dimension = 3;
        world.bounds = Eigen::AlignedBox3d(Vec3::Constant(-0.1), Vec3::Constant(0.1));
        world.particles.add(Vec3::Zero(), kR, 11.5, 3);                         // A
        world.particles.add(Vec3(2.0 * kR - 0.2 * kR, 0.0, 0.0), kR, 11.5, 3);  // C
        world.particles.add(Vec3(-2.0 * kR - gap, 0.0, 0.0), kR, 11.5, 3);      // B
        for (std::size_t i = 0; i < 3; ++i) {
            world.particles.mass[i] = std::numeric_limits<double>::infinity();
            world.particles.inertia[i] = std::numeric_limits<double>::infinity();
        }
        stepper->step(world);
        const Contact* ab = nullptr;
        for (const Contact& c : world.contacts) {
            if (c.kind == ContactKind::Particle && c.partner == 0 && c.particle == 2) {
                ab = &c;
            }
        }
        QVERIFY2(ab != nullptr, "after the first step A-B is not a candidate");
        std::printf("  A-B: sphere gap %.3e m, bulges %.3e + %.3e m, normal force %.3e N\n", gap, ab->bulge[0],
                    ab->bulge[1], ab->force.dot(ab->normal));
        QVERIFY2(ab->gap < 0.0, "A's bulge did not close the A-B gap");
        QVERIFY(ab->force.dot(ab->normal) > 0.0);
    }

    void topForceAndCoordinationGrowWithGamma()
    {
        // One packing, settled under the plate with independent contacts, then compressed with each gamma.
        Simulation prepared(smallCompression(0.0));
        const double start = prepared.world().piston->drive->protocolStart();
        while (prepared.world().time < start) {
            prepared.step();
        }
        double previousForce = 0.0;
        double previousZ = 0.0;
        double independent = 0.0;
        for (const double gamma : {0.0, 0.5, 1.0, 1.125}) {
            Simulation simulation(smallCompression(gamma), prepared.world());
            const Finale f = runToTheEnd(simulation);
            std::printf("  gamma = %.3f: top force %.4f N, Z = %.3f\n", gamma, f.topForce, f.contactsPerGrain);
            if (gamma == 0.0) {
                independent = f.topForce;
            } else {
                QVERIFY(f.topForce > previousForce);
                QVERIFY(f.contactsPerGrain > previousZ);
            }
            previousForce = f.topForce;
            previousZ = f.contactsPerGrain;
        }
        std::printf("  top force at gamma = 1.125 over gamma = 0: %.3f\n", previousForce / independent);
        QVERIFY(previousForce > 1.3 * independent);
    }
};

QTEST_APPLESS_MAIN(MultiContactTest)
#include "tst_mcdem.moc"
