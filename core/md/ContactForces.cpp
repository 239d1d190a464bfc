#include "md/ContactForces.h"

#include "contact/ContactGeometry.h"
#include "contact/ContactVelocity.h"
#include "md/ContactDeformation.h"
#include "md/LoadAssembly.h"
#include "md/PairLanes.h"
#include "model/World.h"
#include "util/Parallel.h"

#include <algorithm>
#include <array>
#include <cstdint>

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
[[gnu::always_inline]] inline Vec3 springInTangentPlane(const Vec3& spring, const Vec3& normal)
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
[[gnu::always_inline]] inline Vec3 capByCoulomb(Vec3 tangential, double normalForce, const PairLaw& law,
                                                double stiffness, Vec3& spring)
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

/// A rigid grain pair's geometry at the current positions: the normal, the gap and the levers to the point midway
/// between the surfaces (placeContactPoint's for bulges of 0).
struct PairGeometry {
    Vec3 normal;       ///< unit, from body 0 to body 1
    Vec3 lever0;       ///< m, centre of body 0 to the contact point midway between the surfaces
    Vec3 lever1;       ///< m, centre of body 1 to it
    double gap = 0.0;  ///< m, negative = overlap
};

/// The centre-to-centre vector of grains i (body 0) and j (body 1), the minimum image in a periodic cell, m.
[[gnu::always_inline]] inline Vec3 centreDistance(const Particles& p, std::size_t i, std::size_t j,
                                                  const PeriodicCell* cell)
{
    const Vec3 d = p.position[j] - p.position[i];
    return cell != nullptr ? cell->minimumImage(d) : d;
}

/// The geometry of grains i (body 0) and j (body 1) whose centres are `d` apart; `previousNormal` is kept when their
/// centres coincide.
[[gnu::always_inline]] inline PairGeometry rigidPairGeometry(const Particles& p, std::size_t i, std::size_t j,
                                                             const Vec3& d, const Vec3& previousNormal)
{
    const double distance = d.norm();
    PairGeometry g;
    g.normal = distance > 0.0 ? Vec3(d / distance) : previousNormal;
    const double r0 = p.radius[i];
    const double r1 = p.radius[j];
    g.gap = distance - r0 - r1;
    g.lever1 = -(r1 + 0.5 * g.gap) * g.normal;
    g.lever0 = (r0 + 0.5 * g.gap) * g.normal;
    return g;
}

/// The geometry of grains i (body 0) and j (body 1); `previousNormal` is kept when their centres coincide.
[[gnu::always_inline]] inline PairGeometry rigidPairGeometry(const Particles& p, std::size_t i, std::size_t j,
                                                             const PeriodicCell* cell, const Vec3& previousNormal)
{
    return rigidPairGeometry(p, i, j, centreDistance(p, i, j, cell), previousNormal);
}

/// Writes a grain pair's geometry into its candidate.
void setGeometry(Contact& c, const PairGeometry& g)
{
    c.normal = g.normal;
    c.gap = g.gap;
    c.lever0 = g.lever0;
    c.lever1 = g.lever1;
}

