#pragma once

#include "model/Particles.h"

#include <array>
#include <cstdint>

namespace granular {

/// What a particle touches.
enum class ContactKind : std::uint8_t { Particle, Wall, Piston, Drum };

/// A contact candidate (Unger & Kertesz 2003, section 2.4): body 0 is `partner` (a particle, wall index, the piston or
/// the drum), body 1 is particle `particle`. The normal points from body 0 to body 1; the force acts on
/// body 1 and its reaction on body 0. Candidates include small positive gaps.
/// What a CD update of a grain pair reads lies in the first two cache lines (the record starts on one): the sweeps
/// visit the contacts in random order, so each line is a fresh memory access.
struct alignas(64) Contact {
    ContactKind kind = ContactKind::Particle;
    std::int32_t partner = 0;             ///< particle index (lower than `particle`) or wall index
    std::int32_t particle = 0;            ///< particle index
    Vec3 normal = Vec3::UnitX();          ///< unit, from body 0 to body 1
    Vec3 lever0 = Vec3::Zero();           ///< m, centre of body 0 to the contact point (particles only)
    Vec3 lever1 = Vec3::Zero();           ///< m, centre of body 1 to the contact point
    double normalMass = 0.0;              ///< kg, m_n of eq. (17)
    double tangentialMass = 0.0;          ///< kg, m_t of eq. (18)
    Vec3 force = Vec3::Zero();            ///< N, R acting on body 1
    Vec3 surfaceVelocity = Vec3::Zero();  ///< m/s of body 0 at the contact point (walls, drum)
    double gap = 0.0;                     ///< m, negative = overlap
    /// m, how far body 0 and body 1 reach beyond their spheres towards each other (mcdem's bulges; `gap` already
    /// includes them); 0 for rigid and plain soft grains.
    std::array<double, 2> bulge{0.0, 0.0};

    /// Ordering key: candidates are kept sorted by it, so forces carry over between steps by a merge.
    [[nodiscard]] std::uint64_t key() const
    {
        return (static_cast<std::uint64_t>(kind) << 62U) | (static_cast<std::uint64_t>(particle) << 31U) |
               static_cast<std::uint64_t>(partner);
    }
};

}  // namespace granular
