#pragma once

#include "md/BodyLoads.h"
#include "model/Contact.h"

#include <cstdint>
#include <vector>

namespace granular {

struct World;

namespace md {

/// What one contact adds to its two bodies, computed by a parallel loop over the contacts (one entry each).
struct ContactLoad {
    Vec3 force = Vec3::Zero();    ///< N, on body 1 (its reaction on body 0)
    Vec3 impulse = Vec3::Zero();  ///< N s, on body 1 (step loads only)
    Vec3 torque1 = Vec3::Zero();  ///< N m, on body 1: lever1 x F_t
    Vec3 torque0 = Vec3::Zero();  ///< N m, whose negative acts on body 0: lever0 x F_t
    double forceAlong = 0.0;      ///< N, force . normal (a piston contact's share of the piston's load)
    double impulseAlong = 0.0;    ///< N s, impulse . normal
    bool active = false;          ///< false: the contact adds nothing (open before and after)
};

/// Gathers the contacts' loads onto the bodies on the solver threads, bit for bit as one loop over the contacts
/// in index order would add them: every grain sums the loads of its own contacts in ascending contact index (its
/// incidence list), and the piston sums its contacts in that order too. So the loads, and every result after
/// them, are the same for any thread count, and the same as the sequential method's.
class LoadAssembly {
public:
    /// Indexes the world's contacts by grain; needed after every change of the contact list.
    void index(const World& world);
    /// Whether the index was made for a contact list of this size over this many grains.
    [[nodiscard]] bool indexes(const World& world) const;
    /// One entry per contact of the world, for the contact loop to fill.
    [[nodiscard]] std::vector<ContactLoad>& contactLoads(std::size_t contacts);

    /// Whether a contact loop of this length runs on several threads (and gathers), or adds each load at once.
    [[nodiscard]] static bool runsInParallel(std::size_t contacts);
    /// loads.force, .impulse and .torque (and the piston's force and impulse) from the contact loads.
    void gatherStepLoads(BodyLoads& loads) const;
    /// loads.damping (and the piston's) from the contact loads' forces.
    void gatherDamping(BodyLoads& loads) const;

private:
    std::vector<std::uint32_t> offsets_;  ///< grains + 1: where each grain's entries begin
    /// A grain's incidence entry: its contact's index times two, plus 1 where the grain is body 1.
    std::vector<std::uint64_t> incident_;  ///< grouped by grain, ascending contact index within a grain
    std::vector<std::uint32_t> piston_;    ///< contacts with the piston, ascending
    std::vector<ContactLoad> contactLoads_;
    std::size_t contacts_ = 0;
    std::size_t grains_ = 0;
};

}  // namespace md
}  // namespace granular
