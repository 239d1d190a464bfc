#pragma once

#include "md/BodyLoads.h"
#include "md/CandidateList.h"
#include "md/LoadAssembly.h"
#include "md/VerletLanes.h"
#include "model/World.h"

#include <algorithm>
#include <functional>
#include <vector>

namespace granular {

struct World;

namespace md {

class ContactDeformation;
class LoadAssembly;

/// Half-step velocities of the bodies (the drift's), m/s and rad/s.
struct HalfStepVelocities {
    std::vector<Vec3> velocity;
    std::vector<Vec3> angularVelocity;
    double piston = 0.0;  ///< along the piston's normal
};

/// The contact forces at the end of a drift of dt, into `loads` (cleared first): for every
/// candidate the new geometry, the elastic normal force, the exact dashpot impulse of the step,
/// the opening/closing correction (an elastic force ~ delta^p that acts only during the part tau of
/// the step carries the impulse F tau / (p + 1), not the trapezoid's F dt / 2) and the tangential
/// spring, advanced by the slip of the contact point at the half-step velocities and capped by
/// Coulomb. Contact::force gets the elastic and tangential parts. The contact point lies midway between the
/// two surfaces; with a `deformation` (mcdem; null for plain soft grains) each surface reaches its bulge beyond
/// its sphere, and the overlap includes the bulges. The contacts are evaluated on the solver threads and their
/// loads gathered by `assembly` (indexed for the world's contacts), with the same sums for any thread count.
/// `publish` false leaves rigid grain pairs' entries in world.contacts as they were (geometry and force; for the MD
/// steps inside a solver step, whose contacts nobody looks at): the memory has all the method needs. Where the
/// assembly has several blocks, `loadsComplete(first, last)`, if set, is called for each block's grains [first, last)
/// on that block's thread as soon as their loads are summed (e.g. the kick, while the grains' loads are in that
/// thread's cache); with one block it is not called.
void evaluateStepForces(World& world, std::vector<ContactMemory>& memory, const HalfStepVelocities& half, double dt,
                        BodyLoads& loads, ContactDeformation* deformation, LoadAssembly& assembly, bool publish,
                        const std::function<void(std::size_t, std::size_t)>& loadsComplete = {});

/// The same loads at the present instant without a step (the start of a run or a changed state):
/// springs are kept, nothing opens or closes.
void evaluateCurrentForces(World& world, std::vector<ContactMemory>& memory, BodyLoads& loads,
                           ContactDeformation* deformation);

/// The normal dashpot forces at the current velocities into `loads.damping` (zero before) and added to
/// Contact::force (grain pairs only where `publish` is set, as in evaluateStepForces, whose step this must follow);
/// on the solver threads like evaluateStepForces.
void addDampingForces(World& world, const std::vector<ContactMemory>& memory, BodyLoads& loads, LoadAssembly& assembly,
                      bool publish);

/// A grain pair's dashpot force on body 1 (grain j; body 0 is grain i) at the current velocities: the law's damping
/// coefficient times d(delta)/dt along the step's normal (in a periodic cell the pair also closes in at lambda |l|,
/// the cell's dilation rate `dilationRate` times the centres' distance). False (and no force) for a contact without
/// overlap or damping.
[[gnu::always_inline]] inline bool pairDampingForce(const Particles& p, const ContactMemory& m, std::size_t i,
                                                    std::size_t j, bool inCell, double dilationRate, Vec3& force)
{
    if (m.overlap <= 0.0 || m.law.damping == 0.0) {
        return false;
    }
    double approach = -m.normal.dot(p.velocity[j] - p.velocity[i]);  // d(delta)/dt
    if (inCell) {
        // Velocities are relative to the cell's affine flow: the pair also closes in at lambda |l|.
        approach -= dilationRate * (p.radius[j] + p.radius[i] - m.overlap);
    }
    force = (m.law.dampingCoefficient(m.overlap) * approach) * m.normal;
    return true;
}

/// A wall, piston or drum contact's dashpot force on its grain at the current velocities (the piston moving at
/// `pistonVelocity` along its normal), added to Contact::force; false (and no force) without overlap or damping.
bool boundaryDampingForce(const World& world, Contact& c, const ContactMemory& m, double pistonVelocity, Vec3& force);

/// The grains kickAndAddDampingForces kicks at a time, ahead of their dashpots: eight times the Verlet lanes' width,
/// which spreads the lanes' setup over 64 grains while their velocities are still in the first-level cache (~12 kB of
/// what the kick reads and writes) when the dashpots read them.
inline constexpr std::size_t kKickedAhead = 8 * kVerletLanes;

/// The kick and addDampingForces at once, a run of kKickedAhead grains at a time, where the contacts are assembled as
/// one block of grains: first kickPiston(); kickGrains(j, end) kicks the run's grains [j, end) (j a multiple of
/// kKickedAhead, end kKickedAhead later or the last grain), and then the dashpots of the grain pairs whose body 1 is
/// in the run are added in ascending index (their body 0, a lower grain, has been kicked already; a dashpot reads only
/// velocities, which the kick of later grains does not touch); as soon as a grain has all its pairs' dashpots, those of
/// its wall, piston and drum contacts (the piston kicked first: its kick reads none of these dashpots), and then
/// completed(first, last) for such grains, looked for every kKickedAhead grains (e.g. the next step's drift of those
/// grains, whose loads are then final and in the cache: LoadAssembly::completingGrains). Every grain sums its dashpots
/// in ascending contact index, as addDampingForces does: the same loads, bit for bit, with one pass over the grains and
/// their pairs instead of two.
template <class KickGrains, class KickPiston, class Completed>
void kickAndAddDampingForces(World& world, const std::vector<ContactMemory>& memory, BodyLoads& loads,
                             const LoadAssembly& assembly, bool publish, const KickGrains& kickGrains,
                             const KickPiston& kickPiston, const Completed& completed)
{
    const std::size_t grains = world.particles.size();
    loads.resize(grains);
    loads.pistonDamping = 0.0;
    Vec3* damping = loads.damping.data();
    const Particles& p = world.particles;
    const bool inCell = world.cell.has_value();
    const double dilationRate = inCell ? world.cell->dilationRate() : 0.0;
    Contact* contacts = world.contacts.data();
    const ContactMemory* m = memory.data();
    kickPiston();
    const double pistonVelocity = world.piston ? world.piston->velocity : 0.0;
    assembly.completingGrains(
        kKickedAhead,
        [&](std::size_t j) {
            if (j % kKickedAhead == 0) {
                kickGrains(j, std::min(j + kKickedAhead, grains));
            }
            damping[j].setZero();
        },
        [&](std::size_t k, std::size_t i, std::size_t j) {
            Vec3 force;
            if (pairDampingForce(p, m[k], i, j, inCell, dilationRate, force)) {
                damping[j] += force;
                damping[i] -= force;
                if (publish) {
                    contacts[k].force += force;
                }
            }
        },
        [&](std::size_t k) {
            Contact& c = contacts[k];
            Vec3 force;
            if (boundaryDampingForce(world, c, m[k], pistonVelocity, force)) {
                damping[static_cast<std::size_t>(c.particle)] += force;
                if (c.kind == ContactKind::Piston) {
                    loads.pistonDamping -= force.dot(c.normal);
                }
            }
        },
        completed);
}

}  // namespace md
}  // namespace granular
