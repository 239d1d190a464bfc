#pragma once

#include "model/Contact.h"

namespace granular {

struct World;

/// Where a candidate's two bodies are relative to each other at the current positions.
struct Separation {
    Vec3 normal = Vec3::UnitX();  ///< unit, from body 0 to body 1
    double gap = 0.0;             ///< m, surface distance (negative: overlap)
    bool hasNormal = true;        ///< false when the centres coincide (grains) or a grain sits on the drum's axis
};

/// The gap and normal of a candidate of any kind: grain-grain (minimum image in a periodic cell,
/// Shaebani et al. 2009, eq. 21), grain-wall, grain-piston, grain-drum. The one place where gaps are computed.
[[nodiscard]] Separation separation(const Contact& c, const World& world);

/// Recomputes the geometry of a candidate at the current positions: normal (kept when undefined), gap,
/// lever arms, and the surface velocity of the drum; the masses and the force are left as they are.
void refreshGeometry(Contact& c, const World& world);

}  // namespace granular
