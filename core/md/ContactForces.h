#pragma once

#include "md/BodyLoads.h"
#include "md/CandidateList.h"

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
/// steps inside a solver step, whose contacts nobody looks at): the memory has all the method needs.
void evaluateStepForces(World& world, std::vector<ContactMemory>& memory, const HalfStepVelocities& half, double dt,
                        BodyLoads& loads, ContactDeformation* deformation, LoadAssembly& assembly, bool publish);

/// The same loads at the present instant without a step (the start of a run or a changed state):
/// springs are kept, nothing opens or closes.
void evaluateCurrentForces(World& world, std::vector<ContactMemory>& memory, BodyLoads& loads,
                           ContactDeformation* deformation);

/// The normal dashpot forces at the current velocities into `loads.damping` (zero before) and added to
/// Contact::force (grain pairs only where `publish` is set, as in evaluateStepForces, whose step this must follow);
/// on the solver threads like evaluateStepForces.
void addDampingForces(World& world, const std::vector<ContactMemory>& memory, BodyLoads& loads, LoadAssembly& assembly,
                      bool publish);

}  // namespace md
}  // namespace granular