/// The geometry of one candidate of rigid spheres (no deformation) at the current positions: normal, gap and
/// the contact point midway between the surfaces.
void refreshRigidCandidate(Contact& c, const World& world)
{
    if (c.kind == ContactKind::Particle) {
        setGeometry(c, rigidPairGeometry(world.particles, static_cast<std::size_t>(c.partner),
                                         static_cast<std::size_t>(c.particle), world.cell ? &*world.cell : nullptr,
                                         c.normal));
        return;
    }
    refreshGeometry(c, world);
    placeContactPoint(c, world.particles, c.gap, kRigid);
    refreshSurfaceVelocity(c, world);
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

/// One contact's loads over the step, and its memory brought to the step's end (see evaluateStepForces), for the
/// contact's normal n and gap at the step's end and pointVelocity() the velocity of body 1 relative to body 0 at the
/// contact point: calls add(force, impulse, tangential force) unless the contact is open before and after, and
/// returns the force on body 1 (elastic and tangential; zero for an open contact).
template <class PointVelocity, class Add>
Vec3 stepLoad(const Vec3& n, double gap, ContactMemory& m, double dt, const PointVelocity& pointVelocity,
              const Add& add)
{
    const double before = m.overlap;
    const double after = -gap;
    m.overlap = after;
    if (before <= 0.0 && after <= 0.0) {
        m.elasticForce = 0.0;
        m.normal = n;
        m.spring.setZero();
        return Vec3::Zero();
    }
    const PairLaw& law = m.law;
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
        const Vec3 V = pointVelocity();
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
    Vec3 force = elastic * n + tangential;
    add(force, impulse, tangential);
    return force;
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

/// A contact's step load as LoadAssembly hands it to the bodies (lever0 only for a grain pair).
[[gnu::always_inline]] inline void setStepLoad(ContactLoad& load, const Vec3& normal, const Vec3* lever0,
                                               const Vec3& lever1, const Vec3& force, const Vec3& impulse,
                                               const Vec3& tangential)
{
    load.force = force;
    load.impulse = impulse;
    load.torque1 = lever1.cross(tangential);
    if (lever0 != nullptr) {
        load.torque0 = lever0->cross(tangential);
    }
    load.forceAlong = force.dot(normal);
    load.impulseAlong = impulse.dot(normal);
    load.active = true;
}

/// Adds the step loads (elastic and tangential force, impulse, torque) of the contacts to BodyLoads.
// (The arrays' addresses by value: through the vectors the compiler would reload them after every store.)
template <class EvaluatePairs, class Evaluate> struct StepLoadSink {
    EvaluatePairs evaluatePairs;
    Evaluate evaluate;
    Vec3* force;
    Vec3* impulse;
    Vec3* torque;
    double* pistonForce;
    double* pistonImpulse;

    StepLoadSink(const EvaluatePairs& evaluateRun, const Evaluate& evaluateContact, BodyLoads& loads)
        : evaluatePairs(evaluateRun), evaluate(evaluateContact), force(loads.force.data()),
          impulse(loads.impulse.data()), torque(loads.torque.data()), pistonForce(&loads.pistonForce),
          pistonImpulse(&loads.pistonImpulse)
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
template <class EvaluatePairs, class Evaluate> struct DampingSink {
    EvaluatePairs evaluatePairs;
    Evaluate evaluate;
    Vec3* damping;
    double* pistonDamping;

    DampingSink(const EvaluatePairs& evaluateRun, const Evaluate& evaluateContact, BodyLoads& loads)
        : evaluatePairs(evaluateRun), evaluate(evaluateContact), damping(loads.damping.data()),
          pistonDamping(&loads.pistonDamping)
    {
    }
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
                        BodyLoads& loads, ContactDeformation* deformation, LoadAssembly& assembly, bool publish,
                        const std::function<void(std::size_t, std::size_t)>& loadsComplete)
{
    // Deformed grains need every candidate's geometry before any bulge; rigid grains get theirs in the pass of
    // their loads.
    const bool rigid = deformation == nullptr;
    if (!rigid) {
        refreshDeformedCandidates(world, memory, *deformation);
    }
    loads.resize(world.particles.size());  // LoadAssembly zeroes what it sums into
    loads.pistonForce = 0.0;
    loads.pistonImpulse = 0.0;
    const auto& v = half.velocity;
    const auto& w = half.angularVelocity;
    const auto evaluate = [&world, &memory, &half, dt, rigid](std::size_t k, ContactLoad& load) {
        Contact& c = world.contacts[k];
        if (rigid) {
            refreshRigidCandidate(c, world);
        }
        load.active = false;
        const auto pointVelocity = [&] {
            return contactPointVelocity(c, half.velocity, half.angularVelocity, half.piston);
        };
        const Vec3* lever0 = c.kind == ContactKind::Particle ? &c.lever0 : nullptr;
        c.force = stepLoad(c.normal, c.gap, memory[k], dt, pointVelocity,
                           [&](const Vec3& force, const Vec3& impulse, const Vec3& tangential) {
                               setStepLoad(load, c.normal, lever0, c.lever1, force, impulse, tangential);
                           });
    };
    // Rigid grain pairs a run at a time: the run's geometry in one loop, then its loads. Their entries in
    // world.contacts are written only where `publish` asks for them.
    const auto evaluatePairs = [&, publish](std::size_t first, std::size_t last, const std::int32_t* partner,
                                            const std::int32_t* particle, ContactLoad* runLoads) {
        if (!rigid) {
            for (std::size_t k = first; k < last; ++k) {
                evaluate(k, runLoads[k - first]);
            }
            return;
        }
        const PeriodicCell* cell = world.cell ? &*world.cell : nullptr;
        const Particles& p = world.particles;
        // Outside a periodic cell, in a step that does not publish, the run's leading pairs eight at a time where the
        // processor can (the same numbers); the rest one at a time.
        std::size_t lanes = 0;
        if (!publish && cell == nullptr) {
            const PairRun run{p.position.data(), p.radius.data(),       v.data(),     w.data(), partner,
                              particle,          memory.data() + first, last - first, dt};
            lanes = evaluatePairLanes(run, runLoads);
        }
        std::array<PairGeometry, LoadAssembly::kPairRun> geometry;
        std::array<bool, LoadAssembly::kPairRun> apart{};
        for (std::size_t r = lanes; r < last - first; ++r) {
            const auto i = static_cast<std::size_t>(partner[r]);
            const auto j = static_cast<std::size_t>(particle[r]);
            const Vec3 d = centreDistance(p, i, j, cell);
            ContactMemory& m = memory[first + r];
            if (!publish && m.overlap <= 0.0) {
                // Open before: if still open, stepLoad only records the gap (the normal and the levers are read only
                // of contacts that were closed): the gap alone, without the divisions of the normal. m.normal keeps the
                // last one computed, which the pair's geometry falls back on where centres coincide and checkpoints
                // save: the same at any thread count and after a resume (publish follows the step count).
                const double gap = d.norm() - p.radius[i] - p.radius[j];
                if (gap >= 0.0) {
                    m.overlap = -gap;
                    m.elasticForce = 0.0;
                    m.spring.setZero();
                    apart[r] = true;
                    continue;
                }
            }
            geometry[r] = rigidPairGeometry(p, i, j, d, m.normal);
        }
        for (std::size_t r = lanes; r < last - first; ++r) {
            ContactLoad& load = runLoads[r];
            load.active = false;
            if (apart[r]) {
                continue;
            }
            const PairGeometry& g = geometry[r];
            const auto i = static_cast<std::size_t>(partner[r]);
            const auto j = static_cast<std::size_t>(particle[r]);
            const auto pointVelocity = [&] {
                const Vec3 v1 = v[j] + w[j].cross(g.lever1);
                return Vec3(v1 - (v[i] + w[i].cross(g.lever0)));
            };
            const Vec3 force = stepLoad(g.normal, g.gap, memory[first + r], dt, pointVelocity,
                                        [&](const Vec3& f, const Vec3& impulse, const Vec3& tangential) {
                                            setStepLoad(load, g.normal, &g.lever0, g.lever1, f, impulse, tangential);
                                        });
            if (publish) {
                Contact& c = world.contacts[first + r];
                setGeometry(c, g);
                c.force = force;
            }
        }
    };
    const StepLoadSink<decltype(evaluatePairs), decltype(evaluate)> sink(evaluatePairs, evaluate, loads);
    if (loadsComplete) {
        assembly.assemble(sink, loadsComplete);
    } else {
        assembly.assemble(sink, [](std::size_t /*first*/, std::size_t /*last*/) {});
    }
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

bool boundaryDampingForce(const World& world, Contact& c, const ContactMemory& m, double pistonVelocity, Vec3& force)
{
    bool any = false;
    dampingLoad(world, c, m, pistonVelocity, [&](const Vec3& f) {
        force = f;
        any = true;
    });
    return any;
}

void addDampingForces(World& world, const std::vector<ContactMemory>& memory, BodyLoads& loads, LoadAssembly& assembly,
                      bool publish)
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
    // Grain pairs from the memory (its normal is the step's), written to world.contacts only where `publish` asks.
    const auto evaluatePairs = [&world, &memory, publish](std::size_t first, std::size_t last,
                                                          const std::int32_t* partner, const std::int32_t* particle,
                                                          ContactLoad* runLoads) {
        const Particles& p = world.particles;
        const double dilationRate = world.cell ? world.cell->dilationRate() : 0.0;
        const bool inCell = world.cell.has_value();
        for (std::size_t r = 0; r < last - first; ++r) {
            ContactLoad& load = runLoads[r];
            load.active = pairDampingForce(p, memory[first + r], static_cast<std::size_t>(partner[r]),
                                           static_cast<std::size_t>(particle[r]), inCell, dilationRate, load.force);
            if (load.active && publish) {
                world.contacts[first + r].force += load.force;
            }
        }
    };
    assembly.assemble(DampingSink<decltype(evaluatePairs), decltype(evaluate)>(evaluatePairs, evaluate, loads));
}

}  // namespace granular::md
