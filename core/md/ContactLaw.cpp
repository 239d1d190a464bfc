#include "md/ContactLaw.h"

#include "theory/ChainTheory.h"

#include <cmath>

namespace granular::md {

namespace {

/// The CD that a linear contact of effective mass m stands in for (Unger & Kertesz 2003, eq. 67-68 are written
/// for equal grains of mass m, whose m_n = m/2; here the same with m = 2 m_n, so that a grain on a
/// wall, m_n = m, is treated like the grain-grain contact of twice the mass, as in the CD shock law).
theory::ChainParameters equivalentChain(const MaterialModel& material, double effectiveMass)
{
    theory::ChainParameters chain;
    chain.mass = 2.0 * effectiveMass;
    chain.timeStep = material.cdTimeStep;
    chain.iterationsPerStep = static_cast<int>(material.cdIterations);
    return chain;
}

/// 2 zeta sqrt(k m): the dashpot with damping ratio zeta; none against an infinite mass.
double dashpot(double zeta, double stiffness, double mass)
{
    return std::isfinite(mass) ? 2.0 * zeta * std::sqrt(stiffness * mass) : 0.0;
}

PairLaw linearLaw(const MaterialModel& material, const Contact& c)
{
    PairLaw law;
    law.law = NormalLaw::Linear;
    const bool grainOnGrain = c.kind == ContactKind::Particle;
    if (material.cdEquivalentStiffness()) {
        if (std::isfinite(c.normalMass)) {
            law.stiffness = theory::equivalentStiffness(equivalentChain(material, c.normalMass));
        }
        if (std::isfinite(c.tangentialMass)) {
            law.tangentialStiffness = theory::equivalentStiffness(equivalentChain(material, c.tangentialMass));
        }
    } else {
        law.stiffness = grainOnGrain ? 0.5 * material.grainStiffness : material.grainStiffness;
        law.tangentialStiffness = material.tangentialRatio * law.stiffness;
    }
    if (material.cdEquivalentDamping()) {
        if (std::isfinite(c.normalMass)) {
            law.damping = theory::equivalentDamping(equivalentChain(material, c.normalMass));
        }
        if (std::isfinite(c.tangentialMass)) {
            law.tangentialDamping = theory::equivalentDamping(equivalentChain(material, c.tangentialMass));
        }
    } else {
        const double zeta = linearDampingRatio(material.restitution);
        law.damping = dashpot(zeta, law.stiffness, c.normalMass);
        law.tangentialDamping = dashpot(zeta, law.tangentialStiffness, c.tangentialMass);
    }
    return law;
}

}  // namespace

double hertzEffectiveRadius(ContactKind kind, double radius0, double radius1)
{
    if (kind == ContactKind::Particle) {
        return radius0 * radius1 / (radius0 + radius1);  // 1/R* = 1/r0 + 1/r1
    }
    if (kind == ContactKind::Drum && radius0 > radius1) {
        // A sphere in a cylindrical bore: relative radii of curvature R' = r R/(R - r) across the axis (the rim is
        // concave) and R'' = r along it; Hertz's load and approach with the equivalent radius sqrt(R' R'').
        return radius1 * std::sqrt(radius0 / (radius0 - radius1));
    }
    return radius1;  // a flat wall or piston
}

namespace {

PairLaw hertzLaw(const MaterialModel& material, const Contact& c, double radius0, double radius1, double alpha)
{
    const double E = material.youngModulus;
    const double nu = material.poissonRatio;
    const bool grainOnGrain = c.kind == ContactKind::Particle;
    // Same grains in series, or a grain on a rigid body: 1/E* = sum (1 - nu^2)/E, 1/G* = sum 2 (2 - nu)(1 + nu)/E.
    const double bodies = grainOnGrain ? 2.0 : 1.0;
    const double effectiveModulus = E / (bodies * (1.0 - nu * nu));
    const double effectiveShearModulus = E / (bodies * 2.0 * (2.0 - nu) * (1.0 + nu));
    const double effectiveRadius = hertzEffectiveRadius(c.kind, radius0, radius1);
    PairLaw law;
    law.law = NormalLaw::Hertz;
    law.stiffness = 4.0 / 3.0 * effectiveModulus * std::sqrt(effectiveRadius);
    law.tangentialStiffness = 8.0 * effectiveShearModulus * std::sqrt(effectiveRadius);  // Mindlin
    // eta delta^(1/4) = alpha sqrt(m* k_h sqrt(delta)): the damping of DampedHertzImpact.
    law.damping = std::isfinite(c.normalMass) ? alpha * std::sqrt(c.normalMass * law.stiffness) : 0.0;
    law.tangentialDamping =
        std::isfinite(c.tangentialMass) ? alpha * std::sqrt(c.tangentialMass * law.tangentialStiffness) : 0.0;
    return law;
}

}  // namespace

PairLaw pairLawFor(const MaterialModel& material, const Contact& c, double radius0, double radius1, double tsujiAlpha)
{
    PairLaw law = material.law == NormalLaw::Linear ? linearLaw(material, c)
                                                    : hertzLaw(material, c, radius0, radius1, tsujiAlpha);
    law.friction = c.kind == ContactKind::Particle ? material.friction : material.wallFriction;
    return law;
}

}  // namespace granular::md
