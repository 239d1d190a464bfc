#pragma once

#include "model/World.h"
#include "util/StateArchive.h"

namespace granular {

/// Appends the whole world (grains, boundaries, contacts with their forces, clock) to a saved state.
void saveWorld(StateWriter& out, const World& world);
/// The world saveWorld() wrote; throws StateError when the record does not hold one.
[[nodiscard]] World loadWorld(StateReader& in);

}  // namespace granular
