#pragma once

#include "model/Contact.h"

#include <vector>

namespace granular {

/// Velocity of body 1 relative to body 0 at the contact point (Unger & Kertesz 2003, eq. 3), for translational
/// velocities v and angular velocities w of the particles and the piston's speed along its normal;
/// walls and the drum move with the contact's surfaceVelocity.
inline Vec3 contactPointVelocity(const Contact& c, const std::vector<Vec3>& v, const std::vector<Vec3>& w,
                                 double pistonVelocity)
{
    const auto j = static_cast<std::size_t>(c.particle);
    const Vec3 v1 = v[j] + w[j].cross(c.lever1);
    switch (c.kind) {
    case ContactKind::Particle: {
        const auto i = static_cast<std::size_t>(c.partner);
        return v1 - (v[i] + w[i].cross(c.lever0));
    }
    case ContactKind::Piston:
        return v1 - pistonVelocity * c.normal;
    case ContactKind::Wall:
    case ContactKind::Drum:
        break;
    }
    return v1 - c.surfaceVelocity;
}

}  // namespace granular
