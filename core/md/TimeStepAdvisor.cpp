#include "md/TimeStepAdvisor.h"

#include "md/ContactLaw.h"
#include "model/World.h"
#include "scenario/Value.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>

namespace granular::md {

namespace {

constexpr double kStepsPerResolution = 50.0;  // accurate restitution (within ~0.3 %)
constexpr double kStepsPerRelaxation = 10.0;  // overdamped: the fast relaxation pi/lambda, no rebound to resolve
constexpr double kFewestSteps = 10.0;         // below this the run is warned

/// Steps per resolution that the automatic step aims at: 50 for a collision, 10 for an overdamped
/// contact (zeta >= 1, e.g. the CD-equivalent damping of Unger & Kertesz 2003, eq. 68), whose fast mode
/// exp(-lambda t) is then integrated with an error of ~1 % per step and far from the stability
/// limit dt = 2 / lambda of the explicit dashpot.
double targetSteps(const ContactTimeScale& scale)
{
    return scale.dampingRatio >= 1.0 ? kStepsPerRelaxation : kStepsPerResolution;
}

/// A stand-in candidate between bodies of the given masses (kg) for pairLawFor.
Contact probeContact(ContactKind kind, double normalMass, double tangentialMass)
{
    Contact c;
    c.kind = kind;
    c.normalMass = normalMass;
    c.tangentialMass = tangentialMass;
    return c;
}

struct Pairing {
    ContactKind kind;
    double normalMass;      ///< kg
    double tangentialMass;  ///< kg
    double radius0;         ///< m
    double radius1;         ///< m
    const char* name;
};

std::string restitutionText(const MaterialModel& material)
{
    return material.cdEquivalentDamping() ? std::string("damping of Unger & Kertesz 2003, eq. 68")
                                          : "e = " + formatShort(material.restitution);
}

/// Where most of the impact speed is what gravity adds by a fall across the container: ", most of it a fall of H m
/// across the container (its highest grain at Y m)"; empty otherwise. A packing file with one grain at 1e300 m made
/// the container that tall, and the advice blamed the time step for an impact speed of 4e150 m/s without saying why.
std::string fallText(const World& world, double impactSpeed)
{
    const double g = world.gravity.norm();
    const auto& p = world.particles;
    if (world.bounds.isEmpty() || !(g > 0.0) || p.size() == 0) {
        return {};
    }
    const double span = world.bounds.sizes().maxCoeff();
    if (!(std::sqrt(2.0 * g * span) > 0.5 * impactSpeed)) {
        return {};
    }
    const Vec3 up = -world.gravity / g;
    double highest = -std::numeric_limits<double>::infinity();
    for (const Vec3& x : p.position) {
        highest = std::max(highest, up.dot(x));
    }
    return ", most of it a fall of " + formatShort(span) + " m across the container (its highest grain at " +
           formatShort(highest) + " m)";
}

ContactTimeScale pairingTimeScale(const Pairing& pairing, const MaterialModel& material, const HertzCalibration& hertz,
                                  double speed, double overlap, const std::string& speedText)
{
    const Contact c = probeContact(pairing.kind, pairing.normalMass, pairing.tangentialMass);
    const PairLaw law = pairLawFor(material, c, pairing.radius0, pairing.radius1, hertz.alpha);
    if (material.law == NormalLaw::Linear) {
        ContactTimeScale scale = linearTimeScale(law.stiffness, law.damping, pairing.normalMass);
        scale.contact = std::string(pairing.name) + " contact of the " +
                        (material.cdEquivalentStiffness() ? "CD-equivalent linear law (Unger & Kertesz 2003, eq. 67)"
                                                          : "linear law") +
                        ", k = " + formatShort(law.stiffness) + " N/m, m* = " + formatShort(pairing.normalMass) +
                        " kg, " + restitutionText(material);
        return scale;
    }
    ContactTimeScale scale;
    if (overlap > 0.0) {
        // Small oscillations about the largest current overlap: k = dF/d(delta) = 3/2 k_h sqrt(delta).
        scale = linearTimeScale(1.5 * law.elasticForce(overlap) / overlap, law.dampingCoefficient(overlap),
                                pairing.normalMass);
    }
    if (speed > 0.0) {
        const double duration = hertzContactDuration(law.stiffness, pairing.normalMass, speed, hertz);
        scale.duration = std::min(scale.duration, duration);
        scale.resolution = std::min(scale.resolution, duration);
    }
    scale.contact = std::string(pairing.name) + " contact of the Hertz law, k_h = " + formatShort(law.stiffness) +
                    " N/m^1.5, m* = " + formatShort(pairing.normalMass) +
                    " kg, e = " + formatShort(material.restitution) + ", impact speed " + formatShort(speed) + " m/s" +
                    speedText;
    return scale;
}

}  // namespace

ContactTimeScale linearTimeScale(double stiffness, double damping, double mass)
{
    ContactTimeScale scale;
    if (!(stiffness > 0.0) || !(mass > 0.0) || !std::isfinite(mass)) {
        return scale;
    }
    const double omega = std::sqrt(stiffness / mass);
    const double zeta = damping / (2.0 * std::sqrt(stiffness * mass));
    scale.dampingRatio = zeta;
    if (zeta < 1.0) {
        scale.duration = std::numbers::pi / (omega * std::sqrt(1.0 - zeta * zeta));
        scale.resolution = std::numbers::pi / omega;
    } else {
        scale.resolution = std::numbers::pi / (omega * (zeta + std::sqrt(zeta * zeta - 1.0)));
    }
    return scale;
}

double hertzContactDuration(double hertzStiffness, double mass, double speed, const HertzCalibration& hertz)
{
    return hertz.duration * std::pow(mass * mass / (hertzStiffness * hertzStiffness * speed), 0.2);
}

ContactTimeScale contactTimeScale(const World& world, const MaterialModel& material, const HertzCalibration& hertz,
                                  double impactSpeed, double largestOverlap, bool forAdvice)
{
    // The lightest two grains of finite mass, and whether anything rigid can be touched.
    const auto& p = world.particles;
    std::size_t lightest = p.size();
    std::size_t second = p.size();
    bool rigidGrain = false;
    for (std::size_t i = 0; i < p.size(); ++i) {
        if (!std::isfinite(p.mass[i])) {
            rigidGrain = true;
            continue;
        }
        if (lightest == p.size() || p.mass[i] < p.mass[lightest]) {
            second = lightest;
            lightest = i;
        } else if (second == p.size() || p.mass[i] < p.mass[second]) {
            second = i;
        }
    }
    ContactTimeScale fastest;
    if (lightest == p.size()) {
        return fastest;
    }
    const auto tangentialTerm = [&p](std::size_t i) {
        return 1.0 / p.mass[i] + p.radius[i] * p.radius[i] / p.inertia[i];
    };
    const std::string speedText = forAdvice ? fallText(world, impactSpeed) : std::string();
    const auto consider = [&](const Pairing& pairing) {
        const ContactTimeScale scale =
            pairingTimeScale(pairing, material, hertz, impactSpeed, largestOverlap, speedText);
        if (scale.resolution < fastest.resolution) {
            fastest = scale;
        }
    };
    if (second != p.size()) {
        consider({ContactKind::Particle, 1.0 / (1.0 / p.mass[lightest] + 1.0 / p.mass[second]),
                  1.0 / (tangentialTerm(lightest) + tangentialTerm(second)), p.radius[second], p.radius[lightest],
                  "grain-grain"});
    }
    if (!world.walls.empty() || world.piston) {
        consider({ContactKind::Wall, p.mass[lightest], 1.0 / tangentialTerm(lightest), 0.0, p.radius[lightest],
                  "grain-wall"});
    }
    if (world.drum) {
        // The concave rim: a stiffer Hertz contact than a flat wall's.
        consider({ContactKind::Drum, p.mass[lightest], 1.0 / tangentialTerm(lightest), world.drum->radius,
                  p.radius[lightest], "grain-drum"});
    }
    if (rigidGrain) {
        consider({ContactKind::Particle, p.mass[lightest], 1.0 / tangentialTerm(lightest), p.radius[lightest],
                  p.radius[lightest], "grain-fixed grain"});
    }
    return fastest;
}

std::int64_t automaticSubsteps(double dt, const ContactTimeScale& scale)
{
    if (!std::isfinite(scale.resolution) || scale.resolution <= 0.0) {
        return 1;
    }
    const double wanted = std::ceil(dt * targetSteps(scale) / scale.resolution);
    return wanted < static_cast<double>(kMostSubsteps) ? std::max<std::int64_t>(1, static_cast<std::int64_t>(wanted))
                                                       : kMostSubsteps;
}

std::optional<std::string> timeStepAdvice(double dt, std::int64_t substeps, const ContactTimeScale& scale)
{
    const double step = dt / static_cast<double>(substeps);
    if (!std::isfinite(scale.resolution) || step * kFewestSteps <= scale.resolution) {
        return std::nullopt;
    }
    const bool collides = std::isfinite(scale.duration);
    const double time = collides ? scale.duration : scale.resolution;
    const std::string stepText = substeps == 1
                                     ? "solver.dt = " + formatShort(dt) + " s"
                                     : "the MD step solver.dt / solver.substeps = " + formatShort(step) + " s";
    const std::string what = collides ? "lasts t_c = " + formatShort(time) + " s"
                                      : "is overdamped (zeta = " + formatShort(scale.dampingRatio) +
                                            ") and relaxes in " + formatShort(time) + " s";
    const double suggested = scale.resolution / targetSteps(scale) * static_cast<double>(substeps);
    return "md: " + stepText + " resolves the contact by only " + formatShort(time / step) + " steps: the " +
           scale.contact + ", " + what +
           "; forces and restitution are inaccurate below 10 steps: use solver.dt <= " + formatShort(suggested) +
           " s (" + formatShort(targetSteps(scale)) + " steps per contact" +
           (substeps == 1 ? std::string() : " with solver.substeps = " + std::to_string(substeps)) +
           (substeps == kMostSubsteps ? ") (substeps are at most " + std::to_string(kMostSubsteps) + " per solver.dt)"
                                      : ") or solver.substeps = 0 (automatic)");
}

}  // namespace granular::md
