#pragma once

#include "md/CandidateList.h"
#include "model/Contact.h"

#include <array>
#include <vector>

namespace granular {

struct World;
struct Settings;
class StateWriter;
class StateReader;

namespace md {

/// How far the grains reach beyond their spheres at each candidate: the bulges that the other contacts of
/// a grain cause (the multi-contact DEM, Brodu et al. 2015). The soft-particle method subtracts them from a
/// candidate's gap and puts the contact point midway between the two deformed surfaces.
class ContactDeformation {
public:
    ContactDeformation() = default;
    ContactDeformation(const ContactDeformation&) = delete;
    ContactDeformation& operator=(const ContactDeformation&) = delete;
    ContactDeformation(ContactDeformation&&) = delete;
    ContactDeformation& operator=(ContactDeformation&&) = delete;
    virtual ~ContactDeformation() = default;

    /// Takes the live settings (e.g. the geometric prefactor).
    virtual void configure(const Settings& settings) = 0;
    /// The bulges of every candidate from the candidates' current geometry (normals, gaps of the undeformed
    /// spheres) and the normal forces, overlaps and bulges of the last evaluation in `memory` (one-step lag).
    virtual void update(const World& world, const std::vector<ContactMemory>& memory) = 0;
    /// m, per candidate: how far body 0 and body 1 reach beyond their spheres towards each other (a rigid wall,
    /// the piston and the drum reach 0). Valid after update().
    [[nodiscard]] virtual const std::vector<std::array<double, 2>>& bulges() const = 0;
    /// m, at least the largest sum of the two bulges any pair could have now: candidate lists add it to their margin.
    [[nodiscard]] virtual double reach() const = 0;
    /// m, reach() as the next update() from `memory` will give it, before that update (and reach() returns it from
    /// now on): the bound depends on the
    /// loaded candidates' forces and contact points in `memory` and the radii, not on where the grains are now. A
    /// candidate list checked against it covers the bulges of the coming evaluation (a rebuild in between keeps every
    /// loaded candidate's memory; new candidates are not loaded).
    virtual double reachAhead(const World& world, const std::vector<ContactMemory>& memory) = 0;
    /// What the deformation carries between steps, for a checkpoint.
    virtual void saveState(StateWriter& out) const = 0;
    virtual void loadState(StateReader& in) = 0;
};

}  // namespace md
}  // namespace granular
