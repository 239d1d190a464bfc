#include "md/ContactForces.h"

#include "contact/ContactGeometry.h"
#include "contact/ContactVelocity.h"
#include "md/ContactDeformation.h"
#include "md/LoadAssembly.h"
#include "model/World.h"
#include "util/Parallel.h"

#include <algorithm>

namespace granular::md {

namespace {

/// Adds `load` to body 1 of the contact and its reaction to body 0 (a grain or the piston).
void addPair(std::vector<Vec3>& grains, double& piston, const Contact& c, const Vec3& load)
{
    grains[static_cast<std::size_t>(c.particle)] += load;
    if (c.kind == ContactKind::Particle) {
        grains[static_cast<std::size_t>(c.partner)] -= load;
    } else if (c.kind == ContactKind::Piston) {
        piston -= load.dot(c.normal);
    }
}

void addTorques(std::vector<Vec3>& torque, const Contact& c, const Vec3& tangential)
{
    torque[static_cast<std::size_t>(c.particle)] += c.lever1.cross(tangential);
    if (c.kind == ContactKind::Particle) {
        torque[static_cast<std::size_t>(c.partner)] -= c.lever0.cross(tangential);
    }
}

/// The spring xi turned into the tangent plane of the normal n, its length kept.
Vec3 springInTangentPlane(const Vec3& spring, const Vec3& normal)
{
    Vec3 turned = spring - spring.dot(normal) * normal;
    const double length = turned.norm();
    if (length > 0.0) {
        turned *= spring.norm() / length;
    }
    return turned;
}

/// Coulomb: |F_t| <= mu F_n. A sliding contact's spring is cut back so that it alone carries the
/// limit (Cundall-Strack), which makes the force continuous when the contact sticks again.
Vec3 capByCoulomb(Vec3 tangential, double normalForce, const PairLaw& law, double stiffness, Vec3& spring)
{
    const double limit = law.friction * std::max(normalForce, 0.0);
    const double magnitude = tangential.norm();
    if (magnitude > limit) {
        tangential *= limit / magnitude;
        spring = stiffness > 0.0 ? Vec3(-tangential / stiffness) : Vec3::Zero();
    }
    return tangential;
}

/// The contact point midway between the two bodies' surfaces along the normal, each surface reaching `bulge`
/// beyond its sphere (a rigid wall: its plane): both bodies' lever arms end there, so the tangential force
/// exerts no net torque on the pair. `gap` is the gap of the undeformed spheres (m).
void placeContactPoint(Contact& c, const Particles& p, double gap, const std::array<double, 2>& bulge)
{
    const double r1 = p.radius[static_cast<std::size_t>(c.particle)];
    c.lever1 = -(r1 + 0.5 * (gap - bulge[0] + bulge[1])) * c.normal;
    if (c.kind == ContactKind::Particle) {
        const double r0 = p.radius[static_cast<std::size_t>(c.partner)];
        c.lever0 = (r0 + 0.5 * (gap + bulge[0] - bulge[1])) * c.normal;
    }
}

constexpr std::array<double, 2> kRigid{0.0, 0.0};

/// The drum's surface velocity at a drum candidate's contact point.
void refreshSurfaceVelocity(Contact& c, const World& world)
{
    if (c.kind == ContactKind::Drum) {
        c.surfaceVelocity =
            world.drum->surfaceVelocity(world.particles.position[static_cast<std::size_t>(c.particle)] + c.lever1);
    }
}

/// The geometry of one candidate of rigid spheres (no deformation) at the current positions: normal, gap and
/// the contact point midway between the surfaces.
void refreshRigidCandidate(Contact& c, const World& world)
{
    refreshGeometry(c, world);
    placeContactPoint(c, world.particles, c.gap, kRigid);
    refreshSurfaceVelocity(c, world);
}

/// refreshRigidCandidate for a pair of grains, with the same arithmetic: the normal from body 0 to body 1, the gap
/// and the levers to the point midway between the surfaces.
void refreshRigidPair(Contact& c, const Particles& p, const PeriodicCell* cell)
{
    const auto i = static_cast<std::size_t>(c.partner);
    const auto j = static_cast<std::size_t>(c.particle);
    Vec3 d = p.position[j] - p.position[i];
    if (cell != nullptr) {
        d = cell->minimumImage(d);
    }
    const double distance = d.norm();
    if (distance > 0.0) {
        c.normal = d / distance;
    }
    const double r0 = p.radius[i];
    const double r1 = p.radius[j];
    const double gap = distance - r0 - r1;
    c.gap = gap;
    c.lever1 = -(r1 + 0.5 * gap) * c.normal;
    c.lever0 = (r0 + 0.5 * gap) * c.normal;
}

/// The geometry of every candidate of deformed grains at the current positions: normal, gap less the bulges that
/// the deformation computes from all the candidates' sphere gaps, and the contact point.
void refreshDeformedCandidates(World& world, std::vector<ContactMemory>& memory, ContactDeformation& deformation)
{
    parallelFor(world.contacts.size(), [&world](std::size_t k) { refreshGeometry(world.contacts[k], world); });
    deformation.update(world, memory);
    const Particles& p = world.particles;
    parallelFor(world.contacts.size(), [&](std::size_t k) {
        Contact& c = world.contacts[k];
        const auto& bulge = deformation.bulges()[k];
        const double sphereGap = c.gap;
        c.gap = sphereGap - (bulge[0] + bulge[1]);
        c.bulge = bulge;
        memory[k].bulge = bulge;
        placeContactPoint(c, p, sphereGap, bulge);
        refreshSurfaceVelocity(c, world);
    });
}

/// The geometry of every candidate at the current positions (see refreshRigidCandidate and
/// refreshDeformedCandidates).
void refreshCandidates(World& world, std::vector<ContactMemory>& memory, ContactDeformation* deformation)
{
    if (deformation != nullptr) {
        refreshDeformedCandidates(world, memory, *deformation);
        return;
    }
    parallelFor(world.contacts.size(), [&world](std::size_t k) { refreshRigidCandidate(world.contacts[k], world); });
}

/// One contact's loads over the step, and its memory brought to the step's end (see evaluateStepForces): calls
/// add(force, impulse, tangential force) unless the contact is open before and after.
template <class Add>
void stepLoad(Contact& c, ContactMemory& m, const HalfStepVelocities& half, double dt, const Add& add)
{
    const double before = m.overlap;
    const double after = -c.gap;
    m.overlap = after;
    if (before <= 0.0 && after <= 0.0) {
        m.elasticForce = 0.0;
        m.normal = c.normal;
        m.spring.setZero();
        c.force.setZero();
        return;
    }
    const PairLaw& law = m.law;
    const Vec3& n = c.normal;
    const double elastic = after > 0.0 ? law.elasticForce(after) : 0.0;
    const double dashpotImpulse = law.dampingPotential(after) - law.dampingPotential(before);
    Vec3 impulse = dashpotImpulse * n;
    const double p = law.elasticExponent();
    if (before <= 0.0) {
        const double tau = dt * after / (after - before);
        impulse += (elastic * (tau / (p + 1.0) - 0.5 * dt)) * n;
    } else if (after <= 0.0) {
        const double tau = dt * before / (before - after);
        impulse += (m.elasticForce * (tau / (p + 1.0) - 0.5 * dt)) * m.normal;
    }
    Vec3 tangential = Vec3::Zero();
    if (after > 0.0) {
        const Vec3 V = contactPointVelocity(c, half.velocity, half.angularVelocity, half.piston);
        const Vec3 slip = dt * (V - V.dot(n) * n);
        Vec3 spring = springInTangentPlane(m.spring, n) + slip;
        const double stiffness = law.tangentialStiffnessAt(after);
        tangential = -stiffness * spring - (law.tangentialDampingAt(after) / dt) * slip;
        tangential = capByCoulomb(tangential, elastic + dashpotImpulse / dt, law, stiffness, spring);
        m.spring = spring;
    } else {
        m.spring.setZero();
    }
    m.elasticForce = elastic;
    m.normal = n;
    const Vec3 force = elastic * n + tangential;
    c.force = force;
    add(force, impulse, tangential);
}

/// One contact's dashpot force at the current velocities, added to Contact::force and handed to add(force)
/// (not called for a contact without overlap or damping).
template <class Add>
void dampingLoad(const World& world, Contact& c, const ContactMemory& m, double pistonVelocity, const Add& add)
{
    if (m.overlap <= 0.0 || m.law.damping == 0.0) {
        return;
    }
    const auto& p = world.particles;
    const auto j = static_cast<std::size_t>(c.particle);
    Vec3 partner = c.surfaceVelocity;
    if (c.kind == ContactKind::Particle) {
        partner = p.velocity[static_cast<std::size_t>(c.partner)];
    } else if (c.kind == ContactKind::Piston) {
        partner = pistonVelocity * c.normal;
    }
    double approach = -c.normal.dot(p.velocity[j] - partner);  // d(delta)/dt
    if (world.cell && c.kind == ContactKind::Particle) {
        // Velocities are relative to the cell's affine flow: the pair also closes in at lambda |l|.
        const double distance = p.radius[j] + p.radius[static_cast<std::size_t>(c.partner)] - m.overlap;
        approach -= world.cell->dilationRate() * distance;
    }
    const Vec3 force = (m.law.dampingCoefficient(m.overlap) * approach) * c.normal;
    c.force += force;
    add(force);
}

/// A contact's step load as LoadAssembly hands it to the bodies.
void setStepLoad(ContactLoad& load, const Contact& c, const Vec3& force, const Vec3& impulse, const Vec3& tangential)
{
    load.force = force;
    load.impulse = impulse;
    load.torque1 = c.lever1.cross(tangential);
    if (c.kind == ContactKind::Particle) {
        load.torque0 = c.lever0.cross(tangential);
    }
    load.forceAlong = force.dot(c.normal);
    load.impulseAlong = impulse.dot(c.normal);
    load.active = true;
}

/// Adds the step loads (elastic and tangential force, impulse, torque) of the contacts to BodyLoads.
// (The arrays' addresses by value: through the vectors the compiler would reload them after every store.)
template <class Prepare, class Evaluate> struct StepLoadSink {
    Prepare prepare;
    Evaluate evaluate;
    Vec3* force;
    Vec3* impulse;
    Vec3* torque;
    double* pistonForce;
    double* pistonImpulse;

    StepLoadSink(const Prepare& preparePairs, const Evaluate& evaluateContact, BodyLoads& loads)
        : prepare(preparePairs), evaluate(evaluateContact), force(loads.force.data()), impulse(loads.impulse.data()),
          torque(loads.torque.data()), pistonForce(&loads.pistonForce), pistonImpulse(&loads.pistonImpulse)
    {
    }
    void clear(std::size_t first, std::size_t last) const
    {
        for (std::size_t i = first; i < last; ++i) {
            force[i].setZero();
            impulse[i].setZero();
            torque[i].setZero();
        }
    }
    void toBody1(std::size_t grain, const ContactLoad& load) const
    {
        force[grain] += load.force;
        impulse[grain] += load.impulse;
        torque[grain] += load.torque1;
    }
    void toBody0(std::size_t grain, const ContactLoad& load) const
    {
        force[grain] -= load.force;
        impulse[grain] -= load.impulse;
        torque[grain] -= load.torque0;
    }
    void toPiston(const ContactLoad& load) const
    {
        *pistonForce -= load.forceAlong;
        *pistonImpulse -= load.impulseAlong;
    }
};

/// Adds the normal dashpot forces of the contacts to BodyLoads::damping.
template <class Evaluate> struct DampingSink {
    Evaluate evaluate;
    Vec3* damping;
    double* pistonDamping;

    DampingSink(const Evaluate& evaluateContact, BodyLoads& loads)
        : evaluate(evaluateContact), damping(loads.damping.data()), pistonDamping(&loads.pistonDamping)
    {
    }
    void prepare(std::size_t /*first*/, std::size_t /*last*/) const {}
    void clear(std::size_t first, std::size_t last) const
    {
        for (std::size_t i = first; i < last; ++i) {
            damping[i].setZero();
        }
    }
    void toBody1(std::size_t grain, const ContactLoad& load) const { damping[grain] += load.force; }
    void toBody0(std::size_t grain, const ContactLoad& load) const { damping[grain] -= load.force; }
    void toPiston(const ContactLoad& load) const { *pistonDamping -= load.forceAlong; }
};

}  // namespace

void evaluateStepForces(World& world, std::vector<ContactMemory>& memory, const HalfStepVelocities& half, double dt,
                        BodyLoads& loads, ContactDeformation* deformation, LoadAssembly& assembly)
{
    // Rigid grains: each candidate's geometry is refreshed in the same pass as its load (one sweep over the
    // contacts); deformed grains need every candidate's geometry before any bulge.
    const bool rigid = deformation == nullptr;
    if (!rigid) {
        refreshDeformedCandidates(world, memory, *deformation);
    }
    loads.resize(world.particles.size());  // LoadAssembly zeroes what it sums into
    loads.pistonForce = 0.0;
    loads.pistonImpulse = 0.0;
    // Rigid grain pairs get their geometry a run at a time (LoadAssembly's prepare), the other contacts one by one.
    const auto prepare = [&world, rigid](std::size_t first, std::size_t last) {
        if (!rigid) {
            return;
        }
        const PeriodicCell* cell = world.cell ? &*world.cell : nullptr;
        for (std::size_t k = first; k < last; ++k) {
            refreshRigidPair(world.contacts[k], world.particles, cell);
        }
    };
    const auto evaluate = [&world, &memory, &half, dt, rigid](std::size_t k, ContactLoad& load) {
        Contact& c = world.contacts[k];
        if (rigid && c.kind != ContactKind::Particle) {
            refreshRigidCandidate(c, world);
        }
        load.active = false;
        stepLoad(c, memory[k], half, dt, [&](const Vec3& force, const Vec3& impulse, const Vec3& tangential) {
            setStepLoad(load, c, force, impulse, tangential);
        });
    };
    assembly.assemble(StepLoadSink<decltype(prepare), decltype(evaluate)>(prepare, evaluate, loads));
}

void evaluateCurrentForces(World& world, std::vector<ContactMemory>& memory, BodyLoads& loads,
                           ContactDeformation* deformation)
{
    loads.clear(world.particles.size());
    refreshCandidates(world, memory, deformation);
    for (std::size_t k = 0; k < world.contacts.size(); ++k) {
        Contact& c = world.contacts[k];
        ContactMemory& m = memory[k];
        m.overlap = -c.gap;
        m.normal = c.normal;
        if (m.overlap <= 0.0) {
            m.elasticForce = 0.0;
            m.spring.setZero();
            c.force.setZero();
            continue;
        }
        const PairLaw& law = m.law;
        m.elasticForce = law.elasticForce(m.overlap);
        Vec3 spring = springInTangentPlane(m.spring, c.normal);
        const double stiffness = law.tangentialStiffnessAt(m.overlap);
        const Vec3 tangential = capByCoulomb(-stiffness * spring, m.elasticForce, law, stiffness, spring);
        m.spring = spring;
        const Vec3 force = m.elasticForce * c.normal + tangential;
        c.force = force;
        addPair(loads.force, loads.pistonForce, c, force);
        addTorques(loads.torque, c, tangential);
    }
}

void addDampingForces(World& world, const std::vector<ContactMemory>& memory, BodyLoads& loads, LoadAssembly& assembly)
{
    const double pistonVelocity = world.piston ? world.piston->velocity : 0.0;
    loads.resize(world.particles.size());  // LoadAssembly zeroes what it sums into
    loads.pistonDamping = 0.0;
    const auto evaluate = [&world, &memory, pistonVelocity](std::size_t k, ContactLoad& load) {
        Contact& c = world.contacts[k];
        load.active = false;
        dampingLoad(world, c, memory[k], pistonVelocity, [&](const Vec3& force) {
            load.force = force;
            load.forceAlong = force.dot(c.normal);
            load.active = true;
        });
    };
    assembly.assemble(DampingSink<decltype(evaluate)>(evaluate, loads));
}

}  // namespace granular::md
