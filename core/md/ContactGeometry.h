#pragma once

#include "contact/Contact.h"

namespace granular {

struct World;

namespace md {

/// Recomputes the geometry of a candidate at the current positions, as the contact detection does
/// (normal from body 0 to body 1, gap, levers, surface velocity of a wall-like body); the masses
/// and the force are left as they are. Periodic worlds use the minimum image (seed 003 eq. 21).
void refreshGeometry(Contact& c, const World& world);

}  // namespace md
}  // namespace granular
