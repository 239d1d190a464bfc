#pragma once

#include "model/World.h"

namespace granular {

struct Settings;

/// The two-grain verification of the DEM note (REFERENCES.md: "Normal contact force in DEM"): grain 0
/// fixed at the origin (infinite mass) and grain 1 of the same size `pair.height` above it along y,
/// starting with `particles.velocity`. With `pair.driven` grain 1 has infinite mass too and keeps its
/// velocity whatever acts on it (the note's constant approach). Radius particles.radius_max, density
/// particles.density.
void buildPairWorld(World& world, const Settings& settings);

}  // namespace granular
